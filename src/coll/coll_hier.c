/*
 * Node-aware (hierarchical) collectives for teams that span nodes (docs/collectives.md).
 *
 * At team setup each member is placed on its node (ofs_g.node_of, which honours
 * SHMEM_SIM_PES_PER_NODE); the first member of each node in team order is its leader.
 * Two groups with counters of their own in the team's slot carry the algorithms:
 * - local: the team members on my node.  Its counters are touched by nobody but those
 *   members, so its signals go by CPU atomics through the mapping (cpu_sig) even in a
 *   job whose atomics the fabric executes, and it runs the shm barrier and broadcast;
 * - leaders: one member per node, over the fabric with the flat algorithms.
 * barrier: local barrier, leaders' barrier, local barrier.
 * broadcast: on the root's node from the root, between leaders from the root's node's
 *   leader, on the other nodes from their leader.
 * reduction: every member's source folded by its leader (one local barrier), leaders'
 *   allreduce, local broadcast of the result.  The leader reads a member's source at its
 *   own source address: the specification has every PE pass the same source and dest.
 * collect/fcollect: blocks put into the leader's dest, leaders send their node's runs
 *   of blocks to every other leader (one put-with-signal per run), each leader puts the
 *   whole result into its members' dest then signals them.
 */
#include "coll_internal.h"

#include <stdlib.h>

#define COLL_HIER_FOLD 4096 /* reduction on the leader: bytes folded at a time */

int coll_hier_use(const struct coll_grp *g, int alg)
{
    if (!g->hier)
        return 0;
    if (alg == COLL_ALG_HIER)
        return 1;
    return alg == COLL_ALG_AUTO && g->hier->local.all_local && ofs_g.params.COLL_SHM &&
           ofs_g.params.LOCAL_TRANSPORT == OFS_LOCAL_TRANSPORT_SHM;
}

int coll_hier_setup(struct coll_grp *g, uint64_t *lflags, uint64_t *eflags, char *escratch)
{
    int n = g->size, nn = 0, nl = 0, *byid, *node, *lead, *loc, *lidx, mine;
    struct coll_hier *h;

    g->hier = NULL;
    if (n < 3 || !ofs_g.node_of)
        return 0;
    byid = malloc((size_t)ofs_g.n_pes * sizeof(int));
    h = calloc(1, sizeof(*h));
    if (h)
        h->mem = malloc(6 * (size_t)n * sizeof(int));
    if (!byid || !h || !h->mem) {
        free(byid);
        free(h);
        return -1;
    }
    node = h->node = h->mem;
    h->run_a = node + n;
    h->run_b = h->run_a + n;
    lead = h->run_b + n; /* world PEs of the leaders */
    loc = lead + n;      /* world PEs on my node */
    lidx = h->lidx = loc + n;
    for (int i = 0; i < ofs_g.n_pes; i++)
        byid[i] = -1;
    {
        int *cnt = h->run_a; /* members per node so far (runs are filled below) */
        for (int i = 0; i < n; i++) {
            int pe = coll_grp_pe(g, i), id = ofs_g.node_of[pe];
            if (id < 0 || id >= ofs_g.n_pes)
                id = pe;
            if (byid[id] < 0) {
                cnt[nn] = 0;
                lead[nn] = pe;
                byid[id] = nn++;
            }
            node[i] = byid[id];
            lidx[i] = cnt[node[i]]++;
        }
    }
    free(byid);
    if (nn < 2 || nn == n) { /* one node, or one member per node: the flat forms */
        free(h->mem);
        free(h);
        return 0;
    }
    mine = node[g->me];
    for (int i = 0; i < n; i++)
        if (node[i] == mine)
            loc[nl++] = coll_grp_pe(g, i);
    h->nruns = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || node[i] != node[i - 1])
            h->run_a[h->nruns++] = i;
        h->run_b[h->nruns - 1] = i + 1;
    }

    /* both groups copy the team's group (context, chunk, ...) and have counters of their
     * own with the teams' full map: set here, not inherited, so that it does not depend on
     * the order of coll_team.c's assignments */
    h->local = *g;
    h->local.f_bcast = COLL_F_BCAST;
    h->local.f_ring = COLL_F_RING;
    h->local.size = nl;
    h->local.me = lidx[g->me];
    h->local.start = 0;
    h->local.stride = 0;
    h->local.members = loc;
    h->local.flags = lflags;
    h->local.seen = h->lseen;
    h->local.scratch = h->local.rscratch = NULL; /* the local algorithms use none */
    h->local.scratch_len = 0;
    h->local.rslots = 0;
    h->local.unsynced = 0;
    h->local.hier = NULL;
    h->local.all_local = ofs_g.params.COLL_SHM;
    for (int i = 0; i < nl; i++)
        if (!comm_ptr(lflags, loc[i]))
            h->local.all_local = 0;
    h->local.cpu_sig = h->local.all_local;
    h->local.one_host = coll_grp_one_host(&h->local);

    h->leaders = *g;
    h->leaders.f_bcast = COLL_F_BCAST;
    h->leaders.f_ring = COLL_F_RING;
    h->leaders.size = nn;
    h->leaders.me = lead[mine] == coll_grp_pe(g, g->me) ? mine : -1;
    h->leaders.start = 0;
    h->leaders.stride = 0;
    h->leaders.members = lead;
    h->leaders.flags = eflags;
    h->leaders.seen = h->eseen;
    h->leaders.rscratch = escratch;
    h->leaders.step = &h->estep;
    h->leaders.unsynced = 0;
    h->leaders.hier = NULL;
    h->leaders.all_local = 0; /* other nodes */
    h->leaders.cpu_sig = 0;
    h->leaders.one_host = coll_grp_one_host(&h->leaders);
    g->hier = h;
    return 0;
}

