FUNC_TESTS = test/functional/hello test/functional/rma_basic test/functional/amo_basic \
	test/functional/xatomic test/functional/pipeline \
	test/functional/heap_limits test/functional/v16_api \
	test/functional/ctx_team_pe test/functional/wait_end test/functional/no_finalize \
	test/functional/ctx_drive test/functional/cache_depr test/functional/heap_align \
	test/functional/ctx_many test/functional/ctx_threads test/functional/any_fair \
	test/functional/ctx_deliver
check_PROGRAMS += $(FUNC_TESTS)
test_functional_hello_LDADD = $(TEST_LDADD)
test_functional_rma_basic_LDADD = $(TEST_LDADD)
test_functional_amo_basic_LDADD = $(TEST_LDADD)
test_functional_heap_limits_LDADD = $(TEST_LDADD)
test_functional_heap_align_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/functional/tests.h test/functional/test_check.h test/functional/check_hello.sh test/functional/local.mk \
	test/functional/check_hybrid.sh test/functional/hybrid_mpi.c test/functional/check_cffi.sh \
	test/functional/cffi_smoke.py
clean-local-cffi:
	rm -rf test/functional/cffi_build.* test/functional/hybrid_run.*
clean_local_hooks += clean-local-cffi
test_functional_xatomic_LDADD = $(TEST_LDADD)
test_functional_pipeline_LDADD = $(TEST_LDADD)
test_functional_v16_api_LDADD = $(TEST_LDADD)
test_functional_ctx_team_pe_LDADD = $(TEST_LDADD)
test_functional_ctx_drive_LDADD = $(TEST_LDADD)
test_functional_ctx_many_LDADD = $(TEST_LDADD)
test_functional_ctx_threads_LDADD = $(TEST_LDADD) -lpthread
test_functional_cache_depr_LDADD = $(TEST_LDADD)
test_functional_no_finalize_LDADD = $(TEST_LDADD)
test_functional_wait_end_LDADD = $(UNIT_LDADD)
test_functional_any_fair_LDADD = $(TEST_LDADD)
test_functional_ctx_deliver_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/functional/nbc_coll
test_functional_nbc_coll_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/functional/nbc_edge
test_functional_nbc_edge_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/functional/nbc_eager
test_functional_nbc_eager_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/functional/nbc_direct
test_functional_nbc_direct_LDADD = $(TEST_LDADD)
# every typed shmemx_*_nb against its blocking form, generated from the type table
check_PROGRAMS += test/functional/nbc_types
nodist_test_functional_nbc_types_SOURCES = test/functional/nbc_types.c
test_functional_nbc_types_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test/functional
test_functional_nbc_types_CFLAGS = $(AM_CFLAGS) -std=c11
test_functional_nbc_types_LDADD = $(TEST_LDADD)
CLEANFILES += test/functional/nbc_types.c
EXTRA_DIST += test/functional/nbc_types.c.m4
test/functional/nbc_types.c: $(srcdir)/test/functional/nbc_types.c.m4 $(MPP_M4)
	@$(MKDIR_P) test/functional
	$(AM_V_GEN)$(MPP_M4_RUN) $(srcdir)/test/functional/nbc_types.c.m4 > $@.tmp && mv $@.tmp $@
# mismatched collectives under SHMEM_DEBUG=1 (test/lists/coll_check.list)
check_PROGRAMS += test/functional/coll_mismatch
test_functional_coll_mismatch_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/functional/fini_mismatch
test_functional_fini_mismatch_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/functional/fin_watch
test_functional_fin_watch_LDADD = $(TEST_LDADD)
