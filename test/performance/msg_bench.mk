# msg_bench: two-sided messages (make perf); its MPI twin msg_bench_mpi.c is built by
# scripts/bench-msg.sh with mpicc when present, so no build depends on MPI.
PERF_PROGS += test/performance/msg_bench
test_performance_msg_bench_SOURCES = test/performance/msg_bench.c
test_performance_msg_bench_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/performance/msg_bench.mk test/performance/msg_bench_mpi.c scripts/bench-msg.sh
