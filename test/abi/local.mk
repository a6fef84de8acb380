# API tests: ABI/header checks (test/abi) and typed functional tests generated from the
# type table (test/functional/api_*.c*).  Lists: test/lists/api.list.
API_TESTS = test/abi/c11_generics test/abi/prof_interpose test/functional/api_types \
	test/functional/api_bad_input test/functional/api_coll_types
check_PROGRAMS += $(API_TESTS)
test_abi_c11_generics_SOURCES = test/abi/c11_generics.c
test_abi_c11_generics_CFLAGS = $(AM_CFLAGS) -std=c11
test_abi_c11_generics_LDADD = $(TEST_LDADD)
test_abi_prof_interpose_SOURCES = test/abi/prof_interpose.c
test_abi_prof_interpose_LDADD = $(TEST_LDADD)
nodist_test_functional_api_types_SOURCES = test/functional/api_types.c
test_functional_api_types_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test/functional
test_functional_api_types_LDADD = $(TEST_LDADD)
test_functional_api_bad_input_SOURCES = test/functional/api_bad_input.c
test_functional_api_bad_input_LDADD = $(TEST_LDADD)
nodist_test_functional_api_coll_types_SOURCES = test/functional/api_coll_types.c
test_functional_api_coll_types_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test/functional
test_functional_api_coll_types_CFLAGS = $(AM_CFLAGS) -std=c11
test_functional_api_coll_types_LDADD = $(TEST_LDADD)
CLEANFILES += test/functional/api_types.c test/functional/api_coll_types.c
EXTRA_DIST += test/abi/abi_names.sh test/abi/abi_symbols.sh test/abi/check_cxx.sh \
	test/abi/cxx_overloads.cc test/abi/check_bad_input.sh test/abi/check_man.sh test/functional/api_types.c.m4 \
	test/functional/api_coll_types.c.m4 test/abi/local.mk

test/functional/api_types.c: $(srcdir)/test/functional/api_types.c.m4 $(MPP_M4)
	@$(MKDIR_P) test/functional
	$(AM_V_GEN)$(MPP_M4_RUN) $(srcdir)/test/functional/api_types.c.m4 > $@.tmp && mv $@.tmp $@

# benchmark, not a test (see its header)
noinst_PROGRAMS += test/abi/bench_putmem
test_abi_bench_putmem_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/abi/bench_putmem.c test/abi/check_wrappers.sh test/abi/check_man_generics.sh
EXTRA_DIST += test/abi/spec/openshmem-1.5-c-routines.txt test/abi/spec/openshmem-1.6-c-routines.txt \
	test/abi/spec/openshmem-1.5-c11-generics.txt
test/functional/api_coll_types.c: $(srcdir)/test/functional/api_coll_types.c.m4 $(MPP_M4)
	@$(MKDIR_P) test/functional
	$(AM_V_GEN)$(MPP_M4_RUN) $(srcdir)/test/functional/api_coll_types.c.m4 > $@.tmp && mv $@.tmp $@
