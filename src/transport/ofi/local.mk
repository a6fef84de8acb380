libsma_core_la_SOURCES += src/transport/ofi/ofi.c
