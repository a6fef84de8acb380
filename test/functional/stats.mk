# SHMEM_STATS (docs/stats.md): the program with known counts and its checker
check_PROGRAMS += test/functional/stats
test_functional_stats_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/functional/stats_check.sh test/functional/stats.mk
