/*
 * Teams and the pool of team slots.  At coll_init every PE allocates the same pool
 * from the symmetric heap (deterministic: before any user allocation), one slot per
 * possible team (SHMEM_TEAMS_MAX): signal counters, then scratch for collect sizes
 * and reduction chunks.  A split agrees on a slot that is free on every member with an
 * AND-allreduce of the members' free masks over the parent team.
 *
 * Members are kept as world PE numbers; strided teams use start/stride, a team that
 * is not strided in world numbering (SHMEM_TEAM_SHARED on an irregular node, a split
 * of such a team) keeps an explicit member list and has stride 0 in struct coll_team.
 */
#define _GNU_SOURCE
#include "coll_internal.h"
#include "rt.h"

#include <pthread.h>
#include <stdlib.h>

struct coll_team shmem_internal_team_world;
struct coll_team shmem_internal_team_shared;
struct ofs_htab coll_teams = OFS_HTAB_INITIALIZER;

_Static_assert(sizeof(struct coll_team) <= COLL_TEAM_SLOT &&
                   (COLL_TEAM_SLOT & (COLL_TEAM_SLOT - 1)) == 0,
               "a team fits a power-of-two slot of coll_teams");
struct coll_cfg coll_cfg;
uint64_t *coll_aset_pub;

#define COLL_FLAGS_BYTES 2048 /* COLL_NFLAGS counters, padded */
_Static_assert((COLL_W_SPLIT + 2) * 8 <= COLL_FLAGS_BYTES, "the split words fit the flags area");
/* a job spanning nodes: two more counter areas per slot, the node-aware algorithms'
 * local and leaders' groups (coll_hier.c), and reduction scratch for the leaders */
#define COLL_POOL_BUDGET (4UL << 20)
#define COLL_CHUNK_MIN 1024 /* bytes per reduction slot, whatever the budget */
#define COLL_CHUNK_MAX 16384
/* SHMEM_TEAM_WORLD's reduction scratch (both parities), carved apart at coll_init from
 * the heap's internal reserve (which has room for it) while the user keeps the full
 * SHMEM_SYMMETRIC_SIZE; else the world keeps its pool slot's.  Larger chunks, fewer
 * dependent rounds over a fabric.  A job that talks over a fabric asks for
 * COLL_WORLD_RSCRATCH_FABRIC instead, where every node has room for it (heap_set_optional:
 * a laptop's or a container's small /dev/shm keeps its heap): chunks whose exchanges are
 * large enough to go whole (SHMEM_COLL_WHOLE; coll_reduce.c).  Pages no large reduction
 * touches are never backed. */
#define COLL_WORLD_RSCRATCH (512UL << 10)
#define COLL_WORLD_RSCRATCH_FABRIC (4096UL << 10)
/* pool slots of the predefined teams; splits take the others */
#define COLL_SLOT_WORLD 0
#define COLL_SLOT_SHARED 1
#define COLL_SLOT_FIRST_SPLIT 2
/* in the split agreement, the bit of slot COLL_SLOT_WORLD (never free) carries "my
 * SHMEM_TEAM_NUM_CONTEXTS contexts are open" */
#define COLL_SPLIT_CTX_OK ((uint64_t)1 << COLL_SLOT_WORLD)

