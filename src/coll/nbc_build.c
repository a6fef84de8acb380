/*
 * Schedule builders of the non-blocking collectives: one graph per request (nbc.h).
 *
 * Data moves by get from the owner's symmetric source once the owner said READY, and the
 * reader answers DATA when it is done, so nobody writes into memory of a PE that may not
 * have posted the request yet, and a source is free for reuse when its owner has every
 * DATA answer.  That needs no symmetric scratch space, so several requests of a team can
 * be outstanding, and blocking collectives keep their own counters and scratch.  Blocks
 * up to nbc_eager_len() go instead with their READY into the receiver's landing area, the
 * only symmetric memory a sender writes before its receiver posted (nbc.h: eager); those
 * of fcollects, alltoalls and reductions into a second area that needs no answers (nbc.h:
 * nbc_rland).
 * - team_sync: dissemination rounds (SYNC signals).
 * - broadcast: every member gets the root's source (linear; the root answers nothing).
 * - fcollect, collect, alltoall(s): every member gets its blocks from every other member
 *   (small fcollect and alltoall blocks: pushed); collect first reads each member's
 *   published length.
 * - small reductions: recursive doubling (or, on one node, all to all) through a landing
 *   area that needs no answers (nbc.h: nbc_rland); on one node above 1 KiB, in place as
 *   the blocking shared-memory one; else reduce-scatter + allgather by get.
 * - scans (and reductions without a landing area): every member gets the sources it needs
 *   into private buffers and reduces them in member order 0, 1, ..., so every PE computes
 *   the same result with the same rounding.
 * Linear algorithms: the teams this targets are small (1-8 PEs here); a tree or ring
 * builder can replace any of these without touching the engine.
 */
#include "nbc.h"

#include <stdlib.h>

/* reductions from this many bytes on 3 members or more: reduce-scatter + allgather (below,
 * and on 2 members, which move as many bytes either way: every member folds every source,
 * in fewer steps) */
#define NBC_REDUCE_RS_MIN 4096
/* reductions above this many bytes on a team whose members are all mapped: in place
 * through shared memory (build_reduce_shm) */
#define NBC_REDUCE_SHM_MIN 1024

/* small reductions on 3 members or more by recursive doubling (build_reduce_rd) rather
 * than all to all, unless every member is mapped and signals go by CPU atomics (where a
 * signal costs no message): fewer messages in all, as fast or faster over tcp (docs/nbc.md) */
static int nbc_reduce_rd(struct nbc_team *nt)
{
    return !(coll_cfg.fast_signal && coll_team_grp(nt->team)->all_local);
}

/* largest reduction by recursive doubling: its blocks (one a round, and the fold's) fit in
 * a part of the reduction landing area, and NBC_REDUCE_RS_MIN at most */
static size_t rd_max(struct nbc_team *nt)
{
    size_t blocks = 0, lim = NBC_REDUCE_RS_MIN;
    int p2 = 1;

    for (; p2 * 2 <= nt->team->size; p2 *= 2)
        blocks++;
    blocks += p2 < nt->team->size;
    if (nbc_rland_len() / blocks < lim)
        lim = (nbc_rland_len() / blocks) & ~(size_t)63;
    return lim;
}

static int grow(void **p, uint32_t *cap, size_t elem)
{
    uint32_t ncap = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, (size_t)ncap * elem);

    if (!q)
        return -1;
    *p = q;
    *cap = ncap;
    return 0;
}

int nbc_add(struct nbc_sched *s, const struct nbc_op *op, int ndep, const int *deps)
{
    struct nbc_op *o;

    if (s->nops == s->cap && grow((void **)&s->ops, &s->cap, sizeof(*s->ops)))
        return -1;
    o = &s->ops[s->nops];
    *o = *op;
    s->bytes += nbc_op_bytes(op);
    o->done = 0;
    o->issued = 0;
    o->dep0 = s->ndeps;
    o->ndeps = 0;
    for (int i = 0; i < ndep; i++) {
        if (deps[i] < 0)
            continue;
        if (s->ndeps == s->dcap && grow((void **)&s->deps, &s->dcap, sizeof(*s->deps)))
            return -1;
        s->deps[s->ndeps++] = (uint32_t)deps[i];
        o->ndeps++;
    }
    return (int)s->nops++;
}

void nbc_expect(struct nbc_team *nt, int cls, int peer)
{
    size_t i = (size_t)cls * (size_t)nt->team->size + (size_t)peer;
    uint64_t c = ++nt->xcnt[i];

    nt->xsum[i] = (nt->xsum[i] + nt->hcur) & 0xffffffu;
    nt->xhist[i * NBC_XHIST + c % NBC_XHIST] = c << 24 | nt->xsum[i];
}

