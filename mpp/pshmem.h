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
#ifdef __cplusplus
}
#endif
#endif
