/*
 * Untyped collectives: the team-based *mem forms and the deprecated active-set
 * 32/64-bit forms, shmem_barrier and shmem_sync.  Typed forms are generated (m4).
 */
#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"

static void team_check(const char *routine, shmem_team_t team)
{
    ofs_check_init(routine);
    if (team == SHMEM_TEAM_INVALID)
        ofs_bad_input(routine, "team is SHMEM_TEAM_INVALID");
    ofs_check_team(routine, "team", team);
    if (team->my_pe < 0)
        ofs_bad_input(routine, "this PE is not a member of the team");
}

static void sym_check(const char *routine, const char *arg, const void *p, size_t len)
{
    if (len)
        ofs_check_sym(routine, arg, p, len);
}

OFS_API int pshmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                                int PE_root)
{
    team_check("shmem_broadcastmem", team);
    sym_check("shmem_broadcastmem", "dest", dest, nelems);
    ofs_check_nonnull("shmem_broadcastmem", "source", source, nelems);
    if (PE_root < 0 || PE_root >= team->size)
        ofs_bad_input("shmem_broadcastmem", "PE_root = %d is not in [0, %d)", PE_root, team->size);
    return coll_broadcast(team, dest, source, nelems, 1, PE_root);
}
OFS_WEAK_ALIAS(shmem_broadcastmem)

OFS_API int pshmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    team_check("shmem_collectmem", team);
    ofs_check_nonnull("shmem_collectmem", "source", source, nelems);
    return coll_collect(team, dest, source, nelems, 1);
}
OFS_WEAK_ALIAS(shmem_collectmem)

OFS_API int pshmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    team_check("shmem_fcollectmem", team);
    sym_check("shmem_fcollectmem", "dest", dest, nelems * (size_t)team->size);
    ofs_check_nonnull("shmem_fcollectmem", "source", source, nelems);
    return coll_fcollect(team, dest, source, nelems, 1);
}
OFS_WEAK_ALIAS(shmem_fcollectmem)

OFS_API int pshmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    team_check("shmem_alltoallmem", team);
    sym_check("shmem_alltoallmem", "dest", dest, nelems * (size_t)team->size);
    ofs_check_nonnull("shmem_alltoallmem", "source", source, nelems);
    return coll_alltoall(team, dest, source, nelems, 1);
}
OFS_WEAK_ALIAS(shmem_alltoallmem)

OFS_API int pshmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                                ptrdiff_t sst, size_t nelems)
{
    team_check("shmem_alltoallsmem", team);
    if (dst < 1 || sst < 1)
        ofs_bad_input("shmem_alltoallsmem", "dst = %td, sst = %td: strides must be positive", dst,
                      sst);
    return coll_alltoalls(team, dest, source, dst, sst, nelems, 1);
}
OFS_WEAK_ALIAS(shmem_alltoallsmem)

/* ---- deprecated active-set forms ---- */

/* pSync holds ceil(log2 PE_size) + 2 counting signals (see src/coll/coll_aset.c) that
 * start from and return to 0 */
_Static_assert(SHMEM_SYNC_VALUE == 0, "src/coll counts pSync signals up from 0");
_Static_assert(SHMEM_BCAST_SYNC_SIZE >= 18 && SHMEM_BARRIER_SYNC_SIZE >= 18 &&
                   SHMEM_REDUCE_SYNC_SIZE >= 18 && SHMEM_COLLECT_SYNC_SIZE >= 18 &&
                   SHMEM_ALLTOALL_SYNC_SIZE >= 18 && SHMEM_ALLTOALLS_SYNC_SIZE >= 18 &&
                   SHMEM_SYNC_SIZE >= 18,
               "src/coll needs ceil(log2 n) + 2 <= 18 longs of pSync");

static size_t aset_psync_bytes(int PE_size)
{
    int r = 0;
    while (PE_size > 0 && (1L << r) < PE_size)
        r++;
    return (size_t)(r + 2) * sizeof(long);
}

