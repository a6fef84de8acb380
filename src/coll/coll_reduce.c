/*
 * Reductions (all-reduce: every member gets the result).
 *
 * recursive doubling: round k exchanges the whole partial result with member
 *   r ^ 2^k; log2(p) rounds; best for short vectors.
 * rabenseifner: reduce-scatter by recursive halving (round k sends half of what is
 *   left to r ^ p/2^(k+1)), then allgather by recursive doubling straight into the
 *   partners' dest; about 2x the vector crosses each PE instead of log2(p) x.
 * Both fold a non-power-of-two team first: member p2 + i sends its vector to member i
 * and receives the result at the end.  Every exchange goes in pieces of at most
 * SHMEM_COLL_SEGMENT bytes, each a put-with-signal on the round's counter (over the OFI
 * route a larger one is a write completed before its signal leaves: a round trip more),
 * and the receiver folds each piece as it arrives (one piece from SHMEM_COLL_WHOLE bytes).
 * Vectors go in chunks of equal length, at most the team's slot size (Rabenseifner: a
 * parity's scratch, the halves it receives being packed, after the fold's vector if
 * any);
 * scratch slots alternate between two parities by step, which is safe because a
 * partner can only reach step t + 2 after every member contributed to step t + 1.
 * IEEE + and * are commutative, so both partners of a round compute bitwise equal
 * values and every member ends with the same result.
 *
 * linear: everyone gets every member's source in rank order (between two
 *   barriers); used by the active-set forms (no scratch but pSync).
 * inline (same-node teams, up to COLL_BLINE_BYTES): every member posts its source in
 *   an entry of its own counters and folds everyone's in member order (coll_bring.c).
 */
#include "coll_internal.h"

#include <stdlib.h>

#define COLL_RAB_MIN 8192   /* auto: Rabenseifner from this many bytes (p >= 4) */
#define COLL_SHM_MIN 2048   /* auto: direct shared-memory reduction from this many bytes */
#define COLL_SHM_BLOCK 4096 /* shm reduction: bytes folded at a time (on the stack) */
#define COLL_RAB_MIN_PES 4  /* auto: Rabenseifner from this many members */

static inline char *rslot(struct coll_grp *g, unsigned parity, int k)
{
    return g->rscratch + ((size_t)parity * (size_t)g->rslots + (size_t)k) * g->chunk;
}

/* Rabenseifner's chunk in elements: the parity's whole scratch holds the halves it
 * receives (at most the vector plus one element a round), after the fold's vector
 * where the group's size is not a power of two (rab_halves: where the halves start) */
static inline size_t rab_celems(const struct coll_grp *g, size_t es)
{
    size_t room = (size_t)g->rslots * g->chunk / es - COLL_MAX_TEAM_LOG;

    return (g->size & (g->size - 1)) ? room / 2 : room;
}

static inline size_t rab_halves(const struct coll_grp *g, size_t es)
{
    return (g->size & (g->size - 1)) ? rab_celems(g, es) : 0;
}

/* where a folded member (p2 + i) puts its vector on member i */
static inline char *fold_slot(struct coll_grp *g, unsigned parity, int rab)
{
    return rab ? rslot(g, parity, 0) : rslot(g, parity, g->rslots - 1);
}

/* An exchange of cnt elements goes in *np pieces of *per elements (the last may be
 * shorter), each at most coll_cfg.seg bytes when whole elements allow (0: one piece), so
 * that over the OFI route each goes as messages the target applies, one way
 * (docs/collectives.md); large exchanges in one piece (coll_seg_whole).  pSync groups
 * (no seen counts) send one piece. */
static void rpieces(const struct coll_grp *g, size_t cnt, size_t es, size_t *np, size_t *per)
{
    size_t seg = coll_cfg.seg, bytes = cnt * es;

    *np = 1;
    *per = cnt;
    if (coll_seg_whole(bytes) || !g->seen || cnt < 2)
        return;
    *per = (cnt + (bytes + seg - 1) / seg - 1) / ((bytes + seg - 1) / seg);
    *np = (cnt + *per - 1) / *per;
}

