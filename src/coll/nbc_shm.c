/*
 * The same-node fast path of the non-blocking collectives (nbc.h): small requests on a
 * team whose members are all mapped go through a ring of entries per member and team
 * slot in shared memory, as the blocking inline collectives go through the members'
 * counters (coll_bring.c, coll_bline_*), instead of a schedule with a handshake per pair.
 *
 * Per team slot, my copy of the symmetric area holds my completion word (its own cache
 * line: the last entry of the team's fast requests I completed) and NBC_SHM_DEPTH
 * entries, each a sequence word followed by shm.cap bytes of data.  A request takes
 * entries s .. l (its contribution in pieces of shm.cap, at most NBC_SHM_PIECES; entries
 * are counted on every member alike: the requests of a team are posted in the same order
 * everywhere); entry e lives at e mod NBC_SHM_DEPTH.
 * - Post: once every member's completion word shows l - NBC_SHM_DEPTH (the entries' last
 *   readers are done; meanwhile I complete my own earlier requests, so two members that
 *   both run ahead cannot wait for each other), my contribution goes into my entries,
 *   then their numbers into their sequence words (sequentially consistent), then the
 *   members' bells are rung if somebody sleeps on them (nbc_bell_ring: the engine thread
 *   or a waiter).
 * - Completion, in posting order: once the last entry of each member whose data I need
 *   shows l, the data is copied (or folded in member order, so every PE computes the
 *   same result with the same rounding) into dest, and l goes into my completion word.
 * Nobody answers and nobody writes into another PE's memory: a member that has not posted
 * yet is simply not read.  (Direct requests, an fcollect, alltoall or reduction too large for the
 * ring, are the exception: an entry of their own, but the blocks go straight between the
 * members' buffers, each pair's by the first of the two to see the other's entry; below.)
 * Fast requests touch nothing the schedules use, so they and the engine's requests of the
 * same team may be outstanding together in any mix.
 */
#include "nbc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The members ring the bells when their completion words pass a multiple of this.  A
 * wait for a request whose entries s .. s + k - 1 were not free sleeps until every member
 * reached s + k - 1 - depth; the others go at least to s - 1 (my requests before it are
 * published), and that range holds a multiple of this as long as it is at most
 * depth - NBC_SHM_PIECES + 1. */
#define NBC_SHM_WAKE 4
_Static_assert(NBC_SHM_WAKE <= NBC_SHM_DEPTH - NBC_SHM_PIECES + 1, "a bell for every full ring");

#define NBC_SHM_HDR 64 /* the completion word's line, before the entries */
/* an entry's sequence and signature words, padded to the widest element alignment */
#define NBC_SHM_DATA 16
/* SHMEM_TEAM_WORLD's slot, its ring deeper than the others' (first in the area) */
#define NBC_SHM_WORLD (shmem_internal_team_world.id)

static struct {
    char *base; /* symmetric: the world team's slot (world_len), then nslots - 1 x slot_len */
    size_t slot_len;
    size_t world_len; /* the world team's slot: NBC_SHM_DEPTH_WORLD entries */
    size_t stride;    /* bytes per entry: the sequence word, then the data */
    size_t cap;       /* data bytes per entry (SHMEM_NBC_SHM / NBC_SHM_PIECES) */
    size_t limit;     /* largest contribution that takes the fast path */
    size_t blimit;    /* the same for a broadcast */
    int nslots;
} shm;

/* cap, nslots, stride, slot_len, world_len of shm; 0 if the fast path is off (whatever the
 * transports), else the rings' bytes when signals go by CPU atomics */
static size_t nbc_shm_shape(void)
{
    /* an entry holds a quarter of the largest contribution, a multiple of 64 bytes (every
     * element size divides it: a reduction folds an entry's piece at a time) */
    shm.cap = (size_t)ofs_g.params.NBC_SHM / NBC_SHM_PIECES & ~(size_t)63;
    if (!shm.cap || ofs_g.n_pes < 2)
        return 0;
    shm.nslots = (int)ofs_g.params.TEAMS_MAX;
    shm.stride = (NBC_SHM_DATA + shm.cap + 63) & ~(size_t)63;
    shm.slot_len = NBC_SHM_HDR + NBC_SHM_DEPTH * shm.stride;
    shm.world_len = NBC_SHM_HDR + NBC_SHM_DEPTH_WORLD * shm.stride;
    return shm.world_len + shm.slot_len * (size_t)(shm.nslots - 1);
}

size_t nbc_shm_heap_need(void)
{
    size_t len = nbc_shm_shape();

    return len ? heap_block_len(len) : 0;
}

