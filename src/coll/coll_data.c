/*
 * Data-moving collectives: broadcast, collect/fcollect, alltoall(s).  Data goes
 * straight into the (symmetric) dest arrays with comm_put; counters say when it has
 * arrived.  Each one ends with a barrier of the group, so the next collective cannot
 * write into a dest that a slower PE is still forwarding from; the exceptions are the
 * same-node broadcast of up to a few slots, which goes through the root's ring
 * (coll_bring.c), and a same-node team's small broadcast and collect (inline, also
 * coll_bring.c), which write no dest but the caller's own.
 *
 * Broadcast: binomial tree (log n steps, latency) or scatter + ring allgather (each
 * byte crosses each link about twice, bandwidth); linear (root puts to all).
 * Collect: Bruck (log n rounds: round k sends the 2^k blocks I hold to me - 2^k;
 * blocks keep their final place in dest, so no rotation is needed), ring (n - 1
 * steps, each forwarding the block received last), linear (everyone puts to all).
 * Data moves in pieces of at most SHMEM_COLL_SEGMENT bytes, each a put-with-signal of
 * its own: the tree and the ring forward a piece as soon as it arrived, and over the
 * OFI route no piece is larger than what goes as messages (docs/collectives.md).
 * Alltoall: pairwise exchange (step s sends to me + s, spreading the targets), linear;
 * a team's contiguous blocks over the fabric with a signal each, its barrier left to the
 * next writer; for a team spanning nodes, small blocks through each node's leader
 * (coll_hier.c).
 */
#include "coll_internal.h"

#include <stdlib.h>

/* auto: scatter+allgather from this size in groups of at least COLL_BCAST_SA_NMIN, where
 * the root of the pipelined binomial tree would send log2(n) copies; below, the tree
 * (fewer dependent steps, n - 1 copies in all; docs/collectives.md) */
#define COLL_BCAST_SA_MIN (1024 * 1024)
#define COLL_BCAST_SA_NMIN 16
/* auto, a team of one host that talks over the fabric: linear up to this many members
 * and bytes.  The tree's second level waits for its forwarder to be scheduled, which on
 * a loaded host costs more than the root's extra sends (docs/collectives.md) */
#define COLL_BCAST_LINEAR_NMAX 8
#define COLL_BCAST_LINEAR_MAX (64 * 1024)
/* auto, team spanning nodes: the node-aware alltoall up to blocks of this many bytes;
 * above, each leader's packing and sending of all its node's blocks in turn costs more
 * than the pairs' own transfers save (docs/collectives.md) */
#define COLL_A2A_HIER_MAX 16384

/* Pieces of a transfer: at most coll_cfg.seg bytes each (0: one piece), each its own
 * put-with-signal, so that over the OFI route every piece goes as messages the target
 * applies (a larger put-with-signal is written and locally completed before its signal
 * leaves), and a tree or ring forwards a piece as soon as it has it; large blocks whole
 * (coll_seg_whole, docs/collectives.md).  0 bytes: one piece (the signal alone). */
size_t coll_seg_count(size_t len)
{
    size_t seg = coll_cfg.seg;
    return coll_seg_whole(len) ? 1 : (len + seg - 1) / seg;
}

/* piece j of len bytes: its offset, and its length in *l_p */
static size_t seg_piece(size_t len, size_t j, size_t *l_p)
{
    size_t seg = coll_cfg.seg, o;

    if (coll_seg_whole(len)) {
        *l_p = len;
        return 0;
    }
    o = j * seg;
    *l_p = len - o < seg ? len - o : seg;
    return o;
}

/* len bytes at src to dst on member i, in coll_seg_count(len) put-with-signals on idx */
void coll_put_segs(struct coll_grp *g, char *dst, const char *src, size_t len, int idx, int i)
{
    size_t ns = coll_seg_count(len);

    for (size_t j = 0; j < ns; j++) {
        size_t l, o = seg_piece(len, j, &l);
        coll_put_signal(g, dst + o, src + o, l, idx, i);
    }
}

/* Wait until the first k signals of this call arrived on counter idx, without consuming
 * them: the call consumes them all at its end with coll_wait (pSync counters go back to
 * 0 there; a team's expected count moves on). */