/* Send cnt elements at src to dst on member i, on counter idx, in rpieces' pieces. */
static void rsend(struct coll_grp *g, char *dst, const char *src, size_t cnt, size_t es, int idx,
                  int i)
{
    size_t np, per;

    rpieces(g, cnt, es, &np, &per);
    for (size_t o = 0, j = 0; j < np; j++, o += per) {
        size_t l = cnt - o < per ? cnt - o : per;
        coll_put_signal(g, dst + o * es, src + o * es, l * es, idx, i);
    }
}

/* Wait for cnt elements sent by rsend on counter idx; with acc, fold each piece into
 * acc from s as it arrives (one sender delivers its pieces in order). */
static void rrecv(struct coll_grp *g, char *acc, const char *s, size_t cnt, size_t es, int idx,
                  enum coll_op op, enum coll_type type)
{
    size_t np, per;
    uint64_t *f = &g->flags[idx];

    rpieces(g, cnt, es, &np, &per);
    if (np == 1 || !acc) {
        coll_wait(g, idx, np);
        if (acc)
            coll_op_apply(op, type, acc, s, cnt);
        return;
    }
    for (size_t o = 0, j = 0; j < np; j++, o += per) {
        size_t l = cnt - o < per ? cnt - o : per;
        uint64_t want = g->seen[idx] + j + 1;
        unsigned sw = 0;
        COMM_WAIT_UNTIL(coll_cnt_reached(__atomic_load_n(f, __ATOMIC_ACQUIRE), want) ||
                        COLL_SIG_WATCH(g, sw));
        coll_op_apply(op, type, acc + o * es, s + o * es, l);
    }
    coll_wait(g, idx, np);
}

static void reduce_pow2(struct coll_grp *g, char *dest, char *acc, size_t cnt, size_t es,
                        unsigned parity, int p2, enum coll_op op, enum coll_type type, int rab)
{
    int r = g->me, L = 0;
    size_t los[COLL_MAX_TEAM_LOG], his[COLL_MAX_TEAM_LOG], lo = 0, hi = cnt;

    while ((1 << L) < p2)
        L++;
    if (!rab) {
        for (int k = 0; k < L; k++) {
            int partner = r ^ (1 << k);
            char *s = rslot(g, parity, k);
            rsend(g, s, acc, cnt, es, COLL_F_RD + k, partner);
            rrecv(g, acc, s, cnt, es, COLL_F_RD + k, op, type);
        }
        memcpy(dest, acc, cnt * es);
        return;
    }
    /* the halves packed from rab_halves (after a fold's vector): round k's offset depends on
     * the ranges before it, which both partners of round k share */
    size_t off = rab_halves(g, es);
    for (int k = 0; k < L; k++) {
        int d = p2 >> (k + 1), partner = r ^ d;
        size_t mid = lo + (hi - lo) / 2, slo, shi;
        char *s = rslot(g, parity, 0) + off * es;
        off += hi - mid; /* the larger half */
        los[k] = lo;
        his[k] = hi;
        if (r & d) {
            slo = lo, shi = mid, lo = mid;
        } else {
            slo = mid, shi = hi, hi = mid;
        }
        rsend(g, s, acc + slo * es, shi - slo, es, COLL_F_RAB + k, partner);
        rrecv(g, acc + lo * es, s, hi - lo, es, COLL_F_RAB + k, op, type);
    }
    memcpy(dest + lo * es, acc + lo * es, (hi - lo) * es);
    for (int k = L - 1; k >= 0; k--) {
        int d = p2 >> (k + 1), partner = r ^ d;
        /* the partner sends the other part of [los[k], his[k]) */
        size_t theirs = his[k] - los[k] - (hi - lo);
        rsend(g, dest + lo * es, dest + lo * es, hi - lo, es, COLL_F_RAB + COLL_MAX_TEAM_LOG + k,
              partner);
        rrecv(g, NULL, NULL, theirs, es, COLL_F_RAB + COLL_MAX_TEAM_LOG + k, op, type);
        lo = los[k];
        hi = his[k];
    }
}

