# The ofishmem_info program: a user of util (the parameter table), not part of the library.
bin_PROGRAMS += ofishmem_info
ofishmem_info_SOURCES = src/tools/info_main.c src/util/env.c src/util/fabric.c
ofishmem_info_LDADD = $(hwloc_LIBS) $(DL_LIBS)
ofishmem_info_CPPFLAGS = $(AM_CPPFLAGS)
ofishmem_info_LDFLAGS =