static void wait_first(struct coll_grp *g, int idx, uint64_t k)
{
    uint64_t target = (g->seen ? g->seen[idx] : 0) + k;
    uint64_t *f = &g->flags[idx];
    unsigned sw = 0;

    COMM_WAIT_UNTIL(coll_cnt_reached(__atomic_load_n(f, __ATOMIC_ACQUIRE), target) ||
                    COLL_SIG_WATCH(g, sw));
}

/* Binomial tree, pipelined: each piece goes on down the tree as soon as it arrived. */
static void bcast_binomial(struct coll_grp *g, char *dest, const char *src, size_t len, int root)
{
    int n = g->size, v = (g->me - root + n) % n, top = 1;
    const char *from = v != 0 ? dest : src;
    size_t ns = coll_seg_count(len);

    while (top < n)
        top <<= 1;
    for (size_t j = 0; j < ns; j++) {
        size_t l, o = seg_piece(len, j, &l);
        if (v != 0 && ns == 1)
            coll_wait(g, g->f_bcast, 1); /* one piece: one wait, as before pieces */
        else if (v != 0)
            wait_first(g, g->f_bcast, j + 1);
        /* children v + m for powers of two m > v, farthest subtree first */
        for (int m = top; m >= 1; m >>= 1)
            if (m > v && v + m < n)
                coll_put_signal(g, dest + o, from + o, l, g->f_bcast, (v + m + root) % n);
    }
    if (v != 0 && ns > 1)
        coll_wait(g, g->f_bcast, ns);
}

static void bcast_linear(struct coll_grp *g, char *dest, const char *src, size_t len, int root)
{
    if (g->me != root) {
        coll_wait(g, g->f_bcast, coll_seg_count(len));
        return;
    }
    for (int s = 1; s < g->size; s++)
        coll_put_segs(g, dest, src, len, g->f_bcast, (root + s) % g->size);
}

/* Ring allgather of blocks already in place in dest; the caller barriers.  Step s sends
 * my own block, then the block received the step before, piece by piece as its pieces
 * arrive (they come from the left in the order they are forwarded). */
static void ring_blocks(struct coll_grp *g, char *dest, const size_t *offs, const size_t *lens)
{
    int n = g->size, me = g->me, right = (me + 1) % n;
    uint64_t got = 0;

    for (int s = 1; s < n; s++) {
        int b = (me - s + 1 + n) % n; /* my own block first, then what came last */
        size_t ns = coll_seg_count(lens[b]);
        for (size_t j = 0; j < ns; j++) {
            size_t l, o = seg_piece(lens[b], j, &l);
            if (s > 1)
                wait_first(g, g->f_ring, ++got);
            coll_put_signal(g, dest + offs[b] + o, dest + offs[b] + o, l, g->f_ring, right);
        }
    }
    /* the last block, my right neighbour's, arrives from the left */
    coll_wait(g, g->f_ring, got + coll_seg_count(lens[(me + 1) % n]));
}

static void bcast_scatter_allgather(struct coll_grp *g, char *dest, const char *src, size_t len,
                                    int root)
{
    int n = g->size;
    size_t piece = (len + (size_t)n - 1) / (size_t)n;
    size_t *offs = malloc(2 * (size_t)n * sizeof(size_t)), *lens;

    if (!offs)
        ofs_fatal(1, "broadcast: out of host memory");
    lens = offs + n;
    /* piece i (relative to the root) goes to member root + i */
    for (int i = 0; i < n; i++) {
        int m = (root + i) % n;
        size_t o = (size_t)i * piece;
        offs[m] = o < len ? o : len;
        lens[m] = o < len ? (len - o < piece ? len - o : piece) : 0;
    }
    if (g->me == root) {
        for (int s = 1; s < n; s++) {
            int m = (root + s) % n;
            coll_put_segs(g, dest + offs[m], src + offs[m], lens[m], g->f_bcast, m);
        }
    } else {
        coll_wait(g, g->f_bcast, coll_seg_count(lens[g->me]));
    }
    ring_blocks(g, dest, offs, lens);
    free(offs);
}