static void reduce_tree(struct coll_grp *g, char *dest, const char *src, size_t nelems,
                        enum coll_op op, enum coll_type type, int rab)
{
    size_t es = coll_type_size(type), celems = rab ? rab_celems(g, es) : g->chunk / es;
    int n = g->size, r = g->me, p2 = 1, rem;
    char *acc;

    while (p2 * 2 <= n)
        p2 *= 2;
    rem = n - p2;
    /* chunks of equal length: a vector slightly longer than a chunk goes as two halves,
     * not a chunk and a few elements that cost as many rounds */
    celems = (nelems + (nelems + celems - 1) / celems - 1) / ((nelems + celems - 1) / celems);
    acc = malloc(celems * es);
    if (!acc)
        ofs_fatal(1, "reduction: out of host memory");
    for (size_t off = 0; off < nelems; off += celems) {
        size_t cnt = nelems - off < celems ? nelems - off : celems, bytes = cnt * es;
        unsigned parity = (unsigned)((*g->step)++ & 1);
        char *d = dest + off * es;

        memcpy(acc, src + off * es, bytes);
        if (r >= p2) {
            rsend(g, fold_slot(g, parity, rab), acc, cnt, es, COLL_F_PRE, r - p2);
            rrecv(g, NULL, NULL, cnt, es, COLL_F_POST, op, type);
            continue;
        }
        if (r < rem)
            rrecv(g, acc, fold_slot(g, parity, rab), cnt, es, COLL_F_PRE, op, type);
        reduce_pow2(g, d, acc, cnt, es, parity, p2, op, type, rab);
        if (r < rem)
            rsend(g, d, d, cnt, es, COLL_F_POST, r + p2);
    }
    free(acc);
}

/*
 * slices through the comm layer (the shm algorithm's shape where some member is out of
 * reach of loads and stores): member r owns slice r of the vector.  After a barrier
 * (every source is ready) it gets slice r of every other member's source, all at once
 * and COLL_SLICE_TMP bytes at a time, folds them in member order and puts the result
 * into every member's dest, then signals each; every member waits for the others'
 * signals, after which nobody reads its source any more.  Each element is read and
 * written by its owner only, so source may be dest.  No scratch and no chunks: 2(n-1)/n
 * of the vector crosses each PE (as in Rabenseifner's) in one round of gets and one of
 * puts, where a team whose scratch holds a small part of the vector would go through
 * a full set of dependent rounds per chunk.
 */
#define COLL_SLICE_TMP (1UL << 20)
#define COLL_SLICE_CHUNKS 3 /* auto: slices from this many chunks of the tree algorithms */

static void reduce_slices(struct coll_grp *g, char *dest, const char *src, size_t nelems,
                          enum coll_op op, enum coll_type type)
{
    size_t es = coll_type_size(type), n = (size_t)g->size, me = (size_t)g->me;
    size_t per = (nelems + n - 1) / n, lo = me * per < nelems ? me * per : nelems;
    size_t hi = lo + per < nelems ? lo + per : nelems, cnt = hi - lo;
    size_t blk = COLL_SLICE_TMP / es / (n - 1);
    char *acc, *tmp;

    if (blk > cnt)
        blk = cnt;
    if (blk == 0)
        blk = 1;
    acc = malloc(cnt ? cnt * es : 1);
    tmp = malloc((n - 1) * blk * es);
    if (!acc || !tmp)
        ofs_fatal(1, "reduction: out of host memory");
    coll_grp_barrier(g); /* every source is ready, no owner of the last call still writes */
    for (size_t b = lo; b < hi; b += blk) {
        size_t c = hi - b < blk ? hi - b : blk;
        char *a = acc + (b - lo) * es;
        for (size_t i = 0, k = 0; i < n; i++)
            if (i != me)
                comm_get_nbi(g->ctx, tmp + k++ * blk * es, src + b * es, c * es,
                             coll_grp_pe(g, (int)i));
        comm_quiet(g->ctx);
        for (size_t i = 0, k = 0; i < n; i++) {
            const char *from = i == me ? src + b * es : tmp + k++ * blk * es;
            if (i == 0)
                memcpy(a, from, c * es);
            else
                coll_op_apply(op, type, a, from, c);
        }
    }
    for (size_t s = 1; s < n && cnt; s++)
        comm_put_nbi(g->ctx, dest + lo * es, acc, cnt * es, coll_grp_pe(g, (int)((me + s) % n)));
    if (cnt)
        memcpy(dest + lo * es, acc, cnt * es);
    for (size_t s = 1; s < n; s++)
        coll_signal(g, COLL_F_SLICE, (int)((me + s) % n));
    coll_wait(g, COLL_F_SLICE, n - 1);
    comm_quiet(g->ctx); /* the puts' source is freed */
    free(tmp);
    free(acc);
}