int nbc_add_wait(struct nbc_sched *s, struct nbc_team *nt, int cls, int peer, int ndep,
                 const int *deps)
{
    struct nbc_op op = { .kind = NBC_OP_WAIT, .cls = (uint8_t)cls, .peer = peer };
    uint64_t *seen = &nt->seen[(size_t)cls * (size_t)nt->team->size + (size_t)peer];

    if (cls == NBC_C_DATA) { /* and the answers owed to my earlier eager puts */
        *seen += nt->owed[peer];
        nt->owed[peer] = 0;
    }
    op.target = ++*seen;
    nbc_expect(nt, cls, peer); /* (the owed answers were expected with their puts) */
    return nbc_add(s, &op, ndep, deps);
}

static int add_sig(struct nbc_sched *s, int cls, int peer, int dep)
{
    struct nbc_op op = { .kind = NBC_OP_SIG, .cls = (uint8_t)cls, .peer = peer };
    return nbc_add(s, &op, 1, &dep);
}

static int add_get(struct nbc_sched *s, void *dst, const void *src, size_t len, int peer, int dep)
{
    struct nbc_op op = { .kind = NBC_OP_GET, .dst = dst, .src = src, .len = len, .peer = peer };
    return nbc_add(s, &op, 1, &dep);
}

static int add_copy(struct nbc_sched *s, void *dst, const void *src, size_t len, int ndep,
                    const int *deps)
{
    struct nbc_op op = { .kind = NBC_OP_COPY, .dst = dst, .src = src, .len = len };
    return nbc_add(s, &op, ndep, deps);
}

/* term j of a fold in member order: the first is copied into acc, the others reduced */
static int add_fold(struct nbc_sched *s, char *acc, const char *term, size_t len, size_t nel,
                    enum coll_op op, enum coll_type type, int j, const int *deps)
{
    struct nbc_op r = { .kind = NBC_OP_REDUCE,
                        .dst = acc,
                        .src = term,
                        .nel = nel,
                        .rop = (uint8_t)op,
                        .rtype = (uint8_t)type };

    if (j == 0)
        return add_copy(s, acc, term, len, 2, deps);
    return nbc_add(s, &r, 2, deps);
}

/* ---- eager (nbc.h): one message per pair, for blocks of up to nbc_eager_len() ---- */

/* the first of the units that a block of len takes at *cur (advanced past them) */
static uint32_t eager_units(uint64_t *cur, size_t len, uint32_t *w)
{
    uint32_t u = (uint32_t)*cur;

    *w = len <= nbc_eager_len() / NBC_EAGER_SUB ? 1 : NBC_EAGER_SUB;
    u = (u + *w - 1) / *w * *w % NBC_EAGER_UNITS;
    *cur = (u + *w) % NBC_EAGER_UNITS;
    return u;
}

/* my block into member j's next landing units, with READY, once j answered the blocks
 * those units held */
static int eager_put(struct nbc_sched *s, struct nbc_team *nt, int j, const void *src, size_t len)
{
    uint32_t w, u = eager_units(&nt->ecur[j], len, &w);
    uint64_t *units = nt->eunit + (size_t)j * NBC_EAGER_UNITS, need = 0;
    struct nbc_op op = { .kind = NBC_OP_PUTSIG,
                         .cls = NBC_C_READY,
                         .peer = j,
                         .dst = nbc_land(nt, nt->team->my_pe, u),
                         .src = src,
                         .len = len };
    int wt = -1, p;

    for (uint32_t i = u; i < u + w; i++)
        if (units[i] > need)
            need = units[i];
    /* block need - 1 held them; the answers owed are those of the last owed[j] blocks */
    if (need && need > nt->esent[j] - nt->owed[j]) {
        struct nbc_op o = { .kind = NBC_OP_WAIT, .cls = NBC_C_DATA, .peer = j };
        uint64_t *seen = &nt->seen[(size_t)NBC_C_DATA * (size_t)nt->team->size + (size_t)j];
        uint64_t absorb = need - (nt->esent[j] - nt->owed[j]);
        *seen += absorb;
        nt->owed[j] -= absorb;
        o.target = *seen;
        if ((wt = nbc_add(s, &o, 0, NULL)) < 0)
            return -1;
    }
    for (uint32_t i = u; i < u + w; i++)
        units[i] = nt->esent[j] + 1;
    nt->esent[j]++;
    p = nbc_add(s, &op, 1, &wt);
    if (p >= 0) {
        nt->owed[j]++;
        nbc_expect(nt, NBC_C_DATA, j); /* its answer: j's request of this number */
    }
    return p;
}

/* wait for member j's eager block (READY); returns the wait */
static int eager_wait(struct nbc_sched *s, struct nbc_team *nt, int j)
{
    return nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL);
}

/* member j's eager block out of my landing area into dst, then the answer */
static int eager_take(struct nbc_sched *s, struct nbc_team *nt, int j, void *dst, size_t len)
{
    uint32_t units;
    int w = eager_wait(s, nt, j), c;

    c = add_copy(s, dst, nbc_land(nt, j, eager_units(&nt->erecv[j], len, &units)), len, 1, &w);
    if (w < 0 || c < 0 || add_sig(s, NBC_C_DATA, j, c) < 0)
        return -1;
    return c;
}

