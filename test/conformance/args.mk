# Conformance tests: args (issue 25).  Programs here are added to check_PROGRAMS.
EXTRA_DIST += test/conformance/args.mk
check_PROGRAMS += test/conformance/args_zero
test_conformance_args_zero_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/conformance/args_bad
test_conformance_args_bad_LDADD = $(TEST_LDADD)
check_PROGRAMS += test/conformance/edges
test_conformance_edges_LDADD = $(TEST_LDADD)
