libsma_core_la_SOURCES += src/transport/ofi/ofi_internal.h src/transport/ofi/ofi_ctx.h \
	src/transport/ofi/ofi_setup.c src/transport/ofi/ofi_info.c src/transport/ofi/ofi_limits.c \
	src/transport/ofi/ofi_print.c src/transport/ofi/ofi_mr.c src/transport/ofi/ofi_ctx.c \
	src/transport/ofi/ofi_ctx_open.c src/transport/ofi/ofi_proto.c src/transport/ofi/ofi_rma.c \
	src/transport/ofi/ofi_amo.c src/transport/ofi/ofi_signal.h src/transport/ofi/ofi_signal.c \
	src/transport/ofi/ofi_signal_rx.c src/transport/ofi/ofi_progress.c \
	src/transport/ofi/ofi_names.c
# compiled for libsma itself, not its convenience library (whose objects are PIC in
# libsma.a too): its fopen must exist in the shared library only (#ifdef PIC)
libsma_la_SOURCES += src/transport/ofi/ofi_kallsyms.c
