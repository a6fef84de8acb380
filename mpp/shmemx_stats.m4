m4_dnl shmemx_stats.m4: per-PE statistics (issue 28); included by mpp/shmemx.h.m4.