void coll_grp_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root,
                    int root_copies)
{
    int alg = coll_cfg.bcast;
    size_t off;

    if (len == 0)
        return;
    if (g->me == root && root_copies && dest != src)
        memmove(dest, src, len);
    if (g->size == 1)
        return;
    if (coll_hier_use(g, alg)) {
        coll_hier_bcast(g, dest, src, len, root);
        return;
    }
    if (alg == COLL_ALG_HIER)
        alg = COLL_ALG_AUTO;
    /* inline: a team's small broadcast in the root's counters (no barrier, coll_bring.c) */
    if ((alg == COLL_ALG_AUTO || alg == COLL_ALG_INLINE) && coll_bline_fits(g, len)) {
        coll_bline_bcast(g, dest, src, len, root);
        return;
    }
    if (alg == COLL_ALG_INLINE)
        alg = COLL_ALG_AUTO;
    /* shm: up to a few slots, through the root's ring (no barrier, coll_bring.c) */
    int direct = g->all_local && heap_seg_of(src, len, &off) >= 0;
    if ((alg == COLL_ALG_AUTO || alg == COLL_ALG_SHM) && coll_bring_fits(g, len, direct)) {
        coll_bring_bcast(g, dest, src, len, root);
        return;
    }
    /* larger: the root says its source is ready, every member copies straight from it,
     * then a barrier keeps the root's source until everyone has it */
    if ((alg == COLL_ALG_AUTO || alg == COLL_ALG_SHM) && direct) {
        /* a flat broadcast that returned early may still wait for its signal */
        if (g->unsynced & COLL_UNSYNC_FLAT)
            coll_grp_barrier(g);
        if (g->me == root) {
            for (int s = 1; s < g->size; s++)
                coll_signal(g, g->f_bcast, (root + s) % g->size);
        } else {
            coll_wait(g, g->f_bcast, 1);
            memcpy(dest, comm_ptr(src, coll_grp_pe(g, root)), len);
        }
        coll_grp_barrier(g);
        return;
    }
    coll_grp_settle(g);
    if (alg == COLL_ALG_AUTO && g->one_host && g->size <= COLL_BCAST_LINEAR_NMAX &&
        len <= COLL_BCAST_LINEAR_MAX)
        alg = COLL_ALG_LINEAR;
    if (alg == COLL_ALG_AUTO || alg == COLL_ALG_SHM)
        alg = len >= COLL_BCAST_SA_MIN && g->size >= COLL_BCAST_SA_NMIN ? COLL_ALG_SCATTER_ALLGATHER
                                                                        : COLL_ALG_BINOMIAL;
    /* scatter+allgather writes the root's dest: active sets leave it alone */
    if (alg == COLL_ALG_SCATTER_ALLGATHER && !root_copies)
        alg = COLL_ALG_BINOMIAL;
    if (alg == COLL_ALG_LINEAR)
        bcast_linear(g, dest, src, len, root);
    else if (alg == COLL_ALG_SCATTER_ALLGATHER)
        bcast_scatter_allgather(g, dest, src, len, root);
    else
        bcast_binomial(g, dest, src, len, root);
    /* every member has counted its data in and every put completed at its source: a
     * team defers the barrier to the next collective that writes into other members'
     * memory (coll_grp_settle), saving a fabric round trip per call */
    if (g->seen)
        g->unsynced |= COLL_UNSYNC_FLAT;
    else
        coll_grp_barrier(g);
}

/* Blocks [first, first+cnt) (cyclic) of dest, one or two runs, each sent to member to
 * in pieces (put_segs), each with a signal on flag idx; returns how many signals that is
 * (to < 0: only counts them, for the receiver).  Each piece is one message where the
 * transport sends small put-with-signals so, never a write followed by a separate
 * signal, which the OFI route has to complete first when the signal leaves from another
 * endpoint (SHMEM_OFI_AM_EP=target; docs/collectives.md). */
static uint64_t put_range(struct coll_grp *g, char *dest, const size_t *offs, const size_t *lens,
                          int first, int cnt, int idx, int to)
{
    int n = g->size;
    uint64_t sigs = 0;

    while (cnt > 0) {
        int run = first + cnt <= n ? cnt : n - first;
        size_t o = offs[first], l = offs[first + run - 1] + lens[first + run - 1] - o;
        if (to >= 0)
            coll_put_segs(g, dest + o, dest + o, l, idx, to);
        sigs += coll_seg_count(l);
        cnt -= run;
        first = (first + run) % n;
    }
    return sigs;
}

