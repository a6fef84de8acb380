libsma_core_la_SOURCES += src/transport/shm/shm.c