ofs_status_t nbc_shm_init(void)
{
    size_t len;

    if (!nbc_shm_shape() || !coll_cfg.fast_signal)
        return OFS_OK; /* the same on every PE: nobody allocates */
    /* Up to NBC_SHM_PIECES entries when the node's PEs outnumber its CPUs: the ring lets a
     * member run ahead of descheduled ones.  With a CPU per PE, one entry at most: from
     * two, the copies through the ring measured slower than the engine's paths (a get of
     * the source its owner left in place).  A broadcast there only up to 1/32 of
     * SHMEM_NBC_SHM (128 bytes by default), as the blocking inline collectives: above it
     * the engine's eager broadcast (its root runs ahead by landing units, its members
     * answer) measured faster than the ring's.  The same on every member: they are all on
     * this node. */
    shm.limit = ofs_g.oversubscribed ? shm.cap * NBC_SHM_PIECES : shm.cap;
    shm.blimit = ofs_g.oversubscribed ? shm.limit : (size_t)ofs_g.params.NBC_SHM / 32 & ~(size_t)7;
    len = nbc_shm_shape();
    shm.base = heap_alloc(len, 64); /* fresh heap blocks are zero */
    if (!shm.base) {
        ofs_log_error("shmem_init: no room for the rings of the non-blocking collectives' "
                      "same-node fast path (%zu bytes of the symmetric heap; SHMEM_NBC_SHM=0 "
                      "saves them)",
                      len);
        return OFS_ERR_NOMEM;
    }
    return OFS_OK;
}

void nbc_shm_fini(void)
{
    if (shm.base)
        heap_free(shm.base);
    shm.base = NULL;
}

/* the world team's slot first (its deeper ring), then the others' */
static char *slot_of(int slot)
{
    if (slot == NBC_SHM_WORLD)
        return shm.base;
    return shm.base + shm.world_len +
           (size_t)(slot < NBC_SHM_WORLD ? slot : slot - 1) * shm.slot_len;
}

int nbc_shm_team(struct nbc_team *nt)
{
    struct coll_team *t = nt->team;
    char **r;

    nt->ftried = 1;
    if (!shm.base || t->size < 2 || !coll_team_grp(t)->all_local)
        return 0;
    r = calloc(2 * (size_t)t->size, sizeof(*r)); /* the rings, then the bells */
    if (!r) /* every member must decide alike: no quiet fallback to the engine */
        ofs_fatal(1, "shmem: out of host memory for the non-blocking collectives");
    for (int j = 0; j < t->size; j++) {
        int pe = coll_team_world_pe(t, j);
        r[j] = comm_ptr(slot_of(t->id), pe);
        r[t->size + j] = comm_ptr(nbc_bell, pe);
        if (!r[j] || !r[t->size + j]) {
            free(r);
            return 0;
        }
    }
    nt->fring = r;
    nt->fdepth = t->id == NBC_SHM_WORLD ? NBC_SHM_DEPTH_WORLD : NBC_SHM_DEPTH;
    return 1;
}

void nbc_shm_team_free(struct nbc_team *nt)
{
    free(nt->fring);
    nt->fring = NULL;
}

/* bytes member's entry carries for a (0: none) */
static size_t contribution(const struct coll_nbc_args *a, int n)
{
    switch (a->kind) {
    case COLL_NBC_SYNC: return 0;
    case COLL_NBC_ALLTOALL:
    case COLL_NBC_ALLTOALLS: return a->nelems * a->es * (size_t)n;
    default: return a->nelems * a->es;
    }
}

/* a's contribution goes through the ring (else, if direct_fits, directly) */
static int ring_fits(const struct coll_nbc_args *a, int n)
{
    /* nelems x es x n was checked against overflow by the API */
    return contribution(a, n) <= (a->kind == COLL_NBC_BCAST ? shm.blimit : shm.limit);
}

/* an fcollect or alltoall copied between the members' own buffers (one claim bit per
 * member in a word: NBC_DIRECT_PES), or a reduction folded in slices from the members'
 * sources into their dests.  Not a broadcast: the engine's (every member gets the root's
 * source) measured as fast or faster at 2 PEs (docs/nbc.md) */
static int direct_fits(const struct coll_nbc_args *a, int n)
{
    return ofs_g.params.NBC_DIRECT && n <= NBC_DIRECT_PES && a->nelems &&
           (a->kind == COLL_NBC_FCOLLECT || a->kind == COLL_NBC_ALLTOALL ||
            a->kind == COLL_NBC_REDUCE);
}

