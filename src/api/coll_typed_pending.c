/*
 * TEMPORARY: the few typed wrappers (and ctx RMA/AMO routines) the coll tests use
 * until the generated typed API is merged.  The lead deletes this file at merge.
 */
#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"

#define RED(T, tn, opn, OP, CT)                                                             \
    OFS_API int pshmem_##tn##_##opn##_reduce(shmem_team_t team, T *dest, const T *source,   \
                                             size_t nreduce)                                \
    {                                                                                       \
        return coll_reduce(team, dest, source, nreduce, OP, CT);                            \
    }                                                                                       \
    OFS_WEAK_ALIAS(shmem_##tn##_##opn##_reduce)

RED(int, int, sum, COLL_OP_SUM, COLL_T_INT)
RED(long, long, max, COLL_OP_MAX, COLL_T_LONG)
RED(double, double, sum, COLL_OP_SUM, COLL_T_DOUBLE)
RED(unsigned long, ulong, xor, COLL_OP_XOR, COLL_T_ULONG)

OFS_API int pshmem_int_broadcast(shmem_team_t team, int *dest, const int *source, size_t nelems,
                                 int PE_root)
{
    return coll_broadcast(team, dest, source, nelems, sizeof(int), PE_root);
}
OFS_WEAK_ALIAS(shmem_int_broadcast)

OFS_API int pshmem_long_fcollect(shmem_team_t team, long *dest, const long *source, size_t nelems)
{
    return coll_fcollect(team, dest, source, nelems, sizeof(long));
}
OFS_WEAK_ALIAS(shmem_long_fcollect)

OFS_API void pshmem_int_sum_to_all(int *dest, const int *source, int nreduce, int PE_start,
                                   int logPE_stride, int PE_size, int *pWrk, long *pSync)
{
    coll_reduce_aset(dest, source, nreduce, COLL_OP_SUM, COLL_T_INT, PE_start, logPE_stride,
                     PE_size, pWrk, pSync);
}
OFS_WEAK_ALIAS(shmem_int_sum_to_all)

OFS_API void pshmem_double_max_to_all(double *dest, const double *source, int nreduce,
                                      int PE_start, int logPE_stride, int PE_size, double *pWrk,
                                      long *pSync)
{
    coll_reduce_aset(dest, source, nreduce, COLL_OP_MAX, COLL_T_DOUBLE, PE_start, logPE_stride,
                     PE_size, pWrk, pSync);
}
OFS_WEAK_ALIAS(shmem_double_max_to_all)

OFS_API void pshmem_ctx_quiet(shmem_ctx_t ctx)
{
    comm_quiet(ctx);
}
OFS_WEAK_ALIAS(shmem_ctx_quiet)

OFS_API void pshmem_ctx_fence(shmem_ctx_t ctx)
{
    comm_fence(ctx);
}
OFS_WEAK_ALIAS(shmem_ctx_fence)

OFS_API void pshmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                               int pe)
{
    comm_put(ctx, dest, source, nelems, pe);
}
OFS_WEAK_ALIAS(shmem_ctx_putmem)

OFS_API void pshmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                               int pe)
{
    comm_get(ctx, dest, source, nelems, pe);
}
OFS_WEAK_ALIAS(shmem_ctx_getmem)

OFS_API long pshmem_ctx_long_atomic_fetch_add(shmem_ctx_t ctx, long *dest, long value, int pe)
{
    long r;
    comm_amo(ctx, COMM_AMO_ADD, COMM_DT_I64, dest, &value, NULL, &r, pe, 0);
    return r;
}
OFS_WEAK_ALIAS(shmem_ctx_long_atomic_fetch_add)

OFS_API void pshmem_ctx_long_atomic_add(shmem_ctx_t ctx, long *dest, long value, int pe)
{
    comm_amo(ctx, COMM_AMO_ADD, COMM_DT_I64, dest, &value, NULL, NULL, pe, 0);
}
OFS_WEAK_ALIAS(shmem_ctx_long_atomic_add)
