/*
 * Randomized stress of the non-blocking collectives (shmemx_*_nb, docs/nbc.md), written
 * from the man pages only ("test like a stranger").
 *
 * The program runs episodes.  Every PE draws the same episode from one seeded PRNG (the
 * API wants the requests of a team posted in the same order on every member):
 * - 1 to 3 teams among SHMEM_TEAM_WORLD and teams made with shmem_team_split_strided
 *   (even PEs, odd PEs, all but PE 0, the pair {0, n-1}, low and high halves, a team of
 *   one PE, stride 3, and the odd PEs split again from all-but-0); split teams are
 *   destroyed and made again now and then;
 * - 1 to 4 requests per team, each of a family picked among every non-blocking family
 *   of shmemx.h (team sync, broadcast(mem), collect(mem), fcollect(mem), alltoall(mem),
 *   alltoalls(mem), and/or/xor/max/min/sum/prod reductions, sum in/exscan) and a type
 *   picked among the types of that family (float, double, long double, the complex types
 *   where declared), a size from a set with 0, one element, odd counts and the
 *   boundaries around 1, 2, 4, 16, 64 and 256 KiB (now and then 1 MiB), a root, strides,
 *   in-place (reductions and scans), NULL pointers with a count of 0, an offset of the
 *   buffers inside their allocation (1-7 bytes for the mem forms);
 * - either every member posts everything first (the requests of different teams
 *   interleaved in an order of each PE's own) and then completes them in an order of its
 *   own, or the posts follow one global order and each PE completes some requests early;
 *   a blocking collective on a team without requests in the episode at a random place;
 *   some PEs compute for a while (no library calls) between their posts and waits;
 * - completion by shmemx_req_wait, by a shmemx_req_test polling loop on one request, or
 *   by polling all outstanding requests in turn.
 * Buffers come from a pool of symmetric blocks (shmem_malloc/calloc/align, freed and
 * reallocated over time, the same decisions on every PE).  Every input is a function of
 * (seed, episode, request, PE, index), so every result is checked exactly against values
 * computed here, at once after the request completed: dest, the 64 guard bytes before
 * and after it (and the gaps of a strided alltoalls dest), and that source was not
 * changed.  Source and dest are then overwritten with garbage at once; at the start of
 * the next episode the garbage in the dests must still be there (a late write).
 *
 *   nbc_mix [--seed S] [--iters N] [--maxbuf BYTES] [--maxstrided N] [--maxreq K]
 *           [--trace] [--slow MS] [--from E] [--to E] [--fam SUBSTR] [--team NAME]
 *           [--no-block] [--watchdog SECONDS]
 * --iters is the number of episodes; --maxbuf caps every buffer (4 MiB), --maxstrided the
 * elements of an alltoalls block (4097), --maxreq the requests per team (4; up to 8);
 * --trace prints every episode on PE 0 before it runs, --slow those that took longer;
 * --from/--to/--fam/--team/--no-block run only a part of the same sequence (the
 * episodes are drawn the same way; the others are skipped on every PE), to reduce a
 * failure.  The seed is printed on failure; the default seed is fixed.  The watchdog
 * (default 240 s per episode, 0: off) names the episode and request a PE is stuck in.
 */
#include <complex.h>
#include <inttypes.h>
#include <shmem.h>
#include <shmemx.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXPE 64
#define GUARD 64
#define NSLOT 72 /* at least 2 x MAXREQ: a source and a dest per request */
#define MAXREQ 32
#define NTEAM 10

/* ---- PRNGs ---- */
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

static struct rng grng; /* the episodes: the same on every PE */
static struct rng arng; /* the pool's decisions: the same on every PE */
static struct rng lrng; /* this PE's own choices (orders, waits, compute) */

/* ---- families and types ---- */
enum fam {
    F_SYNC,
    F_BCAST,
    F_BCASTMEM,
    F_COLLECT,
    F_COLLECTMEM,
    F_FCOLLECT,
    F_FCOLLECTMEM,
    F_ALLTOALL,
    F_ALLTOALLMEM,
    F_ALLTOALLS,
    F_ALLTOALLSMEM,
    F_AND,
    F_OR,
    F_XOR,
    F_MAX,
    F_MIN,
    F_SUM,
    F_PROD,
    F_INSCAN,
    F_EXSCAN,
    F_N
};

static const char *fam_name[F_N] = { "team_sync",   "broadcast",   "broadcastmem", "collect",
                                     "collectmem",  "fcollect",    "fcollectmem",  "alltoall",
                                     "alltoallmem", "alltoalls",   "alltoallsmem", "and_reduce",
                                     "or_reduce",   "xor_reduce",  "max_reduce",   "min_reduce",
                                     "sum_reduce",  "prod_reduce", "sum_inscan",   "sum_exscan" };

static int is_red(int f)
{
    return f >= F_AND;
}
static int is_mem(int f)
{
    return f == F_BCASTMEM || f == F_COLLECTMEM || f == F_FCOLLECTMEM || f == F_ALLTOALLMEM ||
           f == F_ALLTOALLSMEM;
}

/* type kinds: S signed integer, U unsigned integer, F floating, C complex;
 * sets: R the standard RMA types, B bitwise reductions, M min/max, A sum/prod/scans */
#define TYPES(X)                                 \
    X(float, float, F, 1, 0, 1)                  \
    X(double, double, F, 1, 0, 1)                \
    X(longdouble, long double, F, 1, 0, 1)       \
    X(char, char, S, 1, 0, 1)                    \
    X(schar, signed char, S, 1, 0, 1)            \
    X(short, short, S, 1, 0, 1)                  \
    X(int, int, S, 1, 0, 1)                      \
    X(long, long, S, 1, 0, 1)                    \
    X(longlong, long long, S, 1, 0, 1)           \
    X(uchar, unsigned char, U, 1, 1, 1)          \
    X(ushort, unsigned short, U, 1, 1, 1)        \
    X(uint, unsigned int, U, 1, 1, 1)            \
    X(ulong, unsigned long, U, 1, 1, 1)          \
    X(ulonglong, unsigned long long, U, 1, 1, 1) \
    X(int8, int8_t, S, 1, 1, 1)                  \
    X(int16, int16_t, S, 1, 1, 1)                \
    X(int32, int32_t, S, 1, 1, 1)                \
    X(int64, int64_t, S, 1, 1, 1)                \
    X(uint8, uint8_t, U, 1, 1, 1)                \
    X(uint16, uint16_t, U, 1, 1, 1)              \
    X(uint32, uint32_t, U, 1, 1, 1)              \
    X(uint64, uint64_t, U, 1, 1, 1)              \
    X(size, size_t, U, 1, 1, 1)                  \
    X(ptrdiff, ptrdiff_t, S, 1, 0, 1)            \
    X(complexf, float _Complex, C, 0, 0, 0)      \
    X(complexd, double _Complex, C, 0, 0, 0)

enum {
#define X_ENUM(N, T, K, R, B, M) T_##N,
    TYPES(X_ENUM)
#undef X_ENUM
        T_N
};

/* the value of element i of member pe's source in a reduction or scan, as integers (a
 * complex value has an imaginary part too); exact in every type, whatever the order of
 * the fold */
