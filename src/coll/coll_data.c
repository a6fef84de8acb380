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
 * Alltoall: pairwise exchange (step s sends to me + s, spreading the targets), linear.
 */
#include "coll_internal.h"

#include <stdlib.h>

#define COLL_BCAST_SA_MIN (64 * 1024)      /* auto: scatter+allgather from here */
#define COLL_COLLECT_RING_MIN (256 * 1024) /* auto: ring from here */

static void bcast_binomial(struct coll_grp *g, char *dest, const char *src, size_t len, int root)
{
    int n = g->size, v = (g->me - root + n) % n, top = 1;
    const char *from = src;

    if (v != 0) {
        coll_wait(g, g->f_bcast, 1);
        from = dest;
    }
    while (top < n)
        top <<= 1;
    /* children v + m for powers of two m > v, farthest subtree first */
    for (int m = top; m >= 1; m >>= 1)
        if (m > v && v + m < n)
            coll_put_signal(g, dest, from, len, g->f_bcast, (v + m + root) % n);
}

static void bcast_linear(struct coll_grp *g, char *dest, const char *src, size_t len, int root)
{
    if (g->me != root) {
        coll_wait(g, g->f_bcast, 1);
        return;
    }
    for (int s = 1; s < g->size; s++)
        coll_put_signal(g, dest, src, len, g->f_bcast, (root + s) % g->size);
}

