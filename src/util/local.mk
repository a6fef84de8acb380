libsma_core_la_SOURCES += src/util/status.c src/util/state.c src/util/log.c src/util/env.c \
	src/util/stale.c
libsma_core_la_SOURCES += src/util/handle.c
libsma_core_la_SOURCES += src/util/stats.c
libsma_core_la_SOURCES += src/util/fabric.c
