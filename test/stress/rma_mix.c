/*
 * Randomized stress of the point-to-point API (RMA, AMOs, signals, ordering, wait/test,
 * symmetric memory), written from the OpenSHMEM 1.5/1.6 specification and the man pages
 * only ("test like a stranger").
 *
 * The program runs episodes.  Every PE draws the kind and the shared parameters of an
 * episode from one seeded PRNG (the same on every PE: sizes of symmetric allocations,
 * team changes, targets); what a PE does inside the episode comes from a stream of its
 * own keyed by (seed, episode, PE), so that any other PE can replay it to know what it
 * must find in memory.  Kinds:
 * - rma: every PE puts into its slot on 1-4 targets (shifts from the shared stream, 0 is
 *   itself; or all PEs into one PE), all outstanding before one quiet, and gets from
 *   another's exposed area (or all from one PE): typed put/get/p/g on every standard
 *   RMA type, putmem/getmem at misaligned byte offsets, put8..128/get8..128, the _nbi
 *   forms, iput/iget (typed and sized) with strides from 1 to 4096, ibput/ibget (1.6)
 *   with random block sizes and strides, sizes 0 (NULL pointers) to 1 MiB+1; sources in
 *   the same symmetric block as the target slot, or private memory; on a random context;
 *   the whole slot and 64 guard bytes either side are checked byte for byte;
 * - amo: every standard, extended and bitwise AMO (and the _nbi fetching forms) on every
 *   type of its table, many PEs on the same words of one PE (itself included) or each PE
 *   on its neighbour's; checked against exact models: sums, distinct fetched values and
 *   the chain of fetch-adds, own bits under and/or/xor, conservation of the tokens of
 *   swap/compare_swap, CAS-loop counters, set/fetch; words 8 bytes apart or packed at
 *   their size, the bytes around them checked;
 * - sig: rounds of put_signal(_nbi) (typed, sized, mem; SET and ADD; size 0 with NULL),
 *   signal_add/set, received by signal_wait_until, wait_until, or test/signal_fetch
 *   polling loops, data checked, acknowledged back (atomic_set, p, signal_set); or every
 *   PE put-with-signal ADD into its slot of one PE (the signal reaches the sum only when
 *   every slot arrived); or one signal word updated at once by put-with-signal ADD,
 *   signal_add and uint64 AMOs from every PE; signals start at 0, just below 2^63 or
 *   high in the uint64 range;
 * - ord: rounds of data (puts, p loops, iput, nbi puts, atomic adds), shmem_fence /
 *   ctx_fence on the same context (or quiet), then a flag (p, atomic_set, atomic_inc,
 *   put; after quiet, pe_quiet or shmem_ctx_destroy the flag may use another context);
 *   the receiver waits (wait_until, test loop, g loop, signal_wait_until) and must see
 *   all data; the sender polls the acknowledgement with g() or waits on it;
 * - ilv: every PE writes every n-th element (or block) of one PE's array at the same time
 *   (iput, ibput, sized iput, put/put_nbi/p per block); neighbours must be untouched;
 * - sync: every PE owns an array of ivars of a p2p type that the others set (p,
 *   atomic_set, put; sometimes a non-satisfying value first), and waits with
 *   wait_until(_all/_any/_some)(_vector), test(_all/_any/_some)(_vector) polling loops,
 *   status masks (NULL, excluded entries never written), every cmp, comparison values
 *   anywhere in the type's range (negative, past 2^63); then checks that
 *   repeated test_any/wait_until_any calls return every satisfied index (fairness) and
 *   the edge cases (empty test sets, nelems 0);
 * - mem: shmem_malloc/calloc/align/realloc/free of random sizes, contents kept by
 *   realloc, calloc zeroed, alignment, shmem_ptr / shmem_team_ptr to every PE (non-NULL
 *   on SHMEM_TEAM_SHARED, reads through it match), shmem_addr_accessible.
 * Contexts (options 0/PRIVATE/SERIALIZED/NOSTORE, team contexts of split teams with
 * team-relative PE numbers) are created and destroyed by each PE over time; split teams
 * are destroyed and made again.  Every operation picks a context at random (NOSTORE ones
 * only for blocking gets and fetching AMOs).  Before the closing barrier of an episode
 * every live context is quieted.
 *
 *   rma_mix [--seed S] [--iters N] [--trace] [--kind K] [--from E] [--to E]
 *           [--maxbuf BYTES] [--watchdog SECONDS]
 * --kind runs only episodes of kind K (rma, amo, sig, ord, sync, mem, ilv) of the same
 * sequence (each episode draws from a stream keyed by (seed, episode));
 * --from/--to only a range; --trace prints each episode on PE 0 before it runs.  The seed
 * is printed on failure.  The watchdog (default 60 s per episode, 0: off) names the
 * episode and the step a PE is stuck in.
 */
#include <inttypes.h>
#include <shmem.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXPE 64
#define GUARD 64
#define NCTX 6
#define KMAX 160
#define MAXW 4

/* ---- PRNG ---- */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}
struct rng {
    uint64_t s;
};
static uint64_t rnd(struct rng *r)
{
    r->s += 0x9E3779B97F4A7C15ULL;
    return mix64(r->s);
}
static uint64_t rndn(struct rng *r, uint64_t n)
{
    return n ? rnd(r) % n : 0;
}
static int chance(struct rng *r, int pct)
{
    return (int)rndn(r, 100) < pct;
}

static uint64_t seed = 1;
static long iters = 300;
static int trace, wd = 60;
static long ep_from = 0, ep_to = -1;
static const char *kind_filter;
static size_t maxbuf = (1 << 20) + 64;
static int me, npes;
static long cur_ep = -1;
static const char *cur_kind = "start";
static char wd_where[160] = "";
static int fails;
static struct rng grng; /* shared: the same on every PE */
static struct rng lrng; /* this PE's own (contexts, waits) */

static struct rng pe_rng(long ep, int pe, uint64_t salt)
{
    struct rng r;
    r.s = mix64(seed ^ mix64((uint64_t)ep * 0x100000001b3ULL + (uint64_t)pe * 7919 + salt));
    return r;
}

#define FAIL(...)                                                                           \
    do {                                                                                    \
        if (++fails <= 30) {                                                                \
            fprintf(stderr, "rma_mix: PE %d seed %" PRIu64 " episode %ld (%s): ", me, seed, \
                    cur_ep, cur_kind);                                                      \
            fprintf(stderr, __VA_ARGS__);                                                   \
            fputc('\n', stderr);                                                            \
        }                                                                                   \
    } while (0)

#define WHERE(...) snprintf(wd_where, sizeof(wd_where), __VA_ARGS__)

static void on_alarm(int sig)
{
    char b[400];
    int n = snprintf(b, sizeof(b),
                     "rma_mix: PE %d seed %" PRIu64 ": watchdog: stuck in episode %ld (%s), %s\n",
                     me, seed, cur_ep, cur_kind, wd_where);
    (void)sig;
    if (write(2, b, (size_t)n) < 0) {
    }
    _exit(3);
}

static void spin_a_bit(struct rng *r)
{
    int n = (int)rndn(r, 4);
    if (n == 0)
        return;
    volatile unsigned x = 0;
    for (unsigned i = 0; i < (unsigned)rndn(r, 20000); i++)
        x += i;
    if (n == 3)
        usleep((useconds_t)rndn(r, 300));
}

/* ---- types ---- */
/* kind: i integer, f float, d double, l long double; P: point-to-point sync type;
 * S: standard AMO; E: extended AMO; B: bitwise AMO */
#define RMA_TYPES(X)                                  \
    X(float, float, 'f', 0, 0, 1, 0)                  \
    X(double, double, 'd', 0, 0, 1, 0)                \
    X(longdouble, long double, 'l', 0, 0, 0, 0)       \
    X(char, char, 'i', 0, 0, 0, 0)                    \
    X(schar, signed char, 'i', 0, 0, 0, 0)            \
    X(short, short, 'i', 1, 0, 0, 0)                  \
    X(int, int, 'i', 1, 1, 1, 0)                      \
    X(long, long, 'i', 1, 1, 1, 0)                    \
    X(longlong, long long, 'i', 1, 1, 1, 0)           \
    X(uchar, unsigned char, 'i', 0, 0, 0, 0)          \
    X(ushort, unsigned short, 'i', 1, 0, 0, 0)        \
    X(uint, unsigned int, 'i', 1, 1, 1, 1)            \
    X(ulong, unsigned long, 'i', 1, 1, 1, 1)          \
    X(ulonglong, unsigned long long, 'i', 1, 1, 1, 1) \
    X(int8, int8_t, 'i', 0, 0, 0, 0)                  \
    X(int16, int16_t, 'i', 0, 0, 0, 0)                \
    X(int32, int32_t, 'i', 1, 1, 1, 1)                \
    X(int64, int64_t, 'i', 1, 1, 1, 1)                \
    X(uint8, uint8_t, 'i', 0, 0, 0, 0)                \
    X(uint16, uint16_t, 'i', 0, 0, 0, 0)              \
    X(uint32, uint32_t, 'i', 1, 1, 1, 1)              \
    X(uint64, uint64_t, 'i', 1, 1, 1, 1)              \
    X(size, size_t, 'i', 1, 1, 1, 0)                  \
    X(ptrdiff, ptrdiff_t, 'i', 1, 1, 1, 0)

enum {
#define X_ENUM(N, T, K, P, S, E, B) TY_##N,
    RMA_TYPES(X_ENUM)
#undef X_ENUM
        NT,
    TY_RAW = NT
};
static const char *tname[] = {
#define X_NAME(N, T, K, P, S, E, B) #N,
    RMA_TYPES(X_NAME)
#undef X_NAME
};
static const size_t tsize[] = {
#define X_SIZE(N, T, K, P, S, E, B) sizeof(T),
    RMA_TYPES(X_SIZE)
#undef X_SIZE
};
static const char tkind[] = {
#define X_KIND(N, T, K, P, S, E, B) K,
    RMA_TYPES(X_KIND)
#undef X_KIND
};
static const int t_p2p[] = {
#define X_P(N, T, K, P, S, E, B) P,
    RMA_TYPES(X_P)
#undef X_P
};
static const int t_std[] = {
#define X_S(N, T, K, P, S, E, B) S,
    RMA_TYPES(X_S)
#undef X_S
};
static const int t_ext[] = {
#define X_E(N, T, K, P, S, E, B) E,
    RMA_TYPES(X_E)
#undef X_E
};
static const int t_bit[] = {
#define X_B(N, T, K, P, S, E, B) B,
    RMA_TYPES(X_B)
#undef X_B
};

static int pick_type(struct rng *r, const int *set)
{
    for (;;) {
        int t = (int)rndn(r, NT);
        if (!set || set[t])
            return t;
    }
}

/* element value of type t from a hash: exact, a valid value of the type; long double
 * padding bytes are zero */
static void mkval(int t, uint64_t h, void *out)
{
    switch (tkind[t]) {
    case 'f': {
        float v = (float)((int64_t)h >> 40);
        memcpy(out, &v, sizeof v);
        break;
    }
    case 'd': {
        double v = (double)((int64_t)h >> 11);
        memcpy(out, &v, sizeof v);
        break;
    }
    case 'l': {
        long double v = (long double)(int64_t)h;
        memset(out, 0, sizeof v);
        memcpy(out, &v, 10);
        break;
    }
    default: memcpy(out, &h, tsize[t]); break; /* little endian: the low bytes */
    }
}

/* an image of cap bytes: typed elements (tail zero) or raw bytes */
static void image(unsigned char *buf, size_t cap, int t, uint64_t key)
{
    if (t == TY_RAW) {
        for (size_t i = 0; i < cap; i += 8) {
            uint64_t h = mix64(key + i);
            memcpy(buf + i, &h, cap - i < 8 ? cap - i : 8);
        }
        return;
    }
    size_t e = tsize[t], n = cap / e;
    for (size_t k = 0; k < n; k++)
        mkval(t, mix64(key + k), buf + k * e);
    memset(buf + n * e, 0, cap - n * e);
}

static void bgfill(unsigned char *buf, size_t n, uint64_t key)
{
    image(buf, n, TY_RAW, key ^ 0xb9b9b9b9ULL);
}

/* ---- teams and contexts ---- */
#define NTEAM 6
struct team {
    const char *name;
    int start, stride, size; /* in world numbers */
    shmem_team_t t;
};
static struct team teams[NTEAM];

static void team_make(int i)
{
    struct team *T = &teams[i];
    T->t = SHMEM_TEAM_INVALID;
    if (T->size < 1)
        return;
    int rc =
        shmem_team_split_strided(SHMEM_TEAM_WORLD, T->start, T->stride, T->size, NULL, 0, &T->t);
    int member =
        me >= T->start && (me - T->start) % T->stride == 0 && (me - T->start) / T->stride < T->size;
    if (rc != 0 && member)
        FAIL("shmem_team_split_strided(%s) returned %d", T->name, rc);
    if (member != (T->t != SHMEM_TEAM_INVALID))
        FAIL("team %s: member %d but handle %p", T->name, member, (void *)T->t);
    if (T->t != SHMEM_TEAM_INVALID) {
        if (shmem_team_my_pe(T->t) != (me - T->start) / T->stride ||
            shmem_team_n_pes(T->t) != T->size)
            FAIL("team %s: my_pe %d n_pes %d", T->name, shmem_team_my_pe(T->t),
                 shmem_team_n_pes(T->t));
    }
}

static void teams_init(void)
{
    teams[0] = (struct team){ "even", 0, 2, (npes + 1) / 2, 0 };
    teams[1] = (struct team){ "odd", 1, 2, npes / 2, 0 };
    teams[2] = (struct team){ "low", 0, 1, (npes + 1) / 2, 0 };
    teams[3] = (struct team){ "high", npes / 2, 1, npes - npes / 2, 0 };
    teams[4] = (struct team){ "allbut0", 1, 1, npes - 1, 0 };
    teams[5] = (struct team){ "stride3", 0, 3, (npes + 2) / 3, 0 };
    for (int i = 0; i < NTEAM; i++)
        team_make(i);
}

struct ctxe {
    shmem_ctx_t c;
    long opts;
    int team; /* -1 world (shmem_ctx_create), -2 TEAM_WORLD, -3 TEAM_SHARED, else teams[] */
};
static struct ctxe ctxs[NCTX];
static int nctx;
static int ctx_fail_create;

static shmem_team_t ctx_team_handle(int team)
{
    return team == -1 || team == -2 ? SHMEM_TEAM_WORLD
           : team == -3             ? SHMEM_TEAM_SHARED
                                    : teams[team].t;
}

static void ctx_destroy_at(int i)
{
    shmem_ctx_destroy(ctxs[i].c);
    ctxs[i] = ctxs[--nctx];
}

static void ctx_churn(void)
{
    if (!chance(&lrng, 35))
        return;
    if (nctx > 0 && (nctx == NCTX || chance(&lrng, 45))) {
        ctx_destroy_at((int)rndn(&lrng, (uint64_t)nctx));
        return;
    }
    long o = 0;
    if (chance(&lrng, 40))
        o |= SHMEM_CTX_PRIVATE;
    if (chance(&lrng, 40))
        o |= SHMEM_CTX_SERIALIZED;
    if (chance(&lrng, 20))
        o |= SHMEM_CTX_NOSTORE;
    int team = -1;
    int k = (int)rndn(&lrng, 10);
    if (k >= 4 && k < 4 + NTEAM && teams[k - 4].t != SHMEM_TEAM_INVALID)
        team = k - 4;
    else if (k == 1)
        team = -2;
    else if (k == 2)
        team = -3;
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    int rc =
        team == -1 ? shmem_ctx_create(o, &c) : shmem_team_create_ctx(ctx_team_handle(team), o, &c);
    if (rc != 0) {
        ctx_fail_create++;
        return;
    }
    if (c == SHMEM_CTX_INVALID) {
        FAIL("context creation returned 0 and SHMEM_CTX_INVALID");
        return;
    }
    shmem_team_t tt = SHMEM_TEAM_INVALID;
    if (shmem_ctx_get_team(c, &tt) != 0 || tt != ctx_team_handle(team))
        FAIL("shmem_ctx_get_team gives %p, expected %p (team %d)", (void *)tt,
             (void *)ctx_team_handle(team), team);
    ctxs[nctx++] = (struct ctxe){ c, o, team };
}

