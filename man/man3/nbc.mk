# man pages of the non-blocking collectives (shmemx_*_nb, issue 27)
dist_man3_MANS += man/man3/shmemx_req_wait.3 \
	man/man3/shmemx_team_sync_nb.3 \
	man/man3/shmemx_broadcast_nb.3 \
	man/man3/shmemx_collect_nb.3 \
	man/man3/shmemx_alltoall_nb.3 \
	man/man3/shmemx_sum_reduce_nb.3 \
	man/man3/shmemx_sum_inscan_nb.3