static void red_val(int f, char kind, uint64_t key, int pe, size_t i, long long *re, long long *im)
{
    uint64_t h = mix64(key ^ mix64((uint64_t)pe * 0x100000001b3ULL + i));
    *im = 0;
    switch (f) {
    case F_AND:
    case F_OR:
    case F_XOR: *re = (long long)h; break;
    case F_MAX:
    case F_MIN:
        if (kind == 'F')
            *re = (long long)(int32_t)(uint32_t)(h >> 32) >> 9; /* 23 bits: exact in float */
        else
            *re = (long long)h;
        break;
    case F_PROD:
        if ((pe + i) % 4 == 0)
            *re = 2; /* at most 2 of 8 members: no overflow in any type */
        else if (kind == 'U')
            *re = (h & 1) ? 3 : 1;
        else
            *re = (h & 1) ? -1 : 1;
        if (kind == 'C' && (h & 2)) {
            *im = *re;
            *re = (h & 4) ? 1 : 0;
        }
        break;
    default: /* sum, scans */
        *re = (long long)(h % 17) - 8;
        if (kind == 'C')
            *im = (long long)((h >> 8) % 17) - 8;
        break;
    }
}

/* per type: posting, filling a source, folding the expected result, comparing */
#define OPS_S(T)                          \
    case F_AND: a = a & b; break;         \
    case F_OR: a = a | b; break;          \
    case F_XOR: a = a ^ b; break;         \
    case F_MAX: a = a > b ? a : b; break; \
    case F_MIN: a = a < b ? a : b; break; \
    case F_PROD: a = (T)(a * b); break;   \
    default:                              \
        a = (T)(a + b);                   \
        break;
#define OPS_U OPS_S
#define OPS_F(T)                          \
    case F_MAX: a = a > b ? a : b; break; \
    case F_MIN: a = a < b ? a : b; break; \
    case F_PROD: a = a * b; break;        \
    default:                              \
        a = a + b;                        \
        break;
#define OPS_C(T)                   \
    case F_PROD: a = a * b; break; \
    default:                       \
        a = a + b;                 \
        break;
#define MKVAL_S(T) (T)(re)
#define MKVAL_U(T) (T)(unsigned long long)(re)
#define MKVAL_F(T) ((T)(re) / (T)4)
#define MKVAL_C(T) ((T)(re) + (T)(im)*I)
#define PRINT_S(a) "%lld", (long long)(a)
#define PRINT_U(a) "%llu", (unsigned long long)(a)
#define PRINT_F(a) "%.21Lg", (long double)(a)
#define PRINT_C(a) "%g%+gi", (double)creal(a), (double)cimag(a)

#define POST_RMA(N, T)                                         \
    if (f == F_BCAST)                                          \
        return shmemx_##N##_broadcast_nb(t, d, s, n, root, r); \
    if (f == F_COLLECT)                                        \
        return shmemx_##N##_collect_nb(t, d, s, n, r);         \
    if (f == F_FCOLLECT)                                       \
        return shmemx_##N##_fcollect_nb(t, d, s, n, r);        \
    if (f == F_ALLTOALL)                                       \
        return shmemx_##N##_alltoall_nb(t, d, s, n, r);        \
    if (f == F_ALLTOALLS)                                      \
        return shmemx_##N##_alltoalls_nb(t, d, s, dst, sst, n, r);
#define POST_BIT(N, T)                                    \
    if (f == F_AND)                                       \
        return shmemx_##N##_and_reduce_nb(t, d, s, n, r); \
    if (f == F_OR)                                        \
        return shmemx_##N##_or_reduce_nb(t, d, s, n, r);  \
    if (f == F_XOR)                                       \
        return shmemx_##N##_xor_reduce_nb(t, d, s, n, r);
#define POST_MM(N, T)                                     \
    if (f == F_MAX)                                       \
        return shmemx_##N##_max_reduce_nb(t, d, s, n, r); \
    if (f == F_MIN)                                       \
        return shmemx_##N##_min_reduce_nb(t, d, s, n, r);
#define POST_AR(N, T)                                      \
    if (f == F_SUM)                                        \
        return shmemx_##N##_sum_reduce_nb(t, d, s, n, r);  \
    if (f == F_PROD)                                       \
        return shmemx_##N##_prod_reduce_nb(t, d, s, n, r); \
    if (f == F_INSCAN)                                     \
        return shmemx_##N##_sum_inscan_nb(t, d, s, n, r);  \
    if (f == F_EXSCAN)                                     \
        return shmemx_##N##_sum_exscan_nb(t, d, s, n, r);
#define POST_IF_1(X, N, T) X(N, T)
#define POST_IF_0(X, N, T)
#define POST_IF(c, X, N, T) POST_IF_##c(X, N, T)