static void ctx_quiet_all(void)
{
    for (int i = 0; i < nctx; i++)
        shmem_ctx_quiet(ctxs[i].c);
    shmem_quiet();
}

/* a context on which PE `wpe` (world number) can be reached; *pe gets its number there;
 * *u is 1 when the ctx_ form is to be used. store: the op writes remote memory or needs
 * quiet for completion (no NOSTORE then). */
struct pick {
    shmem_ctx_t c;
    int u, pe, i; /* i: index in ctxs, -1 default */
};
static struct pick pick_ctx(struct rng *r, int wpe, int store)
{
    struct pick p = { SHMEM_CTX_DEFAULT, (int)rndn(r, 2), wpe, -1 };
    if (nctx == 0 || chance(r, 30))
        return p;
    int i = (int)rndn(r, (uint64_t)nctx);
    if (store && (ctxs[i].opts & SHMEM_CTX_NOSTORE))
        return p;
    shmem_team_t t = ctx_team_handle(ctxs[i].team);
    int tp = shmem_team_translate_pe(SHMEM_TEAM_WORLD, wpe, t);
    if (tp < 0)
        return p;
    if (shmem_team_translate_pe(t, tp, SHMEM_TEAM_WORLD) != wpe)
        FAIL("translate_pe round trip: world %d -> %d -> %d", wpe, tp,
             shmem_team_translate_pe(t, tp, SHMEM_TEAM_WORLD));
    p.c = ctxs[i].c;
    p.u = 1;
    p.pe = tp;
    p.i = i;
    return p;
}

static const char *ctx_desc(const struct pick *k)
{
    static char b[4][96];
    static int n;
    char *s = b[n++ & 3];
    if (k->i < 0)
        snprintf(s, 96, "default%s", k->u ? " (ctx_ form)" : "");
    else
        snprintf(s, 96, "%s%s%s%s team %s, pe %d", ctxs[k->i].team == -1 ? "created" : "team ctx",
                 ctxs[k->i].opts & SHMEM_CTX_PRIVATE ? " PRIVATE" : "",
                 ctxs[k->i].opts & SHMEM_CTX_SERIALIZED ? " SERIALIZED" : "",
                 ctxs[k->i].opts & SHMEM_CTX_NOSTORE ? " NOSTORE" : "",
                 ctxs[k->i].team == -1 || ctxs[k->i].team == -2 ? "world"
                 : ctxs[k->i].team == -3                        ? "shared"
                                                                : teams[ctxs[k->i].team].name,
                 k->pe);
    return s;
}

/* ---- transfers ---- */
enum { FORM_TYPED, FORM_SIZED, FORM_MEM };
enum { M_CONTIG, M_NBI, M_P, M_STRIDED, M_BLOCKED, M_N };
static const char *mname[] = { "contig", "nbi", "p/g", "strided", "blocked" };

struct xfer {
    int form, t, bits, m;
    size_t E, nb, bs;
    ptrdiff_t ds, ss;
    size_t doff, soff;
    int nullp;
};

static size_t x_elems(const struct xfer *x)
{
    return x->nb * x->bs;
}

static void describe(const struct xfer *x, char *b, size_t n)
{
    char w[32] = "";
    if (x->form == FORM_TYPED)
        snprintf(w, sizeof w, "%s", tname[x->t]);
    else if (x->form == FORM_SIZED)
        snprintf(w, sizeof w, "%d-bit", x->bits);
    snprintf(b, n, "%s %s %s E=%zu nb=%zu bs=%zu ds=%td ss=%td doff=%zu soff=%zu%s",
             x->form == FORM_TYPED   ? "typed"
             : x->form == FORM_SIZED ? "sized"
                                     : "mem",
             w, mname[x->m], x->E, x->nb, x->bs, x->ds, x->ss, x->doff, x->soff,
             x->nullp ? " NULL" : "");
}

static size_t pick_bytes(struct rng *r, size_t E, size_t cap)
{
    static const size_t menu[] = { 0,    1,     3,     7,     33,      4095,    4096,
                                   4097, 65535, 65536, 65537, 1048575, 1048576, 1048577 };
    size_t b;
    int k = (int)rndn(r, 14);
    if (k >= 1 && k <= 4)
        b = menu[k] * E;
    else if (k == 0)
        b = 0;
    else if (k >= 11 && !chance(r, 30))
        b = rndn(r, 300) * E;
    else
        b = menu[k];
    if (chance(r, 15))
        b = rndn(r, cap + 1);
    return b > cap ? cap : b;
}

/* a transfer whose dest and source extents both fit in cap bytes */
static void gen_xfer(struct rng *r, size_t cap, int t_fixed, struct xfer *x)
{
    memset(x, 0, sizeof(*x));
    int f = (int)rndn(r, 10);
    x->form = f < 6 ? FORM_TYPED : f < 8 ? FORM_SIZED : FORM_MEM;
    if (x->form == FORM_TYPED) {
        x->t = t_fixed >= 0 ? t_fixed : pick_type(r, NULL);
        x->E = tsize[x->t];
        x->m = (int)rndn(r, M_N);
    } else if (x->form == FORM_SIZED) {
        x->t = TY_RAW;
        x->bits = 8 << rndn(r, 5);
        x->E = (size_t)x->bits / 8;
        x->m = (int)rndn(r, M_N);
        if (x->m == M_P)
            x->m = M_CONTIG;
    } else {
        x->t = TY_RAW;
        x->E = 1;
        x->m = (int)rndn(r, 2);
    }
    size_t E = x->E;
    if (x->form == FORM_MEM) {
        x->doff = chance(r, 50) ? rndn(r, 8) : 0;
        x->soff = chance(r, 50) ? rndn(r, 8) : 0;
    } else {
        x->doff = chance(r, 30) ? rndn(r, 4) * E : 0;
        x->soff = chance(r, 30) ? rndn(r, 4) * E : 0;
    }
    size_t off = x->doff > x->soff ? x->doff : x->soff;
    size_t capE = cap > off ? (cap - off) / E : 0;
    size_t n = pick_bytes(r, E, cap) / E;
    if (n > capE)
        n = capE;
    if (x->m == M_CONTIG || x->m == M_NBI || x->m == M_P) {
        if (x->m == M_P && n > 5000)
            n = rndn(r, 5000);
        x->nb = 1;
        x->bs = n;
        x->ds = x->ss = 1;
    } else if (x->m == M_STRIDED) {
        static const ptrdiff_t st[] = { 1, 1, 2, 3, 7, 64, 1000, 4096 };
        x->ds = st[rndn(r, 8)];
        x->ss = st[rndn(r, 8)];
        ptrdiff_t mx = x->ds > x->ss ? x->ds : x->ss;
        size_t lim = capE ? (capE - 1) / (size_t)mx + 1 : 0;
        x->bs = 1;
        x->nb = n < lim ? n : lim;
        if (x->nb > 20000)
            x->nb = 20000;
    } else {
        static const size_t bsz[] = { 1, 2, 3, 8, 33, 512 };
        static const ptrdiff_t gap[] = { 0, 0, 1, 3, 100, 4096 };
        x->bs = bsz[rndn(r, 6)];
        x->ds = (ptrdiff_t)x->bs + gap[rndn(r, 6)];
        x->ss = (ptrdiff_t)x->bs + gap[rndn(r, 6)];
        ptrdiff_t mx = x->ds > x->ss ? x->ds : x->ss;
        if (capE < x->bs)
            x->bs = capE;
        if (x->bs == 0) {
            x->nb = rndn(r, 3);
            x->bs = 0;
        } else {
            size_t lim = (capE - x->bs) / (size_t)mx + 1;
            x->nb = n / x->bs;
            if (x->nb > lim)
                x->nb = lim;
            if (x->nb > 5000)
                x->nb = 5000;
        }
    }
    if (x_elems(x) == 0 && chance(r, 50))
        x->nullp = 1;
}

/* typed transfers */
#define X_FN(N, T, K, P, S, E, B)                                                                  \
    static void put_##N(const struct xfer *x, struct pick *k, void *dv, const void *sv)            \
    {                                                                                              \
        T *d = dv;                                                                                 \
        const T *s = sv;                                                                           \
        size_t n = x_elems(x);                                                                     \
        switch (x->m) {                                                                            \
        case M_CONTIG:                                                                             \
            if (k->u)                                                                              \
                shmem_ctx_##N##_put(k->c, d, s, n, k->pe);                                         \
            else                                                                                   \
                shmem_##N##_put(d, s, n, k->pe);                                                   \
            break;                                                                                 \
        case M_NBI:                                                                                \
            if (k->u)                                                                              \
                shmem_ctx_##N##_put_nbi(k->c, d, s, n, k->pe);                                     \
            else                                                                                   \
                shmem_##N##_put_nbi(d, s, n, k->pe);                                               \
            break;                                                                                 \
        case M_P:                                                                                  \
            for (size_t i = 0; i < n; i++) {                                                       \
                if (k->u)                                                                          \
                    shmem_ctx_##N##_p(k->c, d + i, s[i], k->pe);                                   \
                else                                                                               \
                    shmem_##N##_p(d + i, s[i], k->pe);                                             \
            }                                                                                      \
            break;                                                                                 \
        case M_STRIDED:                                                                            \
            if (k->u)                                                                              \
                shmem_ctx_##N##_iput(k->c, d, s, x->ds, x->ss, x->nb, k->pe);                      \
            else                                                                                   \
                shmem_##N##_iput(d, s, x->ds, x->ss, x->nb, k->pe);                                \
            break;                                                                                 \
        default:                                                                                   \
            if (k->u)                                                                              \
                shmem_ctx_##N##_ibput(k->c, d, s, x->ds, x->ss, x->bs, x->nb, k->pe);              \
            else                                                                                   \
                shmem_##N##_ibput(d, s, x->ds, x->ss, x->bs, x->nb, k->pe);                        \
        }                                                                                          \
    }                                                                                              \
    static void get_##N(const struct xfer *x, struct pick *k, void *dv, const void *sv)            \
    {                                                                                              \
        T *d = dv;                                                                                 \
        const T *s = sv;                                                                           \
        size_t n = x_elems(x);                                                                     \
        switch (x->m) {                                                                            \
        case M_CONTIG:                                                                             \
            if (k->u)                                                                              \
                shmem_ctx_##N##_get(k->c, d, s, n, k->pe);                                         \
            else                                                                                   \
                shmem_##N##_get(d, s, n, k->pe);                                                   \
            break;                                                                                 \
        case M_NBI:                                                                                \
            if (k->u)                                                                              \
                shmem_ctx_##N##_get_nbi(k->c, d, s, n, k->pe);                                     \
            else                                                                                   \
                shmem_##N##_get_nbi(d, s, n, k->pe);                                               \
            break;                                                                                 \
        case M_P:                                                                                  \
            for (size_t i = 0; i < n; i++)                                                         \
                d[i] = k->u ? shmem_ctx_##N##_g(k->c, s + i, k->pe) : shmem_##N##_g(s + i, k->pe); \
            break;                                                                                 \
        case M_STRIDED:                                                                            \
            if (k->u)                                                                              \
                shmem_ctx_##N##_iget(k->c, d, s, x->ds, x->ss, x->nb, k->pe);                      \
            else                                                                                   \
                shmem_##N##_iget(d, s, x->ds, x->ss, x->nb, k->pe);                                \
            break;                                                                                 \
        default:                                                                                   \
            if (k->u)                                                                              \
                shmem_ctx_##N##_ibget(k->c, d, s, x->ds, x->ss, x->bs, x->nb, k->pe);              \
            else                                                                                   \
                shmem_##N##_ibget(d, s, x->ds, x->ss, x->bs, x->nb, k->pe);                        \
        }                                                                                          \
    }
RMA_TYPES(X_FN)
#undef X_FN

typedef void (*xfn)(const struct xfer *, struct pick *, void *, const void *);
static const xfn put_fn[] = {
#define X_PF(N, T, K, P, S, E, B) put_##N,
    RMA_TYPES(X_PF)
#undef X_PF
};
static const xfn get_fn[] = {
#define X_GF(N, T, K, P, S, E, B) get_##N,
    RMA_TYPES(X_GF)
#undef X_GF
};

#define SZ_CASE(B, OP, ...)                              \
    case B:                                              \
        if (k->u)                                        \
            shmem_ctx_##OP##B(k->c, __VA_ARGS__, k->pe); \
        else                                             \
            shmem_##OP##B(__VA_ARGS__, k->pe);           \
        break;
#define SZ_CASE_NBI(B, OP, ...)                                \
    case B:                                                    \
        if (k->u)                                              \
            shmem_ctx_##OP##B##_nbi(k->c, __VA_ARGS__, k->pe); \
        else                                                   \
            shmem_##OP##B##_nbi(__VA_ARGS__, k->pe);           \
        break;
#define SZ_ALL(M, OP, ...)      \
    switch (x->bits) {          \
        M(8, OP, __VA_ARGS__)   \
        M(16, OP, __VA_ARGS__)  \
        M(32, OP, __VA_ARGS__)  \
        M(64, OP, __VA_ARGS__)  \
        M(128, OP, __VA_ARGS__) \
    }

static void put_sized(const struct xfer *x, struct pick *k, void *d, const void *s)
{
    size_t n = x_elems(x);
    switch (x->m) {
    case M_CONTIG: SZ_ALL(SZ_CASE, put, d, s, n) break;
    case M_NBI: SZ_ALL(SZ_CASE_NBI, put, d, s, n) break;
    case M_STRIDED: SZ_ALL(SZ_CASE, iput, d, s, x->ds, x->ss, x->nb) break;
    default: SZ_ALL(SZ_CASE, ibput, d, s, x->ds, x->ss, x->bs, x->nb) break;
    }
}
static void get_sized(const struct xfer *x, struct pick *k, void *d, const void *s)
{
    size_t n = x_elems(x);
    switch (x->m) {
    case M_CONTIG: SZ_ALL(SZ_CASE, get, d, s, n) break;
    case M_NBI: SZ_ALL(SZ_CASE_NBI, get, d, s, n) break;
    case M_STRIDED: SZ_ALL(SZ_CASE, iget, d, s, x->ds, x->ss, x->nb) break;
    default: SZ_ALL(SZ_CASE, ibget, d, s, x->ds, x->ss, x->bs, x->nb) break;
    }
}

static void do_put(const struct xfer *x, struct pick *k, void *d, const void *s)
{
    if (x->nullp)
        d = NULL, s = NULL;
    if (x->form == FORM_TYPED)
        put_fn[x->t](x, k, d, s);
    else if (x->form == FORM_SIZED)
        put_sized(x, k, d, s);
    else if (x->m == M_NBI) {
        if (k->u)
            shmem_ctx_putmem_nbi(k->c, d, s, x_elems(x), k->pe);
        else
            shmem_putmem_nbi(d, s, x_elems(x), k->pe);
    } else {
        if (k->u)
            shmem_ctx_putmem(k->c, d, s, x_elems(x), k->pe);
        else
            shmem_putmem(d, s, x_elems(x), k->pe);
    }
}
static void do_get(const struct xfer *x, struct pick *k, void *d, const void *s)
{
    if (x->nullp)
        d = NULL, s = NULL;
    if (x->form == FORM_TYPED)
        get_fn[x->t](x, k, d, s);
    else if (x->form == FORM_SIZED)
        get_sized(x, k, d, s);
    else if (x->m == M_NBI) {
        if (k->u)
            shmem_ctx_getmem_nbi(k->c, d, s, x_elems(x), k->pe);
        else
            shmem_getmem_nbi(d, s, x_elems(x), k->pe);
    } else {
        if (k->u)
            shmem_ctx_getmem(k->c, d, s, x_elems(x), k->pe);
        else
            shmem_getmem(d, s, x_elems(x), k->pe);
    }
}

/* the expected bytes of a dest area [GUARD | cap | GUARD] after x copied elements of
 * the source image img (cap bytes) into it, over a background; mask 0: not compared */