static struct {
    char *base; /* symmetric pool */
    size_t slot_len;
    int nslots;
    int rounds;       /* ceil(log2 n_pes), at least 1 */
    size_t sizes_len; /* scratch bytes for collect sizes */
    size_t chunk;     /* bytes per reduction slot */
    size_t flags_len; /* COLL_FLAGS_BYTES, 3x in a job spanning nodes */
    size_t rscratch_len;
    int hier;       /* the job spans nodes */
    uint64_t *used; /* local: slot in use by a team I belong to */
    int nwords;
    int awords;          /* words of one side of the agreement: nwords, then the arguments' */
    uint64_t *split_buf; /* symmetric: 2*awords words for the slot agreement */
    uint64_t *agree_buf; /* symmetric: two words for coll_agree_pub */
    unsigned agree_parity;
    char *world_rs;      /* symmetric: the world team's reduction scratch, or NULL */
    size_t world_rs_len; /* its bytes */
    pthread_mutex_t lock;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The algorithm each word of a SHMEM_*_ALGORITHM row names: the word's constant
 * OFS_<ROW>_<X> maps to COLL_ALG_<X>. */
#define COLL_ALG_OF(row, c, w) [OFS_##row##_##c] = COLL_ALG_##c,

static ofs_status_t coll_parse_algs(void)
{
    static const int bar[] = { OFS_WORDS_BARRIER_ALGORITHM(COLL_ALG_OF, BARRIER_ALGORITHM) };
    static const int bc[] = { OFS_WORDS_BCAST_ALGORITHM(COLL_ALG_OF, BCAST_ALGORITHM) };
    static const int red[] = { OFS_WORDS_REDUCE_ALGORITHM(COLL_ALG_OF, REDUCE_ALGORITHM) };
    static const int col[] = { OFS_WORDS_COLLECT_ALGORITHM(COLL_ALG_OF, COLLECT_ALGORITHM) };
    static const int a2a[] = { OFS_WORDS_ALLTOALL_ALGORITHM(COLL_ALG_OF, ALLTOALL_ALGORITHM) };

    /* the parser took only the words of each row */
    coll_cfg.barrier = bar[ofs_g.params.BARRIER_ALGORITHM];
    coll_cfg.bcast = bc[ofs_g.params.BCAST_ALGORITHM];
    coll_cfg.reduce = red[ofs_g.params.REDUCE_ALGORITHM];
    coll_cfg.collect = col[ofs_g.params.COLLECT_ALGORITHM];
    coll_cfg.alltoall = a2a[ofs_g.params.ALLTOALL_ALGORITHM];
    coll_cfg.release_yield = ofs_g.params.BARRIER_RELEASE_YIELD;
    coll_cfg.seg = (size_t)ofs_g.params.COLL_SEGMENT;
    coll_cfg.whole = (size_t)ofs_g.params.COLL_WHOLE;
    return OFS_OK;
}

static inline char *slot_base(int id)
{
    return pool.base + (size_t)id * pool.slot_len;
}

/* Fill in a team whose slot is id; members may be NULL (strided start/stride). */
static ofs_status_t team_setup(struct coll_team *t, int id, int *members, int start, int stride,
                               int size, int my_index, long mask, int nctx,
                               struct coll_team *parent)
{
    struct coll_tpriv *p = calloc(1, sizeof(*p));

