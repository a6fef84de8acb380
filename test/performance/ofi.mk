# OFI route benchmark: built by `make check` (or `make test/performance/ofi_bench`),
# never run by it.  See man ofishmem_ofi(7).
check_PROGRAMS += test/performance/ofi_bench
test_performance_ofi_bench_LDADD = $(UNIT_LDADD)
EXTRA_DIST += test/performance/ofi.mk
