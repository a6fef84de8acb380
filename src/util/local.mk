libsma_core_la_SOURCES += src/util/status.c src/util/log.c src/util/env.c src/util/init.c \
	src/util/stale.c

bin_PROGRAMS += ofishmem_info
ofishmem_info_SOURCES = src/util/info_main.c src/util/env.c
ofishmem_info_LDADD = $(ofi_LIBS) $(hwloc_LIBS)
ofishmem_info_CPPFLAGS = $(AM_CPPFLAGS)
libsma_core_la_SOURCES += src/util/handle.c