static void expect_area(unsigned char *exp, unsigned char *mask, size_t cap, uint64_t bgkey,
                        const struct xfer *x, const unsigned char *img)
{
    size_t tot = cap + 2 * GUARD;
    bgfill(exp, tot, bgkey);
    memset(mask, 1, tot);
    size_t E = x->E;
    for (size_t b = 0; b < x->nb; b++)
        for (size_t j = 0; j < x->bs; j++) {
            size_t dpos = GUARD + x->doff + (b * (size_t)x->ds + j) * E;
            size_t spos = x->soff + (b * (size_t)x->ss + j) * E;
            memcpy(exp + dpos, img + spos, E);
            if (x->form == FORM_TYPED && tkind[x->t] == 'l')
                memset(mask + dpos + 10, 0, E - 10);
        }
}

static int compare_area(const char *what, const unsigned char *got, const unsigned char *exp,
                        const unsigned char *mask, size_t cap, const struct xfer *x, int peer)
{
    size_t tot = cap + 2 * GUARD, bad = 0, first = 0;
    for (size_t i = 0; i < tot; i++)
        if (mask[i] && got[i] != exp[i]) {
            if (!bad)
                first = i;
            bad++;
        }
    if (bad) {
        char d[300];
        describe(x, d, sizeof d);
        long pos = (long)first - GUARD;
        FAIL("%s (peer %d, %s): %zu bytes differ, first at byte %ld of the area (%s): got "
             "0x%02x expected 0x%02x",
             what, peer, d, bad, pos - (long)x->doff,
             pos < 0              ? "front guard"
             : (size_t)pos >= cap ? "back guard"
                                  : "inside",
             got[first], exp[first]);
        return 1;
    }
    return 0;
}

/* ---- episode: rma ---- */
static unsigned char *rblock; /* the symmetric block of the rma episodes */
static size_t rblock_size;

static void rma_block(size_t want)
{
    int how = (int)rndn(&grng, 6);
    if (rblock && rblock_size >= want && how < 3)
        return;
    if (rblock && how == 3) {
        rblock = shmem_realloc(rblock, want);
    } else {
        if (rblock)
            shmem_free(rblock);
        if (how == 4)
            rblock = shmem_align((size_t)64 << rndn(&grng, 8), want);
        else if (how == 5)
            rblock = shmem_calloc(1, want);
        else
            rblock = shmem_malloc(want);
    }
    rblock_size = want;
    if (!rblock) {
        FAIL("symmetric allocation of %zu bytes failed", want);
        shmem_global_exit(2);
    }
}

static void ep_rma(long ep)
{
    static const size_t caps[] = { 256, 8192, 70000, (1 << 20) + 64 };
    int ci = (int)rndn(&grng, 100);
    size_t cap = caps[ci < 45 ? 0 : ci < 80 ? 1 : ci < 95 ? 2 : 3];
    if (cap > maxbuf)
        cap = maxbuf;
    cap = (cap + 15) & ~(size_t)15;
    int pshift = (int)rndn(&grng, (uint64_t)npes), gshift = (int)rndn(&grng, (uint64_t)npes);
    int ptg = chance(&grng, 30) ? (int)rndn(&grng, (uint64_t)npes) : -1; /* all put to one PE */
    int gtg = chance(&grng, 30) ? (int)rndn(&grng, (uint64_t)npes) : -1; /* all get from one */
    int gt = pick_type(&grng, NULL); /* the type of the exposed images */
    /* each PE puts to J consecutive targets (all outstanding before one quiet) */
    int J = ptg >= 0 ? 1 : 1 + (int)rndn(&grng, (uint64_t)(npes < 4 ? npes : 4));
    size_t area = cap + 2 * GUARD;
    /* layout: npes put slots, put source area, exposed get area, get dest area */
    size_t o_src = (size_t)npes * area, o_exp = o_src + area, o_gdst = o_exp + area;
    rma_block(o_gdst + area);
    struct rng r = pe_rng(ep, me, 1);
    struct xfer xp, xg;
    gen_xfer(&r, cap, -1, &xp);
    gen_xfer(&r, cap, gt, &xg); /* typed gets read the exposed type */
    int psym = chance(&r, 60), gsym = chance(&r, 60);
    int tput = ptg >= 0 ? ptg : (me + pshift) % npes, tget = gtg >= 0 ? gtg : (me + gshift) % npes;
    if (trace) {
        char d1[300], d2[300];
        describe(&xp, d1, sizeof d1);
        describe(&xg, d2, sizeof d2);
        printf("  PE %d: put to %d: %s; get from %d: %s (cap %zu)\n", me, tput, d1, tget, d2, cap);
    }
    unsigned char *img = malloc(cap), *exp = malloc(area), *mask = malloc(area);
    unsigned char *priv_src = malloc(cap + 16), *priv_dst = malloc(area);
    /* fill: put slots and get dest with background, source and exposed with images */
    for (int s = 0; s < npes; s++)
        bgfill(rblock + (size_t)s * area, area,
               mix64((uint64_t)ep * 131 + (uint64_t)me * 17 + (uint64_t)s));
    image(rblock + o_exp + GUARD, cap, gt, mix64((uint64_t)ep * 977 + (uint64_t)me));
    bgfill(rblock + o_gdst, area, mix64((uint64_t)ep * 31 + (uint64_t)me));
    bgfill(priv_dst, area, mix64((uint64_t)ep * 31 + (uint64_t)me));
    unsigned char *src = psym ? rblock + o_src + GUARD : priv_src;
    image(src, cap, xp.t, mix64((uint64_t)ep * 7 + (uint64_t)me + 99));
    unsigned char *xsrc[4] = { 0 };
    struct xfer xx[4];
    for (int j = 1; j < J; j++) {
        struct rng rj = pe_rng(ep, me, 10 + (uint64_t)j);
        gen_xfer(&rj, cap, -1, &xx[j]);
        xsrc[j] = malloc(cap);
        image(xsrc[j], cap, xx[j].t,
              mix64((uint64_t)ep * 7 + (uint64_t)me + 99 + 1000003ULL * (uint64_t)j));
    }
    shmem_barrier_all();
    for (int j = 1; j < J; j++) {
        /* the other targets first, on contexts of their own, left outstanding */
        int tj = (me + pshift + j) % npes;
        struct pick kj = pick_ctx(&lrng, tj, 1);
        WHERE("put %d to %d", j, tj);
        do_put(&xx[j], &kj, rblock + (size_t)me * area + GUARD + xx[j].doff, xsrc[j] + xx[j].soff);
    }
    /* put into my slot on tput; get from tget's exposed area */
    int order = (int)rndn(&r, 2);
    struct pick kp = pick_ctx(&lrng, tput, 1);
    struct pick kg = pick_ctx(&lrng, tget, xg.m == M_NBI);
    unsigned char *gd = gsym ? rblock + o_gdst : priv_dst;
    for (int step = 0; step < 2; step++) {
        if ((step ^ order) == 0) {
            WHERE("put to %d", tput);
            do_put(&xp, &kp, rblock + (size_t)me * area + GUARD + xp.doff, src + xp.soff);
            if (xp.m == M_NBI && chance(&r, 50)) {
                /* source may be reused after quiet only: keep it */
            }
        } else {
            WHERE("get from %d", tget);
            do_get(&xg, &kg, gd + GUARD + xg.doff, rblock + o_exp + GUARD + xg.soff);
            if (xg.m == M_NBI) {
                if (kg.u)
                    shmem_ctx_quiet(kg.c);
                else
                    shmem_quiet();
            }
            image(img, cap, gt, mix64((uint64_t)ep * 977 + (uint64_t)tget));
            expect_area(exp, mask, cap, mix64((uint64_t)ep * 31 + (uint64_t)me), &xg, img);
            compare_area("get", gd, exp, mask, cap, &xg, tget);
        }
    }
    WHERE("quiet");
    ctx_quiet_all();
    shmem_barrier_all();
    for (int j = 1; j < J; j++)
        free(xsrc[j]);
    /* check the slots: slot s was written by PE s iff one of s's targets was me */
    for (int s = 0; s < npes; s++) {
        struct xfer xs;
        memset(&xs, 0, sizeof xs);
        int d = ptg >= 0 ? (ptg == me ? 0 : -1) : ((me - s - pshift) % npes + 2 * npes) % npes;
        if (d == 0) {
            struct rng rs = pe_rng(ep, s, 1);
            gen_xfer(&rs, cap, -1, &xs);
            image(img, cap, xs.t, mix64((uint64_t)ep * 7 + (uint64_t)s + 99));
        } else if (d > 0 && d < J) {
            struct rng rs = pe_rng(ep, s, 10 + (uint64_t)d);
            gen_xfer(&rs, cap, -1, &xs);
            image(img, cap, xs.t,
                  mix64((uint64_t)ep * 7 + (uint64_t)s + 99 + 1000003ULL * (uint64_t)d));
        }
        expect_area(exp, mask, cap, mix64((uint64_t)ep * 131 + (uint64_t)me * 17 + (uint64_t)s),
                    &xs, img);
        compare_area("put", rblock + (size_t)s * area, exp, mask, cap, &xs, s);
    }
    /* the exposed image was not changed */
    image(img, cap, gt, mix64((uint64_t)ep * 977 + (uint64_t)me));
    if (memcmp(img, rblock + o_exp + GUARD, cap))
        FAIL("the exposed area of a get changed");
    free(img);
    free(exp);
    free(mask);
    free(priv_src);
    free(priv_dst);
    shmem_barrier_all();
}

/* ---- episode: interleaved writes ----
 * every PE writes the elements p, p + n, p + 2n, ... (or blocks of b elements every n*b)
 * of one PE's array at the same time as the others write theirs: strided puts, p loops,
 * one-element puts; no byte of a neighbour may be touched */
static void ep_ilv(long ep)
{
    int t = pick_type(&grng, NULL);
    size_t E = tsize[t];
    int tg = (int)rndn(&grng, (uint64_t)npes);
    size_t bs = chance(&grng, 50) ? 1 : 1 + rndn(&grng, 5);
    size_t K = 1 + rndn(&grng, chance(&grng, 20) ? 3000 : 64); /* blocks per PE */
    size_t tot = K * bs * (size_t)npes * E;
    rma_block(tot + 2 * GUARD);
    unsigned char *arr = rblock + GUARD;
    memset(rblock, 0xC3, tot + 2 * GUARD);
    if (trace && me == 0)
        printf("  ilv %s to %d bs=%zu K=%zu\n", tname[t], tg, bs, K);
    shmem_barrier_all();
    /* my source: K*bs elements, contiguous or strided like the dest */
    unsigned char *src = malloc(K * bs * (size_t)npes * E + 16);
    image(src, K * bs * (size_t)npes * E, t, mix64((uint64_t)ep * 61 + (uint64_t)me));
    struct pick k = pick_ctx(&lrng, tg, 1);
    struct xfer x;
    memset(&x, 0, sizeof x);
    x.form = FORM_TYPED;
    x.t = t;
    x.E = E;
    int how = (int)rndn(&lrng, 5);
    unsigned char *d0 = arr + (size_t)me * bs * E, *s0 = src + (size_t)me * bs * E;
    ptrdiff_t st = (ptrdiff_t)((size_t)npes * bs);
    WHERE("interleaved writes (%d) to %d", how, tg);
    if (how == 0 || (how == 1 && bs > 1)) { /* ibput / iput */
        x.m = bs > 1 ? M_BLOCKED : M_STRIDED;
        x.nb = K, x.bs = bs, x.ds = st, x.ss = st;
        put_fn[t](&x, &k, d0, s0);
    } else if (how == 1) { /* sized iput */
        x.form = FORM_SIZED;
        x.bits = (int)E * 8;
        x.m = M_STRIDED;
        x.nb = K, x.bs = 1, x.ds = st, x.ss = st;
        if (E == 1 || E == 2 || E == 4 || E == 8 || E == 16)
            put_sized(&x, &k, d0, s0);
        else
            put_fn[t](&x, &k, d0, s0);
    } else {
        /* block by block: put, put_nbi or p */
        for (size_t b = 0; b < K; b++) {
            x.nb = 1, x.bs = bs;
            x.m = how == 2 ? M_CONTIG : how == 3 ? M_NBI : M_P;
            put_fn[t](&x, &k, d0 + b * (size_t)st * E, s0 + b * (size_t)st * E);
        }
    }
    ctx_quiet_all();
    shmem_barrier_all();
    free(src);
    if (me == tg) {
        unsigned char *img = malloc(K * bs * (size_t)npes * E + 16);
        for (int p = 0; p < npes; p++) {
            image(img, K * bs * (size_t)npes * E, t, mix64((uint64_t)ep * 61 + (uint64_t)p));
            for (size_t b = 0; b < K; b++) {
                size_t off = (b * (size_t)st + (size_t)p * bs) * E;
                for (size_t q = 0; q < bs * E; q++) {
                    if (tkind[t] == 'l' && (q % E) >= 10)
                        continue;
                    if (arr[off + q] != img[off + q]) {
                        FAIL(
                            "interleaved %s writes (bs %zu, K %zu): byte %zu of block %zu of PE %d "
                            "is 0x%02x, expected 0x%02x",
                            tname[t], bs, K, q, b, p, arr[off + q], img[off + q]);
                        b = K;
                        break;
                    }
                }
            }
        }
        for (size_t i = 0; i < GUARD; i++)
            if (rblock[i] != 0xC3 || arr[tot + i] != 0xC3) {
                FAIL("interleaved writes: a guard byte changed");
                break;
            }
        free(img);
    }
    shmem_barrier_all();
}

/* ---- AMOs ---- */
#define STD_T(X)                     \
    X(int, int)                      \
    X(long, long)                    \
    X(longlong, long long)           \
    X(uint, unsigned int)            \
    X(ulong, unsigned long)          \
    X(ulonglong, unsigned long long) \
    X(int32, int32_t)                \
    X(int64, int64_t)                \
    X(uint32, uint32_t)              \
    X(uint64, uint64_t)              \
    X(size, size_t)                  \
    X(ptrdiff, ptrdiff_t)
#define EXT_T(X) STD_T(X) X(float, float) X(double, double)
#define BIT_T(X)                     \
    X(uint, unsigned int)            \
    X(ulong, unsigned long)          \
    X(ulonglong, unsigned long long) \
    X(int32, int32_t)                \
    X(int64, int64_t)                \
    X(uint32, uint32_t)              \
    X(uint64, uint64_t)

/* a model value (uint64 bits) as T: floating types hold small integers */
#define CV(T, a) (((T)0.5 != 0) ? (T)(int64_t)(a) : (T)(a))

enum {
    A_FINC,
    A_INC,
    A_FADD,
    A_ADD,
    A_CSWAP,
    A_FINC_NBI,
    A_FADD_NBI,
    A_CSWAP_NBI, /* standard */
    A_FETCH,
    A_SET,
    A_SWAP,
    A_FETCH_NBI,
    A_SWAP_NBI, /* extended */
    A_FAND,
    A_AND,
    A_FOR,
    A_OR,
    A_FXOR,
    A_XOR,
    A_FAND_NBI,
    A_FOR_NBI,
    A_FXOR_NBI, /* bitwise */
    A_N
};
static const char *aname[] = { "fetch_inc",    "inc",           "fetch_add",     "add",
                               "compare_swap", "fetch_inc_nbi", "fetch_add_nbi", "compare_swap_nbi",
                               "fetch",        "set",           "swap",          "fetch_nbi",
                               "swap_nbi",     "fetch_and",     "and",           "fetch_or",
                               "or",           "fetch_xor",     "xor",           "fetch_and_nbi",
                               "fetch_or_nbi", "fetch_xor_nbi" };
static int a_fetching(int op)
{
    return op != A_INC && op != A_ADD && op != A_SET && op != A_AND && op != A_OR && op != A_XOR;
}
static int a_nbi(int op)
{
    return op == A_FINC_NBI || op == A_FADD_NBI || op == A_CSWAP_NBI || op == A_FETCH_NBI ||
           op == A_SWAP_NBI || op == A_FAND_NBI || op == A_FOR_NBI || op == A_FXOR_NBI;
}