#define X_FUNCS(N, T, K, R, B, M)                                                               \
    static int post_##N(int f, shmem_team_t t, void *d, const void *s, size_t n, ptrdiff_t dst, \
                        ptrdiff_t sst, int root, shmemx_req_h *r)                               \
    {                                                                                           \
        (void)dst;                                                                              \
        (void)sst;                                                                              \
        (void)root;                                                                             \
        POST_IF(R, POST_RMA, N, T)                                                              \
        POST_IF(B, POST_BIT, N, T)                                                              \
        POST_IF(M, POST_MM, N, T)                                                               \
        POST_AR(N, T)                                                                           \
        return -999;                                                                            \
    }                                                                                           \
    static T val_##N(int f, uint64_t key, int pe, size_t i)                                     \
    {                                                                                           \
        long long re, im;                                                                       \
        red_val(f, #K[0], key, pe, i, &re, &im);                                                \
        (void)im;                                                                               \
        return MKVAL_##K(T);                                                                    \
    }                                                                                           \
    static void fill_##N(void *buf, int f, uint64_t key, int pe, size_t n)                      \
    {                                                                                           \
        T *p = buf;                                                                             \
        for (size_t i = 0; i < n; i++)                                                          \
            p[i] = val_##N(f, key, pe, i);                                                      \
    }                                                                                           \
    /* 0, or the first element that differs + 1 (what, in msg) */                               \
    static size_t check_##N(const void *dest, int f, uint64_t key, const int *pes, int last,    \
                            size_t n, char *msg, size_t msglen)                                 \
    {                                                                                           \
        const T *p = dest;                                                                      \
        for (size_t i = 0; i < n; i++) {                                                        \
            T a = 0;                                                                            \
            for (int j = 0; j <= last; j++) {                                                   \
                T b = val_##N(f, key, pes[j], i);                                               \
                if (j == 0) {                                                                   \
                    a = b;                                                                      \
                    continue;                                                                   \
                }                                                                               \
                switch (f) {                                                                    \
                    OPS_##K(T)                                                                  \
                }                                                                               \
            }                                                                                   \
            if (!(p[i] == a)) {                                                                 \
                int k = snprintf(msg, msglen, "element %zu is ", i);                            \
                k += snprintf(msg + k, msglen - (size_t)k, PRINT_##K(p[i]));                    \
                k += snprintf(msg + k, msglen - (size_t)k, ", expected ");                      \
                snprintf(msg + k, msglen - (size_t)k, PRINT_##K(a));                            \
                return i + 1;                                                                   \
            }                                                                                   \
        }                                                                                       \
        return 0;                                                                               \
    }
TYPES(X_FUNCS)
#undef X_FUNCS

struct tinfo {
    const char *name;
    size_t size;
    char kind;
    int rma, bit, mm;
    int (*post)(int, shmem_team_t, void *, const void *, size_t, ptrdiff_t, ptrdiff_t, int,
                shmemx_req_h *);
    void (*fill)(void *, int, uint64_t, int, size_t);
    size_t (*check)(const void *, int, uint64_t, const int *, int, size_t, char *, size_t);
};

static const struct tinfo types[T_N] = {
#define X_INFO(N, T, K, R, B, M) { #N, sizeof(T), #K[0], R, B, M, post_##N, fill_##N, check_##N },
    TYPES(X_INFO)
#undef X_INFO
};

static int type_ok(int f, int t)
{
    const struct tinfo *ti = &types[t];
    if (f == F_AND || f == F_OR || f == F_XOR)
        return ti->bit;
    if (f == F_MAX || f == F_MIN)
        return ti->mm;
    if (is_red(f))
        return 1;
    return ti->rma;
}

/* ---- teams ---- */
struct team {
    const char *name;
    int parent;              /* -1: world */
    int start, stride, size; /* in the parent */
    int pes[MAXPE];          /* world PEs of the members */
    int n;                   /* members; 0: not made at this PE count */
    shmem_team_t t;          /* SHMEM_TEAM_INVALID where I am not a member */
    int me;                  /* my member index, or -1 */
};
static struct team teams[NTEAM];
static int me, npes;

static void team_def(int i, const char *name, int parent, int start, int stride, int size)
{
    struct team *T = &teams[i];
    const struct team *P = parent >= 0 ? &teams[parent] : NULL;
    int pn = P ? P->n : npes;

    T->name = name;
    T->parent = parent;
    T->start = start;
    T->stride = stride;
    T->size = size;
    T->n = 0;
    T->me = -1;
    T->t = SHMEM_TEAM_INVALID;
    if (i == 0) {
        T->n = npes;
        for (int j = 0; j < npes; j++)
            T->pes[j] = j;
        T->me = me;
        T->t = SHMEM_TEAM_WORLD;
        return;
    }
    if (size < 1 || stride < 1 || start < 0 || start + (size - 1) * stride >= pn)
        return;
    T->n = size;
    for (int j = 0; j < size; j++) {
        int pm = start + j * stride;
        T->pes[j] = P ? P->pes[pm] : pm;
        if (T->pes[j] == me)
            T->me = j;
    }
}

static int fails, fail_lines;
static uint64_t seed = 12345;
static long cur_ep = -1;

#define FAIL(...)                                                                               \
    do {                                                                                        \
        fails++;                                                                                \
        if (fail_lines++ < 30) {                                                                \
            fprintf(stderr, "nbc_mix: PE %d seed %" PRIu64 " episode %ld: ", me, seed, cur_ep); \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
        }                                                                                       \
    } while (0)

/* (re)make split team i, on every PE (the split is collective over the parent) */
static void team_make(int i)
{
    struct team *T = &teams[i];
    shmem_team_t parent = T->parent >= 0 ? teams[T->parent].t : SHMEM_TEAM_WORLD;

    if (!T->n)
        return;
    if (T->parent >= 0 && teams[T->parent].me < 0) {
        T->t = SHMEM_TEAM_INVALID; /* not in the parent: not in the team */
        return;
    }
    T->t = SHMEM_TEAM_INVALID;
    if (shmem_team_split_strided(parent, T->start, T->stride, T->size, NULL, 0, &T->t) != 0)
        FAIL("shmem_team_split_strided of team %s failed", T->name);
    if ((T->me >= 0) != (T->t != SHMEM_TEAM_INVALID))
        FAIL("team %s: membership %d but handle %s", T->name, T->me,
             T->t == SHMEM_TEAM_INVALID ? "invalid" : "valid");
    if (T->t != SHMEM_TEAM_INVALID &&
        (shmem_team_n_pes(T->t) != T->n || shmem_team_my_pe(T->t) != T->me))
        FAIL("team %s: n_pes %d my_pe %d, expected %d %d", T->name, shmem_team_n_pes(T->t),
             shmem_team_my_pe(T->t), T->n, T->me);
}

static void teams_init(void)
{
    team_def(0, "world", -1, 0, 1, npes);
    team_def(1, "even", -1, 0, 2, (npes + 1) / 2);
    team_def(2, "odd", -1, 1, 2, npes / 2);
    team_def(3, "allbut0", -1, 1, 1, npes - 1);
    team_def(4, "pair0last", -1, 0, npes > 2 ? npes - 1 : 1, 2);
    team_def(5, "low", -1, 0, 1, npes / 2);
    team_def(6, "high", -1, npes / 2, 1, npes - npes / 2);
    team_def(7, "last1", -1, npes - 1, 1, 1);
    team_def(8, "stride3", -1, 0, 3, npes >= 4 ? (npes + 2) / 3 : 0);
    team_def(9, "allbut0-odd", 3, 0, 2, npes / 2); /* world PEs 1, 3, ... */
    for (int i = 1; i < NTEAM; i++)
        team_make(i);
}

/* ---- the pool of symmetric buffers ---- */
struct slot {
    char *p;
    size_t cap;
    int used; /* in this episode */
};
static struct slot pool[NSLOT];

static void slot_alloc(struct slot *s, size_t need)
{
    size_t cap = 4096;
    while (cap < need)
        cap *= 2;
    if (s->p)
        shmem_free(s->p);
    s->p = NULL;
    switch (rndn(&arng, 3)) {
    case 0: s->p = shmem_malloc(cap); break;
    case 1:
        s->p = shmem_calloc(1, cap);
        if (s->p) {
            for (size_t i = 0; i < cap; i++)
                if (s->p[i]) {
                    FAIL("shmem_calloc(1, %zu): byte %zu is %d", cap, i, s->p[i]);
                    break;
                }
        }
        break;
    default: {
        static const size_t al[] = { 16, 64, 256, 4096, 65536 };
        size_t a = al[rndn(&arng, 5)];
        s->p = shmem_align(a, cap);
        if (s->p && ((uintptr_t)s->p & (a - 1)))
            FAIL("shmem_align(%zu, %zu) = %p is not aligned", a, cap, (void *)s->p);
        break;
    }
    }
    if (!s->p) {
        fprintf(stderr, "nbc_mix: PE %d: cannot allocate %zu bytes (SHMEM_SYMMETRIC_SIZE)\n", me,
                cap);
        shmem_global_exit(2);
    }
    s->cap = cap;
}

/* a slot of at least need bytes not used yet in this episode (same answer on all PEs) */
static int slot_get(size_t need)
{
    int start = (int)rndn(&arng, NSLOT), best = -1;
    for (int k = 0; k < NSLOT; k++) {
        int i = (start + k) % NSLOT;
        if (!pool[i].used && pool[i].p && pool[i].cap >= need) {
            pool[i].used = 1;
            return i;
        }
    }
    for (int k = 0; k < NSLOT; k++) { /* an unused slot: an empty one, else the smallest */
        int i = (start + k) % NSLOT;
        if (pool[i].used)
            continue;
        if (best < 0 || (pool[best].p && (!pool[i].p || pool[i].cap < pool[best].cap)))
            best = i;
    }
    if (best < 0) {
        fprintf(stderr, "nbc_mix: PE %d: out of buffer slots (NSLOT)\n", me);
        shmem_global_exit(2);
    }
    slot_alloc(&pool[best], need);
    pool[best].used = 1;
    return best;
}

/* ---- requests ---- */
struct req {
    int team, fam, type; /* type -1: bytes (mem forms, sync) */
    size_t es, nelems, off;
    int root;
    ptrdiff_t dst, sst;
    int inplace, nulls;
    size_t cnt[MAXPE]; /* collect: each member's count */
    int nullsrc[MAXPE];
    size_t sext, dext; /* bytes of the payload of source and dest */
    int sslot, dslot;
    uint64_t key;
    int idx; /* in the episode */
    /* this PE's */
    shmemx_req_h h;
    int posted, done;
    char *src, *dest; /* the payloads (NULL with nulls) */
    char *shadow;     /* source's slot as posted */
    size_t shadow_len;
};

struct blk {
    int on, team, op;
    size_t len;
};

static struct req reqs[MAXREQ];
static int nreq;
static struct blk blocking;
static int mode_all_posts; /* 1: everything posted first, each PE in its order */

static size_t maxbuf = 4u << 20;
/* strided alltoalls move element by element over a fabric (about 20 us an element over
 * tcp, blocking form alike): 2 x 4097 elements per block at most by default */
static size_t maxstrided = 4097;
static double slow_ms;
static int maxreq = 4; /* per team and episode (at most 8) */
static int trace, no_block, team_filter = -1;
static long ep_from = 0, ep_to = -1;
static const char *fam_filter, *team_name;
static const char *volatile wd_where = "start";
static volatile int wd_req = -1;

static void describe(const struct req *q, char *b, size_t len)
{
    int k = snprintf(b, len, "req %d: %s%s%s on %s (%d PEs)", q->idx,
                     q->type >= 0 ? types[q->type].name : "", q->type >= 0 ? "_" : "",
                     fam_name[q->fam], teams[q->team].name, teams[q->team].n);
    if (q->fam == F_SYNC)
        return;
    k += snprintf(b + k, len - (size_t)k, " nelems %zu (es %zu, %zu bytes)", q->nelems, q->es,
                  q->nelems * q->es);
    if (q->fam == F_BCAST || q->fam == F_BCASTMEM)
        k += snprintf(b + k, len - (size_t)k, " root %d", q->root);
    if (q->fam == F_ALLTOALLS || q->fam == F_ALLTOALLSMEM)
        k += snprintf(b + k, len - (size_t)k, " dst %td sst %td", q->dst, q->sst);
    if (q->fam == F_COLLECT || q->fam == F_COLLECTMEM) {
        k += snprintf(b + k, len - (size_t)k, " counts");
        for (int j = 0; j < teams[q->team].n && k < (int)len - 16; j++)
            k += snprintf(b + k, len - (size_t)k, "%s%zu%s", j ? "," : " ", q->cnt[j],
                          q->nullsrc[j] ? "(NULL)" : "");
    }
    snprintf(b + k, len - (size_t)k, "%s%s off %zu", q->inplace ? " in-place" : "",
             q->nulls ? " NULL" : "", q->off);
}

/* a count of elements of es bytes: 0, one, odd ones, and the boundaries */
static size_t pick_count(size_t es)
{
    static const size_t bnd[] = { 1024, 2048, 4096, 16384, 65536, 262144 };
    uint64_t r = rndn(&grng, 1000);
    size_t n;
    if (r < 60)
        return 0;
    if (r < 150)
        return 1;
    if (r < 400) {
        static const size_t small[] = { 2, 3, 5, 7, 13, 31, 33, 64, 127, 255, 257 };
        return small[rndn(&grng, sizeof(small) / sizeof(small[0]))];
    }
    if (r < 990) {
        /* a boundary (weighted to the small ones), in bytes, +- 1 element or +- 1 byte */
        uint64_t b = rndn(&grng, 100);
        size_t B = bnd[b < 30 ? 0 : b < 55 ? 1 : b < 72 ? 2 : b < 88 ? 3 : b < 96 ? 4 : 5];
        int d = (int)rndn(&grng, 5) - 2; /* -2..2: -1 elt, -1 byte, 0, +1 byte, +1 elt */
        if (d == -2)
            n = B / es - 1;
        else if (d == 2)
            n = B / es + 1;
        else
            n = (B + (size_t)(long)d) / es;
        return n ? n : 1;
    }
    return (1u << 20) / es - rndn(&grng, 2); /* 1 MiB, or one element less */
}

static int pick_fam(void)
{
    static const int w[F_N] = { 4, 4, 3, 3, 2, 4, 2, 4, 2, 3, 2, 3, 3, 3, 3, 3, 5, 3, 3, 3 };
    int tot = 0, r;
    for (int i = 0; i < F_N; i++)
        tot += w[i];
    r = (int)rndn(&grng, (uint64_t)tot);
    for (int i = 0; i < F_N; i++) {
        if (r < w[i])
            return i;
        r -= w[i];
    }
    return F_SUM;
}

/* draw request q (all PEs alike); the sizes are capped so no buffer exceeds maxbuf */
static void gen_req(struct req *q, int team, int idx, long ep)
{
    const struct team *T = &teams[team];
    int n = T->n;
    size_t cap;

    memset(q, 0, sizeof(*q));
    q->idx = idx;
    q->team = team;
    q->fam = pick_fam();
    q->type = -1;
    q->es = 1;
    q->dst = q->sst = 1;
    q->sslot = q->dslot = -1;
    q->key = mix64(seed * 0x9E3779B97F4A7C15ULL + (uint64_t)ep * 131 + (uint64_t)idx + 1);
    if (q->fam != F_SYNC && !is_mem(q->fam)) {
        do
            q->type = (int)rndn(&grng, T_N);
        while (!type_ok(q->fam, q->type));
        q->es = types[q->type].size;
    }
    if (q->fam == F_SYNC)
        return;
    q->nelems = pick_count(q->es);
    if (q->fam == F_BCAST || q->fam == F_BCASTMEM)
        q->root = (int)rndn(&grng, (uint64_t)n);
    if (q->fam == F_ALLTOALLS || q->fam == F_ALLTOALLSMEM) {
        q->dst = 1 + (ptrdiff_t)rndn(&grng, 3);
        q->sst = 1 + (ptrdiff_t)rndn(&grng, 3);
    }
    if (is_mem(q->fam))
        q->off = rndn(&grng, 8);
    else
        q->off = q->es * rndn(&grng, 3);
    if (is_red(q->fam))
        q->inplace = rndn(&grng, 4) == 0;
    /* cap: the largest buffer of the request within maxbuf */
    switch (q->fam) {
    case F_COLLECT:
    case F_COLLECTMEM:
    case F_FCOLLECT:
    case F_FCOLLECTMEM: cap = maxbuf / q->es / (size_t)n; break;
    case F_ALLTOALL:
    case F_ALLTOALLMEM: cap = maxbuf / q->es / (size_t)n; break;
    case F_ALLTOALLS:
    case F_ALLTOALLSMEM:
        cap = maxbuf / q->es / (size_t)n / (size_t)(q->dst > q->sst ? q->dst : q->sst);
        if (cap > maxstrided)
            cap = maxstrided;
        break;
    default: cap = maxbuf / q->es; break;
    }
    if (q->nelems > cap)
        q->nelems = cap;
    if (q->fam == F_COLLECT || q->fam == F_COLLECTMEM) {
        for (int j = 0; j < n; j++) {
            uint64_t r = rndn(&grng, 6);
            size_t c = r == 0   ? 0
                       : r == 1 ? q->nelems / 2 + (size_t)j
                       : r == 2 ? q->nelems + (size_t)j
                                : q->nelems;
            if (c > cap)
                c = cap;
            q->cnt[j] = c;
            q->nullsrc[j] = c == 0 && rndn(&grng, 2);
        }
    }
    /* extents */
    switch (q->fam) {
    case F_BCAST:
    case F_BCASTMEM: q->sext = q->dext = q->nelems * q->es; break;
    case F_COLLECT:
    case F_COLLECTMEM: {
        size_t tot = 0;
        for (int j = 0; j < n; j++)
            tot += q->cnt[j];
        q->dext = tot * q->es;
        q->sext = 0;
        for (int j = 0; j < n; j++)
            if (q->cnt[j] * q->es > q->sext)
                q->sext = q->cnt[j] * q->es;
        break;
    }
    case F_FCOLLECT:
    case F_FCOLLECTMEM:
        q->sext = q->nelems * q->es;
        q->dext = q->sext * (size_t)n;
        break;
    case F_ALLTOALL:
    case F_ALLTOALLMEM: q->sext = q->dext = q->nelems * q->es * (size_t)n; break;
    case F_ALLTOALLS:
    case F_ALLTOALLSMEM:
        /* the last element of the last block, plus the gap that follows it */
        q->sext = q->nelems * (size_t)n * (size_t)q->sst * q->es;
        q->dext = q->nelems * (size_t)n * (size_t)q->dst * q->es;
        break;
    default: q->sext = q->dext = q->nelems * q->es; break;
    }
    if (q->dext == 0 && q->fam != F_COLLECT && q->fam != F_COLLECTMEM)
        q->nulls = rndn(&grng, 2) == 0;
    if (q->fam == F_COLLECT || q->fam == F_COLLECTMEM)
        q->nulls = q->dext == 0 && rndn(&grng, 2) == 0;
}

/* ---- byte patterns of the data-moving families ---- */
static uint8_t pbyte(uint64_t key, int pe, size_t off)
{
    return (uint8_t)(mix64(key ^ ((uint64_t)pe << 48) ^ (off >> 3)) >> ((off & 7) * 8));
}

static void pfill(char *buf, size_t len, uint64_t key, int pe)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v = mix64(key ^ ((uint64_t)pe << 48) ^ (i >> 3));
        memcpy(buf + i, &v, 8); /* little endian: byte k is bits 8k.. */
    }
    for (; i < len; i++)
        buf[i] = (char)pbyte(key, pe, i);
}