    if (!p)
        return OFS_ERR_NOMEM;
    t->start = start;
    t->stride = stride;
    t->size = size;
    t->my_pe = my_index;
    t->config_mask = mask;
    t->num_contexts = nctx;
    t->id = id;
    t->parent = parent;
    t->priv = p;
    p->members = members;
    p->grp.size = size;
    p->grp.me = my_index;
    p->grp.start = start;
    p->grp.stride = stride;
    p->grp.members = members;
    p->grp.flags = (uint64_t *)slot_base(id);
    p->grp.seen = p->seen;
    p->grp.scratch = slot_base(id) + pool.flags_len;
    p->grp.scratch_len = pool.sizes_len + pool.rscratch_len;
    p->grp.chunk = pool.chunk;
    p->grp.rscratch = p->grp.scratch + pool.sizes_len;
    p->grp.rslots = pool.rounds + 1;
    p->grp.step = &p->step;
    p->grp.ctx = COMM_CTX_DEFAULT;
    p->grp.f_bcast = COLL_F_BCAST;
    p->grp.f_ring = COLL_F_RING;
    p->grp.all_local = ofs_g.params.COLL_SHM;
    for (int i = 0; i < size; i++)
        if (!comm_ptr(p->grp.flags, members ? members[i] : start + i * stride))
            p->grp.all_local = 0;
    p->grp.one_host = coll_grp_one_host(&p->grp);
    if (pool.hier && coll_hier_setup(&p->grp, (uint64_t *)(slot_base(id) + COLL_FLAGS_BYTES),
                                     (uint64_t *)(slot_base(id) + 2 * COLL_FLAGS_BYTES),
                                     p->grp.rscratch + pool.rscratch_len) != 0) {
        free(p);
        t->priv = NULL;
        return OFS_ERR_NOMEM;
    }
    /* after coll_hier_setup: the world's large scratch goes to the group that runs its
     * reductions over the fabric, the leaders' where the node-aware form is chosen
     * (always, for a given SHMEM_REDUCE_ALGORITHM), else the team's own */
    if (id == COLL_SLOT_WORLD && pool.world_rs) {
        struct coll_grp *rg =
            coll_hier_use(&p->grp, coll_cfg.reduce) ? &p->grp.hier->leaders : &p->grp;
        rg->rscratch = pool.world_rs;
        rg->chunk = (pool.world_rs_len / 2 / (size_t)rg->rslots) & ~(size_t)63;
    }
    pool.used[id / 64] |= 1ULL << (id % 64);
    coll_fin_slot_reset(id);
    return OFS_OK;
}

void coll_team_label(const struct coll_team *t, char *buf, size_t len)
{
    if (t == &shmem_internal_team_world)
        snprintf(buf, len, "SHMEM_TEAM_WORLD");
    else if (t == &shmem_internal_team_shared)
        snprintf(buf, len, "SHMEM_TEAM_SHARED");
    else
        snprintf(buf, len, "team %d", t->id);
}

struct coll_grp *coll_team_grp(struct coll_team *t)
{
    return &((struct coll_tpriv *)t->priv)->grp;
}

size_t coll_grp_sizes_len(void)
{
    return pool.sizes_len;
}

int coll_team_world_pe(const struct coll_team *t, int i)
{
    const struct coll_tpriv *p = t->priv;
    return p->members ? p->members[i] : t->start + i * t->stride;
}

/* If the sorted list is strided, its start and stride; else stride 0 */
static void list_shape(const int *pes, int n, int *start_p, int *stride_p)
{
    int stride = n > 1 ? pes[1] - pes[0] : 1;

    for (int i = 2; i < n; i++)
        if (pes[i] - pes[i - 1] != stride)
            stride = 0;
    *start_p = pes[0];
    *stride_p = stride;
}

/* The pool's shape for n PEs and nslots slots, spanning nodes (hier) or not: writes
 * rounds, sizes_len, flags_len, chunk, rscratch_len, slot_len of pool; returns the
 * pool's bytes.  Used by coll_heap_need before the heap exists and by coll_init. */
static size_t pool_shape(int n, int nslots, int hier)
{
    size_t need;

    pool.rounds = 1;
    while ((1L << pool.rounds) < n)
        pool.rounds++;
    pool.sizes_len = ((size_t)n * sizeof(uint64_t) + 63) & ~(size_t)63;
    pool.flags_len = (hier ? 3 : 1) * (size_t)COLL_FLAGS_BYTES;
    /* reduction chunk: as large as the budget allows, 1 KiB to 16 KiB */
    need = COLL_POOL_BUDGET / (size_t)nslots;
    need = need > pool.flags_len + pool.sizes_len ? need - pool.flags_len - pool.sizes_len : 0;
    pool.chunk = need / ((hier ? 4 : 2) * (size_t)(pool.rounds + 1));
    pool.chunk &= ~(size_t)63;
    if (pool.chunk < COLL_CHUNK_MIN)
        pool.chunk = COLL_CHUNK_MIN;
    if (pool.chunk > COLL_CHUNK_MAX)
        pool.chunk = COLL_CHUNK_MAX;
    pool.rscratch_len = 2 * (size_t)(pool.rounds + 1) * pool.chunk;
    pool.slot_len = pool.flags_len + pool.sizes_len + (hier ? 2 : 1) * pool.rscratch_len;
    return pool.slot_len * (size_t)nslots;
}

/* the slot agreement (2 x (nwords + 2): the slots' words and the split's arguments),
 * the active sets' word and the allocation routines' arguments (2) */
static size_t split_buf_len(int nwords)
{
    return (2 * ((size_t)nwords + 2) + 1 + 2) * sizeof(uint64_t);
}

/* Does the job talk over a fabric (known once the locality is: rt_init)? */
static int coll_fabric(void)
{
    return ofs_g.params.LOCAL_TRANSPORT == OFS_LOCAL_TRANSPORT_OFI ||
           (ofs_g.local_size > 0 && ofs_g.local_size < ofs_g.n_pes);
}

size_t coll_heap_optional(void)
{
    return coll_fabric()
               ? heap_block_len(COLL_WORLD_RSCRATCH_FABRIC) - heap_block_len(COLL_WORLD_RSCRATCH)
               : 0;
}

size_t coll_heap_need(void)
{
    int n = ofs_g.n_pes, nslots = (int)ofs_g.params.TEAMS_MAX, nwords = (nslots + 63) / 64;
    size_t len;

    if (n < 1 || nslots < 2 || n > (1 << COLL_MAX_TEAM_LOG))
        return 0; /* coll_init fails */
    /* the locality is not known yet when the node's room for heaps is published: the
     * larger shape (then pool_shape runs again in coll_init) */
    if (ofs_g.local_size > 0)
        len = pool_shape(n, nslots, ofs_g.local_size < n);
    else {
        size_t flat = pool_shape(n, nslots, 0), hier = pool_shape(n, nslots, 1);
        len = flat > hier ? flat : hier;
    }
    return heap_block_len(len) + heap_block_len(split_buf_len(nwords)) + coll_bring_heap_need() +
           coll_nbc_heap_need() + coll_check_heap_need(nslots) + coll_fin_heap_need(nslots) +
           heap_block_len(COLL_WORLD_RSCRATCH);
}

ofs_status_t coll_init(void)
{
    int n = ofs_g.n_pes;
    ofs_status_t st;

    st = coll_parse_algs();
    if (st != OFS_OK)
        return st;
    coll_cfg.fast_signal = comm_amo_by_cpu() && ofs_g.params.COLL_SHM;

    if (n > (1 << COLL_MAX_TEAM_LOG)) {
        ofs_log_error("shmem_init: %d PEs: the collectives support at most %d", n,
                      1 << COLL_MAX_TEAM_LOG);
        return OFS_ERR_INVAL;
    }
    if (ofs_g.params.TEAMS_MAX < 2) {
        ofs_log_error("SHMEM_TEAMS_MAX = %ld: at least 2 are needed (SHMEM_TEAM_WORLD and "
                      "SHMEM_TEAM_SHARED)",
                      ofs_g.params.TEAMS_MAX);
        return OFS_ERR_INVAL;
    }
    pool.nslots = (int)ofs_g.params.TEAMS_MAX;
    pool.hier = ofs_g.local_size < n;
    pool_shape(n, pool.nslots, pool.hier);
    pool.nwords = (pool.nslots + 63) / 64;
    pool.used = calloc((size_t)pool.nwords, sizeof(uint64_t));
    if (!pool.used)
        return OFS_ERR_NOMEM;
    pool.base = heap_alloc(pool.slot_len * (size_t)pool.nslots, 64);
    pool.awords = pool.nwords + 2;
    pool.split_buf = heap_alloc(split_buf_len(pool.nwords), 64);
    coll_aset_pub = pool.split_buf ? pool.split_buf + 2 * pool.awords : NULL;
    pool.agree_buf = pool.split_buf ? pool.split_buf + 2 * pool.awords + 1 : NULL;
    if (!pool.base || !pool.split_buf) {
        ofs_log_error("shmem_init: no room for the team pool (%zu bytes for SHMEM_TEAMS_MAX = %d "
                      "teams): lower SHMEM_TEAMS_MAX",
                      pool.slot_len * (size_t)pool.nslots, pool.nslots);
        return OFS_ERR_NOMEM;
    }
    /* no memset: fresh heap blocks are zero (the heap is a new file and no block was
     * freed before coll_init, as msg_init relies on too); clearing would touch every
     * page of the pool at start-up where a job uses a few (docs/performance.md) */
    /* a team of mine holds a pool slot: no more handles than slots (a destroyed team's
     * handle stays dead through OFS_HTAB_ROUND later splits: ofs_handle.h) */
    st = ofs_htab_init(&coll_teams, COLL_TEAM_SLOT, (uint32_t)pool.nslots);
    if (st != OFS_OK)
        return st;
    st = coll_bring_init();
    if (st != OFS_OK)
        return st;
    st = coll_nbc_init(); /* symmetric: before the barrier below */
    if (st == OFS_OK)
        st = coll_check_init(pool.nslots); /* symmetric too */
    if (st == OFS_OK)
        st = coll_fin_init(pool.nslots); /* symmetric too */
    if (st != OFS_OK)
        return st;
    /* every PE makes the same allocations in the same heap: all carve it or none; never
     * at the expense of the user's SHMEM_SYMMETRIC_SIZE */
    pool.world_rs_len = COLL_WORLD_RSCRATCH_FABRIC;
    pool.world_rs = coll_fabric() ? heap_alloc_spare(pool.world_rs_len, 64) : NULL;
    if (!pool.world_rs) {
        pool.world_rs_len = COLL_WORLD_RSCRATCH;
        pool.world_rs = heap_alloc_spare(pool.world_rs_len, 64);
    }

    st = team_setup(&shmem_internal_team_world, COLL_SLOT_WORLD, NULL, 0, 1, n, ofs_g.my_pe, 0, 0,
                    NULL);
    if (st != OFS_OK)
        return st;
    {
        /* the PEs whose memory this PE reaches by load/store (spec: shmem_ptr is non-NULL
         * for every member): its node's, unless SHMEM_LOCAL_TRANSPORT=ofi maps none */
        int by_ofi = ofs_g.params.LOCAL_TRANSPORT == OFS_LOCAL_TRANSPORT_OFI;
        int size = by_ofi ? 1 : ofs_g.local_size, rank = by_ofi ? 0 : ofs_g.local_rank;
        int *m = malloc((size_t)size * sizeof(int));
        int start, stride;
        if (!m)
            return OFS_ERR_NOMEM;
        if (by_ofi)
            m[0] = ofs_g.my_pe;
        else
            memcpy(m, ofs_g.local_pes, (size_t)size * sizeof(int));
        list_shape(m, size, &start, &stride);
        st = team_setup(&shmem_internal_team_shared, COLL_SLOT_SHARED, m, start, stride, size, rank,
                        0, 0, &shmem_internal_team_world);
        if (st != OFS_OK)
            return st;
        if (stride != 0)
            coll_team_grp(&shmem_internal_team_shared)->members = NULL;
    }
    shmem_internal_team_world.magic = shmem_internal_team_shared.magic = COLL_TEAM_LIVE;
    ofs_log_debug("coll: %d team slots of %zu bytes (reduction chunk %zu; world's %zu)",
                  pool.nslots, pool.slot_len, pool.chunk,
                  coll_team_grp(&shmem_internal_team_world)->chunk);
    /* every PE's counters are zero before anyone signals */
    return rt_barrier() == OFS_OK ? OFS_OK : OFS_ERR_RUNTIME;
}

/* clear: zero the slot's counters for its next team (not at coll_fini: the last
 * barrier's waiters may still be reading member 0's shm barrier release word) */
static void team_free(struct coll_team *t, int clear)
{
    struct coll_tpriv *p = t->priv;

    if (!p)
        return;
    if (clear)
        memset(slot_base(t->id), 0, pool.flags_len);
    coll_hier_free(&p->grp);
    pool.used[t->id / 64] &= ~(1ULL << (t->id % 64));
    free(p->members);
    free(p);
    t->priv = NULL;
}

void coll_fini(void)
{
    /* teams the program did not destroy (their contexts are closed by comm_fini); the
     * table has a million slots: stop at the last live one */
    for (uint32_t i = 0, left = coll_teams.nused; left > 0 && i < coll_teams.nslots; i++) {
        struct coll_team *t = ofs_htab_at(&coll_teams, i);

        if (!t)
            continue;
        left--;
        if (!t->priv)
            continue;
        t->magic = 0;
        comm_ctx_pool_close(((struct coll_tpriv *)t->priv)->ctx_pool);
        team_free(t, 0);
    }
    coll_nbc_fini();
    coll_check_fini();
    coll_fin_fini();
    ofs_htab_fini(&coll_teams);
    shmem_internal_team_world.magic = shmem_internal_team_shared.magic = 0;
    team_free(&shmem_internal_team_shared, 0);
    team_free(&shmem_internal_team_world, 0);
    if (pool.split_buf)
        heap_free(pool.split_buf);
    if (pool.base)
        heap_free(pool.base);
    pool.base = NULL;
    if (pool.world_rs)
        heap_free(pool.world_rs);
    pool.world_rs = NULL;
    coll_bring_fini();
    pool.split_buf = NULL;
    free(pool.used);
    pool.used = NULL;
}

/* spec 1.5: not collective; fails only when a context cannot be opened */
ofs_status_t coll_team_ctx_create(struct coll_team *team, long options, struct comm_ctx **ctx_p)
{
    struct coll_tpriv *p = team->priv;

    return comm_ctx_team_create(team, p->ctx_pool, options, ctx_p);
}

/*
 * Collective over parent: every PE describes the team it will belong to by a list of
 * parent indices (pidx, n; n = 0: none).  Returns the new team or NULL; *err_p set
 * to nonzero on every PE when no slot is free.  args: the routine's arguments that
 * every PE of the parent must pass alike, folded into one word; the same AND-allreduce
 * that finds the slot compares them (the AND of every word and of its complement give
 * back mine and its complement only if all are equal), so PEs that disagree are named
 * rather than left with teams of different shapes (a later collective on them hangs).
 * Returns NULL (with *err_p = 2) when they disagree; the caller names its arguments.
 * Each member also publishes the hash of its member list in the parent's slot before
 * the allreduce, and compares it after with its left neighbour's in that list: if every
 * member agrees with its left, every member describes the same team; else the member that
 * sees a difference gets NULL with *err_p = 3 and *bad_p = that neighbour (world PE),
 * and the caller names its arguments (members that disagree would build teams of
 * different shapes, whose first collective hangs).  The two words alternate with the
 * parent's splits: a member rewrites one only after the next split's allreduce, which
 * every member enters after its read.
 */
static struct coll_team *team_create(const char *r, struct coll_team *parent, const int *pidx,
                                     int n, long mask, int nctx, uint64_t args, int *err_p,
                                     int *bad_p)
{
    struct coll_grp *pg = coll_team_grp(parent);
    struct coll_tpriv *pp = parent->priv;
    uint64_t *in = pool.split_buf, *out = pool.split_buf + pool.awords;
    uint64_t *pub = (uint64_t *)slot_base(parent->id) + COLL_W_SPLIT + (pp->splits++ & 1);
    uint64_t hash = 0xcbf29ce484222325u;
    int id = -1, me = -1, *members = NULL, start, stride;
    struct coll_team *t;

    struct comm_ctx_pool *ctx_pool = NULL;
    int reserved = 1;

    for (int i = 0; i < n; i++)
        if (pidx[i] == parent->my_pe)
            me = i;
    if (me >= 0) {
        reserved = comm_ctx_pool_open(nctx, &ctx_pool) == OFS_OK;
        for (int i = 0; i < n; i++)
            hash = (hash ^ (uint64_t)coll_grp_pe(pg, pidx[i])) * 0x100000001b3u;
        hash ^= (uint64_t)n << 40;
        __atomic_store_n(pub, hash, __ATOMIC_RELEASE);
    }
    pthread_mutex_lock(&pool.lock);
    for (int w = 0; w < pool.nwords; w++)
        in[w] = me >= 0 ? ~pool.used[w] : ~(uint64_t)0;
    pthread_mutex_unlock(&pool.lock);
    in[0] = (in[0] & ~COLL_SPLIT_CTX_OK) | (reserved ? COLL_SPLIT_CTX_OK : 0);
    in[pool.nwords] = args;
    in[pool.nwords + 1] = ~args;
    coll_reduce_r(r, parent, out, in, (size_t)pool.awords, COLL_OP_AND, COLL_T_UINT64);
    if (out[pool.nwords] != args || out[pool.nwords + 1] != ~args) {
        comm_ctx_pool_close(ctx_pool);
        *err_p = 2;
        return NULL;
    }
    for (int s = COLL_SLOT_FIRST_SPLIT; s < pool.nslots && id < 0; s++)
        if (out[s / 64] >> (s % 64) & 1)
            id = s;
    if (id < 0 || !(out[0] & COLL_SPLIT_CTX_OK)) {
        if (parent->my_pe == 0 && id < 0)
            ofs_log_error("%s: no team slot left: all SHMEM_TEAMS_MAX = %d slots "
                          "(SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED included) are in use on some "
                          "PE of the parent team; destroy teams or raise SHMEM_TEAMS_MAX",
                          r, pool.nslots);
        else if (parent->my_pe == 0)
            ofs_log_error("%s: SHMEM_TEAM_NUM_CONTEXTS = %d contexts could not "
                          "be opened on some PE of the new team (transport resources)",
                          r, nctx);
        comm_ctx_pool_close(ctx_pool);
        *err_p = 1;
        return NULL;
    }
    *err_p = 0;
    if (me < 0)
        return NULL;
    if (n > 1) {
        int left = coll_grp_pe(pg, pidx[(me + n - 1) % n]);
        uint64_t v;

        comm_get(coll_team_grp(&shmem_internal_team_world)->ctx, &v, pub, sizeof(v), left);
        if (v != hash) {
            comm_ctx_pool_close(ctx_pool);
            *err_p = 3;
            *bad_p = left;
            return NULL;
        }
    }
    /* never full: each team of mine holds one of the fewer pool slots */
    t = ofs_htab_alloc(&coll_teams);
    members = malloc((size_t)n * sizeof(int));
    if (!t || !members)
        ofs_fatal(1, "%s: out of host memory", r);
    for (int i = 0; i < n; i++)
        members[i] = coll_grp_pe(pg, pidx[i]);
    list_shape(members, n, &start, &stride);
    pthread_mutex_lock(&pool.lock);
    if (team_setup(t, id, members, start, stride, n, me, mask, nctx, parent) != OFS_OK)
        ofs_fatal(1, "%s: out of host memory", r);
    pthread_mutex_unlock(&pool.lock);
    comm_ctx_pool_bind(ctx_pool, t);
    ((struct coll_tpriv *)t->priv)->ctx_pool = ctx_pool;
    if (stride > 0)
        coll_team_grp(t)->members = NULL;
    t->magic = COLL_TEAM_LIVE;
    return t;
}

/* Around a barrier over every PE: coll_agree_pub(v) before it, coll_agree_left() after
 * it gives the v that the PE on the left published (each PE compares with its left
 * neighbour; if all agree with theirs, all agree).  Nothing is added to the sequence
 * of collectives: the barrier is the only one.  The word alternates between two copies:
 * the neighbour writes the copy of call k + 2 only after passing the barrier of call
 * k + 1, which this PE enters after reading call k's. */
void coll_agree_pub(uint64_t v)
{
    __atomic_store_n(&pool.agree_buf[pool.agree_parity & 1], v, __ATOMIC_RELEASE);
}

uint64_t coll_agree_left(void)
{
    struct coll_grp *g = coll_team_grp(&shmem_internal_team_world);
    uint64_t *w = &pool.agree_buf[pool.agree_parity++ & 1], v = *w;

    if (g->size > 1)
        comm_get(g->ctx, &v, w, sizeof(v), (g->me + g->size - 1) % g->size);
    return v;
}

int coll_team_split_strided(struct coll_team *parent, int start, int stride, int size,
                            long config_mask, int num_contexts, struct coll_team **new_p)
{
    int N = parent->size, err, *pidx = NULL, valid, bad;
    long last = (long)start + (long)(size > 1 ? size - 1 : 0) * (size > 1 ? stride : 0);

    *new_p = NULL;
    /* a negative stride lists the members in reverse order (no wrap-around).  An invalid
     * triplet still takes part in the agreement, so a PE whose triplet is valid is not left
     * waiting in it.  The triplets are not compared across the parent: programs (ours
     * among them) split the even and the odd PEs in one call, each PE passing its own
     * start, and get two disjoint teams; the members of each new team are compared
     * (team_create), which names triplets that describe overlapping teams. */
    valid = !(size < 1 || start < 0 || start >= N || (size > 1 && stride == 0) || last < 0 ||
              last >= N);
    if (!valid && parent->my_pe == 0)
        ofs_log_debug("shmem_team_split_strided: start = %d, stride = %d, size = %d does "
                      "not describe PEs of the parent team (size %d)",
                      start, stride, size, N);
    if (valid) {
        pidx = malloc((size_t)size * sizeof(int));
        if (!pidx)
            ofs_fatal(1, "shmem_team_split_strided: out of host memory");
        for (int i = 0; i < size; i++)
            pidx[i] = start + i * (size > 1 ? stride : 0);
    }
    *new_p = team_create("shmem_team_split_strided", parent, pidx, valid ? size : 0, config_mask,
                         num_contexts, 0, &err, &bad);
    free(pidx);
    if (err == 3)
        ofs_bad_input("shmem_team_split_strided",
                      "start = %d, stride = %d, size = %d: PE %d, a member of that team, passed "
                      "a triplet that describes another team (every member of a new team must "
                      "pass the same start, stride and size)",
                      start, stride, size, bad);
    return valid ? err : 1;
}

int coll_team_split_2d(struct coll_team *parent, int xrange, long xmask, int xctx,
                       struct coll_team **x_p, long ymask, int yctx, struct coll_team **y_p)
{
    int N = parent->size, me = parent->my_pe, err1, err2, n, *pidx, bad;

