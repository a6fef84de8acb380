check_PROGRAMS += test/stress/stress
test_stress_stress_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/stress/local.mk
EXTRA_DIST += test/load/run-load.sh
