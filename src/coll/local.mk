libsma_core_la_SOURCES += src/coll/coll_barrier.c
