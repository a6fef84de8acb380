libsma_core_la_SOURCES += src/coll/coll_team.c src/coll/coll_sync.c src/coll/coll_data.c \
	src/coll/coll_reduce.c src/coll/coll_aset.c src/coll/coll_lock.c src/coll/coll_ops.c \
	src/coll/coll_scan.c src/coll/coll_bring.c src/coll/coll_hier.c \
	src/coll/nbc_engine.c src/coll/nbc_build.c src/coll/nbc_thread.c \
	src/coll/nbc_shm.c
noinst_HEADERS += src/coll/coll_internal.h src/coll/nbc.h
libsma_core_la_SOURCES += src/coll/coll_check.c src/coll/coll_fin.c
