# man pages of teams, contexts, collectives and locks (coll)
dist_man3_MANS += man/man3/shmem_alltoall.3 \
	man/man3/shmem_alltoall32.3 \
	man/man3/shmem_alltoall64.3 \
	man/man3/shmem_alltoallmem.3 \
	man/man3/shmem_alltoalls.3 \
	man/man3/shmem_alltoalls32.3 \
	man/man3/shmem_alltoalls64.3 \
	man/man3/shmem_alltoallsmem.3 \
	man/man3/shmem_and_reduce.3 \
	man/man3/shmem_barrier.3 \
	man/man3/shmem_barrier_all.3 \
	man/man3/shmem_broadcast.3 \
	man/man3/shmem_broadcast32.3 \
	man/man3/shmem_broadcast64.3 \
	man/man3/shmem_broadcastmem.3 \
	man/man3/shmem_clear_lock.3 \
	man/man3/shmem_collect.3 \
	man/man3/shmem_collect32.3 \
	man/man3/shmem_collect64.3 \
	man/man3/shmem_collectmem.3 \
	man/man3/shmem_ctx_create.3 \
	man/man3/shmem_ctx_destroy.3 \
	man/man3/shmem_ctx_get_team.3 \
	man/man3/shmem_fcollect.3 \
	man/man3/shmem_fcollect32.3 \
	man/man3/shmem_fcollect64.3 \
	man/man3/shmem_fcollectmem.3 \
	man/man3/shmem_max_reduce.3 \
	man/man3/shmem_min_reduce.3 \
	man/man3/shmem_or_reduce.3 \
	man/man3/shmem_prod_reduce.3 \
	man/man3/shmem_set_lock.3 \
	man/man3/shmem_sum_reduce.3 \
	man/man3/shmem_sync.3 \
	man/man3/shmem_sync_all.3 \
	man/man3/shmem_team_create_ctx.3 \
	man/man3/shmem_team_destroy.3 \
	man/man3/shmem_team_get_config.3 \
	man/man3/shmem_team_my_pe.3 \
	man/man3/shmem_team_n_pes.3 \
	man/man3/shmem_team_split_2d.3 \
	man/man3/shmem_team_split_strided.3 \
	man/man3/shmem_team_sync.3 \
	man/man3/shmem_team_translate_pe.3 \
	man/man3/shmem_test_lock.3 \
	man/man3/shmem_xor_reduce.3
EXTRA_DIST += man/man3/coll.mk