static uint8_t guard_byte(const struct req *q, int which)
{
    return (uint8_t)(0x81 + (q->key & 0x3f) + which * 0x40);
}

/* ---- posting and checking ---- */
static size_t my_count(const struct req *q)
{
    return q->cnt[teams[q->team].me];
}

static void prepare(struct req *q)
{
    const struct team *T = &teams[q->team];
    int red = is_red(q->fam);

    q->src = q->dest = NULL;
    q->shadow = NULL;
    if (q->fam == F_SYNC || q->nulls)
        return;
    q->dest = pool[q->dslot].p + GUARD + q->off;
    /* dest: guards and garbage */
    memset(pool[q->dslot].p, guard_byte(q, 0), GUARD + q->off);
    memset(q->dest, 0xee, q->dext);
    memset(q->dest + q->dext, guard_byte(q, 1), GUARD);
    if (q->inplace) {
        q->src = q->dest;
    } else {
        char *sb = pool[q->sslot].p;
        q->src = sb + GUARD + q->off;
        memset(sb, guard_byte(q, 2), GUARD + q->off);
        memset(q->src + q->sext, guard_byte(q, 3), GUARD);
        memset(q->src, 0x77, q->sext);
    }
    if (red)
        types[q->type].fill(q->src, q->fam, q->key, me, q->nelems);
    else if (q->fam == F_COLLECT || q->fam == F_COLLECTMEM)
        pfill(q->src, my_count(q) * q->es, q->key, me);
    else
        pfill(q->src, q->sext, q->key, me);
    if (q->fam == F_COLLECT || q->fam == F_COLLECTMEM) {
        if (q->nullsrc[T->me])
            q->src = NULL;
    }
    if (!q->inplace && pool[q->sslot].p) {
        q->shadow_len = GUARD + q->off + q->sext + GUARD;
        q->shadow = malloc(q->shadow_len);
        memcpy(q->shadow, pool[q->sslot].p, q->shadow_len);
    }
}

