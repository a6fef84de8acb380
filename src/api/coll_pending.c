/*
 * TEMPORARY -- delete when merging the teams/collectives branch.
 * Stand-ins so that the api branch links and its symbol tests pass before the
 * untyped routines (src/api/team.c, ctx.c, lock.c, coll_untyped.c) and the coll_*
 * algorithms (src/coll/) arrive from another branch.  Each aborts with a message.
 */
#include "api.h"

#define PENDING(name) ofs_fatal(1, "%s: not yet implemented in this build", name)

int coll_broadcast(struct coll_team *t, void *d, const void *s, size_t n, size_t e, int root)
{ PENDING("coll_broadcast"); }
int coll_collect(struct coll_team *t, void *d, const void *s, size_t n, size_t e)
{ PENDING("coll_collect"); }
int coll_fcollect(struct coll_team *t, void *d, const void *s, size_t n, size_t e)
{ PENDING("coll_fcollect"); }
int coll_alltoall(struct coll_team *t, void *d, const void *s, size_t n, size_t e)
{ PENDING("coll_alltoall"); }
int coll_alltoalls(struct coll_team *t, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,
                   size_t n, size_t e)
{ PENDING("coll_alltoalls"); }
int coll_reduce(struct coll_team *t, void *d, const void *s, size_t n, enum coll_op op,
                enum coll_type ty)
{ PENDING("coll_reduce"); }
void coll_reduce_aset(void *d, const void *s, int n, enum coll_op op, enum coll_type ty,
                      int PE_start, int logPE_stride, int PE_size, void *pWrk, long *pSync)
{ PENDING("coll_reduce_aset"); }

#define PEND_API(ret, name, params)                                                     \
    OFS_API ret p##name params { PENDING(#name); }                                      \
    OFS_WEAK_ALIAS(name)

PEND_API(int, shmem_ctx_create, (long options, shmem_ctx_t *ctx))
PEND_API(void, shmem_ctx_destroy, (shmem_ctx_t ctx))
PEND_API(int, shmem_ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team))
PEND_API(int, shmem_team_my_pe, (shmem_team_t team))
PEND_API(int, shmem_team_n_pes, (shmem_team_t team))
PEND_API(int, shmem_team_get_config, (shmem_team_t team, long mask, shmem_team_config_t *config))
PEND_API(int, shmem_team_translate_pe, (shmem_team_t src, int src_pe, shmem_team_t dest))
PEND_API(int, shmem_team_split_strided, (shmem_team_t parent, int start, int stride, int size,
         const shmem_team_config_t *config, long mask, shmem_team_t *new_team))
PEND_API(int, shmem_team_split_2d, (shmem_team_t parent, int xrange,
         const shmem_team_config_t *xc, long xm, shmem_team_t *xt,
         const shmem_team_config_t *yc, long ym, shmem_team_t *yt))
PEND_API(void, shmem_team_destroy, (shmem_team_t team))
PEND_API(int, shmem_team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t *ctx))
PEND_API(int, shmem_team_sync, (shmem_team_t team))
PEND_API(void, shmem_barrier, (int s, int l, int n, long *pSync))
PEND_API(void, shmem_sync, (int s, int l, int n, long *pSync))
PEND_API(void, shmem_set_lock, (long *lock))
PEND_API(void, shmem_clear_lock, (long *lock))
PEND_API(int, shmem_test_lock, (long *lock))
PEND_API(int, shmem_broadcastmem, (shmem_team_t t, void *d, const void *s, size_t n, int root))
PEND_API(int, shmem_collectmem, (shmem_team_t t, void *d, const void *s, size_t n))
PEND_API(int, shmem_fcollectmem, (shmem_team_t t, void *d, const void *s, size_t n))
PEND_API(int, shmem_alltoallmem, (shmem_team_t t, void *d, const void *s, size_t n))
PEND_API(int, shmem_alltoallsmem, (shmem_team_t t, void *d, const void *s, ptrdiff_t ds,
         ptrdiff_t ss, size_t n))
#define PEND_ASET(name)                                                                  \
    PEND_API(void, name, (void *d, const void *s, size_t n, int a, int b, int c, long *p))
#define PEND_ASETS(name)                                                                 \
    PEND_API(void, name, (void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss, size_t n, int a, \
             int b, int c, long *p))
PEND_API(void, shmem_broadcast32, (void *d, const void *s, size_t n, int r, int a, int b, int c,
         long *p))
PEND_API(void, shmem_broadcast64, (void *d, const void *s, size_t n, int r, int a, int b, int c,
         long *p))
PEND_ASET(shmem_collect32)
PEND_ASET(shmem_collect64)
PEND_ASET(shmem_fcollect32)
PEND_ASET(shmem_fcollect64)
PEND_ASET(shmem_alltoall32)
PEND_ASET(shmem_alltoall64)
PEND_ASETS(shmem_alltoalls32)
PEND_ASETS(shmem_alltoalls64)

/* the predefined teams (src/coll defines them in the other branch) */
struct coll_team shmem_internal_team_world, shmem_internal_team_shared;