void coll_hier_free(struct coll_grp *g)
{
    if (!g->hier)
        return;
    free(g->hier->mem);
    free(g->hier);
    g->hier = NULL;
}

void coll_hier_barrier(struct coll_grp *g)
{
    struct coll_hier *h = g->hier;

    coll_grp_barrier(&h->local);
    if (h->leaders.me >= 0)
        coll_grp_barrier(&h->leaders);
    coll_grp_barrier(&h->local);
}

/* The root's dest already holds the data (coll_grp_bcast copied it). */
void coll_hier_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root)
{
    struct coll_hier *h = g->hier;
    int rn = h->node[root], mine = h->node[g->me];

    (void)src;
    /* a flat collective that returned early may still be filling a leader's dest */
    if (g->unsynced & COLL_UNSYNC_FLAT)
        coll_grp_barrier(g);
    if (mine == rn)
        coll_grp_bcast(&h->local, dest, dest, len, h->lidx[root], 1);
    if (h->leaders.me >= 0)
        coll_grp_bcast(&h->leaders, dest, dest, len, rn, 1);
    if (mine != rn)
        coll_grp_bcast(&h->local, dest, dest, len, 0, 1);
    /* some node's root may run ahead (coll_bring.c); every member says so, also where
     * the node's own part needed no ring, so that the next collective agrees */
    g->unsynced |= COLL_UNSYNC_RING;
}