static void post(struct req *q)
{
    const struct team *T = &teams[q->team];
    int rc;
    char d[512];

    wd_req = q->idx;
    wd_where = "posting";
    prepare(q);
    q->h = SHMEMX_REQ_NULL;
    switch (q->fam) {
    case F_SYNC: rc = shmemx_team_sync_nb(T->t, &q->h); break;
    case F_BCASTMEM:
        rc = shmemx_broadcastmem_nb(T->t, q->dest, q->src, q->nelems, q->root, &q->h);
        break;
    case F_COLLECTMEM: rc = shmemx_collectmem_nb(T->t, q->dest, q->src, my_count(q), &q->h); break;
    case F_FCOLLECTMEM: rc = shmemx_fcollectmem_nb(T->t, q->dest, q->src, q->nelems, &q->h); break;
    case F_ALLTOALLMEM: rc = shmemx_alltoallmem_nb(T->t, q->dest, q->src, q->nelems, &q->h); break;
    case F_ALLTOALLSMEM:
        rc = shmemx_alltoallsmem_nb(T->t, q->dest, q->src, q->dst, q->sst, q->nelems, &q->h);
        break;
    case F_COLLECT:
        rc = types[q->type].post(q->fam, T->t, q->dest, q->src, my_count(q), 1, 1, 0, &q->h);
        break;
    default:
        rc = types[q->type].post(q->fam, T->t, q->dest, q->src, q->nelems, q->dst, q->sst, q->root,
                                 &q->h);
        break;
    }
    q->posted = 1;
    if (rc != 0 || q->h == SHMEMX_REQ_NULL) {
        describe(q, d, sizeof(d));
        FAIL("post of %s returned %d, handle %p", d, rc, (void *)q->h);
    }
    wd_where = "between";
}