void coll_grp_reduce_linear(struct coll_grp *g, void *dest, const void *src, size_t nelems,
                            enum coll_op op, enum coll_type type)
{
    size_t es = coll_type_size(type), bytes = nelems * es;
    size_t tlen = bytes < COLL_GET_CHUNK ? bytes : COLL_GET_CHUNK;
    char *acc, *tmp;

    if (nelems == 0)
        return;
    acc = malloc(bytes);
    tmp = malloc(tlen);
    if (!acc || !tmp)
        ofs_fatal(1, "reduction: out of host memory");
    coll_grp_barrier(g); /* every source is ready */
    for (int i = 0; i < g->size; i++) {
        for (size_t off = 0; off < bytes; off += tlen) {
            size_t l = bytes - off < tlen ? bytes - off : tlen;
            char *into = i == 0 ? acc + off : tmp;
            if (i == g->me)
                memcpy(into, (const char *)src + off, l);
            else
                comm_get(g->ctx, into, (const char *)src + off, l, coll_grp_pe(g, i));
            if (i != 0)
                coll_op_apply(op, type, acc + off, tmp, l / es);
        }
    }
    /* nobody reads a dest that is not the source: the result goes in before the barrier,
     * after which a member that returns may write into it (its next collective) */
    if (dest != src)
        memcpy(dest, acc, bytes);
    coll_grp_barrier(g); /* every read of the sources is done */
    if (dest == src) {
        memcpy(dest, acc, bytes);
        /* an active set has no later settle (a team's next writer barriers first) */
        if (!g->seen)
            coll_grp_barrier(g);
    }
    free(tmp);
    free(acc);
}

/*
 * shm: every member is load/store reachable (comm_ptr).  Member r owns slice r of the
 * vector: after a barrier it reduces that slice reading every member's source in
 * rank order and writes the result into every member's dest, then a barrier.  Each
 * element is read and written by its owner only, so source may be dest; two
 * synchronisations whatever the size, each byte read once and written n times.
 */
void coll_grp_fold_shm(struct coll_grp *g, char *dest, const char *src, size_t lo, size_t hi,
                       enum coll_op op, enum coll_type type)
{
    size_t es = coll_type_size(type);
    const size_t blk = COLL_SHM_BLOCK / es ? COLL_SHM_BLOCK / es : 1;
    char acc[COLL_SHM_BLOCK] __attribute__((aligned(64)));

    for (size_t b = lo; b < hi; b += blk) {
        size_t cnt = hi - b < blk ? hi - b : blk;
        for (int i = 0; i < g->size; i++) {
            const char *s = (const char *)comm_ptr(src + b * es, coll_grp_pe(g, i));
            if (i == 0)
                memcpy(acc, s, cnt * es);
            else
                coll_op_apply(op, type, acc, s, cnt);
        }
        for (int i = 0; i < g->size; i++)
            memcpy(comm_ptr(dest + b * es, coll_grp_pe(g, i)), acc, cnt * es);
    }
}

void coll_grp_reduce_shm(struct coll_grp *g, void *dest, const void *src, size_t nelems,
                         enum coll_op op, enum coll_type type)
{
    size_t per = (nelems + (size_t)g->size - 1) / (size_t)g->size;
    size_t lo = (size_t)g->me * per, hi = lo + per > nelems ? nelems : lo + per;

    coll_grp_barrier(g); /* every source is ready */
    coll_grp_fold_shm(g, dest, src, lo, hi, op, type);
    coll_grp_barrier(g); /* every slice is in every dest */
}

