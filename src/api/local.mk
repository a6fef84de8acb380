libsma_core_la_SOURCES += src/api/setup.c src/api/mem.c src/api/rma_min.c
