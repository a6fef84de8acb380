libsma_core_la_SOURCES += src/heap/heap_seg.c src/heap/heap_alloc.c