/* my block into member j's reduction landing area (part r mod 2, at off), with RED */
static int red_put(struct nbc_sched *s, struct nbc_team *nt, uint64_t r, size_t off, int j,
                   const void *src, size_t len, int dep)
{
    struct nbc_op op = { .kind = NBC_OP_PUTSIG,
                         .cls = NBC_C_RED,
                         .peer = j,
                         .dst = nbc_rland(nt, r, off),
                         .src = src,
                         .len = len };
    return nbc_add(s, &op, 1, &dep);
}

/* broadcast: the root's block into every member's landing slot; the root completes at once */
static int build_eager_bcast(struct nbc_sched *s, struct nbc_team *nt,
                             const struct coll_nbc_args *a)
{
    int n = nt->team->size, me = nt->team->my_pe;
    size_t len = a->nelems * a->es;

    if (me != a->root)
        return eager_take(s, nt, a->root, a->dest, len) < 0 ? -1 : 0;
    for (int k = 1; k < n; k++)
        if (eager_put(s, nt, (me + k) % n, a->src, len) < 0)
            return -1;
    return a->dest != a->src && len && add_copy(s, a->dest, a->src, len, 0, NULL) < 0 ? -1 : 0;
}

/* fcollect, alltoall (a2a: my block for j is src + j x len): every member's result needs a
 * block of every member, so they go through the area that needs no answers (nbc_rland),
 * each block at (sender x len): one message per pair */
static int build_eager_data(struct nbc_sched *s, struct nbc_team *nt, const struct coll_nbc_args *a,
                            int a2a)
{
    int n = nt->team->size, me = nt->team->my_pe;
    size_t len = a->nelems * a->es;
    uint64_t r = nt->nred++;
    char *dest = a->dest;
    const char *src = a->src;

    for (int k = 1; k < n; k++) {
        int j = (me + k) % n;
        if (red_put(s, nt, r, (size_t)me * len, j, a2a ? src + (size_t)j * len : src, len, -1) < 0)
            return -1;
    }
    if (len &&
        add_copy(s, dest + (size_t)me * len, a2a ? src + (size_t)me * len : src, len, 0, NULL) < 0)
        return -1;
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n, w = nbc_add_wait(s, nt, NBC_C_RED, j, 0, NULL);
        if (w < 0 || (len && add_copy(s, dest + (size_t)j * len, nbc_rland(nt, r, (size_t)j * len),
                                      len, 1, &w) < 0))
            return -1;
    }
    return 0;
}

/* reduction, all to all: my source to every member's reduction landing area, then every
 * member's block folded in member order (every PE computes the same result with the same
 * rounding); the result goes to dest (which may be source) once every put has read it.
 * Nobody answers (nbc_rland), so one message per pair. */
static int build_eager_reduce(struct nbc_sched *s, struct nbc_team *nt,
                              const struct coll_nbc_args *a, int *idx)
{
    int n = nt->team->size, me = nt->team->my_pe, prev = -1, np = 0;
    size_t len = a->nelems * a->es;
    uint64_t r = nt->nred++;
    char *acc;

    if (!nbc_tmp_get(s, len))
        return -1;
    s->mem += len;
    acc = s->tmp;
    for (int k = 1; k < n; k++)
        if ((idx[np++] = red_put(s, nt, r, (size_t)me * len, (me + k) % n, a->src, len, -1)) < 0)
            return -1;
    for (int j = 0; j < n; j++) {
        const char *term = j == me ? a->src : nbc_rland(nt, r, (size_t)j * len);
        int deps[2] = { prev, j == me ? -1 : nbc_add_wait(s, nt, NBC_C_RED, j, 0, NULL) };
        if (j != me && deps[1] < 0)
            return -1;
        prev = add_fold(s, acc, term, len, a->nelems, a->op, a->type, j, deps);
        if (prev < 0)
            return -1;
    }
    idx[np++] = prev;
    return len && add_copy(s, a->dest, acc, len, np, idx) < 0 ? -1 : 0;
}

/* reduction by recursive doubling, as the blocking one over the fabric (coll_reduce.c):
 * round k exchanges the partial result with member me ^ 2^k through the reduction landing
 * areas; a team of n = p2 + rem members first folds member p2 + i into member i, which
 * sends it the result at the end.  log2(p2) messages per member in as many steps instead
 * of n - 1 at once; both partners of a round fold the same two values (the operators are
 * commutative), so every member ends with the same result. */
