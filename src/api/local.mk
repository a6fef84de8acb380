libsma_core_la_SOURCES += src/api/setup.c src/api/mem.c src/api/rma_min.c \
	src/api/team.c src/api/ctx.c src/api/lock.c src/api/coll_untyped.c \
	src/api/coll_typed_pending.c
