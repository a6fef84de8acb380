# OFI transport tests (test/lists/ofi.list) and benchmark.  The tests call the comm
# layer directly, so they link the static core.  The benchmark is built by
# `make check` (or `make test/performance/ofi_bench`) and never run by it.
OFI_FUNC_TESTS = test/functional/ofi_rma test/functional/ofi_amo \
	test/functional/ofi_progress test/functional/ofi_threads test/functional/ofi_mr \
	test/functional/ofi_signal
check_PROGRAMS += $(OFI_FUNC_TESTS) test/performance/ofi_bench
test_functional_ofi_rma_LDADD = $(UNIT_LDADD)
test_functional_ofi_amo_LDADD = $(UNIT_LDADD)
test_functional_ofi_progress_LDADD = $(UNIT_LDADD)
test_functional_ofi_threads_LDADD = $(UNIT_LDADD)
test_functional_ofi_mr_LDADD = $(UNIT_LDADD)
test_functional_ofi_signal_LDADD = $(UNIT_LDADD)
test_performance_ofi_bench_LDADD = $(UNIT_LDADD)
EXTRA_DIST += test/ofi.mk test/functional/ofi_test.h test/functional/check_ofi_bad_provider.sh \
	test/functional/check_ofi_mr_mode.sh test/functional/check_ofi_rxd_fetch.sh \
	test/functional/check_ofi_rxm_env.sh test/functional/check_ofi_am_ep.sh \
	test/functional/ofi_info.sh test/functional/check_quiet_fini.sh
# Start-up with every PE on the fabric (test/lists/startup.list).
check_PROGRAMS += test/functional/startup_ofi
test_functional_startup_ofi_LDADD = $(TEST_LDADD)
# libfabric loaded only where the OFI route is used (test/lists/startup.list)
check_PROGRAMS += test/functional/fabric_loaded
test_functional_fabric_loaded_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/functional/check_fabric_unlinked.sh
