m4_divert(-1)
# ofishmem: the routines without a type, implemented by hand in src/api/*.c (and by
# the teams/collectives branch), declared from here so that shmem.h and pshmem.h cannot
# disagree (m4 -P).  Grouped for the man pages.
m4_define(`MU_SETUP', `m4_dnl
MD_DECL(`void', `init', `void')m4_dnl
MD_DECL(`int', `init_thread', `int requested, int *provided')m4_dnl
MD_DECL(`void', `query_thread', `int *provided')m4_dnl
MD_DECL(`void', `finalize', `void')m4_dnl
MD_DECL(`void', `global_exit', `int status')m4_dnl
MD_DECL(`int', `my_pe', `void')m4_dnl
MD_DECL(`int', `n_pes', `void')m4_dnl
MD_DECL(`int', `pe_accessible', `int pe')m4_dnl
MD_DECL(`int', `addr_accessible', `const void *addr, int pe')m4_dnl
MD_DECL(`void *', `ptr', `const void *dest, int pe')m4_dnl
MD_DECL(`void', `info_get_version', `int *major, int *minor')m4_dnl
MD_DECL(`void', `info_get_name', `char *name')m4_dnl
MD_DECL(`void', `pcontrol', `const int level, ...')m4_dnl
')
m4_define(`MU_MEM', `m4_dnl
MD_DECL(`void *', `malloc', `size_t size')m4_dnl
MD_DECL(`void *', `calloc', `size_t count, size_t size')m4_dnl
MD_DECL(`void *', `align', `size_t alignment, size_t size')m4_dnl
MD_DECL(`void *', `realloc', `void *ptr, size_t size')m4_dnl
MD_DECL(`void', `free', `void *ptr')m4_dnl
MD_DECL(`void *', `malloc_with_hints', `size_t size, long hints')m4_dnl
')
m4_define(`MU_BARRIER', `m4_dnl
MD_DECL(`void', `barrier_all', `void')m4_dnl
MD_DECL(`void', `sync_all', `void')m4_dnl
')
m4_define(`MU_ORDER', `m4_dnl
MD_DECL(`void', `quiet', `void')m4_dnl
MD_DECL(`void', `fence', `void')m4_dnl
MD_DECL(`void', `ctx_quiet', `shmem_ctx_t ctx')m4_dnl
MD_DECL(`void', `ctx_fence', `shmem_ctx_t ctx')m4_dnl
')
m4_define(`MU_TEAMS', `m4_dnl
MD_DECL(`int', `ctx_create', `long options, shmem_ctx_t *ctx')m4_dnl
MD_DECL(`void', `ctx_destroy', `shmem_ctx_t ctx')m4_dnl
MD_DECL(`int', `ctx_get_team', `shmem_ctx_t ctx, shmem_team_t *team')m4_dnl
MD_DECL(`int', `team_my_pe', `shmem_team_t team')m4_dnl
MD_DECL(`int', `team_n_pes', `shmem_team_t team')m4_dnl
MD_DECL(`int', `team_get_config', `shmem_team_t team, long config_mask, shmem_team_config_t *config')m4_dnl
MD_DECL(`int', `team_translate_pe', `shmem_team_t src_team, int src_pe, shmem_team_t dest_team')m4_dnl
MD_DECL(`int', `team_split_strided', `shmem_team_t parent_team, int start, int stride, int size, const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team')m4_dnl
MD_DECL(`int', `team_split_2d', `shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config, long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config, long yaxis_mask, shmem_team_t *yaxis_team')m4_dnl
MD_DECL(`void', `team_destroy', `shmem_team_t team')m4_dnl
MD_DECL(`int', `team_create_ctx', `shmem_team_t team, long options, shmem_ctx_t *ctx')m4_dnl
MD_DECL(`int', `team_sync', `shmem_team_t team')m4_dnl
MD_DECL(`void', `barrier', `int PE_start, int logPE_stride, int PE_size, long *pSync')m4_dnl
MD_DECL(`void', `sync', `int PE_start, int logPE_stride, int PE_size, long *pSync')m4_dnl
MD_DECL(`void', `set_lock', `long *lock')m4_dnl
MD_DECL(`void', `clear_lock', `long *lock')m4_dnl
MD_DECL(`int', `test_lock', `long *lock')m4_dnl
MD_DECL(`int', `broadcastmem', `shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root')m4_dnl
MD_DECL(`int', `collectmem', `shmem_team_t team, void *dest, const void *source, size_t nelems')m4_dnl
MD_DECL(`int', `fcollectmem', `shmem_team_t team, void *dest, const void *source, size_t nelems')m4_dnl
MD_DECL(`int', `alltoallmem', `shmem_team_t team, void *dest, const void *source, size_t nelems')m4_dnl
MD_DECL(`int', `alltoallsmem', `shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems')m4_dnl
')
m4_define(`MU_SIGNAL', `m4_dnl
MD_DECL(`uint64_t', `signal_fetch', `const uint64_t *sig_addr')m4_dnl
MD_DECL(`uint64_t', `signal_wait_until', `uint64_t *sig_addr, int cmp, uint64_t cmp_value')m4_dnl
')
m4_define(`MU_WAITDEPR', `m4_dnl
MD_DECL(`void', `wait', `long *ivar, long cmp_value')m4_dnl
MD_DECL(`void', `wait_until', `long *ivar, int cmp, long cmp_value')m4_dnl
')
m4_define(`MU_DEPR', `m4_dnl
MD_DECLR(`void', `start_pes', `int npes')m4_dnl
MD_DECLR(`int', `_my_pe', `void')m4_dnl
MD_DECLR(`int', `_num_pes', `void')m4_dnl
MD_DECLR(`void *', `shmalloc', `size_t size')m4_dnl
MD_DECLR(`void', `shfree', `void *ptr')m4_dnl
MD_DECLR(`void *', `shrealloc', `void *ptr, size_t size')m4_dnl
MD_DECLR(`void *', `shmemalign', `size_t alignment, size_t size')m4_dnl
')
# cache management: deprecated since 1.3, still required (1.5/1.6 Annex: "Current")
m4_define(`MU_CACHE', `m4_dnl
MD_DECL(`void', `clear_cache_inv', `void')m4_dnl
MD_DECL(`void', `set_cache_inv', `void')m4_dnl
MD_DECL(`void', `clear_cache_line_inv', `void *dest')m4_dnl
MD_DECL(`void', `set_cache_line_inv', `void *dest')m4_dnl
MD_DECL(`void', `udcflush', `void')m4_dnl
MD_DECL(`void', `udcflush_line', `void *dest')m4_dnl
')
# OpenSHMEM 1.6 routines that cost nothing here
m4_define(`MU_V16', `m4_dnl
MD_DECL(`void', `signal_add', `uint64_t *sig_addr, uint64_t signal, int pe')m4_dnl
MD_DECL(`void', `ctx_signal_add', `shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe')m4_dnl
MD_DECL(`void', `signal_set', `uint64_t *sig_addr, uint64_t signal, int pe')m4_dnl
MD_DECL(`void', `ctx_signal_set', `shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe')m4_dnl
MD_DECL(`int', `query_initialized', `int *initialized')m4_dnl
MD_DECL(`void', `pe_quiet', `const int *target_pes, size_t npes')m4_dnl
MD_DECL(`void', `ctx_pe_quiet', `shmem_ctx_t ctx, const int *target_pes, size_t npes')m4_dnl
MD_DECL(`void *', `team_ptr', `shmem_team_t team, const void *dest, int pe')m4_dnl
MD_DECL(`void', `ctx_session_start', `shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config, long config_mask')m4_dnl
MD_DECL(`void', `ctx_session_stop', `shmem_ctx_t ctx')m4_dnl
')
m4_define(`MF_UNTYPED', `MU_SETUP`'MU_MEM`'MU_BARRIER`'MU_ORDER`'MU_TEAMS`'MU_SIGNAL`'MU_WAITDEPR`'MU_DEPR`'MU_CACHE`'MU_V16`'')
m4_divert(0)m4_dnl