/* ring allgather of blocks already in place in dest; the caller barriers */
static void ring_blocks(struct coll_grp *g, char *dest, const size_t *offs, const size_t *lens)
{
    int n = g->size, me = g->me, right = (me + 1) % n;

    for (int s = 1; s < n; s++) {
        int b = (me - s + 1 + n) % n; /* my own block first, then what came last */
        coll_put_signal(g, dest + offs[b], dest + offs[b], lens[b], g->f_ring, right);
        coll_wait(g, g->f_ring, 1);
    }
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
            coll_put_signal(g, dest + offs[m], src + offs[m], lens[m], g->f_bcast, m);
        }
    } else {
        coll_wait(g, g->f_bcast, 1);
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
    if ((alg == COLL_ALG_AUTO || alg == COLL_ALG_SHM) && coll_bring_fits(g, len)) {
        coll_bring_bcast(g, dest, src, len, root);
        return;
    }
    /* larger: the root says its source is ready, every member copies straight from it,
     * then a barrier keeps the root's source until everyone has it */
    if ((alg == COLL_ALG_AUTO || alg == COLL_ALG_SHM) && g->all_local &&
        heap_seg_of(src, len, &off) >= 0) {
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
    if (alg == COLL_ALG_AUTO || alg == COLL_ALG_SHM)
        alg = len >= COLL_BCAST_SA_MIN && g->size > 2 ? COLL_ALG_SCATTER_ALLGATHER
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

/* Blocks [first, first+cnt) (cyclic) are one or two runs of dest. */
static int range_runs(int n, int first, int cnt)
{
    return first + cnt <= n ? 1 : 2;
}

/* Send blocks [first, first+cnt) of dest to member to, each run with a signal on
 * flag idx (range_runs of them): as one message each where the transport sends small
 * put-with-signals so, and never a write followed by a separate signal, which the OFI
 * route has to complete first when the signal leaves from another endpoint
 * (SHMEM_OFI_AM_EP=target; docs/collectives.md). */
static void put_range(struct coll_grp *g, char *dest, const size_t *offs, const size_t *lens,
                      int first, int cnt, int idx, int to)
{
    int n = g->size;

    while (cnt > 0) {
        int run = first + cnt <= n ? cnt : n - first;
        size_t o = offs[first], l = offs[first + run - 1] + lens[first + run - 1] - o;
        coll_put_signal(g, dest + o, dest + o, l, idx, to);
        cnt -= run;
        first = (first + run) % n;
    }
}

void coll_grp_collectv(struct coll_grp *g, void *dest_, const void *src, const size_t *offs,
                       const size_t *lens)
{
    char *dest = dest_;
    int n = g->size, me = g->me, alg = coll_cfg.collect;
    size_t total = offs[n - 1] + lens[n - 1];

    if (total == 0)
        return; /* every member knows: nothing to move, dest may be NULL */
    if (src && src != dest + offs[me] && lens[me])
        memmove(dest + offs[me], src, lens[me]);
    if (n == 1)
        return;
    if (coll_hier_use(g, alg)) {
        coll_hier_collectv(g, dest, offs, lens);
        return;
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
            return;
        }
        alg = COLL_ALG_AUTO;
    }
    coll_grp_settle(g);
    /* same node: everyone copies its block into every dest, one barrier */
    if (alg == COLL_ALG_AUTO && g->all_local)
        alg = COLL_ALG_LINEAR;
    if (alg == COLL_ALG_AUTO)
        alg = total >= COLL_COLLECT_RING_MIN ? COLL_ALG_RING : COLL_ALG_BRUCK;
    if (!g->seen && alg == COLL_ALG_BRUCK)
        alg = COLL_ALG_RING; /* pSync holds no Bruck counters */
    if (alg == COLL_ALG_RING) {
        ring_blocks(g, dest, offs, lens);
    } else if (alg == COLL_ALG_BRUCK) {
        for (int k = 0, d = 1; d < n; k++, d <<= 1) {
            int cnt = d < n - d ? d : n - d, to = (me - d + n) % n;
            put_range(g, dest, offs, lens, me, cnt, COLL_F_BRUCK + k, to);
            /* from me + d: its blocks [me + d, me + d + cnt) */
            coll_wait(g, COLL_F_BRUCK + k, range_runs(n, (me + d) % n, cnt));
        }
    }
    if ((alg == COLL_ALG_RING || alg == COLL_ALG_BRUCK) && g->seen) {
        /* every block counted in: the barrier waits for the next writer (as broadcast) */
        g->unsynced |= COLL_UNSYNC_FLAT;
        return;
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
}

void coll_grp_fcollect(struct coll_grp *g, void *dest, const void *src, size_t len)
{
    int n = g->size;
    size_t *offs = malloc(2 * (size_t)n * sizeof(size_t));

    if (!offs || n < 1)
        ofs_fatal(1, "fcollect: out of host memory");
    for (int i = 0; i < n; i++) {
        offs[i] = (size_t)i * len;
        offs[n + i] = len;
    }
    coll_grp_collectv(g, dest, src, offs, offs + n);
    free(offs);
}

void coll_grp_alltoalls(struct coll_grp *g, void *dest_, const void *src_, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems, size_t es)
{
    char *dest = dest_;
    const char *src = src_;
    int n = g->size, me = g->me;
    size_t dblk = nelems * (size_t)dst * es, sblk = nelems * (size_t)sst * es;

    if (nelems == 0)
        return;
    coll_grp_settle(g);
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

/* ---- team entry points ---- */

int coll_broadcast(struct coll_team *team, void *dest, const void *src, size_t nelems,
                   size_t elem_size, int root)
{
    coll_grp_bcast(coll_team_grp(team), dest, src, nelems * elem_size, root, 1);
    return 0;
}

int coll_fcollect(struct coll_team *team, void *dest, const void *src, size_t nelems,
                  size_t elem_size)
{
    coll_grp_fcollect(coll_team_grp(team), dest, src, nelems * elem_size);
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

    coll_grp_fcollect(g, sizes, &mine, sizeof(mine));
    for (int i = 0; i < n; i++) {
        offs[i] = o;
        lens[i] = sizes[i];
        o = coll_total_add(r, check, dest, nelems, o, sizes[i]);
    }
    if (check)
        check(r, dest, nelems, o, 0);
}

int coll_collect(const char *r, coll_total_check_fn check, struct coll_team *team, void *dest,
                 const void *src, size_t nelems, size_t elem_size)
{
    struct coll_grp *g = coll_team_grp(team);
    int n = g->size;
    size_t *offs = malloc(2 * (size_t)n * sizeof(size_t));

    if (!offs)
        ofs_fatal(1, "collect: out of host memory");
    collect_offsets(r, check, g, (uint64_t *)g->scratch, dest, nelems, nelems * elem_size, offs,
                    offs + n);
    coll_grp_collectv(g, dest, src, offs, offs + n);
    free(offs);
    return 0;
}

int coll_alltoall(struct coll_team *team, void *dest, const void *src, size_t nelems,
                  size_t elem_size)
{
    coll_grp_alltoalls(coll_team_grp(team), dest, src, 1, 1, nelems, elem_size);
    return 0;
}

int coll_alltoalls(struct coll_team *team, void *dest, const void *src, ptrdiff_t dst,
                   ptrdiff_t sst, size_t nelems, size_t elem_size)
{
    coll_grp_alltoalls(coll_team_grp(team), dest, src, dst, sst, nelems, elem_size);
    return 0;
}
