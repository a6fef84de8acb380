/*
 * Randomized stress of the blocking collectives and teams, written from the OpenSHMEM
 * 1.5/1.6 pages only ("test like a stranger").
 *
 * The program runs episodes; every PE draws the same episode from one seeded PRNG:
 * - a team: SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, teams of shmem_team_split_strided (even,
 *   odd, all but PE 0, {0, n-1}, low and high halves, one PE, stride 3, the odd ones of
 *   all-but-0: a split of a split; the odd members of SHMEM_TEAM_SHARED: a team on each
 *   node) and of shmem_team_split_2d (x and y teams of the world with xrange 2, of
 *   all-but-0 with xrange 3); split teams are destroyed and made again now and then
 *   (with or without SHMEM_TEAM_NUM_CONTEXTS in their configuration);
 *   before some collectives the members put to their neighbours through a context made
 *   with shmem_team_create_ctx (team-relative PE numbers), quiet it, sync the team and
 *   check what arrived;
 * - or an active set (PE_start, logPE_stride, PE_size), with its own pSync arrays
 *   initialised to SHMEM_SYNC_VALUE: a pSync is used again only after a shmem_barrier or
 *   shmem_sync of the same set (the barrier's own pSync back to back, as the spec allows);
 * - a collective: shmem_team_sync, shmem_sync_all, shmem_barrier_all, broadcast(mem) with
 *   any root (in place now and then), collect(mem) with each member's own count,
 *   fcollect(mem), alltoall(mem), alltoalls(mem) with strides 1-3, every typed
 *   and/or/xor/max/min/sum/prod reduction (float, double, long double, complex included;
 *   in place now and then), the 1.6 sum in/exscans, a few C11 generic calls, and the
 *   deprecated active-set forms (shmem_barrier, shmem_sync, broadcast32/64,
 *   collect32/64, fcollect32/64, alltoall32/64, alltoalls32/64, TYPE_OP_to_all with pWrk);
 * - a size: 0 (with NULL pointers half the time), one element, odd counts, the bytes
 *   around the algorithms' switches (120, 2 KiB, 4-64 KiB, 256 KiB), now and then 1 MiB.
 * Buffers: a dest pair per team (or active set), used in turn (another member may write
 * into my dest of the next collective as soon as it entered it), from shmem_malloc,
 * shmem_calloc, shmem_align or static arrays, with guard bytes before and after; sources
 * from a pool (a source may be reused as soon as the call returned), checked unchanged;
 * blocks freed and allocated again over time.  Every input is a function of (seed,
 * episode, PE, index) and every result is compared exactly with the values computed here
 * (the reductions' values are small integers, exact in every type and order).
 *
 *   coll_mix [--seed S] [--iters N] [--maxbuf BYTES] [--trace] [--from E] [--to E]
 *            [--op SUBSTR] [--team NAME] [--no-aset] [--no-ctx] [--remake N]
 *            [--watchdog SECONDS]
 * --iters: episodes (default 400); --maxbuf caps every dest (2 MiB); --remake: a team is
 * made again in one episode of N on average (40); --trace prints each
 * episode on PE 0 before it runs; --from/--to/--op/--team run only a part of the same
 * sequence (everything is drawn the same way, the other episodes skipped on every PE;
 * team remakes still run), to reduce a failure.  The seed is printed on failure; the
 * default seed is fixed.  The watchdog (default 240 s per episode, 0: off) names the
 * episode a PE is stuck in.
 */
#include <complex.h>
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
#define NTEAM 16
#define NSRC 6                /* source pool */
#define GSZ (36 * 1024)       /* static buffers */
#define MAXASET 512           /* active sets enumerated */
#define NPS 3                 /* data pSyncs per active set (plus one for its barriers) */
#define ASET_MAX (256u << 10) /* cap of an active set's dest */
#define TOALL_MAX 65536u      /* cap of a to_all's bytes (pWrk of half of it) */
#define CTXN 16

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

static struct rng grng; /* every choice of an episode: the same on every PE */
static struct rng lrng; /* this PE's own (delays) */

/* ---- operations ---- */
enum op {
    O_SYNC,
    O_SYNC_ALL,
    O_BARRIER_ALL,
    O_BCAST,
    O_BCASTMEM,
    O_COLLECT,
    O_COLLECTMEM,
    O_FCOLLECT,
    O_FCOLLECTMEM,
    O_ALLTOALL,
    O_ALLTOALLMEM,
    O_ALLTOALLS,
    O_ALLTOALLSMEM,
    O_AND,
    O_OR,
    O_XOR,
    O_MAX,
    O_MIN,
    O_SUM,
    O_PROD,
    O_INSCAN,
    O_EXSCAN,
    A_BARRIER,
    A_SYNC,
    A_BCAST,
    A_COLLECT,
    A_FCOLLECT,
    A_ALLTOALL,
    A_ALLTOALLS,
    A_AND,
    A_OR,
    A_XOR,
    A_MAX,
    A_MIN,
    A_SUM,
    A_PROD,
    O_N
};

static const char *op_name[O_N] = {
    "team_sync",    "sync_all",      "barrier_all",   "broadcast",      "broadcastmem",
    "collect",      "collectmem",    "fcollect",      "fcollectmem",    "alltoall",
    "alltoallmem",  "alltoalls",     "alltoallsmem",  "and_reduce",     "or_reduce",
    "xor_reduce",   "max_reduce",    "min_reduce",    "sum_reduce",     "prod_reduce",
    "sum_inscan",   "sum_exscan",    "aset_barrier",  "aset_sync",      "aset_broadcast",
    "aset_collect", "aset_fcollect", "aset_alltoall", "aset_alltoalls", "and_to_all",
    "or_to_all",    "xor_to_all",    "max_to_all",    "min_to_all",     "sum_to_all",
    "prod_to_all"
};

/* reduction operators (team and active set alike) */
enum { R_AND, R_OR, R_XOR, R_MAX, R_MIN, R_SUM, R_PROD, R_NONE };

static int is_aset(int o)
{
    return o >= A_BARRIER;
}
static int rop_of(int o)
{
    if (o >= O_AND && o <= O_PROD)
        return o - O_AND;
    if (o == O_INSCAN || o == O_EXSCAN)
        return R_SUM;
    if (o >= A_AND)
        return o - A_AND;
    return R_NONE;
}
static int is_red(int o)
{
    return rop_of(o) != R_NONE;
}
static int is_mem(int o)
{
    return o == O_BCASTMEM || o == O_COLLECTMEM || o == O_FCOLLECTMEM || o == O_ALLTOALLMEM ||
           o == O_ALLTOALLSMEM;
}
static int is_sync(int o)
{
    return o == O_SYNC || o == O_SYNC_ALL || o == O_BARRIER_ALL || o == A_BARRIER || o == A_SYNC;
}
static int is_bcast(int o)
{
    return o == O_BCAST || o == O_BCASTMEM || o == A_BCAST;
}
static int is_collect(int o)
{
    return o == O_COLLECT || o == O_COLLECTMEM || o == A_COLLECT;
}
static int is_fcollect(int o)
{
    return o == O_FCOLLECT || o == O_FCOLLECTMEM || o == A_FCOLLECT;
}
static int is_a2a(int o)
{
    return o == O_ALLTOALL || o == O_ALLTOALLMEM || o == A_ALLTOALL;
}
static int is_a2as(int o)
{
    return o == O_ALLTOALLS || o == O_ALLTOALLSMEM || o == A_ALLTOALLS;
}

/* ---- types ----
 * kinds: S signed integer, U unsigned integer, F floating, C complex; R: an RMA type
 * (broadcast, collect, alltoall), B: and/or/xor, M: max/min (sum/prod: all) */
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

/* the active-set reductions' types: name, type, and/or/xor, max/min */
#define ATYPES(X)                      \
    X(short, short, 1, 1)              \
    X(int, int, 1, 1)                  \
    X(long, long, 1, 1)                \
    X(longlong, long long, 1, 1)       \
    X(float, float, 0, 1)              \
    X(double, double, 0, 1)            \
    X(longdouble, long double, 0, 1)   \
    X(complexd, double _Complex, 0, 0) \
    X(complexf, float _Complex, 0, 0)

enum {
#define X_AENUM(N, T, B, M) A_##N,
    ATYPES(X_AENUM)
#undef X_AENUM
        A_TN
};

/* element i of PE pe's source in a reduction, as integers (a complex value has an
 * imaginary part): exact in every type, whatever the order of the fold */
