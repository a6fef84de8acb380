# msg: two-sided messages (test/lists/msg.list)
check_PROGRAMS += test/functional/msg_basic test/functional/msg_bad test/functional/msg_edge
test_functional_msg_basic_LDADD = $(TEST_LDADD)
test_functional_msg_bad_LDADD = $(TEST_LDADD)
test_functional_msg_edge_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/functional/msg_local.mk test/functional/msg_test.h
