# man pages of the statistics (SHMEM_STATS, shmemx_stats_dump)
dist_man3_MANS += man/man3/shmemx_stats_dump.3 man/man3/shmemx_stats_reset.3
dist_man7_MANS += man/man7/ofishmem_stats.7
EXTRA_DIST += man/man3/stats.mk