/* the expected image of dest's payload (data-moving families) */
static void expect_bytes(const struct req *q, char *img)
{
    const struct team *T = &teams[q->team];
    int n = T->n, mi = T->me;
    size_t es = q->es, blk = q->nelems * es;

    memset(img, 0xee, q->dext);
    switch (q->fam) {
    case F_BCAST:
    case F_BCASTMEM: pfill(img, q->dext, q->key, T->pes[q->root]); break;
    case F_COLLECT:
    case F_COLLECTMEM: {
        size_t o = 0;
        for (int j = 0; j < n; j++) {
            pfill(img + o, q->cnt[j] * es, q->key, T->pes[j]);
            o += q->cnt[j] * es;
        }
        break;
    }
    case F_FCOLLECT:
    case F_FCOLLECTMEM:
        for (int j = 0; j < n; j++)
            pfill(img + (size_t)j * blk, blk, q->key, T->pes[j]);
        break;
    case F_ALLTOALL:
    case F_ALLTOALLMEM:
        /* block j of dest: block mi of member j's source */
        for (int j = 0; j < n; j++)
            for (size_t b = 0; b < blk; b++)
                img[(size_t)j * blk + b] = (char)pbyte(q->key, T->pes[j], (size_t)mi * blk + b);
        break;
    default: /* alltoalls */
        for (int j = 0; j < n; j++)
            for (size_t k = 0; k < q->nelems; k++) {
                size_t so = ((size_t)mi * q->nelems + k) * (size_t)q->sst * es;
                size_t dof = ((size_t)j * q->nelems + k) * (size_t)q->dst * es;
                for (size_t b = 0; b < es; b++)
                    img[dof + b] = (char)pbyte(q->key, T->pes[j], so + b);
            }
        break;
    }
}

static void check_guard(const struct req *q, const char *what, const char *base, size_t len,
                        uint8_t g)
{
    char d[512];
    for (size_t i = 0; i < len; i++)
        if ((uint8_t)base[i] != g) {
            describe(q, d, sizeof(d));
            FAIL("%s: %s byte %zu of %zu is 0x%02x, not the guard 0x%02x", d, what, i, len,
                 (uint8_t)base[i], g);
            return;
        }
}

static void complete_check(struct req *q)
{
    const struct team *T = &teams[q->team];
    char d[512], msg[256];

    if (q->h != SHMEMX_REQ_NULL) {
        describe(q, d, sizeof(d));
        FAIL("%s: the handle is %p after completion, not SHMEMX_REQ_NULL", d, (void *)q->h);
    }
    if (q->fam == F_SYNC || q->nulls)
        return;
    /* dest's guards */
    check_guard(q, "the guard before dest:", pool[q->dslot].p, GUARD + q->off, guard_byte(q, 0));
    check_guard(q, "the guard after dest:", q->dest + q->dext, GUARD, guard_byte(q, 1));
    /* dest */
    if (is_red(q->fam)) {
        int last = q->fam == F_INSCAN ? T->me : q->fam == F_EXSCAN ? T->me - 1 : T->n - 1;
        size_t bad;
        if (last < 0) { /* exclusive scan on member 0: zeros */
            char *z = calloc(1, q->dext + 1);
            bad = memcmp(q->dest, z, q->dext) != 0;
            if (bad) {
                describe(q, d, sizeof(d));
                FAIL("%s: member 0's exscan result is not 0 (first bytes 0x%02x 0x%02x)", d,
                     (uint8_t)q->dest[0], (uint8_t)q->dest[q->dext > 1]);
            }
            free(z);
        } else {
            bad = types[q->type].check(q->dest, q->fam, q->key, T->pes, last, q->nelems, msg,
                                       sizeof(msg));
            if (bad) {
                describe(q, d, sizeof(d));
                FAIL("%s: dest %s", d, msg);
            }
        }
    } else {
        char *img = malloc(q->dext + 1);
        expect_bytes(q, img);
        if (memcmp(img, q->dest, q->dext) != 0) {
            size_t i = 0, nbad = 0;
            while (img[i] == q->dest[i])
                i++;
            for (size_t k = i; k < q->dext; k++)
                nbad += img[k] != q->dest[k];
            describe(q, d, sizeof(d));
            FAIL("%s: dest byte %zu of %zu is 0x%02x, expected 0x%02x (%zu bytes differ)%s", d, i,
                 q->dext, (uint8_t)q->dest[i], (uint8_t)img[i], nbad,
                 (uint8_t)q->dest[i] == 0xee ? " (still the garbage: not written)" : "");
        }
        free(img);
    }
    /* source unchanged */
    if (q->shadow) {
        const char *sb = pool[q->sslot].p;
        if (memcmp(sb, q->shadow, q->shadow_len) != 0) {
            size_t i = 0;
            while (sb[i] == q->shadow[i])
                i++;
            describe(q, d, sizeof(d));
            FAIL("%s: source's slot changed at byte %zu (payload at %d, %zu bytes)", d, i,
                 GUARD + (int)q->off, q->sext);
        }
        free(q->shadow);
        q->shadow = NULL;
    }
    /* reuse at once: garbage into source and dest (source's first: in place they're one) */
    if (q->src && !q->inplace)
        memset(q->src, 0x5c, q->sext);
    memset(q->dest, 0xc5, q->dext);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void spin_us(long us)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

/* complete request q by wait or polling (my choice) */
static void complete(struct req *q)
{
    int how = (int)rndn(&lrng, 3), done = 0, rc;
    char d[512];

    wd_req = q->idx;
    if (how == 0) {
        wd_where = "shmemx_req_wait";
        rc = shmemx_req_wait(&q->h);
        if (rc != 0) {
            describe(q, d, sizeof(d));
            FAIL("%s: shmemx_req_wait returned %d", d, rc);
        }
    } else {
        long polls = 0, nap = how == 2 ? (long)rndn(&lrng, 50) : 0;
        wd_where = "shmemx_req_test loop";
        while (!done) {
            rc = shmemx_req_test(&q->h, &done);
            if (rc != 0) {
                describe(q, d, sizeof(d));
                FAIL("%s: shmemx_req_test returned %d", d, rc);
                break;
            }
            if (!done && nap)
                spin_us(nap);
            polls++;
        }
    }
    q->done = 1;
    wd_where = "checking";
    complete_check(q);
    /* a completed request's variable is SHMEMX_REQ_NULL: waiting again is a no-op */
    if (rndn(&lrng, 8) == 0) {
        rc = shmemx_req_wait(&q->h);
        if (rc != 0)
            FAIL("shmemx_req_wait on SHMEMX_REQ_NULL returned %d", rc);
    }
    wd_where = "between";
}

/* poll every outstanding request of mine in turn with shmemx_req_test until all done */
static void complete_all_polling(int *mine, int k)
{
    int left = 0;
    for (int i = 0; i < k; i++)
        left += !reqs[mine[i]].done;
    wd_where = "polling all";
    while (left) {
        for (int i = 0; i < k; i++) {
            struct req *q = &reqs[mine[i]];
            int done = 0;
            if (q->done)
                continue;
            wd_req = q->idx;
            if (shmemx_req_test(&q->h, &done) != 0)
                FAIL("shmemx_req_test returned nonzero");
            if (done) {
                q->done = 1;
                left--;
                complete_check(q);
            }
        }
    }
    wd_where = "between";
}

/* ---- the blocking collective on another team ---- */
/* two pairs of buffers per team, used in turn: a blocking collective may write into a
 * member's dest before that member called it (the user keeps dest "ready to accept the
 * data", as the specification has it); a member that runs a team's next collective has
 * seen every member enter this one, so it cannot be two ahead */
static long blk_src[NTEAM][2][64], blk_dst[NTEAM][2][64 * MAXPE];
static int blk_turn[NTEAM];

static void do_blocking(void)
{
    const struct team *T = &teams[blocking.team];
    int turn = blk_turn[blocking.team]++ & 1;
    long *src = blk_src[blocking.team][turn], *dst = blk_dst[blocking.team][turn];
    int n = T->n;

    wd_where = "blocking collective";
    for (int i = 0; i < 64; i++)
        src[i] = (long)me * 1000 + i + cur_ep;
    switch (blocking.op) {
    case 0: shmem_team_sync(T->t); break;
    case 1:
        shmem_long_sum_reduce(T->t, dst, src, 64);
        for (int i = 0; i < 64; i++) {
            long e = 0;
            for (int j = 0; j < n; j++)
                e += (long)T->pes[j] * 1000 + i + cur_ep;
            if (dst[i] != e) {
                FAIL("blocking sum_reduce on team %s: element %d is %ld, expected %ld", T->name, i,
                     dst[i], e);
                break;
            }
        }
        break;
    case 2:
        shmem_long_fcollect(T->t, dst, src, 64);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < 64; i++)
                if (dst[j * 64 + i] != (long)T->pes[j] * 1000 + i + cur_ep) {
                    FAIL("blocking fcollect on team %s: element %d of block %d is %ld", T->name, i,
                         j, dst[j * 64 + i]);
                    j = n;
                    break;
                }
        break;
    default:
        shmem_long_broadcast(T->t, dst, src, 64, n - 1);
        for (int i = 0; i < 64; i++)
            if (dst[i] != (long)T->pes[n - 1] * 1000 + i + cur_ep) {
                FAIL("blocking broadcast on team %s: element %d is %ld", T->name, i, dst[i]);
                break;
            }
        break;
    }
    wd_where = "between";
}

