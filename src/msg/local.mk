# The message layer: two-sided tagged messages on the comm layer (docs/messages.md).
libsma_core_la_SOURCES += src/msg/msg_engine.c src/msg/msg_send.c
noinst_HEADERS += include/msg.h src/msg/msg_internal.h