void coll_grp_reduce(struct coll_grp *g, void *dest, const void *src, size_t nreduce,
                     enum coll_op op, enum coll_type type, int alg)
{
    if (nreduce == 0)
        return;
    if (g->size == 1) {
        if (dest != src)
            memmove(dest, src, nreduce * coll_type_size(type));
        return;
    }
    if (coll_hier_use(g, alg)) {
        coll_hier_reduce(g, dest, src, nreduce, op, type);
        return;
    }
    if (alg == COLL_ALG_HIER || (alg == COLL_ALG_SHM && !g->all_local))
        alg = COLL_ALG_AUTO;
    /* inline: a same-node team's small reduction through the members' counters
     * (coll_bring.c); elements of 8 bytes at most, which their 8-byte alignment suits */
    if ((alg == COLL_ALG_AUTO || alg == COLL_ALG_INLINE) && coll_type_size(type) <= 8 &&
        coll_bline_fits(g, nreduce * coll_type_size(type))) {
        coll_bline_reduce(g, dest, src, nreduce, op, type);
        return;
    }
    if (alg == COLL_ALG_INLINE)
        alg = COLL_ALG_AUTO;
    if (alg == COLL_ALG_AUTO) {
        size_t es = coll_type_size(type), bytes = nreduce * es;
        if (g->all_local && bytes >= COLL_SHM_MIN)
            alg = COLL_ALG_SHM;
        else
            alg = bytes >= COLL_RAB_MIN && g->size >= COLL_RAB_MIN_PES
                      ? COLL_ALG_RABENSEIFNER
                      : COLL_ALG_RECURSIVE_DOUBLING;
        if (!g->all_local && nreduce >= (size_t)g->size) {
            size_t celems = alg == COLL_ALG_RABENSEIFNER ? rab_celems(g, es) : g->chunk / es;
            if (nreduce / COLL_SLICE_CHUNKS >= celems)
                alg = COLL_ALG_SLICES;
        }
    }
    if (alg == COLL_ALG_RABENSEIFNER) /* its allgather writes the partners' dest */
        coll_grp_settle(g);
    if (alg == COLL_ALG_SLICES)
        reduce_slices(g, dest, src, nreduce, op, type);
    else if (alg == COLL_ALG_SHM)
        coll_grp_reduce_shm(g, dest, src, nreduce, op, type);
    else if (alg == COLL_ALG_LINEAR)
        coll_grp_reduce_linear(g, dest, src, nreduce, op, type);
    else
        reduce_tree(g, dest, src, nreduce, op, type, alg == COLL_ALG_RABENSEIFNER);
    /* A member's dest is still written after another member may have returned (the
     * owners' slices, Rabenseifner's allgather, a folded member's result, or a member's
     * own copy of the result after its last wait), and that member's next collective may
     * write into it (a broadcast, say): it barriers first.  The shm form ends with a
     * barrier, and linear copies before its last one unless in place. */
    if (alg != COLL_ALG_SHM && (alg != COLL_ALG_LINEAR || dest == src))
        g->unsynced |= COLL_UNSYNC_FLAT;
}

int coll_reduce(struct coll_team *team, void *dest, const void *src, size_t nreduce,
                enum coll_op op, enum coll_type type)
{
    return coll_reduce_r(NULL, team, dest, src, nreduce, op, type);
}

int coll_reduce_r(const char *r, struct coll_team *team, void *dest, const void *src,
                  size_t nreduce, enum coll_op op, enum coll_type type)
{
    if (!coll_op_valid(op, type))
        ofs_fatal(1, "internal: reduction op %d on type %d does not exist", (int)op, (int)type);
    COLL_CHECK(r, team, .kind = COLL_NBC_REDUCE, .op = op, .type = type, .nelems = nreduce);
    coll_live_enter(team, r, COLL_NBC_REDUCE, (int)op);
    coll_grp_reduce(coll_team_grp(team), dest, src, nreduce, op, type, coll_cfg.reduce);
    coll_live_leave(team);
    return 0;
}