/* ---- the watchdog ---- */
static void on_alarm(int sig)
{
    char b[640], d[512] = "";
    int k;
    (void)sig;
    if (wd_req >= 0 && wd_req < nreq)
        describe(&reqs[wd_req], d, sizeof(d));
    k = snprintf(b, sizeof(b),
                 "nbc_mix: PE %d seed %" PRIu64 ": watchdog: stuck in episode %ld, %s, %s\n", me,
                 seed, cur_ep, wd_where, d);
    if (k > 0 && write(2, b, (size_t)k) < 0)
        k = 0;
    _exit(3);
}

/* ---- one episode ---- */
static int matches(const struct req *q)
{
    if (fam_filter && !strstr(fam_name[q->fam], fam_filter))
        return 0;
    if (team_filter >= 0 && q->team != team_filter)
        return 0;
    return 1;
}

static void episode(long ep)
{
    int ntm, tl[3], run;
    struct req tmp[MAXREQ];
    int ntmp = 0;

    /* draw it (every PE alike, whether it runs or not) */
    {
        uint64_t r = rndn(&grng, 10);
        ntm = r < 6 ? 1 : r < 9 ? 2 : 3;
    }
    for (int i = 0; i < ntm; i++) {
        int t, dup;
        do {
            t = (int)rndn(&grng, NTEAM);
            dup = 0;
            for (int k = 0; k < i; k++)
                dup |= tl[k] == t;
        } while (!teams[t].n || dup);
        tl[i] = t;
    }
    for (int i = 0; i < ntm; i++) {
        int k = 1 + (int)rndn(&grng, (uint64_t)maxreq);
        for (int j = 0; j < k; j++, ntmp++)
            gen_req(&tmp[ntmp], tl[i], ntmp, ep);
    }
    /* the global order (used as posting order in the interleaved mode): a random merge of
     * the teams' sequences */
    {
        int order[MAXREQ], next[3] = { 0, 0, 0 }, first[3], cnt[3] = { 0, 0, 0 }, o = 0;
        for (int i = 0; i < ntmp; i++)
            for (int k = 0; k < ntm; k++)
                if (tmp[i].team == tl[k])
                    cnt[k]++;
        first[0] = 0;
        for (int k = 1; k < ntm; k++)
            first[k] = first[k - 1] + cnt[k - 1];
        while (o < ntmp) {
            int k = (int)rndn(&grng, (uint64_t)ntm);
            if (next[k] < cnt[k])
                order[o++] = first[k] + next[k]++;
        }
        nreq = 0;
        for (int i = 0; i < ntmp; i++)
            if (matches(&tmp[order[i]])) {
                reqs[nreq] = tmp[order[i]];
                reqs[nreq].idx = nreq;
                nreq++;
            }
    }
    mode_all_posts = rndn(&grng, 10) < 6;
    blocking.on = 0;
    if (rndn(&grng, 10) < 3) {
        int u = (int)rndn(&grng, NTEAM), ok = teams[u].n > 0;
        for (int k = 0; k < ntm; k++)
            ok &= u != tl[k];
        blocking.on = ok && !no_block;
        blocking.team = u;
        blocking.op = (int)rndn(&grng, 4);
    }
    {
        int bpos = (int)rndn(&grng, (uint64_t)nreq + 1);
        int recreate = rndn(&grng, 40) == 0 ? 1 + (int)rndn(&grng, NTEAM - 1) : 0;
        int pool_free = rndn(&grng, 20) == 0;
        run = ep >= ep_from && (ep_to < 0 || ep <= ep_to);
        if (!run)
            return;
        cur_ep = ep;
        lrng.s = mix64(seed ^ mix64((uint64_t)ep * 7919 + (uint64_t)me * 104729 + 17));

        if (trace && me == 0) {
            char d[512];
            printf("episode %ld: %s%s", ep, mode_all_posts ? "all posts first" : "interleaved",
                   recreate ? " (team remade)" : "");
            if (blocking.on)
                printf(", blocking op %d on %s at %d", blocking.op, teams[blocking.team].name,
                       bpos);
            printf("\n");
            for (int i = 0; i < nreq; i++) {
                describe(&reqs[i], d, sizeof(d));
                printf("  %s\n", d);
            }
            fflush(stdout);
        }
        /* remake a split team now and then (members destroy, everyone splits) */
        if (recreate && teams[recreate].n) {
            struct team *T = &teams[recreate];
            wd_where = "remaking a team";
            for (int i = 1; i < NTEAM; i++) /* its children first */
                if (teams[i].parent == recreate && teams[i].t != SHMEM_TEAM_INVALID) {
                    shmem_team_destroy(teams[i].t);
                    teams[i].t = SHMEM_TEAM_INVALID;
                }
            if (T->t != SHMEM_TEAM_INVALID)
                shmem_team_destroy(T->t);
            T->t = SHMEM_TEAM_INVALID;
            team_make(recreate);
            for (int i = 1; i < NTEAM; i++)
                if (teams[i].parent == recreate)
                    team_make(i);
        }
        /* buffers: a slot for each source and dest (same decisions on every PE) */
        for (int i = 0; i < NSLOT; i++)
            pool[i].used = 0;
        if (pool_free) {
            int i = (int)rndn(&arng, NSLOT);
            if (pool[i].p) {
                shmem_free(pool[i].p);
                pool[i].p = NULL;
                pool[i].cap = 0;
            }
        }
        wd_where = "allocating";
        for (int i = 0; i < nreq; i++) {
            struct req *q = &reqs[i];
            if (q->fam == F_SYNC || q->nulls)
                continue;
            q->dslot = slot_get(GUARD + q->off + q->dext + GUARD);
            if (!q->inplace)
                q->sslot = slot_get(GUARD + q->off + q->sext + GUARD);
        }

        /* run it */
        {
            int mine[MAXREQ], k = 0, in_blk = blocking.on && teams[blocking.team].me >= 0;
            for (int i = 0; i < nreq; i++)
                if (teams[reqs[i].team].me >= 0)
                    mine[k++] = i;
            if (mode_all_posts) {
                /* my own interleave of the teams' sequences: each team's order kept */
                int posted = 0, bdone = !in_blk;
                int bat = in_blk ? (int)rndn(&lrng, (uint64_t)k + 1) : -1;
                int nxt[MAXREQ];
                memcpy(nxt, mine, (size_t)k * sizeof(int));
                while (posted < k || !bdone) {
                    if (!bdone && posted == bat) {
                        do_blocking();
                        bdone = 1;
                        continue;
                    }
                    /* pick a random remaining request whose team predecessors are posted */
                    for (;;) {
                        int c = (int)rndn(&lrng, (uint64_t)k), ok = !reqs[mine[c]].posted;
                        for (int j = 0; j < c && ok; j++)
                            if (reqs[mine[j]].team == reqs[mine[c]].team && !reqs[mine[j]].posted)
                                ok = 0;
                        if (ok) {
                            post(&reqs[mine[c]]);
                            posted++;
                            break;
                        }
                    }
                }
                if (rndn(&lrng, 5) == 0) {
                    wd_where = "computing";
                    spin_us((long)rndn(&lrng, 3000));
                }
                if (rndn(&lrng, 4) == 0) {
                    complete_all_polling(mine, k);
                } else {
                    /* my own completion order */
                    for (int i = k - 1; i > 0; i--) {
                        int j = (int)rndn(&lrng, (uint64_t)i + 1), t = nxt[i];
                        nxt[i] = nxt[j];
                        nxt[j] = t;
                    }
                    for (int i = 0; i < k; i++)
                        complete(&reqs[nxt[i]]);
                }
            } else {
                /* the global order; each PE completes some requests early */
                int open[MAXREQ], nopen = 0;
                for (int i = 0; i <= nreq; i++) {
                    if (blocking.on && i == bpos && in_blk)
                        do_blocking();
                    if (i == nreq)
                        break;
                    if (teams[reqs[i].team].me < 0)
                        continue;
                    post(&reqs[i]);
                    open[nopen++] = i;
                    if (rndn(&lrng, 10) == 0) {
                        wd_where = "computing";
                        spin_us((long)rndn(&lrng, 1000));
                    }
                    while (nopen && rndn(&lrng, 3) == 0) {
                        int j = (int)rndn(&lrng, (uint64_t)nopen);
                        complete(&reqs[open[j]]);
                        open[j] = open[--nopen];
                    }
                }
                while (nopen) {
                    int j = (int)rndn(&lrng, (uint64_t)nopen);
                    complete(&reqs[open[j]]);
                    open[j] = open[--nopen];
                }
            }
        }
    }
}

