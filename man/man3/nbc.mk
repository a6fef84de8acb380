# man pages of the non-blocking collectives (shmemx_*_nb, issue 27): one page per family,
# a .so page for each other untyped name of the family, and, at install time, a .so stub for
# each typed name (NBC_MAN_PAGES in man/local.mk, names from mpp/shmemx_nbc.m4)
dist_man3_MANS += man/man3/shmemx_req_wait.3 \
	man/man3/shmemx_team_sync_nb.3 \
	man/man3/shmemx_broadcast_nb.3 \
	man/man3/shmemx_collect_nb.3 \
	man/man3/shmemx_alltoall_nb.3 \
	man/man3/shmemx_sum_reduce_nb.3 \
	man/man3/shmemx_sum_inscan_nb.3 \
	man/man3/shmemx_alltoallmem_nb.3 \
	man/man3/shmemx_alltoalls_nb.3 \
	man/man3/shmemx_alltoallsmem_nb.3 \
	man/man3/shmemx_and_reduce_nb.3 \
	man/man3/shmemx_broadcastmem_nb.3 \
	man/man3/shmemx_collectmem_nb.3 \
	man/man3/shmemx_fcollect_nb.3 \
	man/man3/shmemx_fcollectmem_nb.3 \
	man/man3/shmemx_max_reduce_nb.3 \
	man/man3/shmemx_min_reduce_nb.3 \
	man/man3/shmemx_or_reduce_nb.3 \
	man/man3/shmemx_prod_reduce_nb.3 \
	man/man3/shmemx_req_test.3 \
	man/man3/shmemx_sum_exscan_nb.3 \
	man/man3/shmemx_xor_reduce_nb.3