static int build_reduce_rd(struct nbc_sched *s, struct nbc_team *nt, const struct coll_nbc_args *a)
{
    int n = nt->team->size, me = nt->team->my_pe, p2 = 1, prev, w, deps[2];
    int L = 0; /* rounds: the block of round k at k x len, the fold's at L x len */
    size_t len = a->nelems * a->es;
    uint64_t r = nt->nred++;
    struct nbc_op fold = {
        .kind = NBC_OP_REDUCE, .nel = a->nelems, .rop = (uint8_t)a->op, .rtype = (uint8_t)a->type
    };
    char *acc;

    while (p2 * 2 <= n)
        p2 *= 2, L++;
    if (me >= p2) { /* folded in: my source to member me - p2, the result back */
        int p = red_put(s, nt, r, (size_t)L * len, me - p2, a->src, len, -1);
        deps[0] = p;
        deps[1] = nbc_add_wait(s, nt, NBC_C_RED, me - p2, 0, NULL);
        if (p < 0 || deps[1] < 0)
            return -1;
        return len && add_copy(s, a->dest, nbc_rland(nt, r, (size_t)L * len), len, 2, deps) < 0 ? -1
                                                                                                : 0;
    }
    if (!nbc_tmp_get(s, len ? len : 1))
        return -1;
    s->mem += len;
    acc = s->tmp;
    fold.dst = acc;
    if ((prev = add_copy(s, acc, a->src, len, 0, NULL)) < 0)
        return -1;
    if (me + p2 < n) {
        deps[0] = prev;
        deps[1] = nbc_add_wait(s, nt, NBC_C_RED, me + p2, 0, NULL);
        fold.src = nbc_rland(nt, r, (size_t)L * len);
        if (deps[1] < 0 || (prev = nbc_add(s, &fold, 2, deps)) < 0)
            return -1;
    }
    for (int k = 0; k < L; k++) {
        int j = me ^ (1 << k);
        deps[0] = red_put(s, nt, r, (size_t)k * len, j, acc, len, prev);
        deps[1] = nbc_add_wait(s, nt, NBC_C_RED, j, 0, NULL);
        fold.src = nbc_rland(nt, r, (size_t)k * len);
        if (deps[0] < 0 || deps[1] < 0 || (prev = nbc_add(s, &fold, 2, deps)) < 0)
            return -1;
    }
    if (me + p2 < n && red_put(s, nt, r, (size_t)L * len, me + p2, acc, len, prev) < 0)
        return -1;
    /* dest may be source: my source was read by the first copy */
    w = len ? add_copy(s, a->dest, acc, len, 1, &prev) : 0;
    return w < 0 ? -1 : 0;
}

static int build_sync(struct nbc_sched *s, struct nbc_team *nt)
{
    int n = nt->team->size, me = nt->team->my_pe, prev = -1;

    for (int d = 1; d < n; d <<= 1) {
        int sig = add_sig(s, NBC_C_SYNC, (me + d) % n, prev);
        prev = nbc_add_wait(s, nt, NBC_C_SYNC, (me - d + n) % n, 1, &sig);
        if (sig < 0 || prev < 0)
            return -1;
    }
    return 0;
}

/* every member j (but me) for which want[j]: READY from me */
static int ready_all(struct nbc_sched *s, struct nbc_team *nt, const char *want, int dep)
{
    for (int j = 0; j < nt->team->size; j++)
        if (j != nt->team->my_pe && want[j] && add_sig(s, NBC_C_READY, j, dep) < 0)
            return -1;
    return 0;
}

/* fcollect or alltoall above the eager size over a fabric: READY to every member (my
 * dest may be written), then my block into each member's dest with its DATA signal once
 * that member said READY; done when every member's block arrived (its DATA).  Two
 * dependent messages per pair, where a get needs four (READY, the read and its answer,
 * DATA).  Through shared memory a get is one copy: the engine keeps gets there. */
static int build_push_data(struct nbc_sched *s, struct nbc_team *nt, const struct coll_nbc_args *a,
                           int a2a, char *want)
{
    int n = nt->team->size, me = nt->team->my_pe;
    size_t len = a->nelems * a->es;
    char *dest = a->dest;
    const char *src = a->src;

    memset(want, 1, (size_t)n);
    if (ready_all(s, nt, want, -1) < 0)
        return -1;
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n, w = nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL);
        struct nbc_op p = { .kind = NBC_OP_PUTSIG,
                            .cls = NBC_C_DATA,
                            .peer = j,
                            .dst = dest + (size_t)me * len,
                            .src = a2a ? src + (size_t)j * len : src,
                            .len = len };
        if (w < 0 || nbc_add(s, &p, 1, &w) < 0)
            return -1;
    }
    if (len &&
        add_copy(s, dest + (size_t)me * len, a2a ? src + (size_t)me * len : src, len, 0, NULL) < 0)
        return -1;
    for (int j = 0; j < n; j++)
        if (j != me && nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL) < 0)
            return -1;
    return 0;
}

