noinst_HEADERS += include/ofs.h include/ofs_env_defs.h include/ofs_check.h include/ofs_api.h \
	include/rt.h include/heap.h include/comm.h include/comm_types.h include/transport.h \
	include/coll.h
noinst_HEADERS += include/ofs_handle.h include/ofs_backoff.h
noinst_HEADERS += include/ofs_stats.h
noinst_HEADERS += include/ofs_fabric.h
