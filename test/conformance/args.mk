# Conformance tests: args (issue 25).  Programs here are added to check_PROGRAMS.
EXTRA_DIST += test/conformance/args.mk
