# Conformance tests: env (issue 25).  Programs here are added to check_PROGRAMS.
EXTRA_DIST += test/conformance/env.mk
check_PROGRAMS += test/conformance/env_prog
test_conformance_env_prog_LDADD = $(TEST_LDADD)
EXTRA_DIST += test/conformance/env_unknown.sh
EXTRA_DIST += test/conformance/env_info.sh
