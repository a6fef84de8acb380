# coll benchmark: built with the library, run by hand (not by make check);
# coll_bench_aset times the active-set forms (the calls Open MPI's OSHMEM 4.1 also has)
noinst_PROGRAMS += test/performance/coll_bench test/performance/coll_bench_aset
test_performance_coll_bench_SOURCES = test/performance/coll_bench.c
test_performance_coll_bench_LDADD = $(TEST_LDADD)
test_performance_coll_bench_aset_SOURCES = test/performance/coll_bench.c
test_performance_coll_bench_aset_CPPFLAGS = $(AM_CPPFLAGS) -DCOLL_BENCH_ASET=1
test_performance_coll_bench_aset_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/performance/coll.mk scripts/bench-coll.sh scripts/bench-fabric.sh
# nbcoll_bench: non-blocking collectives against the blocking forms, with OSU's overlap (docs/nbc.md)
noinst_PROGRAMS += test/performance/nbcoll_bench
test_performance_nbcoll_bench_SOURCES = test/performance/nbcoll_bench.c
test_performance_nbcoll_bench_LDADD = $(TEST_LDADD)
# perf_handles: a context made and destroyed, an nbc request posted and waited (docs/performance.md)
noinst_PROGRAMS += test/performance/perf_handles
test_performance_perf_handles_SOURCES = test/performance/perf_handles.c
test_performance_perf_handles_LDADD = $(TEST_LDADD)
