# Conformance tests: failures (issue 25).  Programs here are added to check_PROGRAMS.
EXTRA_DIST += test/conformance/failures.mk
EXTRA_DIST += test/conformance/stale_owner.sh
