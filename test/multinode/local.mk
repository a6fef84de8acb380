check_PROGRAMS += test/multinode/mn_check
test_multinode_mn_check_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/multinode/sim-nodes.sh test/multinode/run-2nodes.sh test/multinode/local.mk