int nbc_shm_fits(struct nbc_team *nt, const struct coll_nbc_args *a)
{
    if (!shm.base)
        return 0;
    if (!nt->ftried)
        nbc_shm_team(nt);
    if (!nt->fring)
        return 0;
    if (a->kind == COLL_NBC_COLLECT) /* lengths differ by member: no common decision */
        return 0;
    return ring_fits(a, nt->team->size) || direct_fits(a, nt->team->size);
}

static uint64_t *done_word(char *ring)
{
    return (uint64_t *)ring;
}

static uint64_t *entry(char *ring, uint64_t s, uint32_t depth)
{
    return (uint64_t *)(ring + NBC_SHM_HDR + (size_t)(s % depth) * shm.stride);
}

/* the data of entry s: after its sequence word, aligned for every element type (long
 * double and the complex types take 16 bytes) */
static char *entry_data(char *ring, uint64_t s, uint32_t depth)
{
    return (char *)entry(ring, s, depth) + NBC_SHM_DATA;
}

/* the signature word of entry s, after its sequence word */
static uint64_t *entry_sig(char *ring, uint64_t s, uint32_t depth)
{
    return entry(ring, s, depth) + 1;
}

/* what a request is, the same on every member that posted the same call: the kind (+1:
 * never 0), the operation, the type, exclusive, the root (broadcast) and the block's bytes */
uint64_t nbc_sig_of(const struct coll_nbc_args *a)
{
    /* a collect's members give blocks of their own lengths */
    uint64_t len =
        a->kind == COLL_NBC_COLLECT ? 0 : (uint64_t)(a->nelems * a->es) & ((1ULL << 23) - 1);
    int red = a->kind == COLL_NBC_REDUCE || a->kind == COLL_NBC_SCAN;
    /* bits 21-40: a broadcast's root; alltoalls' strides, modulo 1024 each */
    uint64_t arg = a->kind == COLL_NBC_BCAST ? (uint64_t)a->root & 0xfffff
                   : a->kind == COLL_NBC_ALLTOALLS
                       ? ((uint64_t)a->dst & 0x3ff) | ((uint64_t)a->sst & 0x3ff) << 10
                       : 0;

    return (uint64_t)(a->kind + 1) | (uint64_t)(red ? a->op & 0xff : 0) << 4 |
           (uint64_t)(red ? a->type & 0xff : 0) << 12 | (uint64_t)(a->exclusive & 1) << 20 |
           arg << 21 | len << 41;
}