/* The collect; returns 1 when it ended with a ring or Bruck exchange of a team, without
 * a barrier (COLL_UNSYNC_FLAT): every member's block came from that member in this
 * call, and each counter has one sender, whose signals of the next call arrive after
 * those of this one. */
static int collectv(struct coll_grp *g, void *dest_, const void *src, const size_t *offs,
                    const size_t *lens)
{
    char *dest = dest_;
    int n = g->size, me = g->me, alg = coll_cfg.collect;
    size_t total = offs[n - 1] + lens[n - 1];

    if (total == 0)
        return 0; /* every member knows: nothing to move, dest may be NULL */
    if (src && src != dest + offs[me] && lens[me])
        memmove(dest + offs[me], src, lens[me]);
    if (n == 1)
        return 0;
    if (coll_hier_use(g, alg)) {
        coll_hier_collectv(g, dest, offs, lens);
        return 0;
    }
    if (alg == COLL_ALG_HIER)
        alg = COLL_ALG_AUTO;
    /* inline: a same-node team's small blocks through the members' counters, each member
     * copying the others' into its own dest (coll_bring.c) */
    if (alg == COLL_ALG_AUTO || alg == COLL_ALG_INLINE) {
        size_t most = 0;
        for (int i = 0; i < n; i++)
            most = lens[i] > most ? lens[i] : most;
        if (coll_bline_fits(g, most)) {
            coll_bline_collectv(g, dest, dest + offs[me], offs, lens);
            return 0;
        }
        alg = COLL_ALG_AUTO;
    }
    coll_grp_settle(g);
    /* same node: everyone copies its block into every dest, one barrier */
    if (alg == COLL_ALG_AUTO && g->all_local)
        alg = COLL_ALG_LINEAR;
    /* over the fabric Bruck at every size: since blocks of SHMEM_COLL_WHOLE bytes go whole,
     * the ring's n - 1 steps took 1.0-1.6x Bruck's time from 32 KiB blocks over
     * tcp;ofi_rxm at 4 and 8 PEs (docs/collectives.md) */
    if (alg == COLL_ALG_AUTO)
        alg = COLL_ALG_BRUCK;
    if (!g->seen && alg == COLL_ALG_BRUCK)
        alg = COLL_ALG_RING; /* pSync holds no Bruck counters */
    if (alg == COLL_ALG_LINEAR && !g->all_local && g->seen) {
        /* over the fabric: my block to every member with a signal each, one round */
        uint64_t want = 0;
        for (int s = 1; s < n; s++) {
            int i = (me + s) % n;
            coll_put_segs(g, dest + offs[me], dest + offs[me], lens[me], g->f_ring, i);
            want += coll_seg_count(lens[i]);
        }
        coll_wait(g, g->f_ring, want);
        /* n - 1 senders on one counter: a member's next call must not signal before
         * everyone counted this one in, so the caller may not skip the barrier (0) */
        g->unsynced |= COLL_UNSYNC_FLAT;
        return 0;
    }
    if (alg == COLL_ALG_RING) {
        ring_blocks(g, dest, offs, lens);
    } else if (alg == COLL_ALG_BRUCK) {
        for (int k = 0, d = 1; d < n; k++, d <<= 1) {
            int cnt = d < n - d ? d : n - d, to = (me - d + n) % n;
            put_range(g, dest, offs, lens, me, cnt, COLL_F_BRUCK + k, to);
            /* from me + d: its blocks [me + d, me + d + cnt) */
            coll_wait(g, COLL_F_BRUCK + k,
                      put_range(g, dest, offs, lens, (me + d) % n, cnt, COLL_F_BRUCK + k, -1));
        }
    }
    if ((alg == COLL_ALG_RING || alg == COLL_ALG_BRUCK) && g->seen) {
        /* every block counted in: the barrier waits for the next writer (as broadcast) */
        g->unsynced |= COLL_UNSYNC_FLAT;
        return 1;
    }
    if (alg != COLL_ALG_RING && alg != COLL_ALG_BRUCK) {
        for (int s = 1; s < n; s++) {
            int to = (me + s) % n;
            if (lens[me])
                comm_put(g->ctx, dest + offs[me], dest + offs[me], lens[me], coll_grp_pe(g, to));
        }
        comm_quiet(g->ctx);
    }
    coll_grp_barrier(g);
    return 0;
}

