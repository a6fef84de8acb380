m4_dnl shmemx_stats.m4: per-PE statistics (issue 28); included by mpp/shmemx.h.m4.
/* per-PE statistics (SHMEM_STATS=1; ofishmem_stats(7)) */
MX_DECL(`void', `stats_dump', `void')m4_dnl
MX_DECL(`void', `stats_reset', `void')m4_dnl