/* a late write into a dest of the last episode: the garbage left there must be intact */
static void check_late(void)
{
    char d[512];
    for (int i = 0; i < nreq; i++) {
        const struct req *q = &reqs[i];
        if (!q->posted || q->fam == F_SYNC || q->nulls)
            continue;
        for (size_t b = 0; b < q->dext; b++)
            if ((uint8_t)q->dest[b] != 0xc5) {
                describe(q, d, sizeof(d));
                FAIL("%s: dest byte %zu changed after the request completed (0x%02x): a late "
                     "write",
                     d, b, (uint8_t)q->dest[b]);
                break;
            }
    }
}

int main(int argc, char **argv)
{
    long iters = 300;
    int wd = 240;
    static int total;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--trace")) {
            trace = 1;
            continue;
        }
        if (!strcmp(a, "--no-block")) {
            no_block = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "nbc_mix: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--slow"))
            slow_ms = atof(v);
        else if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--iters"))
            iters = atol(v);
        else if (!strcmp(a, "--maxreq"))
            maxreq = atoi(v) < 1 ? 1 : atoi(v) > 8 ? 8 : atoi(v);
        else if (!strcmp(a, "--maxstrided"))
            maxstrided = (size_t)atol(v);
        else if (!strcmp(a, "--maxbuf"))
            maxbuf = (size_t)atol(v);
        else if (!strcmp(a, "--from"))
            ep_from = atol(v);
        else if (!strcmp(a, "--to"))
            ep_to = atol(v);
        else if (!strcmp(a, "--fam"))
            fam_filter = v;
        else if (!strcmp(a, "--team"))
            team_name = v;
        else if (!strcmp(a, "--watchdog"))
            wd = atoi(v);
        else {
            fprintf(stderr, "nbc_mix: unknown option %s\n", a);
            return 2;
        }
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPE) {
        if (me == 0)
            fprintf(stderr, "nbc_mix: at most %d PEs\n", MAXPE);
        shmem_finalize();
        return 2;
    }
    teams_init();
    if (team_name) {
        for (int t = 0; t < NTEAM; t++)
            if (!strcmp(teams[t].name, team_name))
                team_filter = t;
        if (team_filter < 0) {
            if (me == 0)
                fprintf(stderr, "nbc_mix: no team %s\n", team_name);
            shmem_global_exit(2);
        }
    }
    grng.s = seed;
    arng.s = mix64(seed + 1);
    if (wd > 0)
        signal(SIGALRM, on_alarm);
    if (me == 0 && trace)
        printf("nbc_mix: seed %" PRIu64 ", %d PEs, %ld episodes, buffers up to %zu bytes\n", seed,
               npes, iters, maxbuf);
    shmem_barrier_all();
    for (long ep = 0; ep < iters; ep++) {
        if (wd > 0)
            alarm((unsigned)wd); /* per episode */
        if (ep >= ep_from && (ep_to < 0 || ep <= ep_to))
            check_late();
        {
            double t0 = now_s();
            episode(ep);
            if (slow_ms > 0 && (now_s() - t0) * 1e3 > slow_ms && cur_ep == ep) {
                char d[512];
                printf("nbc_mix: PE %d: episode %ld took %.1f ms (%s):\n", me, ep,
                       (now_s() - t0) * 1e3, mode_all_posts ? "all posts first" : "interleaved");
                for (int i = 0; i < nreq; i++) {
                    describe(&reqs[i], d, sizeof(d));
                    printf("  %s\n", d);
                }
                fflush(stdout);
            }
        }
    }
    wd_where = "the end";
    shmem_barrier_all();
    check_late();
    for (int i = 0; i < NSLOT; i++)
        if (pool[i].p)
            shmem_free(pool[i].p);
    for (int i = NTEAM - 1; i > 0; i--)
        if (teams[i].t != SHMEM_TEAM_INVALID)
            shmem_team_destroy(teams[i].t);
    {
        static int f;
        f = fails;
        shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &total, &f, 1);
    }
    if (me == 0) {
        if (total)
            printf("nbc_mix: FAILED: %d failures, seed %" PRIu64 " (%d PEs, %ld episodes)\n", total,
                   seed, npes, iters);
        else
            printf("nbc_mix: ok (seed %" PRIu64 ", %d PEs, %ld episodes)\n", seed, npes, iters);
    }
    alarm(0);
    shmem_finalize();
    return total != 0;
}