#define CALLF(N, OP, ...)                                         \
    (k->u ? shmem_ctx_##N##_atomic_##OP(k->c, __VA_ARGS__, k->pe) \
          : shmem_##N##_atomic_##OP(__VA_ARGS__, k->pe))
#define A_STD(N, T)                                                                          \
    static void astd_##N(int op, struct pick *k, void *tv, uint64_t a, uint64_t b, void *fv) \
    {                                                                                        \
        T *t = tv, *f = fv, va = CV(T, a), vb = CV(T, b);                                    \
        switch (op) {                                                                        \
        case A_FINC: *f = CALLF(N, fetch_inc, t); break;                                     \
        case A_INC: CALLF(N, inc, t); break;                                                 \
        case A_FADD: *f = CALLF(N, fetch_add, t, va); break;                                 \
        case A_ADD: CALLF(N, add, t, va); break;                                             \
        case A_CSWAP: *f = CALLF(N, compare_swap, t, va, vb); break;                         \
        case A_FINC_NBI: CALLF(N, fetch_inc_nbi, f, t); break;                               \
        case A_FADD_NBI: CALLF(N, fetch_add_nbi, f, t, va); break;                           \
        case A_CSWAP_NBI: CALLF(N, compare_swap_nbi, f, t, va, vb); break;                   \
        }                                                                                    \
    }
#define A_EXT(N, T)                                                                          \
    static void aext_##N(int op, struct pick *k, void *tv, uint64_t a, uint64_t b, void *fv) \
    {                                                                                        \
        T *t = tv, *f = fv, va = CV(T, a);                                                   \
        (void)b;                                                                             \
        switch (op) {                                                                        \
        case A_FETCH: *f = CALLF(N, fetch, t); break;                                        \
        case A_SET: CALLF(N, set, t, va); break;                                             \
        case A_SWAP: *f = CALLF(N, swap, t, va); break;                                      \
        case A_FETCH_NBI: CALLF(N, fetch_nbi, f, t); break;                                  \
        case A_SWAP_NBI: CALLF(N, swap_nbi, f, t, va); break;                                \
        }                                                                                    \
    }
#define A_BIT(N, T)                                                                          \
    static void abit_##N(int op, struct pick *k, void *tv, uint64_t a, uint64_t b, void *fv) \
    {                                                                                        \
        T *t = tv, *f = fv, va = CV(T, a);                                                   \
        (void)b;                                                                             \
        switch (op) {                                                                        \
        case A_FAND: *f = CALLF(N, fetch_and, t, va); break;                                 \
        case A_AND: CALLF(N, and, t, va); break;                                             \
        case A_FOR: *f = CALLF(N, fetch_or, t, va); break;                                   \
        case A_OR: CALLF(N, or, t, va); break;                                               \
        case A_FXOR: *f = CALLF(N, fetch_xor, t, va); break;                                 \
        case A_XOR: CALLF(N, xor, t, va); break;                                             \
        case A_FAND_NBI: CALLF(N, fetch_and_nbi, f, t, va); break;                           \
        case A_FOR_NBI: CALLF(N, fetch_or_nbi, f, t, va); break;                             \
        case A_FXOR_NBI: CALLF(N, fetch_xor_nbi, f, t, va); break;                           \
        }                                                                                    \
    }
STD_T(A_STD)
EXT_T(A_EXT)
BIT_T(A_BIT)

typedef void (*afn)(int, struct pick *, void *, uint64_t, uint64_t, void *);
static void amo(int t, int op, struct pick *k, void *target, uint64_t a, uint64_t b, void *f)
{
    afn fn = NULL;
    if (op <= A_CSWAP_NBI) {
        switch (t) {
#define C_STD(N, T) \
    case TY_##N: fn = astd_##N; break;
            STD_T(C_STD)
        }
    } else if (op <= A_SWAP_NBI) {
        switch (t) {
#define C_EXT(N, T) \
    case TY_##N: fn = aext_##N; break;
            EXT_T(C_EXT)
        }
    } else {
        switch (t) {
#define C_BIT(N, T) \
    case TY_##N: fn = abit_##N; break;
            BIT_T(C_BIT)
        }
    }
    if (!fn) {
        FAIL("internal: no %s for %s", aname[op], tname[t]);
        return;
    }
    fn(op, k, target, a, b, f);
}

static uint64_t wmask(int t)
{
    return tkind[t] != 'i' || tsize[t] >= 8 ? ~0ULL : (1ULL << (8 * tsize[t])) - 1;
}
static uint64_t vm(int t, uint64_t v)
{
    return v & wmask(t);
}
static uint64_t load_val(int t, const void *p)
{
    if (tkind[t] == 'f') {
        float v;
        memcpy(&v, p, sizeof v);
        return (uint64_t)(int64_t)v;
    }
    if (tkind[t] == 'd') {
        double v;
        memcpy(&v, p, sizeof v);
        return (uint64_t)(int64_t)v;
    }
    uint64_t v = 0;
    memcpy(&v, p, tsize[t]);
    return v;
}
static void store_val(int t, void *p, uint64_t v)
{
    if (tkind[t] == 'f') {
        float f = (float)(int64_t)v;
        memcpy(p, &f, sizeof f);
    } else if (tkind[t] == 'd') {
        double d = (double)(int64_t)v;
        memcpy(p, &d, sizeof d);
    } else
        memcpy(p, &v, tsize[t]);
}

static void pk_fence(struct pick *k)
{
    if (k->u)
        shmem_ctx_fence(k->c);
    else
        shmem_fence();
}
static void pk_quiet(struct pick *k)
{
    if (k->u)
        shmem_ctx_quiet(k->c);
    else
        shmem_quiet();
}

enum { AC_ADD, AC_BIT, AC_SWAP, AC_CAS, AC_SET, AC_N };
static const char *acname[] = { "add", "bit", "swap", "cas", "set" };
struct aop {
    int w, op;
    uint64_t a;
};
/* an entry of the log a PE sends to the target of its AMOs */
enum { L_FETCHED, L_WRITTEN, L_CONSUMED };
struct alog {
    uint32_t w, kind;
    uint64_t inc, val;
};
#define ALOGN (4 * KMAX + 8)
static struct alog alog_sym[MAXPE][ALOGN];
static int alog_cnt[MAXPE];
static uint64_t amo_static[MAXW + 4];
static uint64_t *amo_heap;

struct aep {
    int cls, t, W, single, tg, shift, allfetch, nops_max;
    uint64_t init[MAXW];
};

static void aep_draw(struct aep *e)
{
    e->cls = (int)rndn(&grng, AC_N);
    e->t = pick_type(&grng, e->cls == AC_ADD || e->cls == AC_CAS ? t_std
                            : e->cls == AC_BIT                   ? t_bit
                                                                 : t_ext);
    e->W = 1 + (int)rndn(&grng, MAXW);
    e->single = chance(&grng, 60);
    e->tg = (int)rndn(&grng, (uint64_t)npes);
    e->shift = (int)rndn(&grng, (uint64_t)npes);
    e->allfetch = chance(&grng, 50);
    e->nops_max = 1 + (int)rndn(&grng, chance(&grng, 25) ? KMAX : 32);
    for (int w = 0; w < MAXW; w++) {
        uint64_t v = rnd(&grng);
        if (e->cls == AC_SWAP || e->cls == AC_SET)
            v = (uint64_t)(int64_t)-5;
        else if (tkind[e->t] != 'i')
            v = (uint64_t)(int64_t)(int)(v % 2000);
        else if (e->cls == AC_ADD && chance(&grng, 30))
            v = wmask(e->t) - rndn(&grng, 3000); /* wraps around */
        e->init[w] = vm(e->t, v);
    }
}

static int own_bit(int b)
{
    return b % npes == me;
}
static uint64_t own_mask(int t, int pe)
{
    uint64_t m = 0;
    for (int b = 0; b < 8 * (int)tsize[t]; b++)
        if (b % npes == pe)
            m |= 1ULL << b;
    return m;
}

/* the ops of PE p in an AMO episode */
static int aops_gen(const struct aep *e, long ep, int p, struct aop *ops)
{
    struct rng r = pe_rng(ep, p, 2);
    int n = 1 + (int)rndn(&r, (uint64_t)e->nops_max);
    uint64_t om = own_mask(e->t, p);
    for (int i = 0; i < n; i++) {
        struct aop *o = &ops[i];
        o->w = (int)rndn(&r, (uint64_t)e->W);
        switch (e->cls) {
        case AC_ADD: {
            static const int fo[] = { A_FINC, A_FADD, A_FINC_NBI, A_FADD_NBI, A_INC, A_ADD };
            o->op = fo[rndn(&r, e->allfetch ? 4 : 6)];
            o->a =
                o->op == A_FINC || o->op == A_FINC_NBI || o->op == A_INC ? 1 : 1 + rndn(&r, 1000);
            break;
        }
        case AC_BIT: {
            o->op = A_FAND + (int)rndn(&r, 9);
            uint64_t m = rnd(&r) & om;
            o->a = (o->op == A_FAND || o->op == A_AND || o->op == A_FAND_NBI) ? vm(e->t, ~m) : m;
            break;
        }
        case AC_SWAP: {
            static const int so[] = {
                A_SWAP, A_SWAP_NBI, A_FETCH, A_FETCH_NBI, A_CSWAP, A_CSWAP_NBI
            };
            o->op = so[rndn(&r, t_std[e->t] ? 6 : 4)];
            o->a = (uint64_t)(1 + p * (2 * KMAX) + i + o->w * MAXPE * 2 * KMAX);
            break;
        }
        case AC_CAS:
            o->op = chance(&r, 50) ? A_CSWAP : A_CSWAP_NBI;
            o->a = 0;
            break;
        default: {
            static const int so[] = { A_SET, A_SET, A_FETCH, A_FETCH_NBI };
            o->op = so[rndn(&r, 4)];
            o->a = (uint64_t)(1 + p * (2 * KMAX) + i + o->w * MAXPE * 2 * KMAX);
        }
        }
    }
    return n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void ep_amo(long ep)
{
    struct aep e;
    aep_draw(&e);
    int where = (int)rndn(&grng, 3);
    if (where == 1 && !amo_heap)
        amo_heap = shmem_malloc(64 * sizeof(uint64_t));
    unsigned char *base = where == 0   ? (unsigned char *)(amo_static + 1)
                          : where == 1 ? (unsigned char *)(amo_heap + 1 + rndn(&grng, 32))
                                       : NULL;
    if (!base) {
        rma_block(4096);
        base = rblock + 8 + 8 * rndn(&grng, 64);
    }
    int t = e.t;
    size_t E = tsize[t];
    /* words packed at their size (neighbours in one 8-byte unit) or 8 bytes apart; the
     * bytes around and between them must not change */
    size_t sp = chance(&grng, 50) ? 8 : E;
    memset(base - 8, 0xA5, sp * (size_t)e.W + 16);
    for (int w = 0; w < e.W; w++)
        store_val(t, base + sp * w, e.init[w]);
    memset(alog_cnt, 0, sizeof alog_cnt);
    if (trace && me == 0)
        printf("  amo %s %s W=%d (%zu apart) %s tg=%d shift=%d allfetch=%d\n", acname[e.cls],
               tname[t], e.W, sp, e.single ? "single" : "ring", e.tg, e.shift, e.allfetch);
    shmem_barrier_all();
    int tgt = e.single ? e.tg : (me + e.shift) % npes;
    struct aop ops[KMAX];
    int n = aops_gen(&e, ep, me, ops);
    static struct alog lg[ALOGN];
    int nl = 0;
    uint64_t seen[MAXW], own[MAXW], lastset[MAXW];
    for (int w = 0; w < MAXW; w++)
        seen[w] = e.init[w], own[w] = e.init[w] & own_mask(t, me), lastset[w] = e.init[w];
    int exact_set = !e.single || npes == 1 || 0; /* only this PE touches the word */
    struct pick k = pick_ctx(&lrng, tgt, 1), forced;
    int force = 0;
    for (int i = 0; i < n; i++) {
        struct aop *o = &ops[i];
        void *target = base + sp * o->w;
        int store = !a_fetching(o->op) || a_nbi(o->op);
        if (force)
            k = forced;
        else
            k = pick_ctx(&lrng, tgt, store);
        force = 0;
        unsigned char fb[16];
        memset(fb, 0, sizeof fb);
        WHERE("amo op %d/%d %s on word %d of PE %d", i, n, aname[o->op], o->w, tgt);
        if (e.cls == AC_CAS) {
            /* a CAS loop incrementing the word */
            uint64_t old = seen[o->w];
            for (int tries = 0;; tries++) {
                uint64_t nv = vm(t, old + 1);
                amo(t, o->op, &k, target, old, nv, fb);
                if (a_nbi(o->op))
                    pk_quiet(&k);
                uint64_t got = load_val(t, fb);
                if (got == old) {
                    lg[nl++] = (struct alog){ (uint32_t)o->w, L_CONSUMED, 1, old };
                    seen[o->w] = nv;
                    break;
                }
                old = got;
                if (tries > 100000) {
                    FAIL("CAS loop did not succeed in 100000 tries");
                    break;
                }
            }
            continue;
        }
        uint64_t cond = seen[o->w];
        amo(t, o->op, &k, target, o->op == A_CSWAP || o->op == A_CSWAP_NBI ? cond : o->a, o->a, fb);
        if (a_nbi(o->op) && (e.cls != AC_ADD || chance(&lrng, 50)))
            pk_quiet(&k);
        else if (!a_fetching(o->op) && chance(&lrng, 40)) {
            if (chance(&lrng, 50)) {
                pk_fence(&k);
                forced = k;
                force = 1;
            } else
                pk_quiet(&k);
        } else if (!a_fetching(o->op) && (e.cls == AC_BIT || e.cls == AC_SET)) {
            /* the next op of this PE must come after this one */
            if (chance(&lrng, 50)) {
                pk_fence(&k);
                forced = k;
                force = 1;
            } else
                pk_quiet(&k);
        }
        if (a_nbi(o->op) && e.cls == AC_ADD) {
            /* value read after the final quiet: keep the buffer */
            static unsigned char nbibuf[KMAX][16];
            (void)nbibuf;
        }
        uint64_t got = load_val(t, fb);
        switch (e.cls) {
        case AC_ADD:
            if (a_fetching(o->op)) {
                if (a_nbi(o->op) && !0) {
                    /* a quiet was maybe not called yet: complete it now to read fb */
                    pk_quiet(&k);
                    got = load_val(t, fb);
                }
                lg[nl++] = (struct alog){ (uint32_t)o->w, L_FETCHED, o->a, got };
            }
            break;
        case AC_BIT: {
            uint64_t om = own_mask(t, me);
            if (a_fetching(o->op) && (got & om) != own[o->w])
                FAIL("%s %s on PE %d word %d: fetched 0x%" PRIx64 ", own bits 0x%" PRIx64
                     " expected 0x%" PRIx64,
                     aname[o->op], tname[t], tgt, o->w, got, got & om, own[o->w]);
            if (o->op == A_FAND || o->op == A_AND || o->op == A_FAND_NBI)
                own[o->w] &= o->a;
            else if (o->op == A_FOR || o->op == A_OR || o->op == A_FOR_NBI)
                own[o->w] |= o->a;
            else
                own[o->w] ^= o->a;
            break;
        }
        case AC_SWAP:
            if (o->op == A_FETCH || o->op == A_FETCH_NBI)
                lg[nl++] = (struct alog){ (uint32_t)o->w, L_FETCHED, 0, got };
            else if (o->op == A_SWAP || o->op == A_SWAP_NBI || got == cond) {
                if ((o->op == A_CSWAP || o->op == A_CSWAP_NBI) && got != cond)
                    FAIL("internal");
                lg[nl++] = (struct alog){ (uint32_t)o->w, L_CONSUMED, 0, got };
                lg[nl++] = (struct alog){ (uint32_t)o->w, L_WRITTEN, 0, vm(t, o->a) };
            } else
                lg[nl++] = (struct alog){ (uint32_t)o->w, L_FETCHED, 0, got };
            seen[o->w] = o->op == A_SWAP || o->op == A_SWAP_NBI || got == cond ? vm(t, o->a) : got;
            break;
        default: /* AC_SET */
            if (o->op == A_SET) {
                lg[nl++] = (struct alog){ (uint32_t)o->w, L_WRITTEN, 0, vm(t, o->a) };
                lastset[o->w] = vm(t, o->a);
            } else {
                lg[nl++] = (struct alog){ (uint32_t)o->w, L_FETCHED, 0, got };
                if (exact_set && got != lastset[o->w])
                    FAIL("atomic_%s %s on PE %d word %d (only this PE writes it): got %" PRIu64
                         ", last set %" PRIu64,
                         aname[o->op], tname[t], tgt, o->w, got, lastset[o->w]);
            }
        }
    }
    WHERE("amo quiet");
    ctx_quiet_all();
    /* send the log to the target */
    shmem_putmem(&alog_sym[me][0], lg, (size_t)nl * sizeof(struct alog), tgt);
    shmem_int_p(&alog_cnt[me], nl, tgt);
    shmem_quiet();
    shmem_barrier_all();
    /* check my words: sources are the PEs whose target is me */
    for (int w = 0; w < e.W; w++) {
        uint64_t fin = load_val(t, base + sp * w);
        uint64_t sum = 0, cnt = 0;
        uint64_t *vals = malloc(sizeof(uint64_t) * MAXPE * ALOGN),
                 *incs = malloc(sizeof(uint64_t) * MAXPE * ALOGN);
        size_t nv = 0;
        uint64_t bits_exp = 0, bits_mask = 0;
        int any = 0, allf = 1;
        uint64_t *written = malloc(sizeof(uint64_t) * MAXPE * ALOGN),
                 *consumed = malloc(sizeof(uint64_t) * MAXPE * ALOGN);
        size_t nw = 0, nc = 0;
        for (int p = 0; p < npes; p++) {
            int pt = e.single ? e.tg : (p + e.shift) % npes;
            if (pt != me)
                continue;
            any = 1;
            struct aop po[KMAX];
            int pn = aops_gen(&e, ep, p, po);
            uint64_t pown = e.init[w] & own_mask(t, p);
            for (int i = 0; i < pn; i++) {
                if (po[i].w != w)
                    continue;
                if (e.cls == AC_ADD) {
                    sum += po[i].a;
                    if (!a_fetching(po[i].op))
                        allf = 0;
                } else if (e.cls == AC_CAS)
                    cnt++;
                else if (e.cls == AC_BIT) {
                    int op = po[i].op;
                    if (op == A_FAND || op == A_AND || op == A_FAND_NBI)
                        pown &= po[i].a;
                    else if (op == A_FOR || op == A_OR || op == A_FOR_NBI)
                        pown |= po[i].a;
                    else
                        pown ^= po[i].a;
                }
            }
            if (e.cls == AC_BIT) {
                bits_exp |= pown;
                bits_mask |= own_mask(t, p);
            }
            for (int j = 0; j < alog_cnt[p]; j++) {
                struct alog *l = &alog_sym[p][j];
                if ((int)l->w != w)
                    continue;
                if (l->kind == L_WRITTEN)
                    written[nw++] = l->val;
                else if (l->kind == L_CONSUMED)
                    consumed[nc++] = l->val;
                if (e.cls == AC_ADD || e.cls == AC_CAS || l->kind == L_FETCHED) {
                    vals[nv] = l->val;
                    incs[nv++] = l->inc;
                }
            }
        }
        if (!any)
            goto next;
        switch (e.cls) {
        case AC_ADD: {
            uint64_t expect = vm(t, e.init[w] + sum);
            if (fin != expect)
                FAIL("add-class %s word %d: final %" PRIu64 " expected %" PRIu64 " (init %" PRIu64
                     " + %" PRIu64 ")",
                     tname[t], w, fin, expect, e.init[w], sum);
            /* offsets of the fetched values: distinct, inside [0, sum) */
            uint64_t *off = malloc(sizeof(uint64_t) * (nv + 1) * 2);
            for (size_t i = 0; i < nv; i++) {
                off[2 * i] = vm(t, vals[i] - e.init[w]);
                off[2 * i + 1] = incs[i];
            }
            qsort(off, nv, 2 * sizeof(uint64_t), cmp_u64);
            uint64_t at = 0;
            for (size_t i = 0; i < nv; i++) {
                if (i && off[2 * i] == off[2 * i - 2])
                    FAIL("add-class %s word %d: two fetching ops fetched the same value %" PRIu64,
                         tname[t], w, vm(t, off[2 * i] + e.init[w]));
                if (off[2 * i] + off[2 * i + 1] > sum)
                    FAIL("add-class %s word %d: fetched value %" PRIu64 " out of range", tname[t],
                         w, vm(t, off[2 * i] + e.init[w]));
                if (allf && off[2 * i] != at)
                    FAIL("add-class %s word %d (all fetching): fetched offsets break the chain at "
                         "%zu: %" PRIu64 " expected %" PRIu64,
                         tname[t], w, i, off[2 * i], at);
                at = off[2 * i] + off[2 * i + 1];
            }
            free(off);
            break;
        }
        case AC_CAS: {
            uint64_t expect = vm(t, e.init[w] + cnt);
            if (fin != expect)
                FAIL("CAS-loop %s word %d: final %" PRIu64 " expected %" PRIu64, tname[t], w, fin,
                     expect);
            for (size_t i = 0; i < nv; i++)
                vals[i] = vm(t, vals[i] - e.init[w]);
            qsort(vals, nv, sizeof(uint64_t), cmp_u64);
            for (size_t i = 0; i < nv; i++)
                if (vals[i] != i) {
                    FAIL("CAS-loop %s word %d: successful CAS %zu saw offset %" PRIu64, tname[t], w,
                         i, vals[i]);
                    break;
                }
            break;
        }
        case AC_BIT:
            if ((fin & bits_mask) != bits_exp)
                FAIL("bitwise %s word %d: final 0x%" PRIx64 " expected 0x%" PRIx64
                     " in the bits 0x%" PRIx64,
                     tname[t], w, fin, bits_exp, bits_mask);
            break;
        default: {
            /* universe: init and every written token */
            written[nw++] = e.init[w];
            qsort(written, nw, sizeof(uint64_t), cmp_u64);
            for (size_t i = 0; i < nv; i++)
                if (!bsearch(&vals[i], written, nw, sizeof(uint64_t), cmp_u64))
                    FAIL("%s-class %s word %d: fetched %" PRIu64 ", never written", acname[e.cls],
                         tname[t], w, vals[i]);
            if (!bsearch(&fin, written, nw, sizeof(uint64_t), cmp_u64))
                FAIL("%s-class %s word %d: final %" PRIu64 ", never written", acname[e.cls],
                     tname[t], w, fin);
            if (e.cls == AC_SWAP) {
                consumed[nc++] = fin;
                qsort(consumed, nc, sizeof(uint64_t), cmp_u64);
                if (nc != nw || memcmp(consumed, written, nw * sizeof(uint64_t))) {
                    size_t i = 0;
                    while (i < nc && i < nw && consumed[i] == written[i])
                        i++;
                    FAIL("swap-class %s word %d: tokens not conserved: %zu written+init, %zu "
                         "consumed+final; first difference at %zu (%" PRIu64 " vs %" PRIu64 ")",
                         tname[t], w, nw, nc, i, i < nw ? written[i] : 0, i < nc ? consumed[i] : 0);
                }
            }
        }
        }
    next:
        free(vals);
        free(incs);
        free(written);
        free(consumed);
    }
    for (size_t i = 0; i < sp * (size_t)e.W + 16; i++) {
        size_t o = i - 8;
        if (i >= 8 && o < sp * (size_t)e.W && o % sp < E)
            continue;
        if (base[i - 8] != 0xA5) {
            FAIL("%s-class %s: the byte at offset %ld from the first word changed (0x%02x; words "
                 "%zu bytes apart)",
                 acname[e.cls], tname[t], (long)i - 8, base[i - 8], sp);
            break;
        }
    }
    (void)own_bit;
    shmem_barrier_all();
}

/* ---- episode: put-with-signal ---- */
static uint64_t sig_static, ack_static, flag_static, done_static;

#define X_PS(N, T, K, P, S, E, B)                                                                \
    static void ps_##N(struct pick *k, int nbi, void *d, const void *s, size_t n, uint64_t *sig, \
                       uint64_t v, int op)                                                       \
    {                                                                                            \
        if (nbi) {                                                                               \
            if (k->u)                                                                            \
                shmem_ctx_##N##_put_signal_nbi(k->c, d, s, n, sig, v, op, k->pe);                \
            else                                                                                 \
                shmem_##N##_put_signal_nbi(d, s, n, sig, v, op, k->pe);                          \
        } else {                                                                                 \
            if (k->u)                                                                            \
                shmem_ctx_##N##_put_signal(k->c, d, s, n, sig, v, op, k->pe);                    \
            else                                                                                 \
                shmem_##N##_put_signal(d, s, n, sig, v, op, k->pe);                              \
        }                                                                                        \
    }
RMA_TYPES(X_PS)
#undef X_PS
typedef void (*psfn)(struct pick *, int, void *, const void *, size_t, uint64_t *, uint64_t, int);
static const psfn ps_fn[] = {
#define X_PSF(N, T, K, P, S, E, B) ps_##N,
    RMA_TYPES(X_PSF)
#undef X_PSF
};
#define PS_SZ(B)                                                                 \
    case B:                                                                      \
        if (nbi) {                                                               \
            if (k->u)                                                            \
                shmem_ctx_put##B##_signal_nbi(k->c, d, s, n, sig, v, op, k->pe); \
            else                                                                 \
                shmem_put##B##_signal_nbi(d, s, n, sig, v, op, k->pe);           \
        } else {                                                                 \
            if (k->u)                                                            \
                shmem_ctx_put##B##_signal(k->c, d, s, n, sig, v, op, k->pe);     \
            else                                                                 \
                shmem_put##B##_signal(d, s, n, sig, v, op, k->pe);               \
        }                                                                        \
        break;
static void do_put_signal(const struct xfer *x, struct pick *k, int nbi, void *d, const void *s,
                          uint64_t *sig, uint64_t v, int op)
{
    size_t n = x_elems(x);
    if (x->nullp)
        d = NULL, s = NULL;
    if (x->form == FORM_TYPED)
        ps_fn[x->t](k, nbi, d, s, n, sig, v, op);
    else if (x->form == FORM_SIZED) {
        switch (x->bits) {
            PS_SZ(8) PS_SZ(16) PS_SZ(32) PS_SZ(64) PS_SZ(128)
        }
    } else if (nbi) {
        if (k->u)
            shmem_ctx_putmem_signal_nbi(k->c, d, s, n, sig, v, op, k->pe);
        else
            shmem_putmem_signal_nbi(d, s, n, sig, v, op, k->pe);
    } else {
        if (k->u)
            shmem_ctx_putmem_signal(k->c, d, s, n, sig, v, op, k->pe);
        else
            shmem_putmem_signal(d, s, n, sig, v, op, k->pe);
    }
}

/* a contiguous transfer (put-with-signal has no strided forms) */
static void gen_contig(struct rng *r, size_t cap, struct xfer *x)
{
    do
        gen_xfer(r, cap, -1, x);
    while (x->m != M_CONTIG && x->m != M_NBI);
    x->m = M_CONTIG;
}

/* the signal's starting value in an episode: 0, or just below 2^63, or high in the
 * unsigned range (comparisons of uint64 signals must be unsigned) */
static uint64_t sig_base;
static void draw_sig_base(void)
{
    int k = (int)rndn(&grng, 10);
    sig_base = k < 6 ? 0 : k < 8 ? (1ULL << 63) - 2 : ~0ULL - 100000;
}

struct sround {
    struct xfer x;
    int sigonly, nbi, op;
    uint64_t v, expect;
};
/* round k (1-based) of sender p; expect is the signal's value once it is delivered */
static void sround_gen(long ep, int p, int k, size_t cap, struct sround *s)
{
    struct rng r = pe_rng(ep, p, 3);
    int add = chance(&r, 50);
    uint64_t cum = 0;
    for (int i = 1; i <= k; i++) {
        struct rng ri = pe_rng(ep, p, 1000 + (uint64_t)i);
        gen_contig(&ri, cap, &s->x);
        s->sigonly = chance(&ri, 15);
        s->nbi = chance(&ri, 40);
        s->op = add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
        if (add) {
            s->v = 1 + rndn(&ri, 5);
            cum += s->v;
            s->expect = sig_base + cum;
        } else {
            s->v = sig_base + (uint64_t)i * 1000 + rndn(&ri, 1000);
            s->expect = s->v;
        }
    }
}

static void wait_ge_u64(uint64_t *var, uint64_t v, int how)
{
    switch (how) {
    case 0: shmem_uint64_wait_until(var, SHMEM_CMP_GE, v); break;
    case 1: shmem_signal_wait_until(var, SHMEM_CMP_GE, v); break;
    case 2:
        while (shmem_uint64_test(var, SHMEM_CMP_GE, v) == 0)
            ;
        break;
    case 3:
        while (shmem_signal_fetch(var) < v)
            ;
        break;
    default:
        while (shmem_uint64_atomic_fetch(var, me) < v)
            ;
    }
}

/* every PE puts-with-signal (ADD) into its slot of one PE's buffer; the receiver waits for
 * the sum and checks every slot */
static void ep_sig_gather(long ep)
{
    size_t cap = chance(&grng, 70) ? 1024 : 16384;
    int g = (int)rndn(&grng, (uint64_t)npes), R = 1 + (int)rndn(&grng, 6);
    size_t area = cap + 2 * GUARD;
    rma_block((size_t)npes * area + cap + 64);
    uint64_t *sig =
        chance(&grng, 50) ? (uint64_t *)(rblock + (size_t)npes * area + cap) : &sig_static;
    unsigned char *img = malloc(cap), *exp = malloc(area), *mask = malloc(area),
                  *priv = malloc(cap);
    if (trace && me == 0)
        printf("  sig gather to %d rounds=%d cap=%zu\n", g, R, cap);
    for (int k = 1; k <= R; k++) {
        *sig = sig_base;
        for (int s = 0; s < npes; s++)
            bgfill(rblock + (size_t)s * area, area,
                   mix64((uint64_t)ep * 41 + (uint64_t)s * 3 + (uint64_t)k));
        shmem_barrier_all();
        struct rng r = pe_rng(ep, me, 5000 + (uint64_t)k);
        struct xfer x;
        gen_contig(&r, cap, &x);
        int nbi = chance(&r, 50);
        uint64_t v = 1 + rndn(&r, 1000);
        unsigned char *src = chance(&lrng, 50) ? rblock + (size_t)npes * area : priv;
        image(src, cap, x.t, mix64((uint64_t)ep * 43 + (uint64_t)me * 7 + (uint64_t)k));
        struct pick pk = pick_ctx(&lrng, g, 1);
        spin_a_bit(&lrng);
        WHERE("gather round %d: put-signal to %d", k, g);
        do_put_signal(&x, &pk, nbi, rblock + (size_t)me * area + GUARD + x.doff, src + x.soff, sig,
                      v, SHMEM_SIGNAL_ADD);
        if (nbi || chance(&lrng, 50))
            pk_quiet(&pk);
        if (me == g) {
            uint64_t sum = sig_base;
            for (int p = 0; p < npes; p++) {
                struct rng rp = pe_rng(ep, p, 5000 + (uint64_t)k);
                struct xfer xp;
                gen_contig(&rp, cap, &xp);
                (void)chance(&rp, 50);
                sum += 1 + rndn(&rp, 1000);
            }
            WHERE("gather round %d: waiting for the signal to reach %" PRIu64, k, sum);
            wait_ge_u64(sig, sum, (int)rndn(&lrng, 5));
            uint64_t got = shmem_signal_fetch(sig);
            if (got != sum)
                FAIL("gather round %d: signal %" PRIu64 " expected %" PRIu64, k, got, sum);
            for (int p = 0; p < npes; p++) {
                struct rng rp = pe_rng(ep, p, 5000 + (uint64_t)k);
                struct xfer xp;
                gen_contig(&rp, cap, &xp);
                image(img, cap, xp.t, mix64((uint64_t)ep * 43 + (uint64_t)p * 7 + (uint64_t)k));
                expect_area(exp, mask, cap,
                            mix64((uint64_t)ep * 41 + (uint64_t)p * 3 + (uint64_t)k), &xp, img);
                compare_area("gathered put-signal data seen after the signal",
                             rblock + (size_t)p * area, exp, mask, cap, &xp, p);
            }
        }
        ctx_quiet_all();
        shmem_barrier_all();
    }
    free(img);
    free(exp);
    free(mask);
    free(priv);
}

/* every PE adds to one signal word of one PE with put-with-signal ADD (small and large
 * data), signal_add and uint64 AMOs (add, fetch_add, inc, fetch_inc) at once: the update
 * of a signal is atomic with respect to AMOs (put_signal's notes), so none may be lost */
static void ep_sig_mix(long ep)
{
    size_t cap = chance(&grng, 50) ? 256 : 40000;
    int g = (int)rndn(&grng, (uint64_t)npes);
    int M = 1 + (int)rndn(&grng, chance(&grng, 30) ? 400 : 40);
    int sigheap = chance(&grng, 50);
    size_t area = cap + 2 * GUARD;
    rma_block((size_t)npes * area + 64);
    uint64_t *sig = sigheap ? (uint64_t *)(rblock + (size_t)npes * area) : &sig_static;
    *sig = sig_base;
    unsigned char *src = malloc(cap);
    image(src, cap, TY_RAW, mix64((uint64_t)ep * 71 + (uint64_t)me));
    uint64_t *fetched = malloc(sizeof(uint64_t) * (size_t)M);
    int nf = 0;
    if (trace && me == 0)
        printf("  sig mix to %d: %d ops per PE, cap %zu\n", g, M, cap);
    shmem_barrier_all();
    struct rng r = pe_rng(ep, me, 6000);
    for (int i = 0; i < M; i++) {
        int op = (int)rndn(&r, 7);
        uint64_t v = 1 + rndn(&r, 1000);
        if (op == 4 || op == 6)
            v = 1;
        struct pick k = pick_ctx(&lrng, g, 1);
        WHERE("sig mix op %d/%d (%d) to %d", i, M, op, g);
        switch (op) {
        case 0:
        case 1: {
            size_t n = op == 0 ? rndn(&lrng, 64) : rndn(&lrng, cap + 1);
            unsigned char *d = rblock + (size_t)me * area + GUARD;
            int nbi = chance(&lrng, 40);
            if (k.u) {
                if (nbi)
                    shmem_ctx_putmem_signal_nbi(k.c, n ? d : NULL, n ? src : NULL, n, sig, v,
                                                SHMEM_SIGNAL_ADD, k.pe);
                else
                    shmem_ctx_putmem_signal(k.c, n ? d : NULL, n ? src : NULL, n, sig, v,
                                            SHMEM_SIGNAL_ADD, k.pe);
            } else if (nbi)
                shmem_putmem_signal_nbi(n ? d : NULL, n ? src : NULL, n, sig, v, SHMEM_SIGNAL_ADD,
                                        k.pe);
            else
                shmem_putmem_signal(n ? d : NULL, n ? src : NULL, n, sig, v, SHMEM_SIGNAL_ADD,
                                    k.pe);
            if (nbi)
                pk_quiet(&k); /* src is reused */
            break;
        }
        case 2:
            if (k.u)
                shmem_ctx_signal_add(k.c, sig, v, k.pe);
            else
                shmem_signal_add(sig, v, k.pe);
            break;
        case 3:
            if (k.u)
                shmem_ctx_uint64_atomic_add(k.c, sig, v, k.pe);
            else
                shmem_uint64_atomic_add(sig, v, k.pe);
            break;
        case 4:
            if (k.u)
                shmem_ctx_uint64_atomic_inc(k.c, sig, k.pe);
            else
                shmem_uint64_atomic_inc(sig, k.pe);
            break;
        case 5:
            fetched[nf++] = k.u ? shmem_ctx_uint64_atomic_fetch_add(k.c, sig, v, k.pe)
                                : shmem_uint64_atomic_fetch_add(sig, v, k.pe);
            break;
        default:
            fetched[nf++] = k.u ? shmem_ctx_uint64_atomic_fetch_inc(k.c, sig, k.pe)
                                : shmem_uint64_atomic_fetch_inc(sig, k.pe);
        }
    }
    WHERE("sig mix: quiet");
    ctx_quiet_all();
    shmem_barrier_all();
    if (me == g) {
        uint64_t sum = sig_base;
        for (int p = 0; p < npes; p++) {
            struct rng rp = pe_rng(ep, p, 6000);
            for (int i = 0; i < M; i++) {
                int op = (int)rndn(&rp, 7);
                uint64_t v = 1 + rndn(&rp, 1000);
                sum += op == 4 || op == 6 ? 1 : v;
            }
        }
        uint64_t got = shmem_signal_fetch(sig);
        if (got != sum)
            FAIL("signal word updated by put-with-signal ADD, signal_add and AMOs from %d PEs: "
                 "%" PRIu64 ", expected %" PRIu64 " (%" PRId64 " lost)",
                 npes, got, sum, (int64_t)(sum - got));
    }
    for (int i = 0; i < nf; i++)
        if (fetched[i] - sig_base >= 1000ULL * (uint64_t)M * (uint64_t)npes) {
            FAIL("sig mix: fetched %" PRIu64 ", more than every add", fetched[i]);
            break;
        }
    free(src);
    free(fetched);
    shmem_barrier_all();
}

static void ep_sig(long ep)
{
    draw_sig_base();
    if (chance(&grng, 25)) {
        ep_sig_mix(ep);
        return;
    }
    if (chance(&grng, 35)) {
        ep_sig_gather(ep);
        return;
    }
    size_t cap = chance(&grng, 60) ? 4096 : chance(&grng, 70) ? 70000 : (1 << 20) + 64;
    if (cap > maxbuf)
        cap = maxbuf;
    cap = (cap + 15) & ~(size_t)15;
    int shift = (int)rndn(&grng, (uint64_t)npes), R = 1 + (int)rndn(&grng, 12);
    int sigheap = chance(&grng, 50);
    size_t area = cap + 2 * GUARD;
    rma_block(2 * area + 64);
    uint64_t *sig = sigheap ? (uint64_t *)(rblock + 2 * area) : &sig_static;
    uint64_t *ack = sigheap ? (uint64_t *)(rblock + 2 * area + 8) : &ack_static;
    unsigned char *data = rblock, *srcbuf = rblock + area;
    *sig = sig_base;
    *ack = 0;
    bgfill(data, area, mix64((uint64_t)ep * 5 + (uint64_t)me));
    int to = (me + shift) % npes, from = (me - shift + npes) % npes;
    unsigned char *img = malloc(cap), *exp = malloc(area), *mask = malloc(area);
    unsigned char *priv = malloc(cap);
    if (trace && me == 0)
        printf("  sig shift=%d rounds=%d cap=%zu %s\n", shift, R, cap, sigheap ? "heap" : "static");
    shmem_barrier_all();
    for (int k = 1; k <= R; k++) {
        /* send round k to `to` once it acknowledged round k-1 */
        struct sround s;
        sround_gen(ep, me, k, cap, &s);
        WHERE("round %d: waiting for the ack of round %d from PE %d", k, k - 1, to);
        wait_ge_u64(ack, (uint64_t)k - 1, (int)rndn(&lrng, 5));
        unsigned char *src = chance(&lrng, 50) ? srcbuf + GUARD : priv;
        image(src, cap, s.x.t, mix64((uint64_t)ep * 11 + (uint64_t)me * 3 + (uint64_t)k));
        struct pick pk = pick_ctx(&lrng, to, 1);
        WHERE("round %d: put-signal to PE %d", k, to);
        if (trace) {
            char d[300];
            describe(&s.x, d, sizeof d);
            printf("  PE %d round %d -> %d: %s%s %s %s, ctx %s\n", me, k, to,
                   s.sigonly ? "signal only" : d, s.nbi ? " nbi" : "",
                   s.op == SHMEM_SIGNAL_ADD ? "ADD" : "SET", src == priv ? "private" : "symmetric",
                   ctx_desc(&pk));
            fflush(stdout);
        }
        if (s.sigonly) {
            if (pk.u) {
                if (s.op == SHMEM_SIGNAL_ADD)
                    shmem_ctx_signal_add(pk.c, sig, s.v, pk.pe);
                else
                    shmem_ctx_signal_set(pk.c, sig, s.v, pk.pe);
            } else if (s.op == SHMEM_SIGNAL_ADD)
                shmem_signal_add(sig, s.v, pk.pe);
            else
                shmem_signal_set(sig, s.v, pk.pe);
        } else
            do_put_signal(&s.x, &pk, s.nbi, data + GUARD + s.x.doff, src + s.x.soff, sig, s.v,
                          s.op);
        if (s.nbi || chance(&lrng, 30))
            pk_quiet(&pk);
        /* receive round k from `from` */
        struct sround rs;
        sround_gen(ep, from, k, cap, &rs);
        WHERE("round %d: waiting for the signal from PE %d (%" PRIu64 ")", k, from, rs.expect);
        int how = (int)rndn(&lrng, 6);
        uint64_t got;
        if (how == 5) {
            got = shmem_signal_wait_until(
                sig, rs.op == SHMEM_SIGNAL_ADD && chance(&lrng, 50) ? SHMEM_CMP_EQ : SHMEM_CMP_GE,
                rs.expect);
        } else {
            wait_ge_u64(sig, rs.expect, how);
            got = shmem_signal_fetch(sig);
        }
        if (got != rs.expect)
            FAIL("round %d from PE %d: signal %" PRIu64 " expected %" PRIu64, k, from, got,
                 rs.expect);
        struct xfer none;
        memset(&none, 0, sizeof none);
        if (!rs.sigonly)
            image(img, cap, rs.x.t, mix64((uint64_t)ep * 11 + (uint64_t)from * 3 + (uint64_t)k));
        expect_area(exp, mask, cap, mix64((uint64_t)ep * 5 + (uint64_t)me),
                    rs.sigonly ? &none : &rs.x, img);
        if (compare_area("put-signal data seen after the signal", data, exp, mask, cap,
                         rs.sigonly ? &none : &rs.x, from)) {
            char d[200];
            describe(&rs.x, d, sizeof d);
            fprintf(stderr, "  (round %d, %s, %s, signal %" PRIu64 ")\n", k,
                    rs.nbi ? "nbi" : "blocking", rs.op == SHMEM_SIGNAL_ADD ? "ADD" : "SET", rs.v);
        }
        bgfill(data, area, mix64((uint64_t)ep * 5 + (uint64_t)me));
        /* acknowledge */
        struct pick pa = pick_ctx(&lrng, from, 1);
        int am = (int)rndn(&lrng, 4);
        if (trace) {
            printf("  PE %d round %d: ack to %d by %s, ctx %s\n", me, k, from,
                   am == 0   ? "atomic_set"
                   : am == 1 ? "p"
                   : am == 2 ? "signal_set"
                             : "signal_add",
                   ctx_desc(&pa));
            fflush(stdout);
        }
        switch (am) {
        case 0:
            if (pa.u)
                shmem_ctx_uint64_atomic_set(pa.c, ack, (uint64_t)k, pa.pe);
            else
                shmem_uint64_atomic_set(ack, (uint64_t)k, pa.pe);
            break;
        case 1:
            if (pa.u)
                shmem_ctx_uint64_p(pa.c, ack, (uint64_t)k, pa.pe);
            else
                shmem_uint64_p(ack, (uint64_t)k, pa.pe);
            break;
        case 2:
            if (pa.u)
                shmem_ctx_signal_set(pa.c, ack, (uint64_t)k, pa.pe);
            else
                shmem_signal_set(ack, (uint64_t)k, pa.pe);
            break;
        default:
            if (pa.u)
                shmem_ctx_signal_add(pa.c, ack, 1, pa.pe);
            else
                shmem_signal_add(ack, 1, pa.pe);
        }
        if (chance(&lrng, 50))
            pk_quiet(&pa);
    }
    WHERE("final quiet");
    ctx_quiet_all();
    shmem_barrier_all();
    free(img);
    free(exp);
    free(mask);
    free(priv);
}

/* ---- episode: ordering (data, fence or quiet, flag) ---- */
#define NCNT 4
static void ep_ord(long ep)
{
    size_t cap = chance(&grng, 60) ? 2048 : chance(&grng, 70) ? 70000 : (1 << 20) + 64;
    if (cap > maxbuf)
        cap = maxbuf;
    cap = (cap + 15) & ~(size_t)15;
    int shift = (int)rndn(&grng, (uint64_t)npes), R = 1 + (int)rndn(&grng, 10);
    size_t area = cap + 2 * GUARD;
    rma_block(2 * area + 64 + NCNT * 8);
    unsigned char *data = rblock, *srcbuf = rblock + area;
    uint64_t *flag = chance(&grng, 50) ? &flag_static : (uint64_t *)(rblock + 2 * area);
    uint64_t *ack = (uint64_t *)(rblock + 2 * area + 8);
    long long *cnt = (long long *)(rblock + 2 * area + 64);
    *flag = 0;
    *ack = 0;
    done_static = 0;
    for (int i = 0; i < NCNT; i++)
        cnt[i] = 0;
    bgfill(data, area, mix64((uint64_t)ep * 13 + (uint64_t)me));
    int to = (me + shift) % npes, from = (me - shift + npes) % npes;
    unsigned char *img = malloc(cap), *exp = malloc(area), *mask = malloc(area),
                  *priv = malloc(cap);
    long long cexp[NCNT] = { 0 };
    if (trace && me == 0)
        printf("  ord shift=%d rounds=%d cap=%zu\n", shift, R, cap);
    shmem_barrier_all();
    for (int k = 1; k <= R; k++) {
        struct rng rr = pe_rng(ep, me, 2000 + (uint64_t)k);
        struct xfer x;
        gen_xfer(&rr, cap, -1, &x);
        int useq = chance(&rr, 30), nadd = (int)rndn(&rr, 3), fl = (int)rndn(&rr, 5);
        WHERE("round %d: waiting for the ack of round %d from PE %d", k, k - 1, to);
        if (chance(&lrng, 50))
            wait_ge_u64(ack, (uint64_t)k - 1, (int)rndn(&lrng, 5));
        else
            while (shmem_uint64_g(&done_static, to) < (uint64_t)k - 1)
                ; /* g() in a loop on the receiver's counter */
        unsigned char *src = chance(&lrng, 50) ? srcbuf + GUARD : priv;
        image(src, cap, x.t, mix64((uint64_t)ep * 17 + (uint64_t)me * 5 + (uint64_t)k));
        struct pick pk = pick_ctx(&lrng, to, 1);
        WHERE("round %d: data to PE %d", k, to);
        do_put(&x, &pk, data + GUARD + x.doff, src + x.soff);
        for (int a = 0; a < nadd; a++) {
            int c = (int)rndn(&rr, NCNT);
            long long v = 1 + (long long)rndn(&rr, 100);
            if (pk.u)
                shmem_ctx_longlong_atomic_add(pk.c, &cnt[c], v, pk.pe);
            else
                shmem_longlong_atomic_add(&cnt[c], v, pk.pe);
        }
        struct pick pdata = pk;
        if (useq) {
            /* completed: the flag may go on any context */
            if (pk.i >= 0 && chance(&lrng, 25)) {
                /* shmem_ctx_destroy completes the context's operations */
                ctx_destroy_at(pk.i);
                pk.i = -1;
                pk.c = SHMEM_CTX_DEFAULT;
                pk.u = 0;
                pk.pe = to;
                pdata = pk;
            } else if (chance(&lrng, 30)) {
                int tl[1] = { pk.pe };
                if (pk.u)
                    shmem_ctx_pe_quiet(pk.c, tl, 1);
                else
                    shmem_pe_quiet(tl, 1);
            } else
                pk_quiet(&pk);
            pk = pick_ctx(&lrng, to, 1);
        } else
            pk_fence(&pk);
        switch (fl) {
        case 0:
            if (pk.u)
                shmem_ctx_uint64_p(pk.c, flag, (uint64_t)k, pk.pe);
            else
                shmem_uint64_p(flag, (uint64_t)k, pk.pe);
            break;
        case 1:
            if (pk.u)
                shmem_ctx_uint64_atomic_set(pk.c, flag, (uint64_t)k, pk.pe);
            else
                shmem_uint64_atomic_set(flag, (uint64_t)k, pk.pe);
            break;
        case 2:
            if (pk.u)
                shmem_ctx_uint64_atomic_inc(pk.c, flag, pk.pe);
            else
                shmem_uint64_atomic_inc(flag, pk.pe);
            break;
        case 3: {
            static uint64_t kv;
            kv = (uint64_t)k;
            if (pk.u)
                shmem_ctx_uint64_put(pk.c, flag, &kv, 1, pk.pe);
            else
                shmem_uint64_put(flag, &kv, 1, pk.pe);
            break;
        }
        default:
            if (pk.u)
                shmem_ctx_uint64_atomic_add(pk.c, flag, 1, pk.pe);
            else
                shmem_uint64_atomic_add(flag, 1, pk.pe);
        }
        pk_quiet(&pk); /* the source is rewritten next round; and delivery */
        pk_quiet(&pdata);
        /* receive */
        struct rng rf = pe_rng(ep, from, 2000 + (uint64_t)k);
        struct xfer xr;
        gen_xfer(&rf, cap, -1, &xr);
        int rq = chance(&rf, 30), rnadd = (int)rndn(&rf, 3);
        (void)rndn(&rf, 5);
        for (int a = 0; a < rnadd; a++) {
            int c = (int)rndn(&rf, NCNT);
            cexp[c] += 1 + (long long)rndn(&rf, 100);
        }
        WHERE("round %d: waiting for the flag from PE %d", k, from);
        switch (rndn(&lrng, 4)) {
        case 0: shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, (uint64_t)k); break;
        case 1:
            while (shmem_uint64_test(flag, SHMEM_CMP_GE, (uint64_t)k) == 0)
                ;
            break;
        case 2:
            while (shmem_uint64_g(flag, me) < (uint64_t)k)
                ;
            break;
        default: shmem_signal_wait_until(flag, SHMEM_CMP_GE, (uint64_t)k);
        }
        image(img, cap, xr.t, mix64((uint64_t)ep * 17 + (uint64_t)from * 5 + (uint64_t)k));
        expect_area(exp, mask, cap, mix64((uint64_t)ep * 13 + (uint64_t)me), &xr, img);
        if (compare_area(rq ? "data seen after quiet+flag" : "data seen after fence+flag", data,
                         exp, mask, cap, &xr, from))
            fprintf(stderr, "  (round %d)\n", k);
        for (int c = 0; c < NCNT; c++) {
            long long v = shmem_longlong_atomic_fetch(&cnt[c], me);
            if (v != cexp[c])
                FAIL("round %d from PE %d: counter %d is %lld after the flag, expected %lld (%s)",
                     k, from, c, v, cexp[c], rq ? "quiet" : "fence");
        }
        bgfill(data, area, mix64((uint64_t)ep * 13 + (uint64_t)me));
        struct pick pa = pick_ctx(&lrng, from, 1);
        done_static = (uint64_t)k;
        if (pa.u)
            shmem_ctx_uint64_atomic_set(pa.c, ack, (uint64_t)k, pa.pe);
        else
            shmem_uint64_p(ack, (uint64_t)k, pa.pe);
        pk_quiet(&pa);
    }
    WHERE("final quiet");
    ctx_quiet_all();
    shmem_barrier_all();
    free(img);
    free(exp);
    free(mask);
    free(priv);
}