/* read one block of member j once it said READY, then answer DATA; returns the read */
static int read_from(struct nbc_sched *s, struct nbc_team *nt, struct nbc_op *rd, int j)
{
    int w = nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL), g;

    rd->peer = j;
    g = nbc_add(s, rd, 1, &w);
    if (w < 0 || g < 0 || add_sig(s, NBC_C_DATA, j, g) < 0)
        return -1;
    return g;
}

/* The same with my slice of the result pushed (slices up to SHMEM_COLL_SEGMENT, one
 * message each, over a fabric): slice me of every source is read once its owner said
 * READY, the reads in flight together, and folded in member order; the result goes into
 * my dest and, with its DATA signal, into every member's dest.  A member's DATA says both
 * that it read my source (its push waits for its fold, which waits for its reads) and
 * that my dest holds its slice; in place, what it overwrites in my dest is the slice of
 * my source that it alone reads, and has read.  Four dependent legs (READY, the read and
 * its answer, the push) instead of six. */
static int build_reduce_rs_push(struct nbc_sched *s, struct nbc_team *nt,
                                const struct coll_nbc_args *a, int *idx)
{
    int n = nt->team->size, me = nt->team->my_pe, prev = -1, cp;
    size_t es = a->es, base = a->nelems / (size_t)n, extra = a->nelems % (size_t)n;
    size_t cnt_me = base + ((size_t)me < extra), len_me = cnt_me * es;
    size_t off_me = ((size_t)me * base + ((size_t)me < extra ? (size_t)me : extra)) * es;
    char *dest = a->dest, *acc;
    const char *src = a->src;

    if (!nbc_tmp_get(s, (size_t)n * len_me)) /* the fold, then each member's slice */
        return -1;
    s->mem += (size_t)n * len_me;
    acc = s->tmp;
    for (int j = 0; j < n; j++)
        if (j != me && add_sig(s, NBC_C_READY, j, -1) < 0)
            return -1;
/* member j's slice in acc: after the fold's, the others' in member order */
#define SLOT(j) (acc + (size_t)((j) < me ? (j) + 1 : (j)) * len_me)
    for (int j = 0; j < n; j++) {
        struct nbc_op rd = {
            .kind = NBC_OP_GET, .dst = SLOT(j), .src = src + off_me, .len = len_me, .peer = j
        };
        int w;
        idx[j] = -1;
        if (j == me)
            continue;
        w = nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL);
        idx[j] = w < 0 ? -1 : nbc_add(s, &rd, 1, &w);
        if (idx[j] < 0)
            return -1;
    }
    for (int j = 0; j < n; j++) {
        const char *term = j == me ? src + off_me : SLOT(j);
        int deps[2] = { prev, idx[j] };
        prev = add_fold(s, acc, term, len_me, cnt_me, (enum coll_op)a->op, (enum coll_type)a->type,
                        j, deps);
        if (prev < 0)
            return -1;
    }
    cp = len_me ? add_copy(s, dest + off_me, acc, len_me, 1, &prev) : prev;
    if (cp < 0)
        return -1;
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n;
        struct nbc_op p = { .kind = NBC_OP_PUTSIG,
                            .cls = NBC_C_DATA,
                            .peer = j,
                            .dst = dest + off_me,
                            .src = acc,
                            .len = len_me };
        if (nbc_add(s, &p, 1, &prev) < 0)
            return -1;
    }
    for (int j = 0; j < n; j++)
        if (j != me && nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL) < 0)
            return -1;
    return 0;
#undef SLOT
}

/* Reduce of a long vector: reduce-scatter then allgather, both by get.  Member i folds
 * slice i of every source (in member order) into private memory, copies it into its own
 * dest and says READY again; every member then gets slice j from member j's dest once j
 * said so and once j has read slice j of its source (dest may be source).  2 x len bytes
 * move per member instead of n x len, and each folds len / n bytes. */
