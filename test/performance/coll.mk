# coll benchmark: built with the library, run by hand (not by make check)
noinst_PROGRAMS += test/performance/coll_bench
test_performance_coll_bench_SOURCES = test/performance/coll_bench.c
test_performance_coll_bench_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/performance/coll.mk