/* ---- episode: point-to-point synchronization ---- */
#define MAXIV 24
enum { W_EACH, T_EACH, W_ALL, T_ALL, W_ANY, T_ANY, W_SOME, T_SOME, W_NMETH };
static const char *wname[] = { "wait_until each", "test each", "wait_until_all",  "test_all",
                               "wait_until_any",  "test_any",  "wait_until_some", "test_some" };
static const int cmps[] = { SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                            SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE };
static const char *cmpname[] = { "EQ", "NE", "GT", "GE", "LT", "LE" };

struct sspec {
    int m, cmpi, meth, vec, nullst;
    int excl[MAXIV];
    uint64_t cv[MAXIV], init[MAXIV], inter[MAXIV], fin[MAXIV]; /* two's complement bits */
    int has_inter[MAXIV];
};
/* a comparison value of type t at least 10 away from the type's bounds: small, or anywhere
 * in the range (negative values of signed types, values past 2^63 of 64-bit unsigned ones) */
static uint64_t cval(struct rng *r, int t, int wide)
{
    int bits = 8 * (int)tsize[t];
    int sgn = (t == TY_short || t == TY_int || t == TY_long || t == TY_longlong || t == TY_int32 ||
               t == TY_int64 || t == TY_ptrdiff);
    if (!wide)
        return 10 + rndn(r, 2000);
    uint64_t h = rnd(r);
    if (sgn) {
        int64_t v = (int64_t)h >> (64 - bits);
        int64_t lim = (int64_t)((1ULL << (bits - 1)) - 1) - 10;
        if (v > lim)
            v = lim;
        if (v < -lim)
            v = -lim;
        return (uint64_t)v;
    }
    uint64_t v = h >> (64 - bits), max = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    if (v > max - 10)
        v = max - 10;
    if (v < 10)
        v = 10;
    return v;
}