static int build_reduce_rs(struct nbc_sched *s, struct nbc_team *nt, const struct coll_nbc_args *a)
{
    int n = nt->team->size, me = nt->team->my_pe, prev = -1, cp;
    size_t es = a->es, base = a->nelems / (size_t)n, extra = a->nelems % (size_t)n;
    size_t cnt_me = base + ((size_t)me < extra), off_me, len_me = cnt_me * es;
    char *dest = a->dest, *acc, *bufs;
    const char *src = a->src;
#define SLICE_OFF(i) ((size_t)(i)*base + ((size_t)(i) < extra ? (size_t)(i) : extra))

    off_me = SLICE_OFF(me);
    if (!nbc_tmp_get(s, 2 * len_me)) /* the fold, and a fetched slice where not mapped */
        return -1;
    s->mem += 2 * len_me;
    acc = s->tmp;
    bufs = acc + len_me;
    for (int j = 0; j < n; j++)
        if (j != me && add_sig(s, NBC_C_READY, j, -1) < 0)
            return -1;
    /* fold slice me of every source in member order, each read where it lies once its
     * owner said READY (in place through shared memory when mapped), then answer DATA */
    for (int j = 0; j < n; j++) {
        int deps[2] = { prev, -1 };
        if (j != me && (deps[1] = nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL)) < 0)
            return -1;
        if (j == 0 && j == me) {
            prev = add_copy(s, acc, src + off_me * es, len_me, 2, deps);
        } else if (j == 0) {
            struct nbc_op rd = {
                .kind = NBC_OP_GET, .dst = acc, .src = src + off_me * es, .len = len_me, .peer = j
            };
            prev = nbc_add(s, &rd, 2, deps);
        } else {
            struct nbc_op r = { .kind = NBC_OP_REDUCE,
                                .dst = acc,
                                .src = src + off_me * es,
                                .nel = cnt_me,
                                .rop = (uint8_t)a->op,
                                .rtype = (uint8_t)a->type,
                                .cls = j != me,
                                .peer = j,
                                .buf = bufs };
            prev = nbc_add(s, &r, 2, deps);
        }
        if (prev < 0 || (j != me && add_sig(s, NBC_C_DATA, j, prev) < 0))
            return -1;
    }
    cp = len_me ? add_copy(s, dest + off_me * es, acc, len_me, 1, &prev) : prev;
    if (len_me && cp < 0)
        return -1;
    for (int j = 0; j < n; j++)
        if (j != me && add_sig(s, NBC_C_READY, j, cp) < 0)
            return -1;
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n, deps[2], g;
        size_t cnt_j = base + ((size_t)j < extra);
        struct nbc_op rd = { .kind = NBC_OP_GET,
                             .dst = dest + SLICE_OFF(j) * es,
                             .src = dest + SLICE_OFF(j) * es,
                             .len = cnt_j * es,
                             .peer = j };
        deps[0] = nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL);  /* j read my slice j */
        deps[1] = nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL); /* j's slice is ready */
        g = nbc_add(s, &rd, 2, deps);
        if (deps[0] < 0 || deps[1] < 0 || g < 0 || add_sig(s, NBC_C_DATA, j, g) < 0)
            return -1;
    }
    /* my dest slice stays as it is until every member has read it */
    for (int j = 0; j < n; j++)
        if (j != me && nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL) < 0)
            return -1;
    return 0;
#undef SLICE_OFF
}

/* Reduction on a team whose members are all mapped (same node, signals by CPU atomics):
 * as the blocking shared-memory reduction (coll_grp_reduce_shm), member i folds slice i
 * of every member's source, read in place, and stores the result into slice i of every
 * member's dest.  READY says "my source is posted and my dest may be written", DATA "I
 * read my slice of your source and wrote it into your dest": no private memory, two
 * signal rounds, each byte read once and written n times. */
static int build_reduce_shm(struct nbc_sched *s, struct nbc_team *nt, const struct coll_nbc_args *a,
                            int *idx)
{
    int n = nt->team->size, me = nt->team->my_pe, w = 0, op;
    size_t base = a->nelems / (size_t)n, extra = a->nelems % (size_t)n;
    size_t off = (size_t)me * base + ((size_t)me < extra ? (size_t)me : extra);
    struct nbc_op r = { .kind = NBC_OP_SHMRED,
                        .dst = (char *)a->dest + off * a->es,
                        .src = (const char *)a->src + off * a->es,
                        .nel = base + ((size_t)me < extra),
                        .rop = (uint8_t)a->op,
                        .rtype = (uint8_t)a->type };

    for (int j = 0; j < n; j++)
        if (j != me && add_sig(s, NBC_C_READY, j, -1) < 0)
            return -1;
    for (int j = 0; j < n; j++)
        if (j != me && (idx[w++] = nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL)) < 0)
            return -1;
    if ((op = nbc_add(s, &r, w, idx)) < 0)
        return -1;
    for (int j = 0; j < n; j++)
        if (j != me && add_sig(s, NBC_C_DATA, j, op) < 0)
            return -1;
    for (int j = 0; j < n; j++)
        if (j != me && nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL) < 0)
            return -1;
    return 0;
}

