# Conformance tests: handles (issue 25).  Programs here are added to check_PROGRAMS.
EXTRA_DIST += test/conformance/handles.mk
check_PROGRAMS += test/conformance/handles_prog
test_conformance_handles_prog_LDADD = $(TEST_LDADD)