static const char *sig_name(uint64_t sig)
{
    static const char *const names[] = { "?",         "team_sync", "broadcast",
                                         "collect",   "fcollect",  "alltoall",
                                         "alltoalls", "reduction", "scan" };
    unsigned k = (unsigned)(sig & 15);

    return k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

void nbc_sig_describe(char *buf, size_t len, uint64_t sig)
{
    int n = snprintf(buf, len, "%s of %llu bytes per block", sig_name(sig),
                     (unsigned long long)(sig >> 41));

    if ((sig & 15) == COLL_NBC_COLLECT + 1 && n > 0)
        snprintf(buf, len, "collect");
    else if ((sig & 15) == COLL_NBC_BCAST + 1 && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " from root %d", (int)(sig >> 21 & 0xfffff));
    else if ((sig & 15) == COLL_NBC_ALLTOALLS + 1 && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", strides dst %d, sst %d modulo 1024",
                 (int)(sig >> 21 & 0x3ff), (int)(sig >> 31 & 0x3ff));
}

/* member j's entry of q (there) says it posted the same collective, else the job ends
 * naming both: a member that posted another collective at this point of the team's order
 * would otherwise leave the others waiting for ever */
static void sig_check(struct nbc_team *nt, const struct coll_nbc_req *q, int j)
{
    uint64_t theirs =
        __atomic_load_n(entry_sig(nt->fring[j], q->f.seq, nt->fdepth), __ATOMIC_RELAXED);
    char a[96], b[96];

    if (OFS_LIKELY(theirs == q->f.sig))
        return;
    nbc_sig_describe(a, sizeof(a), theirs);
    nbc_sig_describe(b, sizeof(b), q->f.sig);
    ofs_bad_input(q->routine,
                  "PE %d of the team posted a different non-blocking collective as its "
                  "request %llu on this team (%s) than this PE (%s%s): every PE must post a "
                  "team's requests in the same order with the same arguments",
                  coll_team_world_pe(nt->team, j), (unsigned long long)q->f.seq, a, b,
                  strcmp(a, b) ? "" : ", with another operator or type");
}

/* member j's entry of request s is there */
static int arrived(struct nbc_team *nt, int j, uint64_t s)
{
    return __atomic_load_n(entry(nt->fring[j], s, nt->fdepth), __ATOMIC_ACQUIRE) >= s;
}

/* bytes [off, off + len) of the contribution of the request whose first entry is s, in
 * ring: it spans entries s, s + 1, ... of shm.cap bytes each */
static void ring_read(char *dst, char *ring, uint64_t s, size_t off, size_t len, uint32_t depth)
{
    while (len) {
        size_t o = off % shm.cap, c = shm.cap - o < len ? shm.cap - o : len;
        memcpy(dst, entry_data(ring, s + off / shm.cap, depth) + o, c);
        dst += c, off += c, len -= c;
    }
}

static void ring_write(char *ring, uint64_t s, size_t off, const char *src, size_t len,
                       uint32_t depth)
{
    while (len) {
        size_t o = off % shm.cap, c = shm.cap - o < len ? shm.cap - o : len;
        memcpy(entry_data(ring, s + off / shm.cap, depth) + o, src, c);
        src += c, off += c, len -= c;
    }
}

/* the strided alltoall's block for member j, nel elements of es bytes (es divides
 * shm.cap: no element straddles two entries): from source (stride sst, block j at
 * j x nel x sst) into the ring at off, or from the ring at off into dest (stride dst) */
static void pack(char *ring, uint64_t s, size_t off, const char *src, ptrdiff_t sst, size_t nel,
                 size_t es, int j, uint32_t depth)
{
    const char *b = src + (size_t)j * nel * (size_t)sst * es;

    for (size_t i = 0; i < nel; i++)
        ring_write(ring, s, off + i * es, b + i * (size_t)sst * es, es, depth);
}

static void unpack(char *dest, ptrdiff_t dst, char *ring, uint64_t s, size_t off, size_t nel,
                   size_t es, int j, uint32_t depth)
{
    char *b = dest + (size_t)j * nel * (size_t)dst * es;

    for (size_t i = 0; i < nel; i++)
        ring_read(b + i * (size_t)dst * es, ring, s, off + i * es, es, depth);
}

/*
 * Direct requests (an fcollect, alltoall or reduction too large for the ring): the entry
 * carries no data but two words, in the receiver's entry a claim bit per sender (bit i
 * of member j's word: the transfer from i to j is taken) and in every member's a count of
 * its transfers done (in and out).  Each transfer i -> j is made by whichever of i and j
 * sees the other's entry first and sets the bit: my post makes those whose other side
 * has posted already (pulls first, then pushes, so that two members posting at once
 * share the work), my waits (and the engine thread) the rest.  Every pair's later poster
 * sees the earlier one's entry (both publish sequentially consistent, then look), so a
 * member that posted and went to compute is served by the others' posts: nothing waits
 * for its thread.  A member's request is done when its count shows every transfer in
 * and out of it (its dest is filled, nobody reads its source any more); the entry is
 * written again only after every member completed the request, when no member looks at
 * it any more.
 */
static uint64_t *dclaim(char *ring, uint64_t s, uint32_t depth)
{
    return (uint64_t *)entry_data(ring, s, depth);
}

static uint64_t *dcount(char *ring, uint64_t s, uint32_t depth)
{
    return (uint64_t *)entry_data(ring, s, depth) + 1;
}

/* member i's (world PE pe) copy of my symmetric address a */
static char *direct_at(const struct coll_nbc_req *q, const char *a, int pe)
{
    char *p = comm_ptr(a, pe);

    if (OFS_UNLIKELY(!p))
        ofs_bad_input(q->routine,
                      "%p is not in memory that PE %d can reach (the source and "
                      "dest of a collective must be symmetric)",
                      (const void *)a, pe);
    return p;
}

/* the transfer of q from member i to member j (one of them me), unless taken */
static void direct_move(struct nbc_team *nt, const struct coll_nbc_req *q, int i, int j)
{
    const struct nbc_fast *f = &q->f;
    uint64_t bit = 1ULL << i, *cl = dclaim(nt->fring[j], f->seq, nt->fdepth);
    size_t len = f->nelems * f->es;
    int n = nt->team->size, me = nt->team->my_pe;
    const char *from;
    char *to;

    if ((__atomic_load_n(cl, __ATOMIC_RELAXED) & bit) ||
        (__atomic_fetch_or(cl, bit, __ATOMIC_ACQ_REL) & bit))
        return;
    from = direct_at(q, f->src, coll_team_world_pe(nt->team, i));
    to = direct_at(q, f->dest, coll_team_world_pe(nt->team, j));
    if (f->kind == COLL_NBC_ALLTOALL)
        from += (size_t)j * len;
    memcpy(to + (size_t)i * len, from, len);
    /* the data, then the counts (release: the receiver reads dest, the sender reuses
     * source after it sees its count), then the other's bell (it may sleep in a wait) */
    __atomic_add_fetch(dcount(nt->fring[i], f->seq, nt->fdepth), 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(dcount(nt->fring[j], f->seq, nt->fdepth), 1, __ATOMIC_SEQ_CST);
    nbc_bell_ring((uint64_t *)nt->fring[n + (i == me ? j : i)]);
}

/* the transfers of q between me and member j that j's entry allows (it posted) */
static int direct_peer(struct nbc_team *nt, const struct coll_nbc_req *q, int j, int work)
{
    const struct nbc_fast *f = &q->f;
    int me = nt->team->my_pe;
    uint64_t s = f->seq,
             mine = __atomic_load_n(dclaim(nt->fring[me], s, nt->fdepth), __ATOMIC_RELAXED);

    if (!arrived(nt, j, s))
        return 0;
    sig_check(nt, q, j); /* before its words mean anything */
    /* open: j -> me (my claim word), or me -> j (j's) */
    int open = !(mine >> j & 1) ||
               !(__atomic_load_n(dclaim(nt->fring[j], s, nt->fdepth), __ATOMIC_RELAXED) >> me & 1);
    if (!open || !work)
        return open;
    direct_move(nt, q, j, me); /* my pull first: two members posting at once share */
    direct_move(nt, q, me, j);
    return 1;
}

/* A direct reduction: once every member posted, the vector's slices (up to
 * NBC_DIRECT_PES, of at least NBC_DIRECT_SLICE bytes, at least one per member) are
 * claimed in member 0's claim word by whoever looks, each member from its own share on;
 * the claimer folds slice k of every member's source in member order (so every slice
 * has the same rounding whoever folds it) and stores it into every member's dest (read
 * from all before written to any, so source may be dest), then counts it in member 0's
 * count; everyone is done when that count shows every slice (the last one rings the
 * bells). */
#define NBC_DIRECT_SLICE 16384

static uint64_t rslices(const struct nbc_fast *f, int n)
{
    uint64_t ns = (f->nelems * f->es + NBC_DIRECT_SLICE - 1) / NBC_DIRECT_SLICE;

    ns = ns < (uint64_t)n ? (uint64_t)n : ns;
    ns = ns > NBC_DIRECT_PES ? NBC_DIRECT_PES : ns;
    return ns > f->nelems ? f->nelems : ns;
}

static int direct_reduce(struct nbc_team *nt, const struct coll_nbc_req *q, int work)
{
    const struct nbc_fast *f = &q->f;
    int n = nt->team->size, me = nt->team->my_pe;
    uint64_t s = f->seq, ns = rslices(f, n), all = ns == 64 ? ~0ULL : (1ULL << ns) - 1;
    uint64_t *cl = dclaim(nt->fring[0], s, nt->fdepth), *cnt = dcount(nt->fring[0], s, nt->fdepth);
    size_t per = (f->nelems + ns - 1) / ns;

    for (int j = 0; j < n; j++)
        if (j != me && !arrived(nt, j, s))
            return 0;
    if (__atomic_load_n(cnt, __ATOMIC_ACQUIRE) == ns)
        return 1;
    if (__atomic_load_n(cl, __ATOMIC_RELAXED) == all)
        return !work ? 0 : __atomic_load_n(cnt, __ATOMIC_ACQUIRE) == ns;
    if (!work)
        return 1; /* slices to fold */
    for (int j = 0; j < n; j++)
        if (j != me) {
            sig_check(nt, q, j);
            /* every member's source and dest reachable (symmetric) */
            direct_at(q, f->src, coll_team_world_pe(nt->team, j));
            direct_at(q, f->dest, coll_team_world_pe(nt->team, j));
        }
    for (uint64_t i = 0, k0 = (uint64_t)me * ns / (uint64_t)n; i < ns; i++) {
        uint64_t k = (k0 + i) % ns, bit = 1ULL << k;
        size_t lo = (size_t)k * per, hi = lo + per < f->nelems ? lo + per : f->nelems;
        if ((__atomic_load_n(cl, __ATOMIC_RELAXED) & bit) ||
            (__atomic_fetch_or(cl, bit, __ATOMIC_ACQ_REL) & bit))
            continue;
        if (lo < hi)
            coll_grp_fold_shm(coll_team_grp(nt->team), f->dest, f->src, lo, hi, (enum coll_op)f->op,
                              (enum coll_type)f->type);
        if (__atomic_add_fetch(cnt, 1, __ATOMIC_SEQ_CST) == ns)
            for (int j = 0; j < n; j++)
                if (j != me)
                    nbc_bell_ring((uint64_t *)nt->fring[n + j]);
    }
    return __atomic_load_n(cnt, __ATOMIC_ACQUIRE) == ns;
}

/* make the transfers of q that can be made now (work 0: only whether there are any, or
 * it is done) */
static int direct_try(struct nbc_team *nt, const struct coll_nbc_req *q, int work)
{
    int n = nt->team->size, me = nt->team->my_pe;

    if (q->f.kind == COLL_NBC_REDUCE)
        return direct_reduce(nt, q, work);
    for (int j = 0; j < n; j++)
        if (j != me && direct_peer(nt, q, j, work) && !work)
            return 1;
    /* every transfer in and out of me */
    return __atomic_load_n(dcount(nt->fring[me], q->f.seq, nt->fdepth), __ATOMIC_ACQUIRE) ==
           2 * (uint64_t)(n - 1);
}

/* complete q if every entry it reads is there; 1 when it did */
static int fast_try(struct nbc_team *nt, struct coll_nbc_req *q)
{
    const struct nbc_fast *f = &q->f;
    int n = nt->team->size, me = nt->team->my_pe, last = n - 1;
    size_t len = f->nelems * f->es;
    uint64_t s = f->seq, sl = f->seq + f->k - 1; /* its first and last entries */
    char **ring = nt->fring;

    if (f->direct)
        return direct_try(nt, q, 1);
    switch (f->kind) {
    case COLL_NBC_BCAST:
        if (me == f->root)
            return 1;
        if (!arrived(nt, f->root, sl))
            return 0;
        sig_check(nt, q, f->root);
        ring_read(f->dest, ring[f->root], s, 0, len, nt->fdepth);
        return 1;
    case COLL_NBC_SCAN: last = f->exclusive ? me - 1 : me; break;
    default: break;
    }
    for (int j = 0; j <= last; j++)
        if (j != me && !arrived(nt, j, sl))
            return 0;
    for (int j = 0; j <= last; j++)
        if (j != me)
            sig_check(nt, q, j);
    if (!len)
        return 1;
    switch (f->kind) {
    case COLL_NBC_FCOLLECT:
        for (int j = 0; j < n; j++)
            if (j != me)
                ring_read(f->dest + (size_t)j * len, ring[j], s, 0, len, nt->fdepth);
        break;
    case COLL_NBC_ALLTOALL:
        for (int j = 0; j < n; j++)
            if (j != me)
                ring_read(f->dest + (size_t)j * len, ring[j], s, (size_t)me * len, len, nt->fdepth);
        break;
    case COLL_NBC_ALLTOALLS:
        for (int j = 0; j < n; j++)
            if (j != me)
                unpack(f->dest, f->dst, ring[j], s, (size_t)me * len, f->nelems, f->es, j,
                       nt->fdepth);
        break;
    case COLL_NBC_REDUCE:
    case COLL_NBC_SCAN:
        /* in member order, my own term from my entry (dest may be source), an entry's
         * piece at a time (es divides shm.cap); member 0 of an exclusive scan gets 0, as
         * from the blocking form */
        if (last < 0)
            memset(f->dest, 0, len);
        for (size_t off = 0; off < len && last >= 0; off += shm.cap) {
            uint64_t e = s + off / shm.cap;
            size_t c = len - off < shm.cap ? len - off : shm.cap;
            memcpy(f->dest + off, entry_data(ring[0], e, nt->fdepth), c);
            for (int j = 1; j <= last; j++)
                coll_op_apply((enum coll_op)f->op, (enum coll_type)f->type, f->dest + off,
                              entry_data(ring[j], e, nt->fdepth), c / f->es);
        }
        break;
    default: break;
    }
    return 1;
}

int nbc_shm_ready(const struct coll_nbc_req *q)
{
    const struct nbc_fast *f = &q->f;
    struct nbc_team *nt = q->nt;
    int me = nt->team->my_pe, last = nt->team->size - 1;
    uint64_t sl = f->seq + f->k - 1;

    if (f->unpub) /* a pass publishes it once its entries are free */
        return 1;
    if (f->direct)
        return direct_try(nt, q, 0);
    if (f->kind == COLL_NBC_BCAST)
        return me == f->root || arrived(nt, f->root, sl);
    if (f->kind == COLL_NBC_SCAN)
        last = f->exclusive ? me - 1 : me;
    for (int j = 0; j <= last; j++)
        if (j != me && !arrived(nt, j, sl))
            return 0;
    return 1;
}

/* every member completed the requests up to entry need (so my entries up to need + the
 * depth are free); reads the members' completion words, never waits */
static int ring_room(struct nbc_team *nt, uint64_t need)
{
    uint64_t low = UINT64_MAX;
    int me = nt->team->my_pe;

    for (int j = 0; j < nt->team->size; j++) {
        uint64_t d =
            j == me ? nt->fdone : __atomic_load_n(done_word(nt->fring[j]), __ATOMIC_ACQUIRE);
        if (d < low)
            low = d;
    }
    nt->ffree = low;
    return low >= need;
}

/* q's entries are free: its last one's previous use was read by every member */
static int entries_free(struct nbc_team *nt, const struct coll_nbc_req *q)
{
    uint64_t sl = q->f.seq + q->f.k - 1, d = nt->fdepth;

    return sl <= d || nt->ffree >= sl - d || ring_room(nt, sl - d);
}

/* my part of q into my entries, then their numbers, then the members' bells */
static void publish(struct nbc_team *nt, struct coll_nbc_req *q)
{
    const struct nbc_fast *f = &q->f;
    int n = nt->team->size, me = nt->team->my_pe, bells = 1;
    size_t len = f->nelems * f->es;
    uint64_t s = f->seq, sl = s + f->k - 1, d = nt->fdepth;
    char *dest = f->dest, *ring = nt->fring[me];
    const char *src = f->src;

    if (f->direct) {
        /* my own block, then the words the others' transfers count in (nobody looks at
         * them before my number is in: sequentially consistent below) */
        if (f->kind == COLL_NBC_FCOLLECT)
            memmove(dest + (size_t)me * len, src, len);
        else if (f->kind == COLL_NBC_ALLTOALL)
            memmove(dest + (size_t)me * len, src + (size_t)me * len, len);
        __atomic_store_n(dclaim(ring, s, d), 0, __ATOMIC_RELAXED);
        __atomic_store_n(dcount(ring, s, d), 0, __ATOMIC_RELAXED);
        nt->fdirect++;
    }
    switch (f->direct ? COLL_NBC_SYNC : f->kind) {
    case COLL_NBC_BCAST:
        bells = me == f->root;
        if (bells && len) {
            ring_write(ring, s, 0, src, len, d);
            if (dest != src)
                memmove(dest, src, len);
        }
        break;
    case COLL_NBC_FCOLLECT:
        if (len) {
            ring_write(ring, s, 0, src, len, d);
            memmove(dest + (size_t)me * len, src, len);
        }
        break;
    case COLL_NBC_ALLTOALL:
        if (len) {
            ring_write(ring, s, 0, src, (size_t)n * len, d);
            memmove(dest + (size_t)me * len, src + (size_t)me * len, len);
        }
        break;
    case COLL_NBC_ALLTOALLS:
        for (int j = 0; j < n && len; j++)
            pack(ring, s, (size_t)j * len, src, f->sst, f->nelems, f->es, j, d);
        if (len)
            unpack(dest, f->dst, ring, s, (size_t)me * len, f->nelems, f->es, me, d);
        break;
    case COLL_NBC_REDUCE:
    case COLL_NBC_SCAN: ring_write(ring, s, 0, src, len, d); break;
    default: break;
    }
    __atomic_store_n(entry_sig(ring, s, d), f->sig, __ATOMIC_RELAXED);
    if (bells) {
        /* the data, then the number, then the bells: a sleeper sets its bell's bit before
         * its last look at the entries (nbc_bell_nap), so one of the two sees the other */
        for (uint64_t e = s; e <= sl; e++) /* a reader looks at the last one */
            __atomic_store_n(entry(ring, e, d), e, __ATOMIC_SEQ_CST);
        for (int j = 0; j < n; j++)
            if (j != me)
                nbc_bell_ring((uint64_t *)nt->fring[n + j]);
    } else {
        /* a broadcast's member: nobody reads its entries but a member that posted another
         * collective here (named by its sig_check); no bell: that one's nap is bounded */
        for (uint64_t e = s; e <= sl; e++)
            __atomic_store_n(entry(ring, e, d), e, __ATOMIC_RELEASE);
    }
}

/* the parts left for later, in posting order, as far as their entries are free; 1 if any */
static int publish_pending(struct nbc_team *nt)
{
    int moved = 0;

    for (struct coll_nbc_req *q = nt->fhead; q && nt->funpub; q = q->next) {
        if (!q->f.unpub)
            continue;
        if (!entries_free(nt, q))
            break;
        publish(nt, q);
        q->f.unpub = 0;
        nt->funpub--;
        moved = 1;
    }
    return moved;
}

int nbc_shm_advance(struct nbc_team *nt)
{
    struct coll_nbc_req *q;
    uint64_t was = nt->fdone;
    int moved = 0;

    if (nt->funpub)
        moved = publish_pending(nt);
    /* the transfers of direct requests behind an earlier one that waits (a member
     * computing after its post is served by the others' waits) */
    if (nt->fdirect && nt->fhead)
        for (q = nt->fhead->next; q && !q->f.unpub; q = q->next)
            if (q->f.direct)
                direct_try(nt, q, 1);
    while ((q = nt->fhead) != NULL && !q->f.unpub && fast_try(nt, q)) {
        nt->fhead = q->next;
        if (!nt->fhead)
            nt->ftail = NULL;
        q->next = NULL;
        nt->fdone = q->f.seq + q->f.k - 1;
        nt->fdirect -= q->f.direct;
        nbc_req_complete(q, q->f.counted);
    }
    if (nt->fdone != was) {
        /* after every read of the entries: their writers may reuse them.  One may sleep
         * on its bell for that (a wait for a request whose part is not published yet):
         * the bells are rung when the word passes a multiple of NBC_SHM_WAKE, not at every
         * completion (a wake-up per request would cost more than the request); such a
         * waiter's entries are free once the others reach its first entry less
         * NBC_SHM_WAKE or more, and they go at least that far */
        int n = nt->team->size, me = nt->team->my_pe;
        moved = 1;
        __atomic_store_n(done_word(nt->fring[me]), nt->fdone, __ATOMIC_RELEASE);
        if (nt->funpub)
            publish_pending(nt); /* my own completions may have freed my entries */
        if (was / NBC_SHM_WAKE != nt->fdone / NBC_SHM_WAKE) {
            /* only a waiter for a multiple of NBC_SHM_WAKE sleeps: the word, then the
             * bells, ordered by a full fence here alone (the waiter's side: nbc_bell_nap) */
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            for (int j = 0; j < n; j++)
                if (j != me)
                    nbc_bell_ring((uint64_t *)nt->fring[n + j]);
        }
    }
    return moved;
}

void nbc_shm_post(struct coll_nbc_req *q, const struct coll_nbc_args *a)
{
    struct nbc_team *nt = q->nt;
    int n = nt->team->size;
    size_t c = contribution(a, n);
    int direct = !ring_fits(a, n);
    /* entries it takes */
    uint64_t k = !direct && c > shm.cap ? (c + shm.cap - 1) / shm.cap : 1;
    uint64_t s = nt->fseq + 1, sl = s + k - 1;

    nt->fseq = sl;
    q->f.seq = s;
    q->f.k = (uint8_t)k;
    q->f.dest = a->dest;
    q->f.nelems = a->nelems;
    q->f.es = a->es;
    q->f.dst = a->dst;
    q->f.sst = a->sst;
    q->f.root = a->root;
    q->f.kind = (uint8_t)a->kind;
    q->f.op = (uint8_t)a->op;
    q->f.type = (uint8_t)a->type;
    q->f.exclusive = (uint8_t)a->exclusive;
    q->f.counted = 0;
    q->f.direct = (uint8_t)direct;
    q->f.src = a->src;
    q->f.sig = nbc_sig_of(a);
    /* A post never waits for its entries: a member may not have posted the requests
     * that used them last, and may be in a blocking collective of another team that
     * waits for me (the requests of a team need the same order everywhere, not the
     * same place among other teams' collectives).  Then my part waits in q (its source
     * is the program's until q completes) and nbc_shm_advance publishes it. */
    q->f.unpub = nt->funpub || !entries_free(nt, q);
    if (q->f.unpub)
        nt->funpub++;
    else
        publish(nt, q);
    if (nt->ftail)
        nt->ftail->next = q;
    else
        nt->fhead = q;
    nt->ftail = q;
    nbc_shm_advance(nt);
}

void nbc_shm_team_drain(struct nbc_team *nt)
{
    int me = nt->team->my_pe;

    if (!nt->fring || !nt->fseq)
        return;
    /* each member once, in turn: after the barrier that follows, a member may clear its
     * words for the slot's next team */
    for (int j = 0; j < nt->team->size; j++)
        if (j != me)
            COMM_WAIT_UNTIL(__atomic_load_n(done_word(nt->fring[j]), __ATOMIC_ACQUIRE) >= nt->fseq);
}

void nbc_shm_slot_reset(int slot)
{
    if (shm.base)
        memset(slot_of(slot), 0, slot == NBC_SHM_WORLD ? shm.world_len : shm.slot_len);
}