#define ASET_CHECK(routine, pSync)                                         \
    do {                                                                   \
        ofs_check_init(routine);                                           \
        ofs_check_sym(routine, "pSync", pSync, aset_psync_bytes(PE_size)); \
    } while (0)

OFS_API void pshmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    ASET_CHECK("shmem_barrier", pSync);
    coll_barrier_aset(PE_start, logPE_stride, PE_size, pSync);
}
OFS_WEAK_ALIAS(shmem_barrier)

OFS_API void pshmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    ASET_CHECK("shmem_sync", pSync);
    coll_sync_aset(PE_start, logPE_stride, PE_size, pSync);
}
OFS_WEAK_ALIAS(shmem_sync)

#define DEF_ASET(bits, es)                                                                         \
    OFS_API void pshmem_broadcast##bits(void *dest, const void *source, size_t nelems,             \
                                        int PE_root, int PE_start, int logPE_stride, int PE_size,  \
                                        long *pSync)                                               \
    {                                                                                              \
        ASET_CHECK("shmem_broadcast" #bits, pSync);                                                \
        coll_broadcast_aset(dest, source, nelems, es, PE_root, PE_start, logPE_stride, PE_size,    \
                            pSync);                                                                \
    }                                                                                              \
    OFS_WEAK_ALIAS(shmem_broadcast##bits)                                                          \
    OFS_API void pshmem_collect##bits(void *dest, const void *source, size_t nelems, int PE_start, \
                                      int logPE_stride, int PE_size, long *pSync)                  \
    {                                                                                              \
        ASET_CHECK("shmem_collect" #bits, pSync);                                                  \
        coll_collect_aset(dest, source, nelems, es, PE_start, logPE_stride, PE_size, pSync);       \
    }                                                                                              \
    OFS_WEAK_ALIAS(shmem_collect##bits)                                                            \
    OFS_API void pshmem_fcollect##bits(void *dest, const void *source, size_t nelems,              \
                                       int PE_start, int logPE_stride, int PE_size, long *pSync)   \
    {                                                                                              \
        ASET_CHECK("shmem_fcollect" #bits, pSync);                                                 \
        coll_fcollect_aset(dest, source, nelems, es, PE_start, logPE_stride, PE_size, pSync);      \
    }                                                                                              \
    OFS_WEAK_ALIAS(shmem_fcollect##bits)                                                           \
    OFS_API void pshmem_alltoall##bits(void *dest, const void *source, size_t nelems,              \
                                       int PE_start, int logPE_stride, int PE_size, long *pSync)   \
    {                                                                                              \
        ASET_CHECK("shmem_alltoall" #bits, pSync);                                                 \
        coll_alltoall_aset(dest, source, nelems, es, PE_start, logPE_stride, PE_size, pSync);      \
    }                                                                                              \
    OFS_WEAK_ALIAS(shmem_alltoall##bits)                                                           \
    OFS_API void pshmem_alltoalls##bits(void *dest, const void *source, ptrdiff_t dst,             \
                                        ptrdiff_t sst, size_t nelems, int PE_start,                \
                                        int logPE_stride, int PE_size, long *pSync)                \
    {                                                                                              \
        ASET_CHECK("shmem_alltoalls" #bits, pSync);                                                \
        if (dst < 1 || sst < 1)                                                                    \
            ofs_bad_input("shmem_alltoalls" #bits,                                                 \
                          "dst = %td, sst = %td: strides must be "                                 \
                          "positive",                                                              \
                          dst, sst);                                                               \
        coll_alltoalls_aset(dest, source, dst, sst, nelems, es, PE_start, logPE_stride, PE_size,   \
                            pSync);                                                                \
    }                                                                                              \
    OFS_WEAK_ALIAS(shmem_alltoalls##bits)

DEF_ASET(32, 4)
DEF_ASET(64, 8)