/* My own block is in dest already (coll_grp_collectv). */
void coll_hier_collectv(struct coll_grp *g, char *dest, const size_t *offs, const size_t *lens)
{
    struct coll_hier *h = g->hier;
    struct coll_grp *l = &h->local, *e = &h->leaders;
    int n = g->size, me = g->me;
    size_t total = offs[n - 1] + lens[n - 1];

    /* a flat collective that returned early may still be filling some dest; the leader
     * may still be copying a root's ring slots into its dest */
    if (g->unsynced & COLL_UNSYNC_FLAT)
        coll_grp_barrier(g);
    coll_grp_settle(l);
    /* a leader may still be putting the result into its members' dest when the others
     * return: the team's next flat collective that writes into other PEs barriers first */
    g->unsynced |= COLL_UNSYNC_HIER;
    if (l->me != 0) {
        coll_put_signal(l, dest + offs[me], dest + offs[me], lens[me], COLL_F_PRE, 0);
        coll_wait(l, COLL_F_POST, 1);
        return;
    }
    coll_wait(l, COLL_F_PRE, (uint64_t)(l->size - 1));
    /* nobody writes into a leader's dest before it is done handing out the last result:
     * the leaders' barrier left by the last exchange (or by a leaders' broadcast) */
    coll_grp_settle(e);
    {
        uint64_t expect = 0;
        for (int r = 0; r < h->nruns; r++) {
            int a = h->run_a[r], b = h->run_b[r];
            size_t o = offs[a], len = offs[b - 1] + lens[b - 1] - o;
            if (h->node[a] != e->me) {
                expect++;
                continue;
            }
            /* one put-with-signal per run, not SHMEM_COLL_SEGMENT pieces: nothing is
             * forwarded from here, and over the fabric 16K pieces took 1.5-3.3x as long
             * as whole runs at 32 KiB-1 MiB (docs/collectives.md) */
            for (int s = 1; s < e->size; s++)
                coll_put_signal(e, dest + o, dest + o, len, COLL_F_HIER_X, (e->me + s) % e->size);
        }
        coll_wait(e, COLL_F_HIER_X, expect);
    }
    /* every put before any signal: a member that goes on into the next collect writes
     * into my dest, which the later puts would still read */
    for (int i = 1; i < l->size; i++)
        comm_put(l->ctx, dest, dest, total, coll_grp_pe(l, i));
    for (int i = 1; i < l->size; i++)
        coll_signal(l, COLL_F_POST, i);
    /* my dest is still being read (above) when the other leaders return: they barrier
     * before they next write into a leader's memory */
    e->unsynced |= COLL_UNSYNC_FLAT;
}

void coll_hier_reduce(struct coll_grp *g, void *dest_, const void *src_, size_t nelems,
                      enum coll_op op, enum coll_type type)
{
    struct coll_hier *h = g->hier;
    struct coll_grp *l = &h->local;
    size_t es = coll_type_size(type), bytes = nelems * es;
    char *dest = dest_;
    const char *src = src_;
    int alg = coll_cfg.reduce;

    if (alg == COLL_ALG_HIER || alg == COLL_ALG_SHM)
        alg = COLL_ALG_AUTO;
    if (!l->all_local) {
        /* no mapping: an allreduce of the node through the comm layer; members keep it
         * to themselves (it would land in their dest after the leader's broadcast) */
        char *tmp = l->me == 0 ? dest : malloc(bytes);
        if (!tmp)
            ofs_fatal(1, "reduction: out of host memory");
        coll_grp_reduce_linear(l, tmp, src, nelems, op, type);
        if (tmp != dest)
            free(tmp);
    } else {
        coll_grp_barrier(l); /* every source is ready */
        if (l->me == 0) {
            const size_t blk = COLL_HIER_FOLD / es ? COLL_HIER_FOLD / es : 1;
            for (size_t b = 0; b < nelems; b += blk) {
                size_t cnt = nelems - b < blk ? nelems - b : blk;
                if (dest != src)
                    memmove(dest + b * es, src + b * es, cnt * es);
                for (int i = 1; i < l->size; i++)
                    coll_op_apply(op, type, dest + b * es,
                                  comm_ptr(src + b * es, coll_grp_pe(l, i)), cnt);
            }
        }
        /* members keep their source until the result comes back (it may be their dest) */
    }
    if (h->leaders.me >= 0)
        coll_grp_reduce(&h->leaders, dest, dest, nelems, op, type, alg);
    coll_grp_bcast(l, dest, dest, bytes, 0, 1);
    g->unsynced |= COLL_UNSYNC_RING; /* as in coll_hier_bcast */
}

/* nelems elements of es bytes from src (stride sst) on PE pe to d (stride dst), read
 * through the mapping where the node's group has one, else by a get */