    uint64_t args = (uint64_t)(uint32_t)xrange | (uint64_t)0x2d << 40;

    *x_p = *y_p = NULL;
    if (xrange < 1) {
        /* still collective: a PE that passed another xrange waits in the agreement */
        *x_p = team_create("shmem_team_split_2d", parent, NULL, 0, 0, 0, args, &err1, &bad);
        if (err1 == 2)
            ofs_bad_input("shmem_team_split_2d",
                          "xrange = %d: another PE of the parent team passed another value",
                          xrange);
        if (me == 0)
            ofs_log_debug("shmem_team_split_2d: xrange = %d must be positive", xrange);
        return 1;
    }
    if (xrange > N)
        xrange = N;
    pidx = malloc((size_t)(xrange > N / xrange + 1 ? xrange : N / xrange + 1) * sizeof(int));
    if (!pidx)
        ofs_fatal(1, "shmem_team_split_2d: out of host memory");
    /* x team: my row */
    n = 0;
    for (int i = (me / xrange) * xrange; i < N && n < xrange; i++)
        pidx[n++] = i;
    *x_p = team_create("shmem_team_split_2d", parent, pidx, n, xmask, xctx, args, &err1, &bad);
    if (err1 == 2)
        ofs_bad_input("shmem_team_split_2d",
                      "xrange = %d: another PE of the parent team passed another value", xrange);
    /* y team: my column */
    n = 0;
    for (int i = me % xrange; i < N; i += xrange)
        pidx[n++] = i;
    *y_p = team_create("shmem_team_split_2d", parent, pidx, n, ymask, yctx, args, &err2, &bad);
    free(pidx);
    return err1 || err2;
}

void coll_team_destroy(struct coll_team *team)
{
    struct coll_tpriv *p = team->priv;

    if (team == &shmem_internal_team_world || team == &shmem_internal_team_shared)
        return;
    coll_nbc_team_destroy(team);
    team->magic = 0; /* the handle is dead from here on */
    comm_ctx_team_close(team, p->ctx_pool);
    p->ctx_pool = NULL;
    /* nobody signals or reads our counters of this team after this barrier */
    coll_grp_barrier_p2p(coll_team_grp(team));
    coll_check_team_forget(team);
    coll_nbc_team_forget(team);
    pthread_mutex_lock(&pool.lock);
    team_free(team, 1);
    pthread_mutex_unlock(&pool.lock);
    ofs_htab_free(&coll_teams, team);
}

int coll_team_translate(const struct coll_team *src, int src_pe, const struct coll_team *dest)
{
    int w;

    if (src_pe < 0 || src_pe >= src->size)
        return -1;
    w = coll_team_world_pe(src, src_pe);
    if (dest == &shmem_internal_team_world)
        return w;
    for (int i = 0; i < dest->size; i++)
        if (coll_team_world_pe(dest, i) == w)
            return i;
    return -1;
}
