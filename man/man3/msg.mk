# man pages of the two-sided messages (shmemx_send family; docs/messages.md)
dist_man3_MANS += man/man3/shmemx_send.3 man/man3/shmemx_recv.3 man/man3/shmemx_isend.3 \
	man/man3/shmemx_irecv.3 man/man3/shmemx_msg_wait.3 man/man3/shmemx_msg_test.3 \
	man/man3/shmemx_probe.3 man/man3/shmemx_iprobe.3
EXTRA_DIST += man/man3/msg.mk
