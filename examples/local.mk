# examples: small kernels built with the library (make check builds them; they are run by
# hand, figures in docs/nbc.md)
check_PROGRAMS += examples/nbc_transpose
examples_nbc_transpose_LDADD = $(TEST_LDADD)
