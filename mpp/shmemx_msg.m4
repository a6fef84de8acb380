m4_dnl shmemx_msg.m4: two-sided messages (issue 28); included by mpp/shmemx.h.m4.