static void sspec_gen(long ep, int q, int m, int t, struct sspec *s)
{
    struct rng r = pe_rng(ep, q, 4);
    int wide = chance(&r, 50);
    s->m = m;
    s->cmpi = (int)rndn(&r, 6);
    s->meth = (int)rndn(&r, W_NMETH);
    s->vec = chance(&r, 50);
    s->nullst = chance(&r, 30);
    uint64_t c0 = cval(&r, t, wide);
    for (int i = 0; i < m; i++) {
        uint64_t c = s->vec ? cval(&r, t, wide) : c0;
        s->cv[i] = c;
        s->excl[i] = !s->nullst && chance(&r, 20);
        s->has_inter[i] = chance(&r, 30);
        uint64_t d = 1 + rndn(&r, 5);
        switch (cmps[s->cmpi]) {
        case SHMEM_CMP_EQ: s->init[i] = c + 1, s->inter[i] = c + 2, s->fin[i] = c; break;
        case SHMEM_CMP_NE: s->init[i] = c, s->inter[i] = c, s->fin[i] = c + d; break;
        case SHMEM_CMP_GT: s->init[i] = c, s->inter[i] = c - 1, s->fin[i] = c + d; break;
        case SHMEM_CMP_GE: s->init[i] = c - 1, s->inter[i] = c - 2, s->fin[i] = c + d - 1; break;
        case SHMEM_CMP_LT: s->init[i] = c, s->inter[i] = c + 1, s->fin[i] = c - d; break;
        default: s->init[i] = c + 1, s->inter[i] = c + 7, s->fin[i] = c - d + 1; break;
        }
    }
    if (s->meth == W_ANY || s->meth == T_ANY || s->meth == W_SOME || s->meth == T_SOME)
        s->nullst = 0; /* the loop marks what it found in the status array */
}
static int sync_sender(int q, int i, int off)
{
    return (i + q + off) % npes;
}

