/* ofishmem: profiling interface (bootstrap subset; replaced by the m4-generated header). */
#ifndef PSHMEM_H
#define PSHMEM_H
#include <shmem.h>
#ifdef __cplusplus
extern "C" {
#endif
void pshmem_init(void);
int pshmem_init_thread(int requested, int *provided);
void pshmem_query_thread(int *provided);
void pshmem_finalize(void);
void pshmem_global_exit(int status);
int pshmem_my_pe(void);
int pshmem_n_pes(void);
int pshmem_pe_accessible(int pe);
int pshmem_addr_accessible(const void *addr, int pe);
void *pshmem_ptr(const void *dest, int pe);
void pshmem_info_get_version(int *major, int *minor);
void pshmem_info_get_name(char *name);
void pshmem_barrier_all(void);
void pshmem_sync_all(void);
void pshmem_quiet(void);
void pshmem_fence(void);
void *pshmem_malloc(size_t size);
void *pshmem_calloc(size_t count, size_t size);
void *pshmem_align(size_t alignment, size_t size);
void *pshmem_realloc(void *ptr, size_t size);
void pshmem_free(void *ptr);
void *pshmem_malloc_with_hints(size_t size, long hints);
void pstart_pes(int npes);
int p_my_pe(void);
int p_num_pes(void);
void *pshmalloc(size_t size);
void pshfree(void *ptr);
void *pshrealloc(void *ptr, size_t size);
void *pshmemalign(size_t alignment, size_t size);
void pshmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void pshmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void pshmem_int_put(int *dest, const int *source, size_t nelems, int pe);
void pshmem_int_get(int *dest, const int *source, size_t nelems, int pe);
void pshmem_int_p(int *dest, int value, int pe);
int pshmem_int_g(const int *source, int pe);
long pshmem_long_atomic_fetch_add(long *dest, long value, int pe);
void pshmem_long_atomic_add(long *dest, long value, int pe);
/* teams, contexts, collectives, locks (coll branch) */
int pshmem_team_my_pe(shmem_team_t team);
int pshmem_team_n_pes(shmem_team_t team);
int pshmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int pshmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int pshmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int pshmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void pshmem_team_destroy(shmem_team_t team);
int pshmem_team_sync(shmem_team_t team);
int pshmem_ctx_create(long options, shmem_ctx_t *ctx);
int pshmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void pshmem_ctx_destroy(shmem_ctx_t ctx);
int pshmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void pshmem_ctx_quiet(shmem_ctx_t ctx);
void pshmem_ctx_fence(shmem_ctx_t ctx);
void pshmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void pshmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
long pshmem_ctx_long_atomic_fetch_add(shmem_ctx_t ctx, long *dest, long value, int pe);
void pshmem_ctx_long_atomic_add(shmem_ctx_t ctx, long *dest, long value, int pe);
void pshmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void pshmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);
int pshmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int pshmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int pshmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int pshmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int pshmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);
void pshmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void pshmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void pshmem_collect32(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void pshmem_collect64(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void pshmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void pshmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void pshmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void pshmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void pshmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
void pshmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
void pshmem_set_lock(long *lock);
void pshmem_clear_lock(long *lock);
int pshmem_test_lock(long *lock);
int pshmem_int_sum_reduce(shmem_team_t team, int *dest, const int *source, size_t nreduce);
int pshmem_long_max_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce);
int pshmem_double_sum_reduce(shmem_team_t team, double *dest, const double *source, size_t nreduce);
int pshmem_ulong_xor_reduce(shmem_team_t team, unsigned long *dest, const unsigned long *source,
                           size_t nreduce);
int pshmem_int_broadcast(shmem_team_t team, int *dest, const int *source, size_t nelems, int PE_root);
int pshmem_long_fcollect(shmem_team_t team, long *dest, const long *source, size_t nelems);
void pshmem_int_sum_to_all(int *dest, const int *source, int nreduce, int PE_start,
                          int logPE_stride, int PE_size, int *pWrk, long *pSync);
void pshmem_double_max_to_all(double *dest, const double *source, int nreduce, int PE_start,
                             int logPE_stride, int PE_size, double *pWrk, long *pSync);
#ifdef __cplusplus
}
#endif
#endif
