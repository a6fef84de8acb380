libsma_core_la_SOURCES += src/comm/comm.c src/comm/comm_wait.c src/comm/comm_ctx_pool.c
libsma_core_la_SOURCES += src/comm/comm_stats.c
