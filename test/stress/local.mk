check_PROGRAMS += test/stress/stress
test_stress_stress_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/stress/nbc_mix
test_stress_nbc_mix_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/stress/local.mk
EXTRA_DIST += test/load/run-load.sh test/load/startup-loop.sh test/load/send_eagain.c
check_PROGRAMS += test/load/load_coll
test_load_load_coll_LDADD = $(TEST_LDADD)