void coll_grp_collectv(struct coll_grp *g, void *dest, const void *src, const size_t *offs,
                       const size_t *lens)
{
    collectv(g, dest, src, offs, lens);
}

/* fcollect, returning what collectv returns */
static int fcollect(struct coll_grp *g, void *dest, const void *src, size_t len)
{
    int n = g->size, flat;
    size_t *offs = malloc(2 * (size_t)n * sizeof(size_t));

    if (!offs || n < 1)
        ofs_fatal(1, "fcollect: out of host memory");
    for (int i = 0; i < n; i++) {
        offs[i] = (size_t)i * len;
        offs[n + i] = len;
    }
    flat = collectv(g, dest, src, offs, offs + n);
    free(offs);
    return flat;
}

void coll_grp_fcollect(struct coll_grp *g, void *dest, const void *src, size_t len)
{
    fcollect(g, dest, src, len);
}

/* signals: the contiguous routine (shmem_alltoall), whose unit strides every member
 * passes; a strided call with unit strides takes the other path, so that members that
 * pass different strides (undefined, not compared) still take the same one */
static void alltoalls(struct coll_grp *g, void *dest_, const void *src_, ptrdiff_t dst,
                      ptrdiff_t sst, size_t nelems, size_t es, int signals)
{
    char *dest = dest_;
    const char *src = src_;
    int n = g->size, me = g->me;
    size_t dblk = nelems * (size_t)dst * es, sblk = nelems * (size_t)sst * es;

    if (nelems == 0)
        return;
    /* node-aware: small blocks (auto), or forced (hier) */
    if (g->seen && coll_hier_use(g, coll_cfg.alltoall) &&
        (coll_cfg.alltoall == COLL_ALG_HIER || nelems * es <= COLL_A2A_HIER_MAX)) {
        coll_hier_alltoalls(g, dest, src, dst, sst, nelems, es);
        return;
    }
    coll_grp_settle(g);
    if (signals && g->seen && !g->all_local) {
        /* over the fabric, a team: each block with a signal on one counter (in pieces,
         * coll_put_segs), one round; no quiet and no closing barrier, as the direct
         * collect: n - 1 senders signal my counter, so a member's next call that writes
         * into others barriers first (COLL_UNSYNC_FLAT) */
        size_t blk = nelems * es;
        for (int s = 1; s < n; s++) {
            int j = coll_cfg.alltoall == COLL_ALG_LINEAR ? (s <= me ? s - 1 : s) : (me + s) % n;
            coll_put_segs(g, dest + (size_t)me * blk, src + (size_t)j * blk, blk, g->f_ring, j);
        }
        memmove(dest + (size_t)me * blk, src + (size_t)me * blk, blk);
        coll_wait(g, g->f_ring, (uint64_t)(n - 1) * coll_seg_count(blk));
        g->unsynced |= COLL_UNSYNC_FLAT;
        return;
    }
    for (int s = 0; s < n; s++) {
        int j = coll_cfg.alltoall == COLL_ALG_LINEAR ? s : (me + s) % n;
        char *d = dest + (size_t)me * dblk;
        const char *sp = src + (size_t)j * sblk;
        int pe = coll_grp_pe(g, j);
        if (dst == 1 && sst == 1) {
            if (j == me)
                memmove(d, sp, nelems * es);
            else
                comm_put(g->ctx, d, sp, nelems * es, pe);
        } else {
            comm_iput(g->ctx, d, sp, dst, sst, nelems, es, pe);
        }
    }
    comm_quiet(g->ctx);
    coll_grp_barrier(g);
}

void coll_grp_alltoalls(struct coll_grp *g, void *dest, const void *src, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems, size_t es)
{
    alltoalls(g, dest, src, dst, sst, nelems, es, 0);
}

/* ---- team entry points ---- */

