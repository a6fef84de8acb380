libsma_core_la_SOURCES += src/transport/ofi/ofi_internal.h src/transport/ofi/ofi_setup.c \
	src/transport/ofi/ofi_proto.c src/transport/ofi/ofi_rma.c src/transport/ofi/ofi_amo.c \
	src/transport/ofi/ofi_progress.c src/transport/ofi/ofi_mrcheck.c \
	src/transport/ofi/ofi_names.c src/transport/ofi/ofi_am.c