static void red_val(int rop, char kind, uint64_t key, int pe, size_t i, long long *re,
                    long long *im)
{
    uint64_t h = mix64(key ^ mix64((uint64_t)pe * 0x100000001b3ULL + i));
    *im = 0;
    switch (rop) {
    case R_AND: /* mostly ones, so that an AND keeps some */ *re = (long long)(h | mix64(h)); break;
    case R_OR: *re = (long long)(h & mix64(h)); break;
    case R_XOR: *re = (long long)h; break;
    case R_MAX:
    case R_MIN:
        if (kind == 'F')
            *re = (long long)(int32_t)(uint32_t)(h >> 32) >> 9; /* 23 bits: exact in float */
        else
            *re = (long long)h;
        break;
    case R_PROD:
        if ((pe + i) % 4 == 0)
            *re = 2; /* at most a quarter of the members: no overflow up to 8 PEs */
        else if (kind == 'U')
            *re = (h & 1) ? 3 : 1;
        else
            *re = (h & 1) ? -1 : 1;
        if (kind == 'C' && (h & 2)) {
            *im = *re;
            *re = (h & 4) ? 1 : 0;
        }
        break;
    default: /* sum */
        *re = (long long)(h % 17) - 8;
        if (kind == 'C')
            *im = (long long)((h >> 8) % 17) - 8;
        break;
    }
}

#define OPS_S(T)                          \
    case R_AND: a = a & b; break;         \
    case R_OR: a = a | b; break;          \
    case R_XOR: a = a ^ b; break;         \
    case R_MAX: a = a > b ? a : b; break; \
    case R_MIN: a = a < b ? a : b; break; \
    case R_PROD: a = (T)(a * b); break;   \
    default:                              \
        a = (T)(a + b);                   \
        break;
#define OPS_U OPS_S
#define OPS_F(T)                          \
    case R_MAX: a = a > b ? a : b; break; \
    case R_MIN: a = a < b ? a : b; break; \
    case R_PROD: a = a * b; break;        \
    default:                              \
        a = a + b;                        \
        break;
#define OPS_C(T)                   \
    case R_PROD: a = a * b; break; \
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

/* the typed team calls; a missing one (a type the spec does not list) returns -999 */
#define CALL_RMA(N, T)                                                      \
    switch (o) {                                                            \
    case O_BCAST: return shmem_##N##_broadcast(t, dd, ss, n, root);         \
    case O_COLLECT: return shmem_##N##_collect(t, dd, ss, n);               \
    case O_FCOLLECT: return shmem_##N##_fcollect(t, dd, ss, n);             \
    case O_ALLTOALL: return shmem_##N##_alltoall(t, dd, ss, n);             \
    case O_ALLTOALLS: return shmem_##N##_alltoalls(t, dd, ss, dst, sst, n); \
    default: break;                                                         \
    }
#define CALL_BIT(N, T)                                       \
    switch (o) {                                             \
    case O_AND: return shmem_##N##_and_reduce(t, dd, ss, n); \
    case O_OR: return shmem_##N##_or_reduce(t, dd, ss, n);   \
    case O_XOR: return shmem_##N##_xor_reduce(t, dd, ss, n); \
    default: break;                                          \
    }
#define CALL_MM(N, T)                                        \
    switch (o) {                                             \
    case O_MAX: return shmem_##N##_max_reduce(t, dd, ss, n); \
    case O_MIN: return shmem_##N##_min_reduce(t, dd, ss, n); \
    default: break;                                          \
    }
#define CALL_IF_1(X, N, T) X(N, T)
#define CALL_IF_0(X, N, T)
#define CALL_IF(c, X, N, T) CALL_IF_##c(X, N, T)