int coll_broadcast(struct coll_team *team, void *dest, const void *src, size_t nelems,
                   size_t elem_size, int root)
{
    COLL_CHECK(NULL, team, .kind = COLL_NBC_BCAST, .root = root, .es = elem_size, .nelems = nelems);
    coll_live_enter(team, NULL, COLL_NBC_BCAST, 0);
    coll_grp_bcast(coll_team_grp(team), dest, src, nelems * elem_size, root, 1);
    coll_live_leave(team);
    return 0;
}

int coll_fcollect(struct coll_team *team, void *dest, const void *src, size_t nelems,
                  size_t elem_size)
{
    COLL_CHECK(NULL, team, .kind = COLL_NBC_FCOLLECT, .es = elem_size, .nelems = nelems);
    coll_live_enter(team, NULL, COLL_NBC_FCOLLECT, 0);
    coll_grp_fcollect(coll_team_grp(team), dest, src, nelems * elem_size);
    coll_live_leave(team);
    return 0;
}

/* every member's length, then offsets = exclusive prefix sums; dest must hold the
 * total (checked here: only now is it known) */
static void collect_offsets(const char *r, coll_total_check_fn check, struct coll_grp *g,
                            uint64_t *sizes, const void *dest, size_t nelems, size_t len,
                            size_t *offs, size_t *lens)
{
    uint64_t mine = len;
    int n = g->size;
    size_t o = 0;

    /* exchanged by a ring or Bruck, the sizes came from every member in this call: none
     * still forwards from, or reads, a dest of an earlier collective, so the blocks may go
     * without the barrier that its COLL_UNSYNC_FLAT asks for (the sizes' own counters
     * and scratch are not the blocks' ones) */
    if (fcollect(g, sizes, &mine, sizeof(mine)))
        g->unsynced &= ~COLL_UNSYNC_FLAT;
    for (int i = 0; i < n; i++) {
        offs[i] = o;
        lens[i] = sizes[i];
        o = coll_total_add(r, check, dest, nelems, o, sizes[i]);
    }
    /* With nothing to move the blocks' exchange returns at once: a member's next call
     * that writes into others (the next collect's sizes, into this scratch) barriers
     * first, or it could overwrite the sizes of a member that has not read them yet */
    if (o == 0 && n > 1)
        g->unsynced |= COLL_UNSYNC_FLAT;
    if (check)
        check(r, dest, nelems, o, 0);
}

int coll_collect(const char *r, coll_total_check_fn check, struct coll_team *team, void *dest,
                 const void *src, size_t nelems, size_t elem_size)
{
    struct coll_grp *g = coll_team_grp(team);
    int n = g->size;
    size_t *offs = malloc(2 * (size_t)n * sizeof(size_t));

    COLL_CHECK(NULL, team, .kind = COLL_NBC_COLLECT, .es = elem_size, .nelems = nelems);
    if (!offs)
        ofs_fatal(1, "collect: out of host memory");
    coll_live_enter(team, NULL, COLL_NBC_COLLECT, 0);
    collect_offsets(r, check, g, (uint64_t *)g->scratch, dest, nelems, nelems * elem_size, offs,
                    offs + n);
    coll_grp_collectv(g, dest, src, offs, offs + n);
    coll_live_leave(team);
    free(offs);
    return 0;
}

int coll_alltoall(struct coll_team *team, void *dest, const void *src, size_t nelems,
                  size_t elem_size)
{
    COLL_CHECK(NULL, team, .kind = COLL_NBC_ALLTOALL, .es = elem_size, .nelems = nelems);
    coll_live_enter(team, NULL, COLL_NBC_ALLTOALL, 0);
    alltoalls(coll_team_grp(team), dest, src, 1, 1, nelems, elem_size, 1);
    coll_live_leave(team);
    return 0;
}

int coll_alltoalls(struct coll_team *team, void *dest, const void *src, ptrdiff_t dst,
                   ptrdiff_t sst, size_t nelems, size_t elem_size)
{
    COLL_CHECK(NULL, team, .kind = COLL_NBC_ALLTOALLS, .es = elem_size, .nelems = nelems,
               .dst = dst, .sst = sst);
    coll_live_enter(team, NULL, COLL_NBC_ALLTOALLS, 0);
    coll_grp_alltoalls(coll_team_grp(team), dest, src, dst, sst, nelems, elem_size);
    coll_live_leave(team);
    return 0;
}
