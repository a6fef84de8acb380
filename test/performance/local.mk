# Performance suite: benchmarks, built by `make perf` (EXTRA_PROGRAMS), never run by
# make check.  Only the public API is used, so scripts/bench-compare.sh also builds
# these sources with another implementation's oshcc.
PERF_PROGS = test/performance/perf_machine test/performance/perf_cma test/performance/perf_lat \
	test/performance/perf_bw test/performance/perf_rate test/performance/perf_barrier test/performance/perf_pingpong \
	test/performance/ofi_raw test/performance/perf_first test/performance/ctx_bench
EXTRA_PROGRAMS = $(PERF_PROGS)
CLEANFILES += $(PERF_PROGS)
test_performance_perf_machine_SOURCES = test/performance/perf_machine.c
test_performance_perf_machine_LDADD = -lpthread
test_performance_perf_lat_SOURCES = test/performance/perf_lat.c
test_performance_perf_lat_LDADD = $(TEST_LDADD)
test_performance_perf_bw_SOURCES = test/performance/perf_bw.c
test_performance_perf_bw_LDADD = $(TEST_LDADD)
test_performance_perf_rate_SOURCES = test/performance/perf_rate.c
test_performance_perf_rate_LDADD = $(TEST_LDADD)
test_performance_perf_barrier_SOURCES = test/performance/perf_barrier.c
test_performance_perf_barrier_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/performance/bench.h test/performance/local.mk

perf: $(PERF_PROGS)
.PHONY: perf
test_performance_perf_cma_SOURCES = test/performance/perf_cma.c
EXTRA_DIST += scripts/bench-compare.sh scripts/bench-startup.sh scripts/ofi-compare.sh scripts/check-format.sh .clang-format
# The raw-libfabric yardstick of the OFI route (libfabric + PMIx, no libsma).
test_performance_ofi_raw_SOURCES = test/performance/ofi_raw.c
test_performance_ofi_raw_LDADD = $(ofi_LIBS) $(pmix_LIBS)
test_performance_perf_pingpong_SOURCES = test/performance/perf_pingpong.c
test_performance_perf_pingpong_LDADD = $(TEST_LDADD)
test_performance_perf_first_SOURCES = test/performance/perf_first.c
test_performance_perf_first_LDADD = $(TEST_LDADD)
test_performance_ctx_bench_SOURCES = test/performance/ctx_bench.c
test_performance_ctx_bench_LDADD = $(TEST_LDADD)