#define X_FUNCS(N, T, K, R, B, M)                                                               \
    static int call_##N(int o, shmem_team_t t, void *d, const void *s, size_t n, ptrdiff_t dst, \
                        ptrdiff_t sst, int root)                                                \
    {                                                                                           \
        T *dd = d;                                                                              \
        const T *ss = s;                                                                        \
        (void)dst;                                                                              \
        (void)sst;                                                                              \
        (void)root;                                                                             \
        CALL_IF(R, CALL_RMA, N, T)                                                              \
        CALL_IF(B, CALL_BIT, N, T)                                                              \
        CALL_IF(M, CALL_MM, N, T)                                                               \
        switch (o) {                                                                            \
        case O_SUM: return shmem_##N##_sum_reduce(t, dd, ss, n);                                \
        case O_PROD: return shmem_##N##_prod_reduce(t, dd, ss, n);                              \
        case O_INSCAN: return shmem_##N##_sum_inscan(t, dd, ss, n);                             \
        case O_EXSCAN: return shmem_##N##_sum_exscan(t, dd, ss, n);                             \
        default: break;                                                                         \
        }                                                                                       \
        return -999;                                                                            \
    }                                                                                           \
    static T val_##N(int rop, uint64_t key, int pe, size_t i)                                   \
    {                                                                                           \
        long long re, im;                                                                       \
        red_val(rop, #K[0], key, pe, i, &re, &im);                                              \
        (void)im;                                                                               \
        return MKVAL_##K(T);                                                                    \
    }                                                                                           \
    static void fill_##N(void *buf, int rop, uint64_t key, int pe, size_t n)                    \
    {                                                                                           \
        T *p = buf;                                                                             \
        for (size_t i = 0; i < n; i++)                                                          \
            p[i] = val_##N(rop, key, pe, i);                                                    \
    }                                                                                           \
    /* 0, or the first element that differs + 1 (what, in msg); last < 0: zeros */              \
    static size_t check_##N(const void *dest, int rop, uint64_t key, const int *pes, int last,  \
                            size_t n, char *msg, size_t msglen)                                 \
    {                                                                                           \
        const T *p = dest;                                                                      \
        for (size_t i = 0; i < n; i++) {                                                        \
            T a = 0;                                                                            \
            for (int j = 0; j <= last; j++) {                                                   \
                T b = val_##N(rop, key, pes[j], i);                                             \
                if (j == 0) {                                                                   \
                    a = b;                                                                      \
                    continue;                                                                   \
                }                                                                               \
                switch (rop) {                                                                  \
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
    int (*call)(int, shmem_team_t, void *, const void *, size_t, ptrdiff_t, ptrdiff_t, int);
    void (*fill)(void *, int, uint64_t, int, size_t);
    size_t (*check)(const void *, int, uint64_t, const int *, int, size_t, char *, size_t);
};

static const struct tinfo types[T_N] = {
#define X_INFO(N, T, K, R, B, M) { #N, sizeof(T), #K[0], R, B, M, call_##N, fill_##N, check_##N },
    TYPES(X_INFO)
#undef X_INFO
};

/* the active-set reductions */
#define TOALL_BIT(N, T)                                                        \
    switch (rop) {                                                             \
    case R_AND: shmem_##N##_and_to_all(dd, ss, n, ps, ls, sz, w, p); return 0; \
    case R_OR: shmem_##N##_or_to_all(dd, ss, n, ps, ls, sz, w, p); return 0;   \
    case R_XOR: shmem_##N##_xor_to_all(dd, ss, n, ps, ls, sz, w, p); return 0; \
    default: break;                                                            \
    }
#define TOALL_MM(N, T)                                                         \
    switch (rop) {                                                             \
    case R_MAX: shmem_##N##_max_to_all(dd, ss, n, ps, ls, sz, w, p); return 0; \
    case R_MIN: shmem_##N##_min_to_all(dd, ss, n, ps, ls, sz, w, p); return 0; \
    default: break;                                                            \
    }
#define X_TOALL(N, T, B, M)                                                                        \
    static int toall_##N(int rop, void *d, const void *s, int n, int ps, int ls, int sz, void *wv, \
                         long *p)                                                                  \
    {                                                                                              \
        T *dd = d, *w = wv;                                                                        \
        const T *ss = s;                                                                           \
        CALL_IF(B, TOALL_BIT, N, T)                                                                \
        CALL_IF(M, TOALL_MM, N, T)                                                                 \
        switch (rop) {                                                                             \
        case R_SUM: shmem_##N##_sum_to_all(dd, ss, n, ps, ls, sz, w, p); return 0;                 \
        case R_PROD: shmem_##N##_prod_to_all(dd, ss, n, ps, ls, sz, w, p); return 0;               \
        default: break;                                                                            \
        }                                                                                          \
        return -999;                                                                               \
    }
ATYPES(X_TOALL)
#undef X_TOALL

struct ainfo {
    const char *name;
    int bit, mm, tt; /* tt: the same type in types[] */
    int (*toall)(int, void *, const void *, int, int, int, int, void *, long *);
};
static struct ainfo atypes[A_TN] = {
#define X_AINFO(N, T, B, M) { #N, B, M, -1, toall_##N },
    ATYPES(X_AINFO)
#undef X_AINFO
};

static int type_ok(int o, int t)
{
    const struct tinfo *ti = &types[t];
    int r = rop_of(o);
    if (r == R_AND || r == R_OR || r == R_XOR)
        return ti->bit;
    if (r == R_MAX || r == R_MIN)
        return ti->mm;
    if (r != R_NONE)
        return 1;
    return ti->rma;
}

static int atype_ok(int o, int t)
{
    int r = rop_of(o);
    if (r == R_AND || r == R_OR || r == R_XOR)
        return atypes[t].bit;
    if (r == R_MAX || r == R_MIN)
        return atypes[t].mm;
    return 1;
}

/* ---- failures ---- */
static int me, npes;
static int fails, fail_lines;
static uint64_t seed = 20261128;
static long cur_ep = -1;
static const char *volatile wd_where = "start";

#define FAIL(...)                                                                                \
    do {                                                                                         \
        fails++;                                                                                 \
        if (fail_lines++ < 30) {                                                                 \
            fprintf(stderr, "coll_mix: PE %d seed %" PRIu64 " episode %ld: ", me, seed, cur_ep); \
            fprintf(stderr, __VA_ARGS__);                                                        \
            fputc('\n', stderr);                                                                 \
        }                                                                                        \
    } while (0)

/* ---- teams ---- */
enum { K_WORLD, K_SHARED, K_STRIDED, K_2DX, K_2DY };

struct team {
    const char *name;
    int kind;
    int parent;              /* -1: world */
    int start, stride, size; /* strided: in the parent */
    int xrange, sib;         /* 2d: the x range, the other axis' team */
    int pes[MAXPE];          /* world PEs of my team's members */
    int n;                   /* members of my team (0: none here) */
    int valid;               /* strided: the triplet fits my parent team */
    int nmax;                /* the most members of this team on any PE */
    int me;                  /* my member index, or -1 */
    shmem_team_t t;          /* SHMEM_TEAM_INVALID where I am not a member */
    int nctx;                /* SHMEM_TEAM_NUM_CONTEXTS asked for at creation */
    shmem_ctx_t ctx;         /* a context of mine on it, kept for a while */
    int has_ctx;
    long ctx_turn;
};
static struct team teams[NTEAM];
static long ctx_made, ctx_refused;

static void members_from(struct team *T, const struct team *P, const int *idx, int k)
{
    T->n = k;
    T->me = -1;
    for (int j = 0; j < k; j++) {
        T->pes[j] = P ? P->pes[idx[j]] : idx[j];
        if (T->pes[j] == me)
            T->me = j;
    }
}

/* the membership of team i on this PE, from its definition */
static void team_members(int i)
{
    struct team *T = &teams[i];
    const struct team *P = T->parent >= 0 ? &teams[T->parent] : NULL;
    int pn = P ? P->n : npes, pme = P ? P->me : me, idx[MAXPE], k = 0;

    T->n = 0;
    T->me = -1;
    switch (T->kind) {
    case K_WORLD:
        for (int j = 0; j < npes; j++)
            idx[k++] = j;
        members_from(T, NULL, idx, k);
        break;
    case K_SHARED: {
        int n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
        for (int j = 0; j < n && j < MAXPE; j++)
            idx[k++] = shmem_team_translate_pe(SHMEM_TEAM_SHARED, j, SHMEM_TEAM_WORLD);
        members_from(T, NULL, idx, k);
        break;
    }
    case K_STRIDED:
        T->valid = 0;
        if (T->size < 1 || T->stride < 1 || T->start < 0 ||
            T->start + (T->size - 1) * T->stride >= pn)
            return;
        T->valid = 1;
        for (int j = 0; j < T->size; j++)
            idx[k++] = T->start + j * T->stride;
        members_from(T, P, idx, k);
        if (P && P->n == 0)
            T->n = 0;
        break;
    case K_2DX:
        if (pme < 0 || pn < 1)
            return;
        for (int j = (pme / T->xrange) * T->xrange; j < pn && j < (pme / T->xrange + 1) * T->xrange;
             j++)
            idx[k++] = j;
        members_from(T, P, idx, k);
        break;
    case K_2DY:
        if (pme < 0 || pn < 1)
            return;
        for (int j = pme % T->xrange; j < pn; j += T->xrange)
            idx[k++] = j;
        members_from(T, P, idx, k);
        break;
    }
}

static void team_def(int i, const char *name, int kind, int parent, int start, int stride, int size)
{
    struct team *T = &teams[i];
    T->name = name;
    T->kind = kind;
    T->parent = parent;
    T->start = start;
    T->stride = stride;
    T->size = size;
    T->xrange = kind == K_2DX || kind == K_2DY ? stride : 0;
    T->sib = -1;
    T->t = SHMEM_TEAM_INVALID;
    team_members(i);
    if (kind == K_WORLD)
        T->t = SHMEM_TEAM_WORLD;
    if (kind == K_SHARED)
        T->t = SHMEM_TEAM_SHARED;
}

static void check_team(int i)
{
    struct team *T = &teams[i];
    if ((T->me >= 0) != (T->t != SHMEM_TEAM_INVALID))
        FAIL("team %s: membership %d but handle %s", T->name, T->me,
             T->t == SHMEM_TEAM_INVALID ? "invalid" : "valid");
    if (T->t == SHMEM_TEAM_INVALID)
        return;
    if (shmem_team_n_pes(T->t) != T->n || shmem_team_my_pe(T->t) != T->me)
        FAIL("team %s: n_pes %d my_pe %d, expected %d %d", T->name, shmem_team_n_pes(T->t),
             shmem_team_my_pe(T->t), T->n, T->me);
    for (int j = 0; j < T->n; j++)
        if (shmem_team_translate_pe(T->t, j, SHMEM_TEAM_WORLD) != T->pes[j]) {
            FAIL("team %s: member %d translates to world PE %d, expected %d", T->name, j,
                 shmem_team_translate_pe(T->t, j, SHMEM_TEAM_WORLD), T->pes[j]);
            break;
        }
    if (T->me >= 0 && shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, T->t) != T->me)
        FAIL("team %s: world PE %d translates to %d, expected %d", T->name, me,
             shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, T->t), T->me);
    if (T->nctx) {
        shmem_team_config_t cfg;
        memset(&cfg, 0, sizeof(cfg));
        if (shmem_team_get_config(T->t, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0 ||
            cfg.num_contexts != T->nctx)
            FAIL("team %s: get_config gives num_contexts %d, made with %d", T->name,
                 cfg.num_contexts, T->nctx);
    }
}

static void drop_ctx(struct team *T)
{
    if (T->has_ctx)
        shmem_ctx_destroy(T->ctx);
    T->has_ctx = 0;
}

/* (re)make split team i on every PE of its parent; nctx: contexts asked for */
static void team_make(int i, int nctx)
{
    struct team *T = &teams[i];
    shmem_team_t parent = T->parent >= 0 ? teams[T->parent].t : SHMEM_TEAM_WORLD;
    shmem_team_config_t cfg;
    long mask = nctx ? SHMEM_TEAM_NUM_CONTEXTS : 0;
    int rc;

    memset(&cfg, 0, sizeof(cfg));
    cfg.num_contexts = nctx;
    T->t = SHMEM_TEAM_INVALID;
    T->nctx = nctx;
    if (T->kind == K_2DY)
        return; /* made with its x team */
    if (T->kind == K_2DX)
        teams[T->sib].t = SHMEM_TEAM_INVALID, teams[T->sib].nctx = nctx;
    if (!T->nmax)
        return;
    if (T->parent >= 0 && teams[T->parent].me < 0)
        return; /* not in the parent: not in the team */
    if (T->kind == K_STRIDED && !T->valid)
        return; /* my parent (a shared team) is too small: nobody in it splits */
    if (T->kind == K_2DX) {
        struct team *Y = &teams[T->sib];
        rc = shmem_team_split_2d(parent, T->xrange, nctx ? &cfg : NULL, mask, &T->t,
                                 nctx ? &cfg : NULL, mask, &Y->t);
        if (rc != 0)
            FAIL("shmem_team_split_2d of %s/%s returned %d", T->name, Y->name, rc);
        check_team(T->sib);
    } else {
        rc = shmem_team_split_strided(parent, T->start, T->stride, T->size, nctx ? &cfg : NULL,
                                      mask, &T->t);
        if (rc != 0)
            FAIL("shmem_team_split_strided of team %s returned %d", T->name, rc);
    }
    check_team(i);
}

static void team_destroy(int i)
{
    struct team *T = &teams[i];
    drop_ctx(T);
    if (T->kind != K_WORLD && T->kind != K_SHARED && T->t != SHMEM_TEAM_INVALID)
        shmem_team_destroy(T->t);
    T->t = SHMEM_TEAM_INVALID;
}

/* remake split team i (and its sibling and descendants) on every PE */
static void team_remake(int i, int nctx)
{
    int fam[NTEAM], nf = 0;
    if (teams[i].kind == K_2DY)
        i = teams[i].sib;
    fam[nf++] = i;
    if (teams[i].sib >= 0)
        fam[nf++] = teams[i].sib;
    for (int k = 0; k < nf; k++) /* descendants, in order of definition */
        for (int j = 0; j < NTEAM; j++)
            if (teams[j].parent == fam[k]) {
                int dup = 0;
                for (int m = 0; m < nf; m++)
                    dup |= fam[m] == j;
                if (!dup)
                    fam[nf++] = j;
            }
    for (int k = nf - 1; k >= 0; k--) /* children first */
        team_destroy(fam[k]);
    for (int k = 0; k < nf; k++)
        if (teams[fam[k]].kind != K_2DY)
            team_make(fam[k], k == 0 ? nctx : 0);
}

static void teams_init(void)
{
    static int loc[NTEAM], mx[NTEAM];
    team_def(0, "world", K_WORLD, -1, 0, 1, npes);
    team_def(1, "shared", K_SHARED, -1, 0, 0, 0);
    team_def(2, "even", K_STRIDED, -1, 0, 2, (npes + 1) / 2);
    team_def(3, "odd", K_STRIDED, -1, 1, 2, npes / 2);
    team_def(4, "allbut0", K_STRIDED, -1, 1, 1, npes - 1);
    team_def(5, "pair0last", K_STRIDED, -1, 0, npes > 2 ? npes - 1 : 1, 2);
    team_def(6, "low", K_STRIDED, -1, 0, 1, npes / 2);
    team_def(7, "high", K_STRIDED, -1, npes / 2, 1, npes - npes / 2);
    team_def(8, "last1", K_STRIDED, -1, npes - 1, 1, 1);
    team_def(9, "stride3", K_STRIDED, -1, 0, 3, npes >= 4 ? (npes + 2) / 3 : 0);
    team_def(10, "allbut0-odd", K_STRIDED, 4, 0, 2, npes / 2); /* world PEs 1, 3, ... */
    team_def(11, "x2", K_2DX, -1, 0, 2, 0);
    team_def(12, "y2", K_2DY, -1, 0, 2, 0);
    team_def(13, "x3-allbut0", K_2DX, 4, 0, 3, 0);
    team_def(14, "y3-allbut0", K_2DY, 4, 0, 3, 0);
    /* a split of SHMEM_TEAM_SHARED: another team on each node */
    team_def(15, "shared-odd", K_STRIDED, 1, 1, 2, teams[1].n / 2);
    teams[11].sib = 12;
    teams[12].sib = 11;
    teams[13].sib = 14;
    teams[14].sib = 13;
    for (int i = 0; i < NTEAM; i++)
        loc[i] = teams[i].n;
    shmem_barrier_all();
    shmem_int_max_reduce(SHMEM_TEAM_WORLD, mx, loc, NTEAM);
    for (int i = 0; i < NTEAM; i++)
        teams[i].nmax = mx[i];
    check_team(0);
    check_team(1);
    for (int i = 2; i < NTEAM; i++)
        if (teams[i].kind != K_2DY)
            team_make(i, 0);
}

/* ---- active sets ---- */
struct aset {
    int start, logs, size;
    int pes[MAXPE];
    int me;
    int dirty[NPS + 1]; /* [0]: pWrk */
};
static struct aset asets[MAXASET];
static int naset;
static long *psyncs; /* symmetric: naset x (1 + NPS) x SHMEM_SYNC_SIZE */

static long *psync_of(int a, int k)
{
    return psyncs + ((size_t)a * (1 + NPS) + (size_t)k) * SHMEM_SYNC_SIZE;
}

static void asets_init(void)
{
    for (int logs = 0; logs <= 3; logs++)
        for (int start = 0; start < npes; start++)
            for (int size = 1; start + (size - 1) * (1 << logs) < npes; size++) {
                struct aset *A;
                if (naset == MAXASET)
                    break;
                A = &asets[naset++];
                A->start = start;
                A->logs = logs;
                A->size = size;
                A->me = -1;
                for (int j = 0; j < size; j++) {
                    A->pes[j] = start + j * (1 << logs);
                    if (A->pes[j] == me)
                        A->me = j;
                }
            }
    psyncs = shmem_malloc((size_t)naset * (1 + NPS) * SHMEM_SYNC_SIZE * sizeof(long));
    if (!psyncs) {
        fprintf(stderr, "coll_mix: no room for the pSync arrays\n");
        shmem_global_exit(2);
    }
    for (size_t i = 0; i < (size_t)naset * (1 + NPS) * SHMEM_SYNC_SIZE; i++)
        psyncs[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
}

/* ---- buffers ---- */
struct blk {
    char *p;
    size_t cap;
};
/* groups: the teams, then the active sets */
static struct blk gdst[NTEAM + MAXASET][2];
static long gturn[NTEAM + MAXASET];
static struct blk pwrk[MAXASET];
static struct blk srcs[NSRC];
static char st_dst[NTEAM][2][GSZ];
static char st_src[GSZ];
static long ctxbuf[NTEAM][2][CTXN];

static size_t maxbuf = 2u << 20;
static size_t maxstrided = 4097;
static long remake_every = 40;
static int trace, no_aset, no_ctx, team_filter = -1;
static long ep_from = 0, ep_to = -1;
static const char *op_filter;

/* allocate b (every PE alike) with at least need bytes; how: the drawn way */
static void blk_alloc(struct blk *b, size_t need, unsigned how)
{
    size_t cap = 4096;
    while (cap < need)
        cap *= 2;
    if (b->p)
        shmem_free(b->p);
    b->p = NULL;
    switch (how % 3) {
    case 0: b->p = shmem_malloc(cap); break;
    case 1:
        b->p = shmem_calloc(1, cap);
        if (b->p)
            for (size_t i = 0; i < cap; i++)
                if (b->p[i]) {
                    FAIL("shmem_calloc(1, %zu): byte %zu is %d", cap, i, b->p[i]);
                    break;
                }
        break;
    default: {
        static const size_t al[] = { 16, 64, 256, 4096, 65536 };
        size_t a = al[(how / 3) % 5];
        b->p = shmem_align(a, cap);
        if (b->p && ((uintptr_t)b->p & (a - 1)))
            FAIL("shmem_align(%zu, %zu) = %p is not aligned", a, cap, (void *)b->p);
        break;
    }
    }
    if (!b->p) {
        fprintf(stderr, "coll_mix: PE %d: cannot allocate %zu bytes (SHMEM_SYMMETRIC_SIZE)\n", me,
                cap);
        shmem_global_exit(2);
    }
    b->cap = cap;
}

static void blk_free(struct blk *b)
{
    if (b->p)
        shmem_free(b->p);
    b->p = NULL;
    b->cap = 0;
}

/* ---- one collective call ---- */
struct call {
    int op, team, aset, type, atype; /* type: types[] (-1: bytes); atype: to_all's */
    int grp;                         /* buffer group: team, or NTEAM + aset */
    size_t es, nelems, off;
    unsigned rootdraw;
    int root;
    ptrdiff_t dst, sst;
    int inplace, nulls, gen, width, clean;
    size_t cnt[MAXPE];
    int nullsrc[MAXPE];
    uint64_t key;
    int st_dst, st_src, sslot, pss;
    unsigned how_d, how_s, how_w;
    int ctx, ctx_keep, ctxk;
    int remake, remake_nctx, freeit;
    /* this PE's */
    int n, mi; /* members, my index */
    const int *pes;
    size_t sext, dext;
    char *src, *dest, *dbase, *sbase;
};

static struct call C;

static void describe(const struct call *q, char *b, size_t len)
{
    int k;
    if (is_aset(q->op))
        k = snprintf(b, len, "%s%s%s on active set (%d, %d, %d) [%d PEs]",
                     q->atype >= 0 ? atypes[q->atype].name : "", q->atype >= 0 ? "_" : "",
                     op_name[q->op], asets[q->aset].start, asets[q->aset].logs, asets[q->aset].size,
                     q->n);
    else
        k = snprintf(b, len, "%s%s%s%s on team %s [%d PEs]", q->gen ? "(C11 generic) " : "",
                     q->type >= 0 ? types[q->type].name : "", q->type >= 0 ? "_" : "",
                     op_name[q->op], teams[q->team].name, q->n);
    if (q->ctx)
        k += snprintf(b + k, len - (size_t)k, " after %d ctx puts", q->ctxk);
    if (is_sync(q->op))
        return;
    if (q->width)
        k += snprintf(b + k, len - (size_t)k, " %d-bit", q->width);
    k += snprintf(b + k, len - (size_t)k, " nelems %zu (%zu bytes)", q->nelems, q->nelems * q->es);
    if (is_bcast(q->op))
        k += snprintf(b + k, len - (size_t)k, " root %d", q->root);
    if (is_a2as(q->op))
        k += snprintf(b + k, len - (size_t)k, " dst %td sst %td", q->dst, q->sst);
    if (is_collect(q->op)) {
        k += snprintf(b + k, len - (size_t)k, " counts");
        for (int j = 0; j < q->n && k < (int)len - 24; j++)
            k += snprintf(b + k, len - (size_t)k, "%s%zu%s", j ? "," : " ", q->cnt[j],
                          q->nullsrc[j] ? "(NULL)" : "");
    }
    if (is_aset(q->op) && !is_sync(q->op))
        k += snprintf(b + k, len - (size_t)k, " pSync %d", q->pss);
    snprintf(b + k, len - (size_t)k, "%s%s off %zu%s%s", q->inplace ? " in-place" : "",
             q->nulls ? " NULL" : "", q->off, q->st_dst ? " static-dest" : "",
             q->st_src ? " static-source" : "");
}

/* a count of elements of es bytes: 0, one, odd ones, and the boundaries */
static size_t pick_count(size_t es)
{
    static const size_t bnd[] = { 120, 2048, 4096, 8192, 16384, 32768, 65536, 262144 };
    static const int w[] = { 22, 18, 8, 10, 14, 8, 12, 8 }; /* of 100 */
    uint64_t r = rndn(&grng, 1000);
    size_t n, B = bnd[0];
    if (r < 50)
        return 0;
    if (r < 130)
        return 1;
    if (r < 380) {
        static const size_t small[] = { 2, 3, 5, 7, 13, 15, 16, 31, 33, 64, 127, 255, 257 };
        return small[rndn(&grng, sizeof(small) / sizeof(small[0]))];
    }
    if (r < 992) {
        int b = (int)rndn(&grng, 100), d;
        for (int k = 0; k < 8; k++) {
            if (b < w[k]) {
                B = bnd[k];
                break;
            }
            b -= w[k];
        }
        d = (int)rndn(&grng, 5) - 2; /* -1 elt, -1 byte, 0, +1 byte, +1 elt */
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

static int pick_w(const int *w, int lo, int hi)
{
    int tot = 0, r;
    for (int i = lo; i < hi; i++)
        tot += w[i - lo];
    r = (int)rndn(&grng, (uint64_t)tot);
    for (int i = lo; i < hi; i++) {
        if (r < w[i - lo])
            return i;
        r -= w[i - lo];
    }
    return lo;
}

/* the extents of source and dest for nn members (sext: the largest of any member's) */
static void extents(const struct call *q, int nn, size_t *sext, size_t *dext)
{
    size_t es = q->es, blk = q->nelems * es;
    *sext = *dext = 0;
    if (is_sync(q->op))
        return;
    if (is_collect(q->op)) {
        for (int j = 0; j < nn; j++) {
            *dext += q->cnt[j] * es;
            if (q->cnt[j] * es > *sext)
                *sext = q->cnt[j] * es;
        }
    } else if (is_fcollect(q->op)) {
        *sext = blk;
        *dext = blk * (size_t)nn;
    } else if (is_a2a(q->op)) {
        *sext = *dext = blk * (size_t)nn;
    } else if (is_a2as(q->op)) {
        *sext = q->nelems * (size_t)nn * (size_t)q->sst * es;
        *dext = q->nelems * (size_t)nn * (size_t)q->dst * es;
    } else {
        *sext = *dext = blk;
    }
}

static int nmax_of(const struct call *q)
{
    return is_aset(q->op) ? asets[q->aset].size : teams[q->team].nmax;
}

static int have_c11(int t)
{
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    return t == T_int || t == T_double;
#else
    (void)t;
    return 0;
#endif
}

/* draw episode ep's call (every PE alike) */
static void draw(struct call *q, long ep)
{
    static const int wt[O_EXSCAN + 1] = { 4, 1, 1, 5, 3, 4, 2, 4, 2, 4, 2,
                                          3, 2, 2, 2, 2, 3, 3, 6, 3, 3, 3 };
    static const int wa[A_PROD - A_BARRIER + 1] = { 2, 2, 4, 3, 3, 3, 2, 1, 1, 1, 2, 2, 3, 2 };
    size_t cap, sext, dext;
    int nn;

    memset(q, 0, sizeof(*q));
    q->type = q->atype = q->team = q->aset = -1;
    q->es = 1;
    q->dst = q->sst = 1;
    q->key = mix64(seed * 0x9E3779B97F4A7C15ULL + (uint64_t)ep * 131 + 1);
    if (rndn(&grng, (uint64_t)remake_every) == 0) {
        q->remake = 2 + (int)rndn(&grng, NTEAM - 2);
        q->remake_nctx = rndn(&grng, 3) == 0 ? 1 + (int)rndn(&grng, 2) : 0;
    }
    if (rndn(&grng, 25) == 0)
        q->freeit = 1 + (int)rndn(&grng, (uint64_t)(NSRC + 2 * (NTEAM + naset)));
    if (!no_aset && rndn(&grng, 100) < 14) {
        struct aset *A;
        q->op = pick_w(wa, A_BARRIER, A_PROD + 1);
        /* larger sets more often */
        do
            q->aset = (int)rndn(&grng, (uint64_t)naset);
        while (asets[q->aset].size < 2 && rndn(&grng, 3));
        A = &asets[q->aset];
        q->grp = NTEAM + q->aset;
        q->pss = 1 + (int)rndn(&grng, NPS);
        q->clean = (int)rndn(&grng, 2); /* shmem_barrier or shmem_sync to free a pSync */
        if (is_red(q->op)) {
            do
                q->atype = (int)rndn(&grng, A_TN);
            while (!atype_ok(q->op, q->atype));
            q->type = atypes[q->atype].tt;
            q->es = types[q->type].size;
        } else if (!is_sync(q->op)) {
            q->width = rndn(&grng, 2) ? 64 : 32;
            q->es = (size_t)q->width / 8;
        }
        (void)A;
        q->team = -1;
    } else {
        q->op = pick_w(wt, O_SYNC, O_EXSCAN + 1);
        if (q->op == O_SYNC_ALL || q->op == O_BARRIER_ALL)
            q->team = 0;
        else
            do
                q->team = (int)rndn(&grng, NTEAM);
            while (!teams[q->team].nmax);
        q->grp = q->team;
        if (!is_sync(q->op) && !is_mem(q->op)) {
            do
                q->type = (int)rndn(&grng, T_N);
            while (!type_ok(q->op, q->type));
            q->es = types[q->type].size;
        }
        if (!no_ctx && rndn(&grng, 10) == 0) {
            q->ctx = 1;
            q->ctxk = 1 + (int)rndn(&grng, CTXN - 1);
            q->ctx_keep = (int)rndn(&grng, 2);
        }
    }
    if (q->op == O_SYNC)
        q->gen = have_c11(T_int) && rndn(&grng, 3) == 0;
    if (is_sync(q->op))
        return;
    nn = nmax_of(q);
    q->nelems = pick_count(q->es);
    q->rootdraw = (unsigned)rndn(&grng, 1u << 30);
    if (is_a2as(q->op)) {
        q->dst = 1 + (ptrdiff_t)rndn(&grng, 3);
        q->sst = 1 + (ptrdiff_t)rndn(&grng, 3);
    }
    if (is_mem(q->op))
        q->off = rndn(&grng, 8);
    else
        q->off = q->es * rndn(&grng, 3);
    if (is_red(q->op))
        q->inplace = rndn(&grng, 4) == 0;
    if (is_bcast(q->op))
        q->inplace = rndn(&grng, 12) == 0;
    if (q->type >= 0 && !is_aset(q->op) && have_c11(q->type) &&
        (q->op == O_BCAST || q->op == O_FCOLLECT || q->op == O_ALLTOALL || q->op == O_SUM ||
         q->op == O_MAX || q->op == O_INSCAN))
        q->gen = rndn(&grng, 3) == 0;
    /* caps: the dest within maxbuf (active sets: ASET_MAX, to_all: TOALL_MAX) */
    cap = is_aset(q->op) ? ASET_MAX : maxbuf;
    if (q->op >= A_AND)
        cap = TOALL_MAX;
    if (is_collect(q->op) || is_fcollect(q->op) || is_a2a(q->op))
        cap = cap / q->es / (size_t)nn;
    else if (is_a2as(q->op)) {
        cap = cap / q->es / (size_t)nn / (size_t)(q->dst > q->sst ? q->dst : q->sst);
        if (cap > maxstrided)
            cap = maxstrided;
    } else
        cap = cap / q->es;
    if (q->nelems > cap)
        q->nelems = cap;
    if (is_collect(q->op))
        for (int j = 0; j < nn; j++) {
            uint64_t r = rndn(&grng, 6);
            size_t c = r == 0   ? 0
                       : r == 1 ? q->nelems / 2 + (size_t)j
                       : r == 2 ? q->nelems + (size_t)j
                                : q->nelems;
            q->cnt[j] = c > cap ? cap : c;
            q->nullsrc[j] = c == 0 && rndn(&grng, 2);
        }
    extents(q, nn, &sext, &dext);
    if (!dext && rndn(&grng, 2) == 0) {
        q->nulls = 1;
        q->inplace = 0;
    }
    q->st_dst = !is_aset(q->op) && rndn(&grng, 4) == 0;
    q->st_src = rndn(&grng, 4) == 0;
    q->sslot = (int)rndn(&grng, NSRC);
    q->how_d = (unsigned)rndn(&grng, 1000);
    q->how_s = (unsigned)rndn(&grng, 1000);
    q->how_w = (unsigned)rndn(&grng, 1000);
}

/* ---- byte patterns of the data-moving collectives ---- */
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

/* a dest block holds 0xee wherever no call is writing it: set after a call's check (at
 * the start of my next episode, which is before any member can enter the next call that
 * uses the block) and when the block is made (then a barrier), never just before the
 * call, when another member may already write into it */
static uint8_t guard_byte(const struct call *q, int which)
{
    if (which < 2)
        return 0xee;
    return (uint8_t)(0x81 + (q->key & 0x3f) + which * 0x40);
}

/* the dest of the last call of mine: garbage 0xc5 written after its check; its block
 * (late_base, late_span bytes with the guards) goes back to 0xee after the look */
static char *late_dest, *late_base;
static size_t late_len, late_span;
static char late_what[512];
static long late_ep;

static void check_late(void)
{
    if (!late_dest)
        return;
    for (size_t b = 0; b < late_len; b++)
        if ((uint8_t)late_dest[b] != 0xc5) {
            FAIL("%s (episode %ld): dest byte %zu changed after the call returned and was checked "
                 "(0x%02x): a late write",
                 late_what, late_ep, b, (uint8_t)late_dest[b]);
            break;
        }
    memset(late_base, 0xee, late_span);
    late_dest = NULL;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void spin_us(long us)
{
    double end = now_s() + (double)us * 1e-6;
    while (now_s() < end)
        ;
}

/* a dest block of group g, turn t, of at least need bytes (every PE alike) */
static char *dest_block(const struct call *q, int turn, size_t need, int *made)
{
    struct blk *b = &gdst[q->grp][turn];
    if (q->st_dst && need <= GSZ)
        return st_dst[q->grp][turn];
    if (b->cap < need) {
        blk_alloc(b, need, q->how_d);
        memset(b->p, 0xee, b->cap);
        *made = 1;
    }
    return b->p;
}

static char *src_block(const struct call *q, size_t need)
{
    if (q->st_src && need <= GSZ)
        return st_src;
    if (srcs[q->sslot].cap < need)
        blk_alloc(&srcs[q->sslot], need, q->how_s);
    return srcs[q->sslot].p;
}

static long ctxval(long ep, int pe, int i)
{
    return (long)(mix64((uint64_t)ep * 1000003 + (uint64_t)pe * 7919 + (uint64_t)i) >> 2);
}

static long syncbuf[NTEAM + MAXASET][2];
static long sturn[NTEAM + MAXASET];

/* Reusing a dest: call c of a group writes dest block c % 2, which I read (check) after
 * call c - 2.  The specification wants it ready on every member before any member calls
 * c: that holds if some call between them needed every member to have entered it
 * before any could leave (a sync, a reduction, a collect, fcollect or alltoall moving
 * data; not a broadcast, a scan or a call of zero elements), else the members sync the
 * group first.  Per group: 1 + the number of the last such call, of the last use of
 * each block (0: none). */
static long last_sync1[NTEAM + MAXASET], last_use1[NTEAM + MAXASET][2];

static int synchronizing(const struct call *q)
{
    if (is_sync(q->op))
        return 1;
    if (q->nulls || !q->nelems || is_bcast(q->op) || q->op == O_INSCAN || q->op == O_EXSCAN)
        return 0;
    if (is_collect(q->op)) { /* every member's count in my offsets */
        size_t tot = 0;
        for (int j = 0; j < q->n; j++)
            tot += q->cnt[j];
        return tot > 0;
    }
    return 1;
}

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
/* a few calls through the C11 generic names */
static int gen_call(const struct call *q, shmem_team_t t, void *d, const void *s)
{
    if (q->type == T_int) {
        int *dd = d;
        const int *ss = s;
        switch (q->op) {
        case O_BCAST: return shmem_broadcast(t, dd, ss, q->nelems, q->root);
        case O_FCOLLECT: return shmem_fcollect(t, dd, ss, q->nelems);
        case O_ALLTOALL: return shmem_alltoall(t, dd, ss, q->nelems);
        case O_SUM: return shmem_sum_reduce(t, dd, ss, q->nelems);
        case O_MAX: return shmem_max_reduce(t, dd, ss, q->nelems);
        default: return shmem_sum_inscan(t, dd, ss, q->nelems);
        }
    } else {
        double *dd = d;
        const double *ss = s;
        switch (q->op) {
        case O_BCAST: return shmem_broadcast(t, dd, ss, q->nelems, q->root);
        case O_FCOLLECT: return shmem_fcollect(t, dd, ss, q->nelems);
        case O_ALLTOALL: return shmem_alltoall(t, dd, ss, q->nelems);
        case O_SUM: return shmem_sum_reduce(t, dd, ss, q->nelems);
        case O_MAX: return shmem_max_reduce(t, dd, ss, q->nelems);
        default: return shmem_sum_inscan(t, dd, ss, q->nelems);
        }
    }
}
#else
static int gen_call(const struct call *q, shmem_team_t t, void *d, const void *s)
{
    (void)q;
    (void)t;
    (void)d;
    (void)s;
    return -999;
}
#endif

/* puts to both neighbours through a context of the team (team-relative PE numbers), a
 * quiet and a team sync, then what arrived is checked */
static void ctx_stage(struct call *q, long ep)
{
    struct team *T = &teams[q->team];
    int turn = (int)(T->ctx_turn++ & 1), n = q->n, mi = q->mi, k = q->ctxk;
    int right = (mi + 1) % n, left = (mi + n - 1) % n;
    long vals[CTXN], *buf = ctxbuf[q->team][turn];

    wd_where = "team context puts";
    if (!T->has_ctx) {
        int rc = shmem_team_create_ctx(T->t, 0, &T->ctx);
        if (rc == 0) {
            T->has_ctx = 1;
            ctx_made++;
        } else {
            if (T->nctx)
                FAIL("shmem_team_create_ctx on team %s (made with num_contexts %d) returned %d",
                     T->name, T->nctx, rc);
            ctx_refused++;
        }
    }
    for (int i = 0; i < k; i++)
        vals[i] = ctxval(ep, me, i);
    if (T->has_ctx) {
        shmem_team_t tt = SHMEM_TEAM_INVALID;
        if (shmem_ctx_get_team(T->ctx, &tt) != 0 || tt != T->t)
            FAIL("shmem_ctx_get_team of a context of team %s does not give the team", T->name);
        shmem_ctx_long_put(T->ctx, buf, vals, (size_t)k, right);
        shmem_ctx_long_p(T->ctx, &buf[CTXN - 1], ctxval(ep, me, 99), left);
        shmem_ctx_quiet(T->ctx);
    } else {
        shmem_long_put(buf, vals, (size_t)k, q->pes[right]);
        shmem_long_p(&buf[CTXN - 1], ctxval(ep, me, 99), q->pes[left]);
        shmem_quiet();
    }
    if (shmem_team_sync(T->t) != 0)
        FAIL("shmem_team_sync on team %s after the context puts returned nonzero", T->name);
    for (int i = 0; i < k; i++)
        if (buf[i] != ctxval(ep, q->pes[left], i)) {
            FAIL("team %s: context put from member %d: element %d is %ld, expected %ld", T->name,
                 left, i, buf[i], ctxval(ep, q->pes[left], i));
            break;
        }
    if (buf[CTXN - 1] != ctxval(ep, q->pes[right], 99))
        FAIL("team %s: context p from member %d: %ld, expected %ld", T->name, right, buf[CTXN - 1],
             ctxval(ep, q->pes[right], 99));
    if (!q->ctx_keep)
        drop_ctx(T);
}

/* buffers (every PE: allocation is collective), then this PE's part of the call's
 * set-up; returns 1 if this PE is a member */
static int prepare(struct call *q, int turn)
{
    size_t sx, dx;
    int nn = nmax_of(q), made = 0;

    extents(q, nn, &sx, &dx);
    q->dbase = q->sbase = NULL;
    if (!is_sync(q->op) && !q->nulls) {
        wd_where = "allocating";
        q->dbase = dest_block(q, turn, GUARD + q->off + dx + GUARD, &made);
        if (!q->inplace)
            q->sbase = src_block(q, GUARD + q->off + sx + GUARD);
        if (made) { /* every PE: the new dest is ready everywhere before anyone writes it */
            shmem_barrier_all();
            for (int g = 0; g < NTEAM + naset; g++)
                last_sync1[g] = gturn[g];
        }
    }
    if (q->op >= A_AND) {
        size_t w = q->nelems / 2 + 1;
        if (w < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
            w = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
        if (pwrk[q->aset].cap < w * q->es)
            blk_alloc(&pwrk[q->aset], w * q->es, q->how_w);
    }
    if (is_aset(q->op)) {
        struct aset *A = &asets[q->aset];
        if (A->me < 0)
            return 0;
        q->n = A->size;
        q->mi = A->me;
        q->pes = A->pes;
    } else {
        struct team *T = &teams[q->team];
        if (T->me < 0)
            return 0;
        q->n = T->n;
        q->mi = T->me;
        q->pes = T->pes;
    }
    q->root = (int)(q->rootdraw % (unsigned)q->n);
    extents(q, q->n, &q->sext, &q->dext);
    q->src = q->dest = NULL;
    if (is_sync(q->op) || q->nulls)
        return 1;
    q->dest = q->dbase + GUARD + q->off; /* 0xee already, guards included */
    if (q->inplace) {
        q->src = q->dest;
    } else {
        q->src = q->sbase + GUARD + q->off;
        memset(q->sbase, guard_byte(q, 2), GUARD + q->off);
        memset(q->src, 0x77, q->sext);
        memset(q->src + q->sext, guard_byte(q, 3), GUARD);
    }
    if (is_red(q->op))
        types[q->type].fill(q->src, rop_of(q->op), q->key, me, q->nelems);
    else if (is_collect(q->op))
        pfill(q->src, q->cnt[q->mi] * q->es, q->key, me);
    else if (!(is_bcast(q->op) && q->inplace && q->mi != q->root))
        pfill(q->src, q->sext, q->key, me);
    if (is_collect(q->op) && q->nullsrc[q->mi])
        q->src = NULL;
    return 1;
}

static int do_call(struct call *q)
{
    shmem_team_t t = q->team >= 0 ? teams[q->team].t : SHMEM_TEAM_INVALID;
    const struct aset *A = q->aset >= 0 ? &asets[q->aset] : NULL;
    long *ps = A ? psync_of(q->aset, is_sync(q->op) ? 0 : q->pss) : NULL;
    int w32 = q->width == 32;

    switch (q->op) {
    case O_SYNC:
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
        if (q->gen)
            return shmem_sync(t); /* the C11 form: shmem_team_sync */
#endif
        return shmem_team_sync(t);
    case O_SYNC_ALL: shmem_sync_all(); return 0;
    case O_BARRIER_ALL: shmem_barrier_all(); return 0;
    case O_BCASTMEM: return shmem_broadcastmem(t, q->dest, q->src, q->nelems, q->root);
    case O_COLLECTMEM: return shmem_collectmem(t, q->dest, q->src, q->cnt[q->mi]);
    case O_FCOLLECTMEM: return shmem_fcollectmem(t, q->dest, q->src, q->nelems);
    case O_ALLTOALLMEM: return shmem_alltoallmem(t, q->dest, q->src, q->nelems);
    case O_ALLTOALLSMEM: return shmem_alltoallsmem(t, q->dest, q->src, q->dst, q->sst, q->nelems);
    case A_BARRIER: shmem_barrier(A->start, A->logs, A->size, ps); return 0;
    case A_SYNC: shmem_sync(A->start, A->logs, A->size, ps); return 0;
    case A_BCAST:
        if (w32)
            shmem_broadcast32(q->dest, q->src, q->nelems, q->root, A->start, A->logs, A->size, ps);
        else
            shmem_broadcast64(q->dest, q->src, q->nelems, q->root, A->start, A->logs, A->size, ps);
        return 0;
    case A_COLLECT:
        if (w32)
            shmem_collect32(q->dest, q->src, q->cnt[q->mi], A->start, A->logs, A->size, ps);
        else
            shmem_collect64(q->dest, q->src, q->cnt[q->mi], A->start, A->logs, A->size, ps);
        return 0;
    case A_FCOLLECT:
        if (w32)
            shmem_fcollect32(q->dest, q->src, q->nelems, A->start, A->logs, A->size, ps);
        else
            shmem_fcollect64(q->dest, q->src, q->nelems, A->start, A->logs, A->size, ps);
        return 0;
    case A_ALLTOALL:
        if (w32)
            shmem_alltoall32(q->dest, q->src, q->nelems, A->start, A->logs, A->size, ps);
        else
            shmem_alltoall64(q->dest, q->src, q->nelems, A->start, A->logs, A->size, ps);
        return 0;
    case A_ALLTOALLS:
        if (w32)
            shmem_alltoalls32(q->dest, q->src, q->dst, q->sst, q->nelems, A->start, A->logs,
                              A->size, ps);
        else
            shmem_alltoalls64(q->dest, q->src, q->dst, q->sst, q->nelems, A->start, A->logs,
                              A->size, ps);
        return 0;
    default: break;
    }
    if (q->op >= A_AND)
        return atypes[q->atype].toall(rop_of(q->op), q->dest, q->src, (int)q->nelems, A->start,
                                      A->logs, A->size, pwrk[q->aset].p, ps);
    if (q->gen)
        return gen_call(q, t, q->dest, q->src);
    return types[q->type].call(q->op, t, q->dest, q->src,
                               q->op == O_COLLECT ? q->cnt[q->mi] : q->nelems, q->dst, q->sst,
                               q->root);
}

/* the expected image of dest (data-moving collectives) */
static void expect_bytes(const struct call *q, char *img)
{
    int n = q->n, mi = q->mi;
    size_t es = q->es, blk = q->nelems * es;

    memset(img, 0xee, q->dext);
    if (is_bcast(q->op)) {
        if (!(q->op == A_BCAST && mi == q->root && !q->inplace)) /* the active-set root's
                                                                   dest is not updated */
            pfill(img, q->dext, q->key, q->pes[q->root]);
    } else if (is_collect(q->op)) {
        size_t o = 0;
        for (int j = 0; j < n; j++) {
            pfill(img + o, q->cnt[j] * es, q->key, q->pes[j]);
            o += q->cnt[j] * es;
        }
    } else if (is_fcollect(q->op)) {
        for (int j = 0; j < n; j++)
            pfill(img + (size_t)j * blk, blk, q->key, q->pes[j]);
    } else if (is_a2a(q->op)) {
        for (int j = 0; j < n; j++) /* block j of dest: block mi of member j's source */
            for (size_t b = 0; b < blk; b++)
                img[(size_t)j * blk + b] = (char)pbyte(q->key, q->pes[j], (size_t)mi * blk + b);
    } else { /* alltoalls */
        for (int j = 0; j < n; j++)
            for (size_t k = 0; k < q->nelems; k++) {
                size_t so = ((size_t)mi * q->nelems + k) * (size_t)q->sst * es;
                size_t dof = ((size_t)j * q->nelems + k) * (size_t)q->dst * es;
                for (size_t b = 0; b < es; b++)
                    img[dof + b] = (char)pbyte(q->key, q->pes[j], so + b);
            }
    }
}

static void check_guard(const struct call *q, const char *what, const char *base, size_t len,
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

static void check_call(struct call *q, const char *shadow, size_t shadow_len)
{
    char d[512], msg[256];

    if (is_sync(q->op) || q->nulls)
        return;
    wd_where = "checking";
    check_guard(q, "the guard before dest:", q->dbase, GUARD + q->off, guard_byte(q, 0));
    check_guard(q, "the guard after dest:", q->dest + q->dext, GUARD, guard_byte(q, 1));
    if (is_red(q->op)) {
        int last = q->op == O_INSCAN ? q->mi : q->op == O_EXSCAN ? q->mi - 1 : q->n - 1;
        if (types[q->type].check(q->dest, rop_of(q->op), q->key, q->pes, last, q->nelems, msg,
                                 sizeof(msg))) {
            describe(q, d, sizeof(d));
            FAIL("%s: member %d's dest %s", d, q->mi, msg);
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
            FAIL("%s: member %d's dest byte %zu of %zu is 0x%02x, expected 0x%02x (%zu bytes "
                 "differ)%s",
                 d, q->mi, i, q->dext, (uint8_t)q->dest[i], (uint8_t)img[i], nbad,
                 (uint8_t)q->dest[i] == 0xee ? " (still the garbage: not written)" : "");
        }
        free(img);
    }
    if (shadow && memcmp(q->sbase, shadow, shadow_len) != 0) {
        size_t i = 0;
        while (q->sbase[i] == shadow[i])
            i++;
        describe(q, d, sizeof(d));
        FAIL("%s: member %d's source block changed at byte %zu (payload from %d, %zu bytes)", d,
             q->mi, i, GUARD + (int)q->off, q->sext);
    }
    /* reuse at once: garbage into source and dest */
    if (!q->inplace)
        memset(q->sbase + GUARD + q->off, 0x5c, q->sext);
    memset(q->dest, 0xc5, q->dext);
    late_dest = q->dest;
    late_len = q->dext;
    late_base = q->dbase;
    late_span = GUARD + q->off + q->dext + GUARD;
    late_ep = cur_ep;
    describe(q, late_what, sizeof(late_what));
}

/* ---- the watchdog ---- */
static void on_alarm(int sig)
{
    char b[900], d[512] = "";
    int k;
    (void)sig;
    if (C.n)
        describe(&C, d, sizeof(d));
    k = snprintf(b, sizeof(b),
                 "coll_mix: PE %d seed %" PRIu64 ": watchdog: stuck in episode %ld, %s: %s\n", me,
                 seed, cur_ep, wd_where, d);
    if (k > 0 && write(2, b, (size_t)k) < 0)
        k = 0;
    _exit(3);
}

/* the pSync of an active-set call is restored to SHMEM_SYNC_VALUE on return */
static void check_psync(const struct call *q, int k, const char *when)
{
    const long *p = psync_of(q->aset, k);
    char d[512];
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        if (p[i] != SHMEM_SYNC_VALUE) {
            describe(q, d, sizeof(d));
            FAIL("%s: data pSync %d, element %d is %ld, not SHMEM_SYNC_VALUE, %s", d, k, i, p[i],
                 when);
            return;
        }
}

static int matches(const struct call *q)
{
    if (op_filter && !strstr(op_name[q->op], op_filter))
        return 0;
    if (team_filter >= 0 && q->team != team_filter)
        return 0;
    return 1;
}

static void episode(long ep)
{
    struct call *q = &C;
    char d[512], *shadow = NULL;
    size_t shadow_len = 0;
    int turn, rc, member, need_sync;
    long c;

    draw(q, ep);
    if (q->remake) { /* collective: on every PE, even in a skipped episode */
        wd_where = "remaking a team";
        team_remake(q->remake, q->remake_nctx);
    }
    if (ep < ep_from || (ep_to >= 0 && ep > ep_to) || !matches(q))
        return;
    cur_ep = ep;
    check_late();
    lrng.s = mix64(seed ^ mix64((uint64_t)ep * 7919 + (uint64_t)me * 104729 + 17));
    if (q->freeit) {
        int r = q->freeit - 1;
        wd_where = "freeing";
        if (r < NSRC)
            blk_free(&srcs[r]);
        else if ((r - NSRC) / 2 < NTEAM + naset)
            blk_free(&gdst[(r - NSRC) / 2][(r - NSRC) % 2]);
    }
    c = gturn[q->grp]++;
    turn = (int)(c & 1);
    member = prepare(q, turn);
    if (!member) { /* the same bookkeeping as the members' (for the collect: mine) */
        const struct team *T = q->team >= 0 ? &teams[q->team] : NULL;
        q->n = T ? T->n : 0;
    }
    {
        long *lu = &last_use1[q->grp][turn], *ls = &last_sync1[q->grp];
        int uses = !is_sync(q->op) && !q->nulls;
        need_sync = uses && *lu && *ls <= *lu && !q->ctx;
        if (need_sync || q->ctx)
            *ls = c; /* the sync before the call */
        if (uses)
            *lu = c + 1;
        if (synchronizing(q)) {
            *ls = c + 1;
            if (q->op == O_SYNC_ALL || q->op == O_BARRIER_ALL)
                for (int g = 0; g < NTEAM + naset; g++)
                    last_sync1[g] = gturn[g];
        }
    }
    if (!member) {
        q->n = 0;
        wd_where = "between";
        return;
    }
    if (trace && me == q->pes[0]) {
        describe(q, d, sizeof(d));
        printf("episode %ld: %s%s\n", ep, d, q->remake ? " (after a team remake)" : "");
        fflush(stdout);
    }
    if (q->ctx && q->n > 0)
        ctx_stage(q, ep);
    if (need_sync) { /* my dest of this call is not known to be free everywhere */
        wd_where = "syncing before reusing a dest";
        if (q->team >= 0) {
            if (shmem_team_sync(teams[q->team].t) != 0)
                FAIL("shmem_team_sync on team %s returned nonzero", teams[q->team].name);
        } else {
            struct aset *A = &asets[q->aset];
            if (q->clean)
                shmem_barrier(A->start, A->logs, A->size, psync_of(q->aset, 0));
            else
                shmem_sync(A->start, A->logs, A->size, psync_of(q->aset, 0));
            memset(A->dirty, 0, sizeof(A->dirty));
        }
    }
    if (is_aset(q->op) && !is_sync(q->op)) {
        struct aset *A = &asets[q->aset];
        if (A->dirty[q->pss] || (q->op >= A_AND && A->dirty[0])) {
            wd_where = "freeing a pSync (active-set barrier)";
            if (q->clean)
                shmem_barrier(A->start, A->logs, A->size, psync_of(q->aset, 0));
            else
                shmem_sync(A->start, A->logs, A->size, psync_of(q->aset, 0));
            memset(A->dirty, 0, sizeof(A->dirty));
            /* every member is past the calls that used the data pSyncs (but may be in
             * this call already, on pSync pss) */
            for (int k = 1; k <= NPS; k++)
                if (k != q->pss)
                    check_psync(q, k, "after a barrier of the set");
        }
    }
    if (!q->inplace && q->sbase) {
        shadow_len = GUARD + q->off + q->sext + GUARD;
        shadow = malloc(shadow_len);
        memcpy(shadow, q->sbase, shadow_len);
    }
    if (rndn(&lrng, 8) == 0) {
        wd_where = "computing";
        spin_us((long)rndn(&lrng, 2000));
    }
    {
        int bar = q->op == O_BARRIER_ALL || q->op == A_BARRIER;
        int st = (int)(sturn[q->grp] & 1), right = q->pes[(q->mi + 1) % q->n];
        int left = q->pes[(q->mi + q->n - 1) % q->n];
        if (bar) { /* a barrier completes the puts before it */
            sturn[q->grp]++;
            shmem_long_p(&syncbuf[q->grp][st], ctxval(cur_ep, me, 7), right);
        }
        wd_where = "in the collective";
        rc = do_call(q);
        if (rc != 0) {
            describe(q, d, sizeof(d));
            FAIL("%s returned %d", d, rc);
        }
        if (bar && syncbuf[q->grp][st] != ctxval(cur_ep, left, 7)) {
            describe(q, d, sizeof(d));
            FAIL("%s: the put from PE %d before it was not there after it (%ld)", d, left,
                 syncbuf[q->grp][st]);
        }
    }
    if (is_aset(q->op)) {
        if (!is_sync(q->op))
            check_psync(q, q->pss, "when the call returned");
        if (is_sync(q->op))
            memset(asets[q->aset].dirty, 0, sizeof(asets[q->aset].dirty));
        else
            asets[q->aset].dirty[q->pss] = 1;
        if (q->op >= A_AND)
            asets[q->aset].dirty[0] = 1;
    }
    check_call(q, shadow, shadow_len);
    free(shadow);
    q->n = 0;
    wd_where = "between";
}

int main(int argc, char **argv)
{
    long iters = 400;
    int wd = 240;
    const char *team_name = NULL;
    static int total, f;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--trace")) {
            trace = 1;
            continue;
        }
        if (!strcmp(a, "--no-aset")) {
            no_aset = 1;
            continue;
        }
        if (!strcmp(a, "--no-ctx")) {
            no_ctx = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "coll_mix: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--iters"))
            iters = atol(v);
        else if (!strcmp(a, "--maxbuf"))
            maxbuf = (size_t)atol(v);
        else if (!strcmp(a, "--from"))
            ep_from = atol(v);
        else if (!strcmp(a, "--to"))
            ep_to = atol(v);
        else if (!strcmp(a, "--op"))
            op_filter = v;
        else if (!strcmp(a, "--team"))
            team_name = v;
        else if (!strcmp(a, "--remake"))
            remake_every = atol(v) < 1 ? 1 : atol(v);
        else if (!strcmp(a, "--watchdog"))
            wd = atoi(v);
        else {
            fprintf(stderr, "coll_mix: unknown option %s\n", a);
            return 2;
        }
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPE) {
        if (me == 0)
            fprintf(stderr, "coll_mix: at most %d PEs\n", MAXPE);
        shmem_finalize();
        return 2;
    }
    memset(st_dst, 0xee, sizeof(st_dst)); /* before the first barrier */
    for (int a = 0; a < A_TN; a++)
        for (int t = 0; t < T_N; t++)
            if (!strcmp(atypes[a].name, types[t].name))
                atypes[a].tt = t;
    teams_init();
    asets_init();
    if (team_name) {
        for (int t = 0; t < NTEAM; t++)
            if (!strcmp(teams[t].name, team_name))
                team_filter = t;
        if (team_filter < 0) {
            if (me == 0)
                fprintf(stderr, "coll_mix: no team %s\n", team_name);
            shmem_global_exit(2);
        }
    }
    grng.s = seed;
    if (wd > 0)
        signal(SIGALRM, on_alarm);
    if (me == 0 && trace)
        printf("coll_mix: seed %" PRIu64 ", %d PEs, %ld episodes, dest up to %zu bytes\n", seed,
               npes, iters, maxbuf);
    shmem_barrier_all();
    for (long ep = 0; ep < iters; ep++) {
        if (wd > 0)
            alarm((unsigned)wd); /* per episode */
        episode(ep);
    }
    wd_where = "the end";
    shmem_barrier_all();
    check_late();
    for (int i = NTEAM - 1; i >= 2; i--)
        team_destroy(i);
    drop_ctx(&teams[0]);
    drop_ctx(&teams[1]);
    for (int i = 0; i < NSRC; i++)
        blk_free(&srcs[i]);
    for (int g = 0; g < NTEAM + naset; g++) {
        blk_free(&gdst[g][0]);
        blk_free(&gdst[g][1]);
    }
    for (int a = 0; a < naset; a++)
        blk_free(&pwrk[a]);
    shmem_free(psyncs);
    f = fails;
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &total, &f, 1);
    if (me == 0) {
        if (total)
            printf("coll_mix: FAILED: %d failures, seed %" PRIu64 " (%d PEs, %ld episodes)\n",
                   total, seed, npes, iters);
        else
            printf("coll_mix: ok (seed %" PRIu64 ", %d PEs, %ld episodes; %ld team contexts made, "
                   "%ld refused)\n",
                   seed, npes, iters, ctx_made, ctx_refused);
    }
    alarm(0);
    shmem_finalize();
    return total != 0;
}
