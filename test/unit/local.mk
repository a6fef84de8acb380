check_PROGRAMS += test/unit/test_env test/unit/test_alloc
test_unit_test_env_SOURCES = test/unit/test_env.c
test_unit_test_env_LDADD = $(UNIT_LDADD)
test_unit_test_alloc_SOURCES = test/unit/test_alloc.c
test_unit_test_alloc_LDADD = $(UNIT_LDADD)
EXTRA_DIST += test/unit/local.mk