static void a2a_fetch(struct coll_grp *l, char *d, const char *src, ptrdiff_t dst, ptrdiff_t sst,
                      size_t nelems, size_t es, int pe)
{
    const char *p = l->all_local ? comm_ptr(src, pe) : NULL;

    if (!p) {
        if (dst == 1 && sst == 1)
            comm_get(l->ctx, d, src, nelems * es, pe);
        else
            comm_iget(l->ctx, d, src, dst, sst, nelems, es, pe);
    } else if (dst == 1 && sst == 1) {
        memcpy(d, p, nelems * es);
    } else {
        for (size_t e = 0; e < nelems; e++)
            memcpy(d + e * (size_t)dst * es, p + e * (size_t)sst * es, es);
    }
}

/* Alltoall(s) of a team spanning nodes: after a barrier of the node (every source is
 * ready), each member copies the blocks its node's members have for it straight from
 * their sources; each leader packs, for every member of another node, the blocks its
 * node's members have for it (read through the mapping) and sends them as one run per
 * run of consecutive members of its node, in pieces with a signal each, into that
 * member's dest; every member waits for the runs of the other nodes, then a barrier of
 * the node keeps the sources until their readers are done.  Per node pair, one transfer
 * per member of the receiving node instead of one per pair of members.  Several leaders
 * signal one counter: the next writer barriers the team first (COLL_UNSYNC_FLAT). */
void coll_hier_alltoalls(struct coll_grp *g, char *dest, const char *src, ptrdiff_t dst,
                         ptrdiff_t sst, size_t nelems, size_t es)
{
    struct coll_hier *h = g->hier;
    struct coll_grp *l = &h->local;
    int n = g->size, me = g->me, mine = h->node[me];
    size_t dblk = nelems * (size_t)dst * es, sblk = nelems * (size_t)sst * es, blen = nelems * es;
    int contig = dst == 1 && sst == 1;
    uint64_t expect = 0;

    coll_grp_settle(g);
    coll_grp_barrier(l); /* the node's sources are ready */
    if (l->me == 0) {
        size_t most = 0;
        char *buf;
        for (int r = 0; r < h->nruns; r++)
            if (h->node[h->run_a[r]] == mine && (size_t)(h->run_b[r] - h->run_a[r]) > most)
                most = (size_t)(h->run_b[r] - h->run_a[r]);
        buf = malloc(most * blen);
        if (!buf)
            ofs_fatal(1, "alltoall: out of host memory");
        for (int s = 1; s < n; s++) {
            int b = (me + s) % n; /* spread the targets, as the pairwise exchange */
            if (h->node[b] == mine)
                continue;
            for (int r = 0; r < h->nruns; r++) {
                int a0 = h->run_a[r], k = h->run_b[r] - a0;
                if (h->node[a0] != mine)
                    continue;
                for (int a = 0; a < k; a++)
                    a2a_fetch(l, buf + (size_t)a * blen, src + (size_t)b * sblk, 1, sst, nelems, es,
                              coll_grp_pe(g, a0 + a));
                if (contig) {
                    coll_put_segs(g, dest + (size_t)a0 * dblk, buf, (size_t)k * blen,
                                  COLL_F_HIER_A2A, b);
                } else {
                    /* a run of blocks is k * nelems elements at stride dst */
                    comm_iput(g->ctx, dest + (size_t)a0 * dblk, buf, dst, 1, (size_t)k * nelems, es,
                              coll_grp_pe(g, b));
                    coll_signal(g, COLL_F_HIER_A2A, b);
                }
            }
        }
        free(buf);
    }
    for (int a = 0; a < n; a++)
        if (h->node[a] == mine)
            a2a_fetch(l, dest + (size_t)a * dblk, src + (size_t)me * sblk, dst, sst, nelems, es,
                      coll_grp_pe(g, a));
    for (int r = 0; r < h->nruns; r++)
        if (h->node[h->run_a[r]] != mine)
            expect += contig ? coll_seg_count((size_t)(h->run_b[r] - h->run_a[r]) * blen) : 1;
    coll_wait(g, COLL_F_HIER_A2A, expect);
    coll_grp_barrier(l); /* nobody reads my source any more */
    g->unsynced |= COLL_UNSYNC_FLAT;
}
