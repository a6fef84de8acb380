m4_dnl shmemx_nbc.m4: non-blocking collectives (issue 27); included by mpp/shmemx.h.m4.