#define X_SYNC(N, T, K, P, S, E, B)                                                                \
    static void sync_send_##N(T *iv, uint64_t v, struct pick *k, int how)                          \
    {                                                                                              \
        static T one;                                                                              \
        switch (how) {                                                                             \
        case 0:                                                                                    \
            if (k->u)                                                                              \
                shmem_ctx_##N##_p(k->c, iv, (T)v, k->pe);                                          \
            else                                                                                   \
                shmem_##N##_p(iv, (T)v, k->pe);                                                    \
            break;                                                                                 \
        case 1:                                                                                    \
            one = (T)v;                                                                            \
            if (k->u)                                                                              \
                shmem_ctx_##N##_put(k->c, iv, &one, 1, k->pe);                                     \
            else                                                                                   \
                shmem_##N##_put(iv, &one, 1, k->pe);                                               \
            break;                                                                                 \
        default:                                                                                   \
            one = (T)v;                                                                            \
            if (k->u)                                                                              \
                shmem_ctx_##N##_put_nbi(k->c, iv, &one, 1, k->pe);                                 \
            else                                                                                   \
                shmem_##N##_put_nbi(iv, &one, 1, k->pe);                                           \
            pk_quiet(k);                                                                           \
        }                                                                                          \
    }                                                                                              \
    static void sync_recv_##N(T *iv, struct sspec *s)                                              \
    {                                                                                              \
        int m = s->m, cmp = cmps[s->cmpi];                                                         \
        T cv[MAXIV];                                                                               \
        int st[MAXIV], done[MAXIV];                                                                \
        size_t idx[MAXIV];                                                                         \
        size_t ninc = 0;                                                                           \
        for (int i = 0; i < m; i++) {                                                              \
            cv[i] = (T)s->cv[i];                                                                   \
            st[i] = s->excl[i];                                                                    \
            done[i] = s->excl[i];                                                                  \
            ninc += !s->excl[i];                                                                   \
        }                                                                                          \
        const int *stp = s->nullst ? NULL : st;                                                    \
        T c0 = cv[0];                                                                              \
        size_t got = 0;                                                                            \
        long spins = 0;                                                                            \
        switch (s->meth) {                                                                         \
        case W_EACH:                                                                               \
        case T_EACH:                                                                               \
            for (int i = 0; i < m; i++) {                                                          \
                if (s->excl[i])                                                                    \
                    continue;                                                                      \
                if (s->meth == W_EACH)                                                             \
                    shmem_##N##_wait_until(&iv[i], cmp, cv[i]);                                    \
                else                                                                               \
                    while (shmem_##N##_test(&iv[i], cmp, cv[i]) == 0)                              \
                        ;                                                                          \
            }                                                                                      \
            break;                                                                                 \
        case W_ALL:                                                                                \
            if (s->vec)                                                                            \
                shmem_##N##_wait_until_all_vector(iv, (size_t)m, stp, cmp, cv);                    \
            else                                                                                   \
                shmem_##N##_wait_until_all(iv, (size_t)m, stp, cmp, c0);                           \
            break;                                                                                 \
        case T_ALL:                                                                                \
            while ((s->vec ? shmem_##N##_test_all_vector(iv, (size_t)m, stp, cmp, cv)              \
                           : shmem_##N##_test_all(iv, (size_t)m, stp, cmp, c0)) == 0)              \
                spins++;                                                                           \
            break;                                                                                 \
        case W_ANY:                                                                                \
        case T_ANY:                                                                                \
            while (got < ninc) {                                                                   \
                size_t j;                                                                          \
                if (s->meth == W_ANY)                                                              \
                    j = s->vec ? shmem_##N##_wait_until_any_vector(iv, (size_t)m, st, cmp, cv)     \
                               : shmem_##N##_wait_until_any(iv, (size_t)m, st, cmp, c0);           \
                else {                                                                             \
                    j = s->vec ? shmem_##N##_test_any_vector(iv, (size_t)m, st, cmp, cv)           \
                               : shmem_##N##_test_any(iv, (size_t)m, st, cmp, c0);                 \
                    if (j == SIZE_MAX)                                                             \
                        continue;                                                                  \
                }                                                                                  \
                if (j >= (size_t)m || st[j]) {                                                     \
                    FAIL("%s%s %s: returned index %zu (nelems %d, %s)", wname[s->meth],            \
                         s->vec ? "_vector" : "", #N, j, m, j < (size_t)m ? "excluded" : "");      \
                    return;                                                                        \
                }                                                                                  \
                if ((T)iv[j] != (T)s->fin[j])                                                      \
                    FAIL("%s %s: index %zu returned while its value is not final", wname[s->meth], \
                         #N, j);                                                                   \
                st[j] = 1;                                                                         \
                got++;                                                                             \
            }                                                                                      \
            break;                                                                                 \
        default:                                                                                   \
            while (got < ninc) {                                                                   \
                size_t c;                                                                          \
                if (s->meth == W_SOME)                                                             \
                    c = s->vec                                                                     \
                            ? shmem_##N##_wait_until_some_vector(iv, (size_t)m, idx, st, cmp, cv)  \
                            : shmem_##N##_wait_until_some(iv, (size_t)m, idx, st, cmp, c0);        \
                else                                                                               \
                    c = s->vec ? shmem_##N##_test_some_vector(iv, (size_t)m, idx, st, cmp, cv)     \
                               : shmem_##N##_test_some(iv, (size_t)m, idx, st, cmp, c0);           \
                if (s->meth == W_SOME && c == 0) {                                                 \
                    FAIL("wait_until_some %s returned 0 with %zu entries left", #N, ninc - got);   \
                    return;                                                                        \
                }                                                                                  \
                if (c > ninc - got) {                                                              \
                    FAIL("%s %s returned %zu with %zu entries left", wname[s->meth], #N, c,        \
                         ninc - got);                                                              \
                    return;                                                                        \
                }                                                                                  \
                for (size_t q = 0; q < c; q++) {                                                   \
                    size_t j = idx[q];                                                             \
                    if (j >= (size_t)m || st[j]) {                                                 \
                        FAIL("%s%s %s: returned index %zu (nelems %d) %s", wname[s->meth],         \
                             s->vec ? "_vector" : "", #N, j, m,                                    \
                             j < (size_t)m ? "excluded or returned twice" : "");                   \
                        return;                                                                    \
                    }                                                                              \
                    st[j] = 1;                                                                     \
                    got++;                                                                         \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        (void)spins;                                                                               \
        (void)done;                                                                                \
        /* every included entry has its final value, the others their initial one */               \
        for (int i = 0; i < m; i++) {                                                              \
            T want = (T)(s->excl[i] ? s->init[i] : s->fin[i]);                                     \
            if (iv[i] != want)                                                                     \
                FAIL("%s%s %s %s: entry %d is %lld after the wait, expected %lld", wname[s->meth], \
                     s->vec ? "_vector" : "", #N, cmpname[s->cmpi], i, (long long)iv[i],           \
                     (long long)want);                                                             \
        }                                                                                          \
        /* fairness: repeated _any calls return every satisfied entry */                           \
        for (int i = 0; i < m; i++)                                                                \
            st[i] = s->excl[i], done[i] = s->excl[i];                                              \
        size_t left = ninc;                                                                        \
        for (long c = 0; c < 100L * m + 10 && left; c++) {                                         \
            size_t j = (c & 1) ? shmem_##N##_test_any(iv, (size_t)m, st, cmp, c0)                  \
                               : shmem_##N##_wait_until_any_vector(iv, (size_t)m, st, cmp, cv);    \
            if (s->vec && (c & 1))                                                                 \
                continue;                                                                          \
            if (j >= (size_t)m || st[j]) {                                                         \
                FAIL("fairness %s: _any returned %zu", #N, j);                                     \
                break;                                                                             \
            }                                                                                      \
            if (!done[j])                                                                          \
                done[j] = 1, left--;                                                               \
        }                                                                                          \
        if (left && !s->vec)                                                                       \
            FAIL("fairness %s: %zu of %zu satisfied entries never returned by test_any/"           \
                 "wait_until_any_vector in %ld calls",                                             \
                 #N, left, ninc, 100L * m + 10);                                                   \
        /* test_some returns exactly the included entries; edge cases */                           \
        size_t c = shmem_##N##_test_some_vector(iv, (size_t)m, idx, st, cmp, cv);                  \
        if (c != ninc)                                                                             \
            FAIL("test_some_vector %s returned %zu, %zu entries satisfy", #N, c, ninc);            \
        for (int i = 0; i < m; i++)                                                                \
            st[i] = 1;                                                                             \
        if (shmem_##N##_test_any(iv, (size_t)m, st, cmp, c0) != SIZE_MAX ||                        \
            shmem_##N##_wait_until_any(iv, (size_t)m, st, cmp, c0) != SIZE_MAX ||                  \
            shmem_##N##_test_some(iv, (size_t)m, idx, st, cmp, c0) != 0 ||                         \
            shmem_##N##_wait_until_some(iv, (size_t)m, idx, st, cmp, c0) != 0 ||                   \
            shmem_##N##_test_all(iv, (size_t)m, st, cmp, c0) != 1 ||                               \
            shmem_##N##_test_any(iv, 0, NULL, cmp, c0) != SIZE_MAX ||                              \
            shmem_##N##_test_some(iv, 0, idx, NULL, cmp, c0) != 0 ||                               \
            shmem_##N##_test_all(iv, 0, NULL, cmp, c0) != 1 ||                                     \
            shmem_##N##_test_any_vector(iv, 0, NULL, cmp, cv) != SIZE_MAX)                         \
            FAIL("%s: an empty test set gave a wrong answer", #N);                                 \
        shmem_##N##_wait_until_all(iv, (size_t)m, st, cmp, c0);                                    \
        shmem_##N##_wait_until_all(iv, 0, NULL, cmp, c0);                                          \
        shmem_##N##_wait_until_all_vector(iv, (size_t)m, st, SHMEM_CMP_EQ, cv);                    \
    }                                                                                              \
    static void sync_init_##N(void *p, struct sspec *s)                                            \
    {                                                                                              \
        T *iv = p;                                                                                 \
        for (int i = 0; i < s->m; i++)                                                             \
            iv[i] = (T)s->init[i];                                                                 \
    }
#define P2P_T(X)                                    \
    X(short, short, 0, 0, 0, 0, 0)                  \
    X(int, int, 0, 0, 0, 0, 0)                      \
    X(long, long, 0, 0, 0, 0, 0)                    \
    X(longlong, long long, 0, 0, 0, 0, 0)           \
    X(ushort, unsigned short, 0, 0, 0, 0, 0)        \
    X(uint, unsigned int, 0, 0, 0, 0, 0)            \
    X(ulong, unsigned long, 0, 0, 0, 0, 0)          \
    X(ulonglong, unsigned long long, 0, 0, 0, 0, 0) \
    X(int32, int32_t, 0, 0, 0, 0, 0)                \
    X(int64, int64_t, 0, 0, 0, 0, 0)                \
    X(uint32, uint32_t, 0, 0, 0, 0, 0)              \
    X(uint64, uint64_t, 0, 0, 0, 0, 0)              \
    X(size, size_t, 0, 0, 0, 0, 0)                  \
    X(ptrdiff, ptrdiff_t, 0, 0, 0, 0, 0)
P2P_T(X_SYNC)

static void sync_send(int t, void *iv, uint64_t v, struct pick *k, int how)
{
    switch (t) {
#define C_SS(N, T, K, P, S, E, B) \
    case TY_##N: sync_send_##N(iv, v, k, how); break;
        P2P_T(C_SS)
    }
}
static void sync_recv(int t, void *iv, struct sspec *s)
{
    switch (t) {
#define C_SR(N, T, K, P, S, E, B) \
    case TY_##N: sync_recv_##N(iv, s); break;
        P2P_T(C_SR)
    }
}
static void sync_init(int t, void *iv, struct sspec *s)
{
    switch (t) {
#define C_SI(N, T, K, P, S, E, B) \
    case TY_##N: sync_init_##N(iv, s); break;
        P2P_T(C_SI)
    }
}
static long long iv_static[MAXIV + 2];

static void ep_sync(long ep)
{
    int t = pick_type(&grng, t_p2p);
    int m = 1 + (int)rndn(&grng, MAXIV);
    int off = (int)rndn(&grng, (uint64_t)npes);
    int heap = chance(&grng, 50);
    rma_block(MAXIV * 8 + 64);
    void *iv = heap ? (void *)(rblock + 8 * rndn(&grng, 8)) : (void *)iv_static;
    struct sspec mine;
    sspec_gen(ep, me, m, t, &mine);
    sync_init(t, iv, &mine);
    if (trace && me == 0)
        printf("  sync %s m=%d off=%d %s\n", tname[t], m, off, heap ? "heap" : "static");
    shmem_barrier_all();
    /* send: every entry of every PE whose sender is me, in a random order */
    int nsend = 0;
    struct {
        int q, i;
    } todo[MAXPE * MAXIV];
    for (int q = 0; q < npes; q++)
        for (int i = 0; i < m; i++)
            if (sync_sender(q, i, off) == me)
                todo[nsend].q = q, todo[nsend++].i = i;
    for (int a = nsend - 1; a > 0; a--) {
        int b = (int)rndn(&lrng, (uint64_t)a + 1);
        int tq = todo[a].q, ti = todo[a].i;
        todo[a] = todo[b];
        todo[b].q = tq, todo[b].i = ti;
    }
    for (int a = 0; a < nsend; a++) {
        struct sspec s;
        sspec_gen(ep, todo[a].q, m, t, &s);
        int i = todo[a].i;
        if (s.excl[i])
            continue;
        void *dst = (char *)iv + (size_t)i * tsize[t];
        struct pick k = pick_ctx(&lrng, todo[a].q, 1);
        WHERE("sync: setting entry %d of PE %d", i, todo[a].q);
        spin_a_bit(&lrng);
        if (s.has_inter[i]) {
            sync_send(t, dst, s.inter[i], &k, (int)rndn(&lrng, 3));
            pk_fence(&k); /* the final value after the intermediate one */
        }
        sync_send(t, dst, s.fin[i], &k, (int)rndn(&lrng, 3));
        if (chance(&lrng, 30))
            pk_quiet(&k);
    }
    ctx_quiet_all();
    WHERE("sync: %s%s %s %s on %d entries", wname[mine.meth], mine.vec ? "_vector" : "", tname[t],
          cmpname[mine.cmpi], m);
    sync_recv(t, iv, &mine);
    shmem_barrier_all();
}

/* ---- episode: symmetric memory ---- */
#define NBLK 6
struct blk {
    unsigned char *p;
    size_t size;
    uint64_t key;
};
static struct blk blks[NBLK];

static uint64_t blk_key(int b, int pe)
{
    return mix64(blks[b].key * 1000003ULL + (uint64_t)pe);
}

static void ep_mem(long ep)
{
    static const size_t menu[] = { 1, 7, 64, 4096, 65537, 1 << 20, 3 << 20 };
    int b = (int)rndn(&grng, NBLK);
    int op = (int)rndn(&grng, 5);
    size_t sz = chance(&grng, 70) ? menu[rndn(&grng, 7)] : 1 + rndn(&grng, 200000);
    size_t al = (size_t)8 << rndn(&grng, 18);
    if (chance(&grng, 10)) {
        /* size 0: a null pointer and no action; shmem_free(NULL): no action */
        void *z0 = shmem_malloc(0), *z1 = shmem_calloc(0, 8), *z2 = shmem_calloc(8, 0),
             *z3 = shmem_align(64, 0);
        if (z0 || z1 || z2 || z3)
            FAIL("a zero-size allocation returned non-NULL (%p %p %p %p)", z0, z1, z2, z3);
        shmem_free(NULL);
        void *z4 = shmem_realloc(NULL, 0);
        if (z4)
            FAIL("shmem_realloc(NULL, 0) returned %p", z4);
    }
    struct blk *B = &blks[b];
    if (trace && me == 0)
        printf("  mem block %d op %d size %zu (was %p/%zu)\n", b, op, sz, (void *)B->p, B->size);
    WHERE("mem: op %d on block %d", op, b);
    if (B->p && op == 4) {
        shmem_free(B->p);
        B->p = NULL;
        B->size = 0;
    } else if (B->p && op >= 2) {
        size_t old = B->size;
        unsigned char *np = shmem_realloc(B->p, sz);
        if (!np) {
            FAIL("shmem_realloc(%zu -> %zu) returned NULL", old, sz);
            B->p = NULL;
            return;
        }
        /* kept: the first min(old, sz) bytes */
        unsigned char *img = malloc(old);
        image(img, old, TY_RAW, blk_key(b, me));
        size_t keep = old < sz ? old : sz;
        if (memcmp(np, img, keep)) {
            size_t i = 0;
            while (np[i] == img[i])
                i++;
            FAIL("shmem_realloc(%zu -> %zu) did not keep the contents: byte %zu differs", old, sz,
                 i);
        }
        free(img);
        B->p = np;
        B->size = sz;
    } else {
        if (B->p)
            shmem_free(B->p);
        B->key = rnd(&grng);
        if (op == 0)
            B->p = shmem_malloc(sz);
        else if (op == 1) {
            B->p = shmem_align(al, sz);
            if (B->p && ((uintptr_t)B->p & (al - 1)))
                FAIL("shmem_align(%zu, %zu) returned %p", al, sz, (void *)B->p);
        } else {
            size_t n = 1 + rndn(&grng, 8);
            B->p = shmem_calloc(n, (sz + n - 1) / n);
            sz = n * ((sz + n - 1) / n);
            if (B->p)
                for (size_t i = 0; i < sz; i++)
                    if (B->p[i]) {
                        FAIL("shmem_calloc(%zu, %zu): byte %zu is 0x%02x", n, sz / n, i, B->p[i]);
                        break;
                    }
        }
        if (!B->p) {
            FAIL("allocation of %zu bytes failed", sz);
            B->size = 0;
            return;
        }
        B->size = sz;
    }
    /* every PE writes its pattern into its copy of every live block */
    for (int i = 0; i < NBLK; i++)
        if (blks[i].p)
            image(blks[i].p, blks[i].size, TY_RAW, blk_key(i, me));
    shmem_barrier_all();
    int shared_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    int on_stack = 0;
    for (int i = 0; i < NBLK; i++) {
        struct blk *C = &blks[i];
        if (!C->p)
            continue;
        for (int p = 0; p < npes; p++) {
            if (shmem_addr_accessible(C->p, p) != 1)
                FAIL("shmem_addr_accessible(block %d, PE %d) is not 1", i, p);
            if (shmem_addr_accessible(&on_stack, p) != 0)
                FAIL("shmem_addr_accessible(a stack variable, PE %d) is not 0", p);
            int sp = shmem_team_translate_pe(SHMEM_TEAM_WORLD, p, SHMEM_TEAM_SHARED);
            unsigned char *q = shmem_ptr(C->p, p);
            if (sp >= 0 && !q)
                FAIL(
                    "shmem_ptr(block %d, PE %d) is NULL but PE %d is in SHMEM_TEAM_SHARED (%d PEs)",
                    i, p, p, shared_n);
            if (sp >= 0) {
                unsigned char *q2 = shmem_team_ptr(SHMEM_TEAM_SHARED, C->p, sp);
                if (!q2)
                    FAIL("shmem_team_ptr(SHMEM_TEAM_SHARED, block %d, %d) is NULL", i, sp);
                else if (q && q2 != q && memcmp(q, q2, C->size))
                    FAIL("shmem_team_ptr and shmem_ptr disagree");
            }
            size_t lo = rndn(&lrng, C->size), len = rndn(&lrng, C->size - lo + 1);
            unsigned char *img = malloc(C->size), *got = malloc(len + 1);
            image(img, C->size, TY_RAW, blk_key(i, p));
            if (q && memcmp(q + lo, img + lo, len))
                FAIL("reading block %d of PE %d through shmem_ptr: bytes [%zu, %zu) differ", i, p,
                     lo, lo + len);
            shmem_getmem(got, C->p + lo, len, p);
            if (memcmp(got, img + lo, len))
                FAIL("getmem of block %d (%zu bytes) from PE %d: bytes [%zu, %zu) differ", i,
                     C->size, p, lo, lo + len);
            free(img);
            free(got);
        }
    }
    /* static symmetric data is reachable through shmem_ptr as well */
    static long stat_probe[4];
    stat_probe[0] = 1000 + me;
    shmem_barrier_all();
    for (int p = 0; p < npes; p++) {
        int sp = shmem_team_translate_pe(SHMEM_TEAM_WORLD, p, SHMEM_TEAM_SHARED);
        long *q = shmem_ptr(stat_probe, p);
        if (sp >= 0 && !q)
            FAIL("shmem_ptr(a static variable, PE %d) is NULL, PE %d in SHMEM_TEAM_SHARED", p, p);
        if (q && q[0] != 1000 + p)
            FAIL("a static variable of PE %d read through shmem_ptr: %ld", p, q[0]);
        if (shmem_addr_accessible(stat_probe, p) != 1)
            FAIL("shmem_addr_accessible(a static variable, PE %d) is not 1", p);
    }
    shmem_barrier_all();
    (void)ep;
}

/* ---- main ---- */
enum { K_RMA, K_AMO, K_SIG, K_ORD, K_SYNC, K_MEM, K_ILV, K_N };
static const char *kname[] = { "rma", "amo", "sig", "ord", "sync", "mem", "ilv" };

static void team_churn(void)
{
    if (!chance(&grng, 4))
        return;
    int i = (int)rndn(&grng, NTEAM);
    /* destroy my contexts on it first */
    for (int c = nctx - 1; c >= 0; c--)
        if (ctxs[c].team == i)
            ctx_destroy_at(c);
    if (teams[i].t != SHMEM_TEAM_INVALID)
        shmem_team_destroy(teams[i].t);
    shmem_barrier_all();
    team_make(i);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--trace")) {
            trace = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "rma_mix: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--iters"))
            iters = atol(v);
        else if (!strcmp(a, "--kind"))
            kind_filter = v;
        else if (!strcmp(a, "--from"))
            ep_from = atol(v);
        else if (!strcmp(a, "--to"))
            ep_to = atol(v);
        else if (!strcmp(a, "--maxbuf"))
            maxbuf = (size_t)atol(v);
        else if (!strcmp(a, "--watchdog"))
            wd = atoi(v);
        else {
            fprintf(stderr, "rma_mix: unknown option %s\n", a);
            return 2;
        }
    }
    if (maxbuf < 256)
        maxbuf = 256;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPE) {
        if (me == 0)
            fprintf(stderr, "rma_mix: at most %d PEs\n", MAXPE);
        shmem_finalize();
        return 2;
    }
    if (wd > 0)
        signal(SIGALRM, on_alarm);
    teams_init();
    if (me == 0 && trace)
        printf("rma_mix: seed %" PRIu64 ", %d PEs, %ld episodes\n", seed, npes, iters);
    shmem_barrier_all();
    long counts[K_N] = { 0 };
    for (long ep = 0; ep < iters; ep++) {
        if (wd > 0)
            alarm((unsigned)wd);
        cur_ep = ep;
        grng.s = mix64(seed * 0x9E3779B97F4A7C15ULL + (uint64_t)ep);
        lrng = pe_rng(ep, me, 77);
        int w = (int)rndn(&grng, 100);
        int kind = w < 22   ? K_RMA
                   : w < 46 ? K_AMO
                   : w < 58 ? K_SIG
                   : w < 70 ? K_ORD
                   : w < 84 ? K_SYNC
                   : w < 92 ? K_ILV
                            : K_MEM;
        cur_kind = kname[kind];
        if (ep < ep_from || (ep_to >= 0 && ep > ep_to) ||
            (kind_filter && strcmp(kind_filter, kname[kind])))
            continue;
        WHERE("team/context changes");
        team_churn();
        ctx_churn();
        if (trace && me == 0) {
            printf("rma_mix: episode %ld: %s\n", ep, kname[kind]);
            fflush(stdout);
        }
        counts[kind]++;
        switch (kind) {
        case K_RMA: ep_rma(ep); break;
        case K_AMO: ep_amo(ep); break;
        case K_SIG: ep_sig(ep); break;
        case K_ORD: ep_ord(ep); break;
        case K_SYNC: ep_sync(ep); break;
        case K_ILV: ep_ilv(ep); break;
        default: ep_mem(ep); break;
        }
        if (trace && me == 0)
            fflush(stdout);
    }
    cur_kind = "end";
    WHERE("the end");
    shmem_barrier_all();
    while (nctx > 0)
        ctx_destroy_at(nctx - 1);
    for (int i = 0; i < NTEAM; i++)
        if (teams[i].t != SHMEM_TEAM_INVALID)
            shmem_team_destroy(teams[i].t);
    for (int i = 0; i < NBLK; i++)
        if (blks[i].p)
            shmem_free(blks[i].p);
    if (rblock)
        shmem_free(rblock);
    if (amo_heap)
        shmem_free(amo_heap);
    static int f, total;
    f = fails;
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &total, &f, 1);
    if (me == 0) {
        if (total)
            printf("rma_mix: FAILED: %d failures, seed %" PRIu64 " (%d PEs, %ld episodes)\n", total,
                   seed, npes, iters);
        else
            printf("rma_mix: ok (seed %" PRIu64
                   ", %d PEs, %ld episodes: %ld rma, %ld amo, %ld sig, "
                   "%ld ord, %ld sync, %ld mem, %ld ilv; %d context creations refused)\n",
                   seed, npes, iters, counts[0], counts[1], counts[2], counts[3], counts[4],
                   counts[5], counts[6], ctx_fail_create);
    }
    alarm(0);
    shmem_finalize();
    return total != 0;
}