ofs_status_t nbc_build(struct coll_nbc_req *q, const struct coll_nbc_args *a)
{
    struct nbc_sched *s = &q->s;
    struct nbc_team *nt = q->nt;
    int n = nt->team->size, me = nt->team->my_pe, rc = 0, eager;
    size_t len = a->nelems * a->es;
    char *dest = a->dest;
    const char *src = a->src;
    /* small teams: on the stack (no malloc per request) */
    char want_s[64];
    int idx_s[65];
    char *want = n <= 64 ? want_s : calloc((size_t)n, 1);
    int *idx = n <= 64 ? idx_s : calloc((size_t)n + 1, sizeof(int));

    if (!want || !idx)
        goto nomem;
    memset(want, 0, (size_t)n);
    {
        /* the request's hash: its number among the team's schedules and what it is
         * (a finalizer of splitmix64), never 0 */
        uint64_t x = ++nt->nsched * 0x9e3779b97f4a7c15ULL ^ (s->sig = nbc_sig_of(a));
        x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ x >> 27) * 0x94d049bb133111ebULL;
        x ^= x >> 31;
        nt->hcur = (uint32_t)(x >> 40) | 1;
        s->h = nt->hcur;
    }
    eager = nbc_eager_len() && len <= nbc_eager_len() &&
            (!coll_cfg.fast_signal || len <= NBC_EAGER_SHM_MAX);
    switch (a->kind) {
    case COLL_NBC_SYNC: rc = build_sync(s, nt); break;

    case COLL_NBC_BCAST:
        if (eager) {
            rc = build_eager_bcast(s, nt, a);
        } else if (me == a->root) {
            memset(want, 1, (size_t)n);
            rc = ready_all(s, nt, want, -1);
            /* answers: from every member but me */
            for (int j = 0; j < n && !rc; j++)
                if (j != me && nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL) < 0)
                    rc = -1;
            if (!rc && dest != src && len)
                rc = add_copy(s, dest, src, len, 0, NULL) < 0;
        } else if (len) {
            struct nbc_op rd = { .kind = NBC_OP_GET, .dst = dest, .src = src, .len = len };
            rc = read_from(s, nt, &rd, a->root) < 0;
        } else {
            /* zero bytes: still one READY/DATA pair, as the root expects */
            struct nbc_op rd = { .kind = NBC_OP_COPY };
            rc = read_from(s, nt, &rd, a->root) < 0;
        }
        break;

    case COLL_NBC_FCOLLECT:
    case COLL_NBC_ALLTOALL:
    case COLL_NBC_ALLTOALLS: {
        int a2a = a->kind != COLL_NBC_FCOLLECT, strided = a->kind == COLL_NBC_ALLTOALLS;
        size_t dblk = strided ? a->nelems * (size_t)a->dst * a->es : len;
        size_t sblk = strided ? a->nelems * (size_t)a->sst * a->es : len;

        if (eager && !strided) {
            rc = build_eager_data(s, nt, a, a2a);
            break;
        }
        if (!strided && !coll_cfg.fast_signal && coll_cfg.seg && len <= coll_cfg.seg) {
            rc = build_push_data(s, nt, a, a2a, want);
            break;
        }
        memset(want, 1, (size_t)n);
        rc = ready_all(s, nt, want, -1);
        for (int k = 0; k < n && !rc; k++) {
            int j = (me + k) % n;
            struct nbc_op rd = { .kind = strided ? NBC_OP_IGET : NBC_OP_GET,
                                 .dst = dest + (size_t)j * dblk,
                                 .src = a2a ? src + (size_t)me * sblk : src,
                                 .len = len,
                                 .nel = a->nelems,
                                 .es = a->es,
                                 .dstr = a->dst,
                                 .sstr = a->sst };
            if (j == me) {
                rd.src = a2a ? src + (size_t)me * sblk : src;
                if (strided) {
                    rd.peer = me; /* a strided get from myself: the engine copies */
                    rc = nbc_add(s, &rd, 0, NULL) < 0;
                } else if (len) {
                    rc = add_copy(s, rd.dst, rd.src, len, 0, NULL) < 0;
                }
                continue;
            }
            rc = read_from(s, nt, &rd, j) < 0;
        }
        for (int j = 0; j < n && !rc; j++)
            if (j != me && nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL) < 0)
                rc = -1;
        break;
    }

    case COLL_NBC_COLLECT: {
        /* lens[n], where each source lies (read only when mine is NULL: I give nothing and
         * know no symmetric source to read the others' from), my two published words */
        uint64_t *lens = nbc_tmp_get(s, (2 * (size_t)n + 2) * sizeof(uint64_t));
        uint64_t *locs = lens + n, *mine = locs + n;
        size_t soff = 0;
        int pub, chk = -1, *gl = idx, sseg = src ? heap_seg_of(src, len, &soff) : -1;

        if (!lens)
            goto nomem;
        s->mem += (2 * (size_t)n + 2) * sizeof(uint64_t);
        lens[me] = mine[0] = a->nelems;
        mine[1] = sseg < 0 ? UINT64_MAX : NBC_LOC(sseg, soff);
        pub = add_copy(s, nbc_pub(nt), mine, 2 * sizeof(uint64_t), 0, NULL);
        memset(want, 1, (size_t)n);
        rc = pub < 0 || ready_all(s, nt, want, pub);
        for (int j = 0; j < n && !rc; j++) {
            int w;
            if (j == me) {
                gl[j] = -1;
                continue;
            }
            w = nbc_add_wait(s, nt, NBC_C_READY, j, 0, NULL);
            gl[j] = add_get(s, &lens[j], nbc_pub(nt), sizeof(uint64_t), j, w);
            if (sseg < 0 && gl[j] >= 0)
                gl[j] = add_get(s, &locs[j], nbc_pub(nt) + 1, sizeof(uint64_t), j, gl[j]);
            rc = w < 0 || gl[j] < 0;
        }
        if (!rc && a->check) {
            struct nbc_op c = { .kind = NBC_OP_CHECK,
                                .dst = dest,
                                .lens = lens,
                                .es = a->es,
                                .nel = a->nelems,
                                .check = a->check,
                                .r = q->routine };
            chk = nbc_add(s, &c, n, gl);
            rc = chk < 0;
        } else if (!rc) {
            /* no check: the blocks wait for every length */
            struct nbc_op c = { .kind = NBC_OP_COPY };
            chk = nbc_add(s, &c, n, gl);
            rc = chk < 0;
        }
        for (int k = 0; k < n && !rc; k++) {
            int j = (me + k) % n, g;
            struct nbc_op rd = { .kind = NBC_OP_GETV,
                                 .dst = dest,
                                 .src = src,
                                 .es = a->es,
                                 .lens = lens,
                                 .cls = sseg < 0,
                                 .peer = j };
            g = nbc_add(s, &rd, 1, &chk);
            rc = g < 0 || (j != me && add_sig(s, NBC_C_DATA, j, g) < 0);
        }
        for (int j = 0; j < n && !rc; j++)
            if (j != me && nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL) < 0)
                rc = -1;
        break;
    }

    case COLL_NBC_REDUCE:
        if (n > 1 && len > NBC_REDUCE_SHM_MIN && coll_cfg.fast_signal &&
            coll_team_grp(nt->team)->all_local) {
            rc = build_reduce_shm(s, nt, a, idx);
            break;
        }
        if (n > 2 && len <= rd_max(nt) && nbc_reduce_rd(nt)) {
            rc = build_reduce_rd(s, nt, a);
            break;
        }
        if (n > 2 && len >= NBC_REDUCE_RS_MIN) {
            if (!coll_cfg.fast_signal && coll_cfg.seg && len / (size_t)n + a->es <= coll_cfg.seg)
                rc = build_reduce_rs_push(s, nt, a, idx);
            else
                rc = build_reduce_rs(s, nt, a);
            break;
        }
        if (eager) {
            rc = build_eager_reduce(s, nt, a, idx);
            break;
        }
        /* fall through */
    case COLL_NBC_SCAN: {
        int scan = a->kind == COLL_NBC_SCAN;
        /* members whose source I read: all (reduce), those before me (scan); the last
         * term of the fold: n - 1, me (inclusive scan), me - 1 (exclusive scan) */
        int last = !scan ? n - 1 : a->exclusive ? me - 1 : me;
        enum coll_op op = scan ? COLL_OP_SUM : a->op;
        char *acc, *bufs;
        int prev = -1, *g = idx;

        if (!nbc_tmp_get(s, ((size_t)n + 1) * len))
            goto nomem;
        s->mem += ((size_t)n + 1) * len;
        acc = s->tmp;
        bufs = acc + len;
        for (int j = 0; j < n; j++)
            want[j] = scan ? j > me : 1;
        rc = ready_all(s, nt, want, -1);
        for (int k = 1; k < n && !rc; k++) {
            int j = (me + k) % n;
            struct nbc_op rd = {
                .kind = NBC_OP_GET, .dst = bufs + (size_t)j * len, .src = src, .len = len
            };
            g[j] = -1;
            if (scan && j > me)
                continue;
            g[j] = read_from(s, nt, &rd, j);
            rc = g[j] < 0;
        }
        g[me] = -1;
        for (int j = 0; j <= last && !rc && len; j++) {
            const char *term = j == me ? src : bufs + (size_t)j * len;
            int deps[2] = { prev, g[j] };
            prev = add_fold(s, acc, term, len, a->nelems, op, a->type, j, deps);
            rc = prev < 0;
        }
        /* the final copy waits for every reader of my source: dest may be source */
        for (int j = 0; j < n && !rc; j++)
            want[j] = j != me && (!scan || j > me);
        if (!rc) {
            int w = 0;
            for (int j = 0; j < n && !rc; j++) {
                if (!want[j])
                    continue;
                idx[w] = nbc_add_wait(s, nt, NBC_C_DATA, j, 0, NULL);
                rc = idx[w++] < 0;
            }
            idx[w++] = prev;
            if (!rc && len)
                rc = add_copy(s, dest, acc, len, w, idx) < 0;
        }
        break;
    }
    }
    if (n > 64) {
        free(want);
        free(idx);
    }
    if (rc)
        return OFS_ERR_NOMEM;
    s->mem += (size_t)s->cap * sizeof(*s->ops) + (size_t)s->dcap * sizeof(*s->deps);
    return OFS_OK;

nomem:
    if (n > 64) {
        free(want);
        free(idx);
    }
    return OFS_ERR_NOMEM;
}
