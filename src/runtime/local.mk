libsma_core_la_SOURCES += src/runtime/rt_pmix.c
