/*
 * Randomized multithreaded stress (SHMEM_THREAD_MULTIPLE), written from the OpenSHMEM
 * 1.5 specification and the man pages only ("test like a stranger").
 *
 * Each PE runs T worker threads (pthreads) besides its main thread.  The run is a
 * sequence of episodes; between two episodes the main thread joins its workers and
 * calls shmem_barrier_all.  Every episode is drawn from one seeded PRNG that is the same
 * on every PE (its steps, messages, lock owners, the main thread's collectives, the
 * boundary actions); each worker draws its own mix of operations from a stream of its
 * own.  Every result is checked exactly:
 * - RMA (typed put/get/p/g, putmem/getmem, put_nbi/get_nbi, iput/iget, stores through
 *   shmem_ptr) into a region of the symmetric buffer that only this (PE, thread) writes on
 *   each target, so a local model of each region is exact; on SHMEM_CTX_DEFAULT (plain
 *   and ctx forms), on shareable contexts the main thread made (used by all workers at
 *   once), on a SHMEM_CTX_SERIALIZED context the workers share under a mutex, and on the
 *   worker's own contexts (shmem_ctx_create with 0, PRIVATE, SERIALIZED, PRIVATE|NOSTORE
 *   for gets, and shmem_team_create_ctx on the teams the main thread made, PE numbers
 *   relative to the team), created and destroyed over time (some with operations
 *   pending); a get is checked after a quiet of every context that wrote the region;
 *   at the end of an episode every worker reads all its regions back.
 * - AMOs from every thread of every PE (the PE itself included) on shared counters of
 *   8 types (add, inc, fetch_add, fetch_inc, their _nbi forms, compare-swap loops); the
 *   totals are reduced over the PEs and compared exactly after the barrier, fetched
 *   values are bounded by the total; tickets (fetch_inc, fetch_inc_nbi) must be
 *   distinct: each ticket sets its bit in a bitmap with fetch_or, which must find it
 *   clear; swap/swap_nbi on a word (the multiset of written and returned values match,
 *   by a hash sum); and/or/xor (plain, fetch, fetch_nbi, 32 and 64 bit) on words where
 *   each (PE, thread) owns bits: fetched bits equal the model, final bits too.
 * - Messages between threads of any PEs (the sender may be the receiver itself):
 *   put_signal / put_signal_nbi (SET, and ADD from several senders to one signal),
 *   waited for with shmem_signal_wait_until or by polling shmem_signal_fetch; flags set
 *   by a put or atomic_set after a fence on the same context or a quiet, waited for with
 *   wait_until, wait_until_{any,some,all}(_vector), test_{any,some,all} loops; the data
 *   must be there.  A message is received at a step at or after the one it is sent in
 *   (sends before waits in a step), so the episode cannot deadlock.
 * - Locks: lock k is used on each PE by one worker per episode (man shmem_set_lock:
 *   threads of one PE must not contend for a lock); set_lock or test_lock polling, a
 *   get/put increment of a value on the lock's home PE inside; exact count at the end.
 * - Collectives on the main thread while the workers run: barrier_all, sync_all,
 *   team_sync, broadcast, sum/max reductions, fcollect on world and split teams,
 *   shmem_team_split_strided of a team that is destroyed at once; worker 0 of each
 *   member runs team_sync / sum_reduce on one worker team at the start of some steps
 *   (one thread per team).  The main thread also quiets the shared contexts at times.
 * - At the boundaries only, from the main thread: shmem_malloc/free, calloc, realloc,
 *   align of the RMA buffer; the worker teams destroyed and split again (with and
 *   without SHMEM_TEAM_NUM_CONTEXTS); the shared contexts made again.
 * - Now and then a worker calls shmem_fence/quiet, shmem_ctx_fence/quiet,
 *   shmem_pe_accessible, shmem_addr_accessible, shmem_ptr, shmem_query_thread.
 *
 *   thread_mix [--seed S] [--iters N] [--threads T] [--steps S] [--ops K] [--focus KIND]
 *              [--trace] [--watchdog SECONDS]
 * --iters episodes (default 100), --threads workers per PE (default 3, at most 8),
 * --steps the most steps of an episode (6), --ops the most operations of a worker per
 * step (24); --focus rma|mem|amo|bits|ticket|swap|ctx|sync|ptr|lock makes 70% of the
 * operations of that kind; --trace prints each episode on PE 0 and every worker's operations to stderr.
 * The seed is printed on failure (default fixed).  The watchdog (default 60 s per
 * episode, 0: off) names the episode, step and operation every thread is in.
 */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <shmem.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXPE 8
#define MAXT 8
#define RW 1024 /* bytes of one (source PE, thread) region on each target */
#define NCNT 4  /* counters of each AMO type */
#define NLOCK 3
#define MAXMSG 128
#define MAXGRP 48
#define MW 256     /* bytes of a message */
#define TBITS 4096 /* tickets tracked in the bitmap */
#define MAXCOLL 12 /* collectives of the main thread per episode */
#define CN 24      /* elements of a main-thread collective */
#define MAXSTEP 16
#define NWTEAM 3
#define MAXCTX 5 /* a worker's own contexts */
#define SCRATCH 65536
#define MAXFETCH 512

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

/* ---- options, globals ---- */
static uint64_t seed = 12345;
static int iters = 100, nthr = 3, maxsteps = 6, maxops = 24, trace, wd_sec = 60;
/* --focus: 70% of a worker's operations of one kind (a value of k in worker_main) */
static const char *focus_name[] = { "rma",  "mem", "amo",  "bits", "ticket",
                                    "swap", "ctx", "sync", "ptr",  "lock" };
static const int focus_k[] = { 0, 22, 34, 60, 68, 74, 79, 86, 93, 96 };
static int focus = -1;
static int me, npes;
static int ep;          /* current episode */
static struct rng grng; /* the same on every PE */
static volatile time_t ep_start;
static volatile int ep_running;

/* ---- symmetric data ---- */
static char *rbuf; /* RMA regions: [src pe][thread][RW] */
static size_t rbuf_size;
#define AMO_TYPES(X)        \
    X(int, int)             \
    X(long, long)           \
    X(longlong, long long)  \
    X(uint, unsigned int)   \
    X(ulong, unsigned long) \
    X(int32, int32_t)       \
    X(uint64, uint64_t)     \
    X(size, size_t)
enum {
#define X_E(N, T) AT_##N,
    AMO_TYPES(X_E)
#undef X_E
        AT_N
};
static const char *amo_tname[AT_N] = {
#define X_S(N, T) #N,
    AMO_TYPES(X_S)
#undef X_S
};
#define X_V(N, T) static T cnt_##N[NCNT];
AMO_TYPES(X_V)
#undef X_V
static uint64_t ticket;
static uint64_t tbits[TBITS / 64];
static uint64_t swapw;
static uint64_t bword64;
static uint32_t bword32;
static long lockw[NLOCK];
static long lockval[NLOCK];
static char mdata[MAXMSG][MW];
static uint64_t mflag[MAXMSG];
static uint64_t msig[MAXGRP];
static long csrc[MAXCOLL][CN];
static long cdst[MAXCOLL][CN * MAXPE];
static int cisrc[MAXCOLL][CN];
static int cidst[MAXCOLL][CN];
static long wcsrc[MAXSTEP][CN]; /* worker team collectives */
static long wcdst[MAXSTEP][CN];

/* expectations, reduced over the PEs */
#define E_CNT 0
#define E_TICK (E_CNT + AT_N * NCNT * MAXPE)
#define E_SWW (E_TICK + MAXPE)
#define E_SWR (E_SWW + MAXPE)
#define E_LOCK (E_SWR + MAXPE)
#define E_N (E_LOCK + NLOCK)
#define M_N (AT_N * NCNT * MAXPE)
static uint64_t exp_src[E_N], exp_dst[E_N];
static uint64_t max_src[M_N], max_dst[M_N];

/* ---- teams and shared contexts (made by the main thread at boundaries) ---- */
struct wteam {
    shmem_team_t team;
    int n, members[MAXPE]; /* world numbers in team order */
    int rel[MAXPE];        /* world pe -> team index, -1 */
    char name[32];
};
static struct wteam wt[NWTEAM];
static int nwt;
static shmem_ctx_t pool[3]; /* shareable, used by every worker at once */
static int pool_team[3];    /* -1: world; else a worker team (PE numbers relative to it),
                              * left to shmem_team_destroy to destroy */
static int npool;
static shmem_ctx_t serctx; /* SERIALIZED, shared under sermu */
static int have_ser;
static pthread_mutex_t sermu = PTHREAD_MUTEX_INITIALIZER;

/* ---- the episode plan ---- */
enum { G_SIGSET, G_SIGADD, G_FLAGFENCE, G_FLAGQUIET, G_FLAGADD, G_N };
static const char *gname[G_N] = { "sig_set", "sig_add", "flag_fence", "flag_quiet", "flag_add" };
struct group {
    int rp, rt, rstep, kind, k, first, method;
    uint64_t total; /* SIGADD: the sum of the adds; SIGSET: the value */
};
struct msg {
    int sp, st, sstep, grp, len, variant;
    uint64_t val; /* flag value, or signal add */
};
static struct plan {
    int steps;
    int ngrp, nmsg;
    struct group g[MAXGRP];
    struct msg m[MAXMSG];
    int lockhome[NLOCK];
    int ncoll;
    int coll[MAXCOLL], croot[MAXCOLL], cteam[MAXCOLL], cn[MAXCOLL];
    int wcoll[MAXSTEP]; /* 0 none, 1 team_sync, 2 sum_reduce (worker team 0) */
    int wcn[MAXSTEP];
    int flagcmp[MAXMSG];
} P;

/* ---- per-thread state ---- */
struct tstate {
    volatile int step;
    volatile const char *op;
    volatile int target;
};
static struct tstate ts[MAXT + 1]; /* MAXT: the main thread */
static uint8_t model[MAXT][MAXPE][RW];
static uint64_t bmodel64[MAXT][MAXPE];
static uint32_t bmodel32[MAXT][MAXPE];
static uint64_t texp[MAXT][E_N];
static uint64_t tmax[MAXT][M_N];

static void fail(int t, const char *fmt, ...)
{
    va_list ap;
    char buf[1024];
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr,
            "thread_mix: FAIL pe %d %s%d episode %d step %d: %s (seed %" PRIu64
            ", %d PEs, %d threads)\n",
            me, t == MAXT ? "main" : "thread ", t == MAXT ? 0 : t, ep, t <= MAXT ? ts[t].step : -1,
            buf, seed, npes, nthr);
    fflush(stderr);
    shmem_global_exit(1);
    _exit(1);
}

static void tr(int t, const char *fmt, ...)
{
    if (!trace)
        return;
    va_list ap;
    char buf[512];
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[pe %d t %d ep %d] %s\n", me, t, ep, buf);
}

static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        sleep(1);
        if (!wd_sec || !ep_running)
            continue;
        if (time(NULL) - ep_start > wd_sec) {
            fprintf(
                stderr,
                "thread_mix: WATCHDOG pe %d: episode %d running for more than %d s (seed %" PRIu64
                ")\n",
                me, ep, wd_sec, seed);
            for (int t = 0; t <= nthr; t++) {
                int i = t == nthr ? MAXT : t;
                fprintf(stderr, "  pe %d %s%d: step %d op %s target %d\n", me,
                        i == MAXT ? "main" : "thread ", i == MAXT ? 0 : t, ts[i].step,
                        ts[i].op ? (const char *)ts[i].op : "-", ts[i].target);
            }
            fflush(stderr);
            _exit(3);
        }
    }
    return NULL;
}

static uint8_t msg_byte(int m, int i)
{
    return (uint8_t)(mix64(seed ^ ((uint64_t)ep << 40) ^ ((uint64_t)m << 20) ^ (uint64_t)i) >> 7);
}

/* ---- the plan ---- */
static void draw_plan(void)
{
    struct plan *p = &P;
    memset(p, 0, sizeof *p);
    p->steps = 1 + (int)rndn(&grng, (uint64_t)maxsteps);
    int ng = (int)rndn(&grng, MAXGRP / 2 + 1);
    for (int g = 0; g < ng && p->nmsg < MAXMSG; g++) {
        struct group *G = &p->g[p->ngrp];
        G->rp = (int)rndn(&grng, (uint64_t)npes);
        G->rt = (int)rndn(&grng, (uint64_t)nthr);
        G->rstep = (int)rndn(&grng, (uint64_t)p->steps);
        G->kind = (int)rndn(&grng, G_N);
        G->k = G->kind == G_SIGSET ? 1 : 1 + (int)rndn(&grng, 4);
        if (p->nmsg + G->k > MAXMSG)
            break;
        G->first = p->nmsg;
        G->method = (int)rndn(&grng, 10);
        G->total = 0;
        for (int i = 0; i < G->k; i++) {
            struct msg *M = &p->m[p->nmsg++];
            M->grp = p->ngrp;
            M->sp = (int)rndn(&grng, (uint64_t)npes);
            M->st = (int)rndn(&grng, (uint64_t)nthr);
            M->sstep = (int)rndn(&grng, (uint64_t)G->rstep + 1);
            M->len = 1 + (int)rndn(&grng, MW);
            M->variant = (int)rndn(&grng, 8);
            if (G->kind == G_SIGADD || G->kind == G_FLAGADD)
                M->val = 1 + rndn(&grng, 1000);
            else if (G->kind == G_SIGSET)
                M->val = (mix64(seed + (uint64_t)ep * 7919 + (uint64_t)p->nmsg) | 1);
            else
                M->val = 1 + rndn(&grng, 1u << 30);
            if (M->variant >= 4 && (G->kind == G_SIGSET || G->kind == G_SIGADD))
                M->len = 8 * (1 + (int)rndn(&grng, MW / 8)); /* typed long forms */
            G->total += M->val;
            p->flagcmp[p->nmsg - 1] = (int)rndn(&grng, 3);
        }
        if (G->kind == G_SIGSET)
            G->total = p->m[G->first].val;
        p->ngrp++;
    }
    for (int k = 0; k < NLOCK; k++)
        p->lockhome[k] = (int)rndn(&grng, (uint64_t)npes);
    p->ncoll = (int)rndn(&grng, MAXCOLL + 1);
    for (int c = 0; c < p->ncoll; c++) {
        p->coll[c] = (int)rndn(&grng, 9);
        /* -1 world; worker team 0 belongs to worker 0 of its members */
        p->cteam[c] = (int)rndn(&grng, (uint64_t)nwt);
        if (p->cteam[c] == 0)
            p->cteam[c] = -1;
        p->croot[c] = (int)rndn(&grng, 64);
        p->cn[c] = 1 + (int)rndn(&grng, CN);
    }
    for (int s = 0; s < p->steps; s++) {
        p->wcoll[s] = rndn(&grng, 4) == 0 ? 1 + (int)rndn(&grng, 2) : 0;
        p->wcn[s] = 1 + (int)rndn(&grng, CN);
    }
}

/* ---- typed RMA ---- */
#define RMA_TYPES(X)       \
    X(char, char)          \
    X(short, short)        \
    X(int, int)            \
    X(long, long)          \
    X(longlong, long long) \
    X(float, float)        \
    X(double, double)      \
    X(int16, int16_t)      \
    X(uint32, uint32_t)    \
    X(uint64, uint64_t)    \
    X(size, size_t)
enum {
#define X_E(N, T) RT_##N,
    RMA_TYPES(X_E)
#undef X_E
        RT_N
};
static const size_t rt_size[RT_N] = {
#define X_S(N, T) sizeof(T),
    RMA_TYPES(X_S)
#undef X_S
};
static const char *rt_name[RT_N] = {
#define X_S(N, T) #N,
    RMA_TYPES(X_S)
#undef X_S
};
enum { R_PUT, R_PUT_NBI, R_P, R_IPUT, R_GET, R_GET_NBI, R_G, R_IGET, R_N };
static const char *rop_name[R_N] = { "put", "put_nbi", "p", "iput", "get", "get_nbi", "g", "iget" };

#define X_F(N, T)                                                                                  \
    static void rma_##N(int op, shmem_ctx_t c, int plain, void *dv, const void *sv, ptrdiff_t dst, \
                        ptrdiff_t sst, size_t n, int pe)                                           \
    {                                                                                              \
        T *d = dv;                                                                                 \
        const T *s = sv;                                                                           \
        switch (op) {                                                                              \
        case R_PUT:                                                                                \
            if (plain)                                                                             \
                shmem_##N##_put(d, s, n, pe);                                                      \
            else                                                                                   \
                shmem_ctx_##N##_put(c, d, s, n, pe);                                               \
            break;                                                                                 \
        case R_PUT_NBI:                                                                            \
            if (plain)                                                                             \
                shmem_##N##_put_nbi(d, s, n, pe);                                                  \
            else                                                                                   \
                shmem_ctx_##N##_put_nbi(c, d, s, n, pe);                                           \
            break;                                                                                 \
        case R_P: {                                                                                \
            T v; /* s may be misaligned for T: read its bytes */                                   \
            memcpy(&v, s, sizeof(v));                                                              \
            if (plain)                                                                             \
                shmem_##N##_p(d, v, pe);                                                           \
            else                                                                                   \
                shmem_ctx_##N##_p(c, d, v, pe);                                                    \
            break;                                                                                 \
        }                                                                                          \
        case R_IPUT:                                                                               \
            if (plain)                                                                             \
                shmem_##N##_iput(d, s, dst, sst, n, pe);                                           \
            else                                                                                   \
                shmem_ctx_##N##_iput(c, d, s, dst, sst, n, pe);                                    \
            break;                                                                                 \
        case R_GET:                                                                                \
            if (plain)                                                                             \
                shmem_##N##_get(d, s, n, pe);                                                      \
            else                                                                                   \
                shmem_ctx_##N##_get(c, d, s, n, pe);                                               \
            break;                                                                                 \
        case R_GET_NBI:                                                                            \
            if (plain)                                                                             \
                shmem_##N##_get_nbi(d, s, n, pe);                                                  \
            else                                                                                   \
                shmem_ctx_##N##_get_nbi(c, d, s, n, pe);                                           \
            break;                                                                                 \
        case R_G: {                                                                                \
            T v = plain ? shmem_##N##_g(s, pe) : shmem_ctx_##N##_g(c, s, pe);                      \
            memcpy(d, &v, sizeof(v)); /* d may be misaligned for T */                              \
            break;                                                                                 \
        }                                                                                          \
        case R_IGET:                                                                               \
            if (plain)                                                                             \
                shmem_##N##_iget(d, s, dst, sst, n, pe);                                           \
            else                                                                                   \
                shmem_ctx_##N##_iget(c, d, s, dst, sst, n, pe);                                    \
            break;                                                                                 \
        }                                                                                          \
    }
RMA_TYPES(X_F)
#undef X_F
typedef void (*rma_fn)(int, shmem_ctx_t, int, void *, const void *, ptrdiff_t, ptrdiff_t, size_t,
                       int);
static const rma_fn rma_fns[RT_N] = {
#define X_P(N, T) rma_##N,
    RMA_TYPES(X_P)
#undef X_P
};

/* ---- typed AMO on the counters ---- */
enum { A_ADD, A_INC, A_FADD, A_FINC, A_FADD_NBI, A_FINC_NBI, A_CSWAP, A_N };
static const char *aop_name[A_N] = { "add",           "inc",           "fetch_add", "fetch_inc",
                                     "fetch_add_nbi", "fetch_inc_nbi", "cswap_loop" };
static const size_t at_size[AT_N] = {
#define X_S(N, T) sizeof(T),
    AMO_TYPES(X_S)
#undef X_S
};
/* returns 1 and sets *out for a blocking fetch */
#define X_F(N, T)                                                                                  \
    static int amo_##N(int op, shmem_ctx_t c, int plain, int idx, uint64_t v, int pe, void *fetch, \
                       uint64_t *out)                                                              \
    {                                                                                              \
        T *d = &cnt_##N[idx];                                                                      \
        T r;                                                                                       \
        switch (op) {                                                                              \
        case A_ADD:                                                                                \
            if (plain)                                                                             \
                shmem_##N##_atomic_add(d, (T)v, pe);                                               \
            else                                                                                   \
                shmem_ctx_##N##_atomic_add(c, d, (T)v, pe);                                        \
            return 0;                                                                              \
        case A_INC:                                                                                \
            if (plain)                                                                             \
                shmem_##N##_atomic_inc(d, pe);                                                     \
            else                                                                                   \
                shmem_ctx_##N##_atomic_inc(c, d, pe);                                              \
            return 0;                                                                              \
        case A_FADD:                                                                               \
            r = plain ? shmem_##N##_atomic_fetch_add(d, (T)v, pe)                                  \
                      : shmem_ctx_##N##_atomic_fetch_add(c, d, (T)v, pe);                          \
            *out = (uint64_t)r;                                                                    \
            return 1;                                                                              \
        case A_FINC:                                                                               \
            r = plain ? shmem_##N##_atomic_fetch_inc(d, pe)                                        \
                      : shmem_ctx_##N##_atomic_fetch_inc(c, d, pe);                                \
            *out = (uint64_t)r;                                                                    \
            return 1;                                                                              \
        case A_FADD_NBI:                                                                           \
            if (plain)                                                                             \
                shmem_##N##_atomic_fetch_add_nbi((T *)fetch, d, (T)v, pe);                         \
            else                                                                                   \
                shmem_ctx_##N##_atomic_fetch_add_nbi(c, (T *)fetch, d, (T)v, pe);                  \
            return 0;                                                                              \
        case A_FINC_NBI:                                                                           \
            if (plain)                                                                             \
                shmem_##N##_atomic_fetch_inc_nbi((T *)fetch, d, pe);                               \
            else                                                                                   \
                shmem_ctx_##N##_atomic_fetch_inc_nbi(c, (T *)fetch, d, pe);                        \
            return 0;                                                                              \
        case A_CSWAP: {                                                                            \
            T old =                                                                                \
                plain ? shmem_##N##_atomic_fetch(d, pe) : shmem_ctx_##N##_atomic_fetch(c, d, pe);  \
            for (int tries = 0;; tries++) {                                                        \
                r = plain ? shmem_##N##_atomic_compare_swap(d, old, (T)(old + (T)v), pe)           \
                          : shmem_ctx_##N##_atomic_compare_swap(c, d, old, (T)(old + (T)v), pe);   \
                if (r == old)                                                                      \
                    break;                                                                         \
                old = r;                                                                           \
                if (tries > 1000000)                                                               \
                    return -1;                                                                     \
            }                                                                                      \
            *out = (uint64_t)old;                                                                  \
            return 1;                                                                              \
        }                                                                                          \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static uint64_t cnt_get_##N(int idx)                                                           \
    {                                                                                              \
        return (uint64_t)cnt_##N[idx];                                                             \
    }                                                                                              \
    static uint64_t fetch_val_##N(const void *f)                                                   \
    {                                                                                              \
        return (uint64_t) * (const T *)f;                                                          \
    }
AMO_TYPES(X_F)
#undef X_F
typedef int (*amo_fn)(int, shmem_ctx_t, int, int, uint64_t, int, void *, uint64_t *);
static const amo_fn amo_fns[AT_N] = {
#define X_P(N, T) amo_##N,
    AMO_TYPES(X_P)
#undef X_P
};
static uint64_t (*const cnt_get[AT_N])(int) = {
#define X_P(N, T) cnt_get_##N,
    AMO_TYPES(X_P)
#undef X_P
};
static uint64_t (*const fetch_val[AT_N])(const void *) = {
#define X_P(N, T) fetch_val_##N,
    AMO_TYPES(X_P)
#undef X_P
};
static uint64_t trunc_to(uint64_t v, size_t size)
{
    return size >= 8 ? v : v & ((1ULL << (size * 8)) - 1);
}

/* ---- worker ---- */
enum { C_DEFAULT, C_POOL, C_SER, C_OWN };
struct cref { /* a context a worker may use */
    int kind, idx;
    shmem_ctx_t ctx;
    int team; /* -1: world numbers */
};
struct own {
    shmem_ctx_t ctx;
    long opts;
    int team;  /* -1 world */
    int dirty; /* stores or AMOs issued since its last quiet */
};
enum { PF_CNT, PF_TICK, PF_SWAP, PF_B64, PF_B32 };
struct pend {
    int state; /* 0: nothing in flight, 1: writes in flight on ctx */
    shmem_ctx_t ctx;
    int team; /* of ctx: -1 world */
    int kind; /* C_DEFAULT, C_POOL, C_OWN */
};
struct pfetch {
    int kind, type, idx, target;
    void *where;
    uint64_t aux;
};
struct worker {
    int t;
    struct rng r;
    struct own own[MAXCTX];
    int nown;
    int def_dirty, pool_dirty[3];
    /* writes in flight to my region / my bits of the and-or-xor words on each PE, all on
     * one context (a write on another context quiets first; on the same one, a fence
     * orders them: puts and AMOs to one PE are unordered otherwise) */
    struct pend rpend[MAXPE], b64pend[MAXPE], b32pend[MAXPE];
    int send_pending; /* sends whose completion a receiver waits for */
    char *scratch;
    size_t sused;
    struct pfetch pf[MAXFETCH];
    int npf;
    char lbuf[RW * 2];
};

static char *region(int src, int t)
{
    return rbuf + ((size_t)src * (size_t)nthr + (size_t)t) * RW;
}

static int team_rel(int team, int pe)
{
    return team < 0 ? pe : wt[team].rel[pe];
}

static void process_fetches(struct worker *w);

static void quiet_all(struct worker *w)
{
    int t = w->t;
    ts[t].op = "quiet_all";
    for (int i = 0; i < w->nown; i++) {
        shmem_ctx_quiet(w->own[i].ctx);
        w->own[i].dirty = 0;
    }
    for (int i = 0; i < npool; i++) {
        shmem_ctx_quiet(pool[i]);
        w->pool_dirty[i] = 0;
    }
    if (rndn(&w->r, 2))
        shmem_quiet();
    else
        shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
    w->def_dirty = 0;
    memset(w->rpend, 0, sizeof w->rpend);
    memset(w->b64pend, 0, sizeof w->b64pend);
    memset(w->b32pend, 0, sizeof w->b32pend);
    w->send_pending = 0;
    process_fetches(w);
    w->sused = 0;
}

static void *salloc(struct worker *w, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (w->sused + n > SCRATCH || w->npf >= MAXFETCH)
        quiet_all(w);
    void *p = w->scratch + w->sused;
    w->sused += n;
    return p;
}

/* pick a context able to reach target pe (world number); returns the pe to pass */
static int pick_ctx(struct worker *w, int pe, struct cref *c, int allow_ser)
{
    for (int tries = 0; tries < 4; tries++) {
        int k = (int)rndn(&w->r, 8);
        if (k <= 1) {
            c->kind = C_DEFAULT;
            c->ctx = SHMEM_CTX_DEFAULT;
            c->team = -1;
            c->idx = 0;
            return pe;
        }
        if (k == 2 && npool) {
            int i = (int)rndn(&w->r, (uint64_t)npool);
            if (pool_team[i] >= 0 && wt[pool_team[i]].rel[pe] < 0)
                continue;
            c->kind = C_POOL;
            c->idx = i;
            c->ctx = pool[i];
            c->team = pool_team[i];
            return team_rel(c->team, pe);
        }
        if (k == 3 && have_ser && allow_ser) {
            c->kind = C_SER;
            c->ctx = serctx;
            c->team = -1;
            c->idx = 0;
            return pe;
        }
        if (k >= 4 && w->nown) {
            int i = (int)rndn(&w->r, (uint64_t)w->nown);
            struct own *o = &w->own[i];
            if (o->opts & SHMEM_CTX_NOSTORE)
                continue; /* used only for gets */
            if (o->team >= 0 && wt[o->team].rel[pe] < 0)
                continue;
            c->kind = C_OWN;
            c->idx = i;
            c->ctx = o->ctx;
            c->team = o->team;
            return team_rel(o->team, pe);
        }
    }
    c->kind = C_DEFAULT;
    c->ctx = SHMEM_CTX_DEFAULT;
    c->team = -1;
    c->idx = 0;
    return pe;
}

static void mark_dirty(struct worker *w, struct cref *c)
{
    if (c->kind == C_DEFAULT)
        w->def_dirty = 1;
    else if (c->kind == C_POOL)
        w->pool_dirty[c->idx] = 1;
    else if (c->kind == C_OWN)
        w->own[c->idx].dirty = 1;
}

/* before a write through c to a location with writes in flight */
static void order_before(struct worker *w, struct pend *p, struct cref *c, int pe)
{
    if (!p->state)
        return;
    if (c->kind != C_SER && p->ctx == c->ctx && rndn(&w->r, 4)) {
        if (c->kind == C_DEFAULT && rndn(&w->r, 2))
            shmem_fence();
        else
            shmem_ctx_fence(c->ctx);
        return;
    }
    if (rndn(&w->r, 2)) {
        /* complete only the writes to that PE (1.6 shmem_ctx_pe_quiet) */
        int tp = team_rel(p->team, pe);
        if (tp < 0)
            fail(w->t, "test bug: pe_quiet of pe %d on team %d kind %d", pe, p->team, p->kind);
        ts[w->t].op = "pe_quiet";
        if (p->kind == C_DEFAULT && rndn(&w->r, 2))
            shmem_pe_quiet(&tp, 1);
        else
            shmem_ctx_pe_quiet(p->ctx, &tp, 1);
        p->state = 0;
        return;
    }
    quiet_all(w);
}
static void note_pend(struct pend *p, struct cref *c)
{
    if (c->kind == C_SER)
        return; /* quieted at once */
    p->state = 1;
    p->ctx = c->ctx;
    p->team = c->team;
    p->kind = c->kind;
}
static void forget_ctx(struct worker *w, shmem_ctx_t c) /* destroyed: its writes completed */
{
    for (int i = 0; i < MAXPE; i++) {
        if (w->rpend[i].state && w->rpend[i].ctx == c)
            w->rpend[i].state = 0;
        if (w->b64pend[i].state && w->b64pend[i].ctx == c)
            w->b64pend[i].state = 0;
        if (w->b32pend[i].state && w->b32pend[i].ctx == c)
            w->b32pend[i].state = 0;
    }
}

static void ser_begin(struct cref *c)
{
    if (c->kind == C_SER)
        pthread_mutex_lock(&sermu);
}
static void ser_end(struct cref *c)
{
    if (c->kind == C_SER) {
        shmem_ctx_quiet(serctx);
        pthread_mutex_unlock(&sermu);
    }
}

/* quiet before a blocking wait: the receivers of my sends must not depend on my next
 * call into the library */
static void before_block(struct worker *w)
{
    if (w->send_pending)
        quiet_all(w);
}

static void fill(struct worker *w, void *buf, size_t n, int type)
{
    uint8_t *b = buf;
    if (type == RT_float) {
        for (size_t i = 0; i + 4 <= n; i += 4) {
            float f = (float)(int32_t)(rnd(&w->r) >> 40) / 4.0f;
            memcpy(b + i, &f, 4);
        }
    } else if (type == RT_double) {
        for (size_t i = 0; i + 8 <= n; i += 8) {
            double f = (double)(int64_t)(rnd(&w->r) >> 12) / 8.0;
            memcpy(b + i, &f, 8);
        }
    } else {
        for (size_t i = 0; i < n; i++)
            b[i] = (uint8_t)rnd(&w->r);
    }
}

static void check_bytes(struct worker *w, const uint8_t *got, const uint8_t *want, size_t n,
                        const char *what, int pe, size_t off)
{
    if (memcmp(got, want, n) == 0)
        return;
    size_t i = 0;
    while (got[i] == want[i])
        i++;
    fail(w->t,
         "%s from pe %d: byte %zu of the region (offset %zu + %zu) is 0x%02x, expected 0x%02x",
         what, pe, off + i, off, i, got[i], want[i]);
}

/* RMA on my region of pe */
static void op_rma(struct worker *w)
{
    int t = w->t;
    int pe = (int)rndn(&w->r, (uint64_t)npes);
    int type = (int)rndn(&w->r, RT_N);
    size_t sz = rt_size[type];
    size_t nel_max = RW / sz;
    int op = (int)rndn(&w->r, R_N);
    struct cref c;
    int is_get = op >= R_GET;
    /* gets may use a NOSTORE context of my own */
    int tpe = pick_ctx(w, pe, &c, 1);
    if (is_get && w->nown && rndn(&w->r, 4) == 0) {
        int i = (int)rndn(&w->r, (uint64_t)w->nown);
        if (w->own[i].team < 0 || wt[w->own[i].team].rel[pe] >= 0) {
            c.kind = C_OWN;
            c.idx = i;
            c.ctx = w->own[i].ctx;
            c.team = w->own[i].team;
            tpe = team_rel(c.team, pe);
        }
    }
    int plain = c.kind == C_DEFAULT && rndn(&w->r, 2);
    size_t n, dst = 1, sst = 1;
    size_t off;
    if (op == R_P || op == R_G) {
        n = 1;
    } else if (op == R_IPUT || op == R_IGET) {
        dst = 1 + rndn(&w->r, 5);
        sst = 1 + rndn(&w->r, 3);
        size_t rstride = op == R_IPUT ? dst : sst; /* remote stride */
        size_t lstride = op == R_IPUT ? sst : dst;
        size_t nmax = (nel_max - 1) / rstride + 1;
        size_t lmax = (sizeof w->lbuf / sz - 1) / lstride + 1;
        if (nmax > lmax)
            nmax = lmax;
        n = 1 + rndn(&w->r, nmax);
    } else {
        n = 1 + rndn(&w->r, nel_max);
        if (rndn(&w->r, 3) == 0)
            n = 1 + rndn(&w->r, 4);
    }
    size_t rstride = op == R_IPUT ? dst : op == R_IGET ? sst : 1;
    size_t span = ((n - 1) * rstride + 1) * sz;
    off = rndn(&w->r, (RW - span) / sz + 1) * sz;
    char *rem = region(me, t) + off;
    ts[t].op = rop_name[op];
    ts[t].target = pe;
    tr(t, "rma %s %s ctx %d/%d n %zu off %zu strides %zu/%zu pe %d", rop_name[op], rt_name[type],
       c.kind, c.idx, n, off, dst, sst, pe);
    if (!is_get) {
        size_t lspan = ((n - 1) * (op == R_IPUT ? sst : 1) + 1) * sz;
        void *src = op == R_PUT_NBI ? salloc(w, lspan) : w->lbuf;
        fill(w, src, lspan, type);
        order_before(w, &w->rpend[pe], &c, pe);
        ser_begin(&c);
        rma_fns[type](op, c.ctx, plain, rem, src, (ptrdiff_t)dst, (ptrdiff_t)sst, n, tpe);
        ser_end(&c);
        for (size_t i = 0; i < n; i++)
            memcpy(&model[t][pe][off + i * (op == R_IPUT ? dst : 1) * sz],
                   (char *)src + i * (op == R_IPUT ? sst : 1) * sz, sz);
        mark_dirty(w, &c);
        note_pend(&w->rpend[pe], &c);
        return;
    }
    if (w->rpend[pe].state)
        quiet_all(w);
    size_t lspan = ((n - 1) * (op == R_IGET ? dst : 1) + 1) * sz;
    char *dest = op == R_GET_NBI ? salloc(w, lspan) : w->lbuf;
    memset(dest, 0xA5, lspan);
    ser_begin(&c);
    rma_fns[type](op, c.ctx, plain, dest, rem, (ptrdiff_t)dst, (ptrdiff_t)sst, n, tpe);
    if (op == R_GET_NBI) {
        if (plain && rndn(&w->r, 2))
            shmem_quiet();
        else
            shmem_ctx_quiet(c.ctx);
    }
    ser_end(&c);
    for (size_t i = 0; i < n; i++)
        check_bytes(w, (uint8_t *)dest + i * (op == R_IGET ? dst : 1) * sz,
                    &model[t][pe][off + i * (op == R_IGET ? sst : 1) * sz], sz, rop_name[op], pe,
                    off + i * (op == R_IGET ? sst : 1) * sz);
}

static void op_memrma(struct worker *w)
{
    int t = w->t;
    int pe = (int)rndn(&w->r, (uint64_t)npes);
    struct cref c;
    int tpe = pick_ctx(w, pe, &c, 1);
    int plain = c.kind == C_DEFAULT && rndn(&w->r, 2);
    size_t n = rndn(&w->r, 3) ? 1 + rndn(&w->r, RW) : rndn(&w->r, 9);
    size_t off = rndn(&w->r, RW - n + 1);
    char *rem = region(me, t) + off;
    int op = (int)rndn(&w->r, 4);
    static const char *nm[4] = { "putmem", "putmem_nbi", "getmem", "getmem_nbi" };
    ts[t].op = nm[op];
    ts[t].target = pe;
    tr(t, "%s ctx %d/%d n %zu off %zu pe %d", nm[op], c.kind, c.idx, n, off, pe);
    if (op < 2) {
        void *src = op == 1 ? salloc(w, n + 1) : w->lbuf;
        fill(w, src, n, RT_char);
        order_before(w, &w->rpend[pe], &c, pe);
        ser_begin(&c);
        if (op == 0) {
            if (plain)
                shmem_putmem(rem, src, n, tpe);
            else
                shmem_ctx_putmem(c.ctx, rem, src, n, tpe);
        } else {
            if (plain)
                shmem_putmem_nbi(rem, src, n, tpe);
            else
                shmem_ctx_putmem_nbi(c.ctx, rem, src, n, tpe);
        }
        ser_end(&c);
        memcpy(&model[t][pe][off], src, n);
        mark_dirty(w, &c);
        note_pend(&w->rpend[pe], &c);
        return;
    }
    if (w->rpend[pe].state)
        quiet_all(w);
    char *dest = op == 3 ? salloc(w, n + 1) : w->lbuf;
    memset(dest, 0x5A, n);
    ser_begin(&c);
    if (op == 2) {
        if (plain)
            shmem_getmem(dest, rem, n, tpe);
        else
            shmem_ctx_getmem(c.ctx, dest, rem, n, tpe);
    } else {
        if (plain)
            shmem_getmem_nbi(dest, rem, n, tpe);
        else
            shmem_ctx_getmem_nbi(c.ctx, dest, rem, n, tpe);
        shmem_ctx_quiet(c.ctx);
    }
    ser_end(&c);
    check_bytes(w, (uint8_t *)dest, &model[t][pe][off], n, nm[op], pe, off);
}

static void op_ptr(struct worker *w)
{
    int t = w->t;
    int pe = (int)rndn(&w->r, (uint64_t)npes);
    ts[t].op = "shmem_ptr";
    ts[t].target = pe;
    char *rem = region(me, t);
    char *p = shmem_ptr(rem, pe);
    if (pe == me && !p)
        fail(t, "shmem_ptr(own region, my own PE) = NULL");
    if (!shmem_pe_accessible(pe))
        fail(t, "shmem_pe_accessible(%d) = 0", pe);
    if (!shmem_addr_accessible(rem, pe))
        fail(t, "shmem_addr_accessible(region, %d) = 0", pe);
    int prov = -1;
    shmem_query_thread(&prov);
    if (prov != SHMEM_THREAD_MULTIPLE)
        fail(t, "shmem_query_thread gives %d in a worker", prov);
    if (!p)
        return;
    if (w->rpend[pe].state)
        quiet_all(w);
    tr(t, "ptr pe %d", pe);
    check_bytes(w, (uint8_t *)p, model[t][pe], RW, "load through shmem_ptr", pe, 0);
    if (rndn(&w->r, 2)) {
        size_t n = 1 + rndn(&w->r, 64), off = rndn(&w->r, RW - n + 1);
        fill(w, w->lbuf, n, RT_char);
        memcpy(p + off, w->lbuf, n);
        memcpy(&model[t][pe][off], w->lbuf, n);
    }
}

static void note_max(struct worker *w, int type, int idx, int pe, uint64_t v)
{
    uint64_t *m = &tmax[w->t][(type * NCNT + idx) * MAXPE + pe];
    if (v + 1 > *m)
        *m = v + 1;
}

static void ticket_bit(struct worker *w, uint64_t v, int pe)
{
    if (v >= TBITS)
        return;
    uint64_t bit = 1ULL << (v % 64);
    ts[w->t].op = "ticket fetch_or";
    uint64_t old = shmem_uint64_atomic_fetch_or(&tbits[v / 64], bit, pe);
    if (old & bit)
        fail(w->t,
             "ticket %" PRIu64 " on pe %d was handed out twice (fetch_inc values not distinct)", v,
             pe);
}

static void process_fetches(struct worker *w)
{
    for (int i = 0; i < w->npf; i++) {
        struct pfetch *f = &w->pf[i];
        switch (f->kind) {
        case PF_CNT: note_max(w, f->type, f->idx, f->target, fetch_val[f->type](f->where)); break;
        case PF_TICK: ticket_bit(w, *(uint64_t *)f->where, f->target); break;
        case PF_SWAP: texp[w->t][E_SWR + f->target] += mix64(*(uint64_t *)f->where); break;
        case PF_B64: break;
        case PF_B32: break;
        }
    }
    w->npf = 0;
}

static void op_amo(struct worker *w)
{
    int t = w->t;
    int pe = (int)rndn(&w->r, (uint64_t)npes);
    int type = (int)rndn(&w->r, AT_N);
    int idx = (int)rndn(&w->r, NCNT);
    int op = (int)rndn(&w->r, A_N);
    uint64_t v = op == A_INC || op == A_FINC || op == A_FINC_NBI ? 1 : 1 + rndn(&w->r, 100);
    struct cref c;
    int tpe = pick_ctx(w, pe, &c, 1);
    int plain = c.kind == C_DEFAULT && rndn(&w->r, 2);
    void *fetch = NULL;
    if (op == A_FADD_NBI || op == A_FINC_NBI)
        fetch = salloc(w, 8);
    ts[t].op = aop_name[op];
    ts[t].target = pe;
    tr(t, "amo %s %s[%d] ctx %d/%d v %" PRIu64 " pe %d", aop_name[op], amo_tname[type], idx, c.kind,
       c.idx, v, pe);
    uint64_t out = 0;
    ser_begin(&c);
    int got = amo_fns[type](op, c.ctx, plain, idx, v, tpe, fetch, &out);
    ser_end(&c);
    if (got < 0)
        fail(t, "compare_swap loop on %s counter %d of pe %d did not succeed in 10^6 tries",
             amo_tname[type], idx, pe);
    if (op != A_FADD && op != A_FINC && op != A_CSWAP)
        mark_dirty(w, &c);
    texp[t][E_CNT + (type * NCNT + idx) * MAXPE + pe] += v;
    if (got)
        note_max(w, type, idx, pe, out);
    if (fetch) {
        struct pfetch *f = &w->pf[w->npf++];
        f->kind = PF_CNT;
        f->type = type;
        f->idx = idx;
        f->target = pe;
        f->where = fetch;
    }
}

static void op_ticket(struct worker *w)
{
    int t = w->t;
    int pe = (int)rndn(&w->r, (uint64_t)npes);
    struct cref c;
    int tpe = pick_ctx(w, pe, &c, 0);
    int k = (int)rndn(&w->r, 3);
    ts[t].op = k == 0 ? "ticket fetch_inc" : k == 1 ? "ticket fetch_add 1" : "ticket fetch_inc_nbi";
    ts[t].target = pe;
    tr(t, "%s ctx %d/%d pe %d", ts[t].op, c.kind, c.idx, pe);
    texp[t][E_TICK + pe]++;
    if (k == 0) {
        ticket_bit(w, shmem_ctx_uint64_atomic_fetch_inc(c.ctx, &ticket, tpe), pe);
    } else if (k == 1) {
        ticket_bit(w, shmem_ctx_uint64_atomic_fetch_add(c.ctx, &ticket, 1, tpe), pe);
    } else {
        uint64_t *f = salloc(w, 8);
        shmem_ctx_uint64_atomic_fetch_inc_nbi(c.ctx, f, &ticket, tpe);
        mark_dirty(w, &c);
        struct pfetch *p = &w->pf[w->npf++];
        p->kind = PF_TICK;
        p->target = pe;
        p->where = f;
    }
}

static void op_swap(struct worker *w)
{
    int t = w->t;
    int pe = (int)rndn(&w->r, (uint64_t)npes);
    struct cref c;
    int tpe = pick_ctx(w, pe, &c, 0);
    uint64_t v = mix64(seed ^ ((uint64_t)ep << 32) ^ ((uint64_t)me << 24) ^ ((uint64_t)t << 20) ^
                       rnd(&w->r)) |
                 1;
    ts[t].op = "swap";
    ts[t].target = pe;
    tr(t, "swap ctx %d/%d pe %d", c.kind, c.idx, pe);
    texp[t][E_SWW + pe] += mix64(v);
    if (rndn(&w->r, 2)) {
        uint64_t old = shmem_ctx_uint64_atomic_swap(c.ctx, &swapw, v, tpe);
        texp[t][E_SWR + pe] += mix64(old);
    } else {
        uint64_t *f = salloc(w, 8);
        shmem_ctx_uint64_atomic_swap_nbi(c.ctx, f, &swapw, v, tpe);
        mark_dirty(w, &c);
        struct pfetch *p = &w->pf[w->npf++];
        p->kind = PF_SWAP;
        p->target = pe;
        p->where = f;
    }
}

static int bits_per_owner(int width)
{
    return width / (npes * nthr);
}

static void op_bits(struct worker *w)
{
    int t = w->t;
    int pe = (int)rndn(&w->r, (uint64_t)npes);
    int w64 = rndn(&w->r, 2) || bits_per_owner(32) < 1;
    int nb = bits_per_owner(w64 ? 64 : 32);
    int o = me * nthr + t;
    uint64_t mine = (nb >= 64 ? ~0ULL : ((1ULL << nb) - 1)) << (o * nb);
    uint64_t m = rnd(&w->r) & mine;
    int op = (int)rndn(&w->r, 9); /* and or xor, fetch_ x3, fetch_nbi x3 */
    int kind = op % 3;
    struct cref c;
    int tpe = pick_ctx(w, pe, &c, 0);
    static const char *nm[9] = { "and",           "or",           "xor",
                                 "fetch_and",     "fetch_or",     "fetch_xor",
                                 "fetch_and_nbi", "fetch_or_nbi", "fetch_xor_nbi" };
    ts[t].op = nm[op];
    ts[t].target = pe;
    tr(t, "bits%d %s ctx %d/%d mask %" PRIx64 " pe %d", w64 ? 64 : 32, nm[op], c.kind, c.idx, m,
       pe);
    uint64_t before = w64 ? bmodel64[t][pe] : bmodel32[t][pe];
    uint64_t after = kind == 0 ? before & ~m : kind == 1 ? before | m : before ^ m;
    uint64_t arg = kind == 0 ? ~m : m;
    uint64_t got = 0;
    struct pend *bp = w64 ? &w->b64pend[pe] : &w->b32pend[pe];
    order_before(w, bp, &c, pe);
    if (w64) {
        uint64_t *d = &bword64;
        switch (op) {
        case 0: shmem_ctx_uint64_atomic_and(c.ctx, d, arg, tpe); break;
        case 1: shmem_ctx_uint64_atomic_or(c.ctx, d, arg, tpe); break;
        case 2: shmem_ctx_uint64_atomic_xor(c.ctx, d, arg, tpe); break;
        case 3: got = shmem_ctx_uint64_atomic_fetch_and(c.ctx, d, arg, tpe); break;
        case 4: got = shmem_ctx_uint64_atomic_fetch_or(c.ctx, d, arg, tpe); break;
        case 5: got = shmem_ctx_uint64_atomic_fetch_xor(c.ctx, d, arg, tpe); break;
        default: {
            uint64_t *f = salloc(w, 8);
            if (op == 6)
                shmem_ctx_uint64_atomic_fetch_and_nbi(c.ctx, f, d, arg, tpe);
            else if (op == 7)
                shmem_ctx_uint64_atomic_fetch_or_nbi(c.ctx, f, d, arg, tpe);
            else
                shmem_ctx_uint64_atomic_fetch_xor_nbi(c.ctx, f, d, arg, tpe);
        }
        }
        bmodel64[t][pe] = after;
    } else {
        uint32_t *d = &bword32;
        uint32_t a = (uint32_t)arg;
        switch (op) {
        case 0: shmem_ctx_uint32_atomic_and(c.ctx, d, a, tpe); break;
        case 1: shmem_ctx_uint32_atomic_or(c.ctx, d, a, tpe); break;
        case 2: shmem_ctx_uint32_atomic_xor(c.ctx, d, a, tpe); break;
        case 3: got = shmem_ctx_uint32_atomic_fetch_and(c.ctx, d, a, tpe); break;
        case 4: got = shmem_ctx_uint32_atomic_fetch_or(c.ctx, d, a, tpe); break;
        case 5: got = shmem_ctx_uint32_atomic_fetch_xor(c.ctx, d, a, tpe); break;
        default: {
            uint32_t *f = salloc(w, 8);
            if (op == 6)
                shmem_ctx_uint32_atomic_fetch_and_nbi(c.ctx, f, d, a, tpe);
            else if (op == 7)
                shmem_ctx_uint32_atomic_fetch_or_nbi(c.ctx, f, d, a, tpe);
            else
                shmem_ctx_uint32_atomic_fetch_xor_nbi(c.ctx, f, d, a, tpe);
        }
        }
        bmodel32[t][pe] = (uint32_t)after;
        mine &= 0xffffffffULL;
    }
    if (op >= 3 && op <= 5 && (got & mine) != (before & mine))
        fail(t, "%s on the %d-bit word of pe %d fetched my bits as %" PRIx64 ", expected %" PRIx64,
             nm[op], w64 ? 64 : 32, pe, got & mine, before & mine);
    if (op < 3 || op > 5) {
        mark_dirty(w, &c);
        note_pend(bp, &c);
    }
}

static void check_bits(struct worker *w)
{
    int t = w->t, o = me * nthr + t;
    for (int pe = 0; pe < npes; pe++) {
        int nb = bits_per_owner(64);
        uint64_t mine = (nb >= 64 ? ~0ULL : ((1ULL << nb) - 1)) << (o * nb);
        uint64_t v = shmem_uint64_atomic_fetch(&bword64, pe);
        if ((v & mine) != bmodel64[t][pe])
            fail(t, "the 64-bit word of pe %d has my bits %" PRIx64 ", expected %" PRIx64, pe,
                 v & mine, bmodel64[t][pe]);
        nb = bits_per_owner(32);
        if (nb < 1)
            continue;
        mine = (((1ULL << nb) - 1) << (o * nb)) & 0xffffffffULL;
        uint32_t v32 = shmem_uint32_atomic_fetch(&bword32, pe);
        if ((v32 & mine) != bmodel32[t][pe])
            fail(t, "the 32-bit word of pe %d has my bits %" PRIx32 ", expected %" PRIx32, pe,
                 (uint32_t)(v32 & mine), bmodel32[t][pe]);
    }
}

static void op_ctx(struct worker *w)
{
    int t = w->t;
    if (w->nown && (w->nown == MAXCTX || rndn(&w->r, 2))) {
        int i = (int)rndn(&w->r, (uint64_t)w->nown);
        ts[t].op = "ctx_destroy";
        tr(t, "ctx_destroy own %d (team %d, dirty %d)", i, w->own[i].team, w->own[i].dirty);
        shmem_ctx_destroy(w->own[i].ctx); /* completes its operations */
        forget_ctx(w, w->own[i].ctx);
        w->own[i] = w->own[--w->nown];
        return;
    }
    static const long opts[5] = { 0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED,
                                  SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE,
                                  SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE };
    long o = opts[rndn(&w->r, 5)];
    int team = -1;
    if (nwt && rndn(&w->r, 2)) {
        team = (int)rndn(&w->r, (uint64_t)nwt);
        if (wt[team].rel[me] < 0)
            team = -1;
    }
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    ts[t].op = team < 0 ? "ctx_create" : "team_create_ctx";
    int rc = team < 0 ? shmem_ctx_create(o, &c) : shmem_team_create_ctx(wt[team].team, o, &c);
    tr(t, "%s opts %ld team %d rc %d", ts[t].op, o, team, rc);
    if (rc != 0) {
        if (c != SHMEM_CTX_INVALID)
            fail(t, "%s failed (%d) but did not set SHMEM_CTX_INVALID", ts[t].op, rc);
        return; /* allowed: no resources */
    }
    shmem_team_t got = SHMEM_TEAM_INVALID;
    if (shmem_ctx_get_team(c, &got) != 0 || got != (team < 0 ? SHMEM_TEAM_WORLD : wt[team].team))
        fail(t, "shmem_ctx_get_team of a new context gives the wrong team");
    w->own[w->nown].ctx = c;
    w->own[w->nown].opts = o;
    w->own[w->nown].team = team;
    w->own[w->nown].dirty = 0;
    w->nown++;
}

static void op_sync(struct worker *w)
{
    int t = w->t;
    int k = (int)rndn(&w->r, 6);
    struct cref c;
    pick_ctx(w, (int)rndn(&w->r, (uint64_t)npes), &c, 1);
    ts[t].op = "fence/quiet";
    tr(t, "sync %d ctx %d/%d", k, c.kind, c.idx);
    switch (k) {
    case 0: shmem_fence(); break;
    case 1:
        shmem_quiet();
        w->def_dirty = 0;
        break; /* several threads at once */
    case 2:
        ser_begin(&c);
        shmem_ctx_fence(c.ctx);
        ser_end(&c);
        break;
    case 3:
        ser_begin(&c);
        shmem_ctx_quiet(c.ctx);
        ser_end(&c);
        break;
    default: quiet_all(w); break;
    }
}

static void op_lock(struct worker *w)
{
    int t = w->t;
    int mine[NLOCK], nm = 0;
    for (int k = 0; k < NLOCK; k++)
        if ((k + ep + me) % nthr == t)
            mine[nm++] = k;
    if (!nm)
        return;
    int k = mine[rndn(&w->r, (uint64_t)nm)];
    int home = P.lockhome[k];
    before_block(w);
    ts[t].op = "set_lock";
    ts[t].target = home;
    tr(t, "lock %d home %d", k, home);
    if (rndn(&w->r, 2)) {
        shmem_set_lock(&lockw[k]);
    } else {
        ts[t].op = "test_lock loop";
        while (shmem_test_lock(&lockw[k]))
            sched_yield();
    }
    ts[t].op = "in lock";
    int how = (int)rndn(&w->r, 3);
    if (how == 0) {
        long v = shmem_long_g(&lockval[k], home);
        shmem_long_p(&lockval[k], v + 1, home);
    } else if (how == 1) {
        long v = shmem_long_atomic_fetch(&lockval[k], home);
        shmem_long_atomic_set(&lockval[k], v + 1, home);
    } else {
        /* a context of my own: quiet it before the clear */
        struct cref c;
        int tpe = pick_ctx(w, home, &c, 1);
        ser_begin(&c);
        long v = shmem_ctx_long_g(c.ctx, &lockval[k], tpe);
        shmem_ctx_long_p(c.ctx, &lockval[k], v + 1, tpe);
        shmem_ctx_quiet(c.ctx);
        ser_end(&c);
    }
    ts[t].op = "clear_lock";
    shmem_clear_lock(&lockw[k]);
    texp[t][E_LOCK + k]++;
}

/* ---- messages ---- */
static void send_msg(struct worker *w, int mi)
{
    int t = w->t;
    struct msg *M = &P.m[mi];
    struct group *G = &P.g[M->grp];
    int pe = G->rp;
    struct cref c;
    int tpe = pick_ctx(w, pe, &c, 1);
    char *src = salloc(w, MW);
    for (int i = 0; i < M->len; i++)
        src[i] = (char)msg_byte(mi, i);
    ts[t].op = "send";
    ts[t].target = pe;
    tr(t, "send msg %d (group %d %s, variant %d, len %d) to pe %d thread %d ctx %d/%d", mi, M->grp,
       gname[G->kind], M->variant, M->len, pe, G->rt, c.kind, c.idx);
    ser_begin(&c);
    if (G->kind == G_SIGSET || G->kind == G_SIGADD) {
        int sop = G->kind == G_SIGSET ? SHMEM_SIGNAL_SET : SHMEM_SIGNAL_ADD;
        uint64_t *sig = &msig[M->grp];
        switch (M->variant % 4 + (M->variant >= 4 ? 4 : 0)) {
        case 0:
            shmem_ctx_putmem_signal(c.ctx, mdata[mi], src, (size_t)M->len, sig, M->val, sop, tpe);
            break;
        case 1:
            shmem_ctx_putmem_signal_nbi(c.ctx, mdata[mi], src, (size_t)M->len, sig, M->val, sop,
                                        tpe);
            break;
        case 2:
            if (c.kind == C_DEFAULT)
                shmem_putmem_signal(mdata[mi], src, (size_t)M->len, sig, M->val, sop, tpe);
            else
                shmem_ctx_putmem_signal(c.ctx, mdata[mi], src, (size_t)M->len, sig, M->val, sop,
                                        tpe);
            break;
        case 3:
            if (c.kind == C_DEFAULT)
                shmem_putmem_signal_nbi(mdata[mi], src, (size_t)M->len, sig, M->val, sop, tpe);
            else
                shmem_ctx_putmem_signal_nbi(c.ctx, mdata[mi], src, (size_t)M->len, sig, M->val, sop,
                                            tpe);
            break;
        case 4:
        case 6:
            shmem_ctx_long_put_signal(c.ctx, (long *)mdata[mi], (long *)src, (size_t)M->len / 8,
                                      sig, M->val, sop, tpe);
            break;
        default:
            shmem_ctx_long_put_signal_nbi(c.ctx, (long *)mdata[mi], (long *)src, (size_t)M->len / 8,
                                          sig, M->val, sop, tpe);
            break;
        }
        mark_dirty(w, &c);
        w->send_pending = 1;
    } else if (G->kind == G_FLAGADD) {
        if (M->variant & 1)
            shmem_ctx_putmem_nbi(c.ctx, mdata[mi], src, (size_t)M->len, tpe);
        else
            shmem_ctx_putmem(c.ctx, mdata[mi], src, (size_t)M->len, tpe);
        shmem_ctx_fence(c.ctx);
        shmem_ctx_uint64_atomic_add(c.ctx, &mflag[G->first], M->val, tpe);
        mark_dirty(w, &c);
        if ((M->variant & 1) || (M->variant & 4))
            w->send_pending = 1;
    } else if (G->kind == G_FLAGFENCE) {
        if (M->variant & 1)
            shmem_ctx_putmem_nbi(c.ctx, mdata[mi], src, (size_t)M->len, tpe);
        else
            shmem_ctx_putmem(c.ctx, mdata[mi], src, (size_t)M->len, tpe);
        shmem_ctx_fence(c.ctx);
        if (M->variant & 2)
            shmem_ctx_uint64_atomic_set(c.ctx, &mflag[mi], M->val, tpe);
        else
            shmem_ctx_uint64_p(c.ctx, &mflag[mi], M->val, tpe);
        mark_dirty(w, &c);
        if ((M->variant & 1) || (M->variant & 4))
            w->send_pending = 1; /* else rely on the blocking puts being delivered */
    } else {
        if (M->variant & 1)
            shmem_ctx_putmem_nbi(c.ctx, mdata[mi], src, (size_t)M->len, tpe);
        else
            shmem_ctx_putmem(c.ctx, mdata[mi], src, (size_t)M->len, tpe);
        if (M->variant & 2)
            shmem_ctx_quiet(c.ctx);
        ser_end(&c);
        if (!(M->variant & 2))
            quiet_all(w);
        struct cref c2;
        int tpe2 = pick_ctx(w, pe, &c2, 1);
        ser_begin(&c2);
        if (M->variant & 4)
            shmem_ctx_uint64_atomic_set(c2.ctx, &mflag[mi], M->val, tpe2);
        else
            shmem_ctx_uint64_put(c2.ctx, &mflag[mi], &M->val, 1, tpe2);
        ser_end(&c2);
        mark_dirty(w, &c2);
        w->send_pending = 1;
        return;
    }
    ser_end(&c);
}

static void check_msg(struct worker *w, int mi)
{
    struct msg *M = &P.m[mi];
    for (int i = 0; i < M->len; i++)
        if ((uint8_t)mdata[mi][i] != msg_byte(mi, i))
            fail(w->t,
                 "message %d (group %d %s, variant %d, len %d) from pe %d thread %d: byte %d is "
                 "0x%02x, expected 0x%02x after its %s",
                 mi, M->grp, gname[P.g[M->grp].kind], M->variant, M->len, M->sp, M->st, i,
                 (uint8_t)mdata[mi][i], msg_byte(mi, i),
                 P.g[M->grp].kind <= G_SIGADD ? "signal" : "flag");
}

static void recv_group(struct worker *w, int gi)
{
    int t = w->t;
    struct group *G = &P.g[gi];
    before_block(w);
    ts[t].op = "recv";
    ts[t].target = gi;
    tr(t, "recv group %d (%s, k %d, method %d)", gi, gname[G->kind], G->k, G->method);
    if (G->kind == G_SIGSET || G->kind == G_SIGADD) {
        int cmp = G->kind == G_SIGSET ? SHMEM_CMP_EQ : SHMEM_CMP_GE;
        uint64_t v;
        if (G->method < 6) {
            ts[t].op = "signal_wait_until";
            v = shmem_signal_wait_until(&msig[gi], cmp, G->total);
        } else {
            ts[t].op = "signal_fetch loop";
            while ((v = shmem_signal_fetch(&msig[gi])) < G->total && G->kind == G_SIGADD)
                sched_yield();
            while (G->kind == G_SIGSET && (v = shmem_signal_fetch(&msig[gi])) != G->total)
                sched_yield();
        }
        if (v != G->total)
            fail(t, "signal of group %d (%s, %d senders) is %" PRIu64 ", expected %" PRIu64, gi,
                 gname[G->kind], G->k, v, G->total);
        for (int i = 0; i < G->k; i++)
            check_msg(w, G->first + i);
        return;
    }
    if (G->kind == G_FLAGADD) {
        uint64_t *f = &mflag[G->first];
        if (G->method < 5) {
            ts[t].op = "wait_until GE (flag_add)";
            shmem_uint64_wait_until(f, SHMEM_CMP_GE, G->total);
        } else {
            ts[t].op = "test GE loop (flag_add)";
            while (!shmem_uint64_test(f, SHMEM_CMP_GE, G->total))
                sched_yield();
        }
        if (*f != G->total)
            fail(t, "flag of group %d (flag_add, %d senders) is %" PRIu64 ", expected %" PRIu64, gi,
                 G->k, *f, G->total);
        for (int i = 0; i < G->k; i++)
            check_msg(w, G->first + i);
        return;
    }
    uint64_t *iv = &mflag[G->first];
    int k = G->k;
    int status[4] = { 0, 0, 0, 0 };
    uint64_t cv[4];
    int cmp[4];
    for (int i = 0; i < k; i++) {
        int fc = P.flagcmp[G->first + i];
        cmp[i] = fc == 0 ? SHMEM_CMP_EQ : fc == 1 ? SHMEM_CMP_NE : SHMEM_CMP_GE;
        cv[i] = fc == 0 ? P.m[G->first + i].val : fc == 1 ? 0 : P.m[G->first + i].val;
    }
    uint64_t eqv[4];
    for (int i = 0; i < k; i++)
        eqv[i] = P.m[G->first + i].val;
    /* a uniform comparison for the non-vector forms: every flag value is at least 1 */
    int ucmp = P.flagcmp[G->first] == 2 ? SHMEM_CMP_GT : SHMEM_CMP_NE;
    uint64_t ucv = 0;
    int left = k;
    size_t idx[4];
    switch (G->method) {
    case 0:
        ts[t].op = "wait_until_all";
        shmem_uint64_wait_until_all(iv, (size_t)k, NULL, ucmp, ucv);
        break;
    case 1:
        ts[t].op = "wait_until_all_vector";
        shmem_uint64_wait_until_all_vector(iv, (size_t)k, NULL, SHMEM_CMP_NE,
                                           (uint64_t[4]){ 0, 0, 0, 0 });
        break;
    case 2:
    case 3:
        ts[t].op = G->method == 2 ? "wait_until_any" : "wait_until_any_vector";
        while (left) {
            size_t i =
                G->method == 2
                    ? shmem_uint64_wait_until_any(iv, (size_t)k, status, ucmp, ucv)
                    : shmem_uint64_wait_until_any_vector(iv, (size_t)k, status, SHMEM_CMP_EQ, eqv);
            if (i >= (size_t)k || status[i])
                fail(t, "%s returned %zu (k %d)", ts[t].op, i, k);
            status[i] = 1;
            check_msg(w, G->first + (int)i);
            left--;
        }
        return;
    case 4:
        ts[t].op = "wait_until_some";
        while (left) {
            size_t n = shmem_uint64_wait_until_some(iv, (size_t)k, idx, status, ucmp, ucv);
            if (n == 0 || n > (size_t)left)
                fail(t, "wait_until_some returned %zu with %d left", n, left);
            for (size_t j = 0; j < n; j++) {
                if (idx[j] >= (size_t)k || status[idx[j]])
                    fail(t, "wait_until_some gave index %zu", idx[j]);
                status[idx[j]] = 1;
                check_msg(w, G->first + (int)idx[j]);
            }
            left -= (int)n;
        }
        return;
    case 5:
        ts[t].op = "test_any loop";
        while (left) {
            size_t i = shmem_uint64_test_any(iv, (size_t)k, status, ucmp, ucv);
            if (i == SIZE_MAX) {
                sched_yield();
                continue;
            }
            if (i >= (size_t)k || status[i])
                fail(t, "test_any returned %zu", i);
            status[i] = 1;
            check_msg(w, G->first + (int)i);
            left--;
        }
        return;
    case 6:
        ts[t].op = "test_some loop";
        while (left) {
            size_t n = shmem_uint64_test_some(iv, (size_t)k, idx, status, ucmp, ucv);
            for (size_t j = 0; j < n; j++) {
                if (idx[j] >= (size_t)k || status[idx[j]])
                    fail(t, "test_some gave index %zu", idx[j]);
                status[idx[j]] = 1;
                check_msg(w, G->first + (int)idx[j]);
            }
            left -= (int)n;
            if (!n)
                sched_yield();
        }
        return;
    case 7:
        ts[t].op = "test_all loop";
        while (!shmem_uint64_test_all(iv, (size_t)k, NULL, ucmp, ucv))
            sched_yield();
        break;
    default:
        ts[t].op = "wait_until each";
        for (int i = 0; i < k; i++)
            shmem_uint64_wait_until(&iv[i], cmp[i], cv[i]);
        break;
    }
    for (int i = 0; i < k; i++) {
        if (mflag[G->first + i] != P.m[G->first + i].val)
            fail(t, "flag of message %d is %" PRIu64 ", expected %" PRIu64, G->first + i,
                 mflag[G->first + i], P.m[G->first + i].val);
        check_msg(w, G->first + i);
    }
}

static void worker_coll(struct worker *w, int s)
{
    int t = w->t;
    struct wteam *W = &wt[0];
    if (!nwt || W->rel[me] < 0)
        return;
    before_block(w);
    int n = P.wcn[s];
    if (P.wcoll[s] == 1) {
        ts[t].op = "worker team_sync";
        tr(t, "team_sync %s", W->name);
        shmem_team_sync(W->team);
        return;
    }
    ts[t].op = "worker sum_reduce";
    tr(t, "sum_reduce %s n %d", W->name, n);
    for (int i = 0; i < n; i++)
        wcsrc[s][i] = (long)(me * 1000 + i + s * 7 + ep);
    int rc = shmem_long_sum_reduce(W->team, wcdst[s], wcsrc[s], (size_t)n);
    if (rc)
        fail(t, "shmem_long_sum_reduce on %s returned %d", W->name, rc);
    for (int i = 0; i < n; i++) {
        long want = 0;
        for (int j = 0; j < W->n; j++)
            want += W->members[j] * 1000 + i + s * 7 + ep;
        if (wcdst[s][i] != want)
            fail(t, "worker sum_reduce on %s element %d is %ld, expected %ld", W->name, i,
                 wcdst[s][i], want);
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    int t = w->t;
    w->r.s = mix64(seed ^ mix64((uint64_t)ep * 0x10001 + (uint64_t)me * 131 + (uint64_t)t));
    memset(w->rpend, 0, sizeof w->rpend);
    memset(w->b64pend, 0, sizeof w->b64pend);
    memset(w->b32pend, 0, sizeof w->b32pend);
    for (int s = 0; s < P.steps; s++) {
        ts[t].step = s;
        if (t == 0 && P.wcoll[s])
            worker_coll(w, s);
        int nops = (int)rndn(&w->r, (uint64_t)maxops + 1);
        for (int i = 0; i < nops; i++) {
            int k = (int)rndn(&w->r, 100);
            if (focus >= 0 && rndn(&w->r, 10) < 7)
                k = focus_k[focus];
            if (k < 22)
                op_rma(w);
            else if (k < 34)
                op_memrma(w);
            else if (k < 60)
                op_amo(w);
            else if (k < 68)
                op_bits(w);
            else if (k < 74)
                op_ticket(w);
            else if (k < 79)
                op_swap(w);
            else if (k < 86)
                op_ctx(w);
            else if (k < 93)
                op_sync(w);
            else if (k < 96)
                op_ptr(w);
            else
                op_lock(w);
        }
        for (int m = 0; m < P.nmsg; m++)
            if (P.m[m].sp == me && P.m[m].st == t && P.m[m].sstep == s)
                send_msg(w, m);
        for (int g = 0; g < P.ngrp; g++)
            if (P.g[g].rp == me && P.g[g].rt == t && P.g[g].rstep == s)
                recv_group(w, g);
    }
    ts[t].step = P.steps;
    /* destroy my contexts (some with operations pending), complete the rest */
    while (w->nown) {
        ts[t].op = "ctx_destroy (end)";
        shmem_ctx_destroy(w->own[--w->nown].ctx);
    }
    quiet_all(w);
    ts[t].op = "final region check";
    for (int pe = 0; pe < npes; pe++) {
        memset(w->lbuf, 0xEE, RW);
        shmem_getmem(w->lbuf, region(me, t), RW, pe);
        check_bytes(w, (uint8_t *)w->lbuf, model[t][pe], RW, "final getmem", pe, 0);
    }
    ts[t].op = "final bit check";
    check_bits(w);
    ts[t].op = "done";
    return NULL;
}

/* ---- main thread ---- */
static struct worker workers[MAXT];

static int in_team(int team, int *idx, int *n)
{
    if (team < 0) {
        *idx = me;
        *n = npes;
        return 1;
    }
    *idx = wt[team].rel[me];
    *n = wt[team].n;
    return *idx >= 0;
}

static void main_coll(int c)
{
    int T = MAXT;
    int kind = P.coll[c], team = P.cteam[c], n = P.cn[c];
    if (team >= nwt)
        team = -1;
    shmem_team_t th = team < 0 ? SHMEM_TEAM_WORLD : wt[team].team;
    int myi, tn;
    ts[T].step = c;
    if (kind == 0) {
        ts[T].op = "barrier_all";
        shmem_barrier_all();
        return;
    }
    if (kind == 1) {
        ts[T].op = "sync_all";
        shmem_sync_all();
        return;
    }
    if (kind == 2) {
        ts[T].op = "quiet (main)";
        shmem_quiet();
        for (int i = 0; i < npool; i++)
            shmem_ctx_quiet(pool[i]);
        return;
    }
    if (kind == 8) {
        /* split a temporary team of world, use it, destroy it */
        int start = P.croot[c] % npes, stride = 1 + P.croot[c] % 2;
        int size = (npes - 1 - start) / stride + 1;
        if (P.croot[c] & 4)
            size = 1 + (P.croot[c] >> 3) % size;
        shmem_team_t nt = SHMEM_TEAM_INVALID;
        ts[T].op = "team_split_strided (temp)";
        int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &nt);
        if (rc)
            fail(T, "temporary shmem_team_split_strided(%d, %d, %d) returned %d", start, stride,
                 size, rc);
        int member = me >= start && (me - start) % stride == 0 && (me - start) / stride < size;
        if (member != (nt != SHMEM_TEAM_INVALID))
            fail(T, "temporary team split: membership %d but handle %s", member,
                 nt == SHMEM_TEAM_INVALID ? "invalid" : "valid");
        if (!member)
            return;
        if (shmem_team_my_pe(nt) != (me - start) / stride || shmem_team_n_pes(nt) != size)
            fail(T, "temporary team: my_pe %d n_pes %d, expected %d %d", shmem_team_my_pe(nt),
                 shmem_team_n_pes(nt), (me - start) / stride, size);
        ts[T].op = "max_reduce (temp)";
        for (int i = 0; i < n; i++)
            cisrc[c][i] = (int)(me * 3 + i) ^ (ep & 7);
        if (shmem_int_max_reduce(nt, cidst[c], cisrc[c], (size_t)n))
            fail(T, "shmem_int_max_reduce on the temporary team failed");
        for (int i = 0; i < n; i++) {
            int want = INT32_MIN;
            for (int j = 0; j < size; j++) {
                int v = ((start + j * stride) * 3 + i) ^ (ep & 7);
                if (v > want)
                    want = v;
            }
            if (cidst[c][i] != want)
                fail(T, "max_reduce on the temporary team (%d,%d,%d) element %d = %d, expected %d",
                     start, stride, size, i, cidst[c][i], want);
        }
        ts[T].op = "team_destroy (temp)";
        shmem_team_destroy(nt);
        return;
    }
    if (!in_team(team, &myi, &tn))
        return;
    const char *tname = team < 0 ? "world" : wt[team].name;
    for (int i = 0; i < n; i++)
        csrc[c][i] = (long)mix64(seed ^ ((uint64_t)ep << 20) ^ ((uint64_t)c << 12) ^
                                 ((uint64_t)myi << 6) ^ (uint64_t)i) >>
                     4;
#define CV(j, i)                                                                            \
    ((long)mix64(seed ^ ((uint64_t)ep << 20) ^ ((uint64_t)c << 12) ^ ((uint64_t)(j) << 6) ^ \
                 (uint64_t)(i)) >>                                                          \
     4)
    switch (kind) {
    case 3:
        ts[T].op = "team_sync";
        shmem_team_sync(th);
        break;
    case 4: {
        int root = P.croot[c] % tn;
        ts[T].op = "broadcast";
        if (shmem_long_broadcast(th, cdst[c], csrc[c], (size_t)n, root))
            fail(T, "broadcast on %s failed", tname);
        for (int i = 0; i < n; i++)
            if (cdst[c][i] != CV(root, i))
                fail(T, "broadcast on %s (root %d, n %d) element %d = %ld, expected %ld", tname,
                     root, n, i, cdst[c][i], CV(root, i));
        break;
    }
    case 5:
    case 6: {
        ts[T].op = "sum_reduce";
        if (shmem_long_sum_reduce(th, cdst[c], csrc[c], (size_t)n))
            fail(T, "sum_reduce on %s failed", tname);
        for (int i = 0; i < n; i++) {
            long want = 0;
            for (int j = 0; j < tn; j++)
                want = (long)((unsigned long)want + (unsigned long)CV(j, i));
            if (cdst[c][i] != want)
                fail(T, "sum_reduce on %s (n %d) element %d = %ld, expected %ld", tname, n, i,
                     cdst[c][i], want);
        }
        break;
    }
    case 7: {
        ts[T].op = "fcollect";
        if (shmem_long_fcollect(th, cdst[c], csrc[c], (size_t)n))
            fail(T, "fcollect on %s failed", tname);
        for (int j = 0; j < tn; j++)
            for (int i = 0; i < n; i++)
                if (cdst[c][j * n + i] != CV(j, i))
                    fail(T, "fcollect on %s (n %d) block %d element %d = %ld, expected %ld", tname,
                         n, j, i, cdst[c][j * n + i], CV(j, i));
        break;
    }
    }
#undef CV
}

static void make_wteam(int i, int pattern)
{
    struct wteam *W = &wt[i];
    int start = 0, stride = 1, size = npes;
    switch (pattern % 6) {
    case 0:
        start = 0;
        stride = 2;
        size = (npes + 1) / 2;
        snprintf(W->name, sizeof W->name, "even");
        break;
    case 1:
        start = npes > 1 ? 1 : 0;
        stride = 2;
        size = npes > 1 ? npes / 2 : 1;
        snprintf(W->name, sizeof W->name, "odd");
        break;
    case 2:
        start = npes > 1 ? 1 : 0;
        stride = 1;
        size = npes > 1 ? npes - 1 : 1;
        snprintf(W->name, sizeof W->name, "all-but-0");
        break;
    case 3:
        start = 0;
        stride = 1;
        size = npes;
        snprintf(W->name, sizeof W->name, "world-copy");
        break;
    case 4:
        start = npes - 1;
        stride = -1;
        size = npes;
        snprintf(W->name, sizeof W->name, "reversed");
        break;
    case 5:
        start = 0;
        stride = npes > 1 ? npes - 1 : 1;
        size = npes > 1 ? 2 : 1;
        snprintf(W->name, sizeof W->name, "pair");
        break;
    }
    shmem_team_config_t conf = { .num_contexts = (int)(pattern / 6) % 3 };
    long mask = conf.num_contexts ? SHMEM_TEAM_NUM_CONTEXTS : 0;
    ts[MAXT].op = "team_split_strided (worker team)";
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, mask ? &conf : NULL,
                                      mask, &W->team);
    if (rc)
        fail(MAXT, "shmem_team_split_strided(%d, %d, %d) for %s returned %d", start, stride, size,
             W->name, rc);
    W->n = size;
    for (int p = 0; p < MAXPE; p++)
        W->rel[p] = -1;
    for (int j = 0; j < size; j++) {
        W->members[j] = start + j * stride;
        W->rel[start + j * stride] = j;
    }
    if ((W->rel[me] >= 0) != (W->team != SHMEM_TEAM_INVALID))
        fail(MAXT, "team %s: membership and handle disagree", W->name);
    if (W->rel[me] >= 0) {
        if (shmem_team_my_pe(W->team) != W->rel[me] || shmem_team_n_pes(W->team) != size)
            fail(MAXT, "team %s: my_pe %d n_pes %d, expected %d %d", W->name,
                 shmem_team_my_pe(W->team), shmem_team_n_pes(W->team), W->rel[me], size);
        for (int j = 0; j < size; j++)
            if (shmem_team_translate_pe(W->team, j, SHMEM_TEAM_WORLD) != W->members[j])
                fail(MAXT, "team %s: translate_pe(%d) = %d, expected %d", W->name, j,
                     shmem_team_translate_pe(W->team, j, SHMEM_TEAM_WORLD), W->members[j]);
    }
}

static void boundary(void)
{
    int T = MAXT;
    ts[T].step = -1;
    int remake = !nwt || rndn(&grng, 4) == 0;
    /* shared contexts: made again; a team's is left to shmem_team_destroy when the
     * team goes */
    ts[T].op = "destroy shared contexts";
    for (int i = 0; i < npool; i++)
        if (pool_team[i] < 0 || !remake)
            shmem_ctx_destroy(pool[i]);
    npool = 0;
    if (have_ser)
        shmem_ctx_destroy(serctx);
    have_ser = 0;
    /* the RMA buffer */
    int a = (int)rndn(&grng, 8);
    size_t need = (size_t)npes * (size_t)nthr * RW;
    if (!rbuf || a <= 3) {
        size_t extra = rndn(&grng, 3) * 4096 + rndn(&grng, 64) * 8;
        int how = rbuf ? a : 0;
        ts[T].op = "symmetric allocation";
        if (how == 3 && rbuf) {
            /* realloc keeps the contents: the models stay */
            char *nb = shmem_realloc(rbuf, need + extra);
            if (!nb)
                fail(T, "shmem_realloc(%zu) returned NULL", need + extra);
            rbuf = nb;
        } else {
            if (rbuf)
                shmem_free(rbuf);
            if (how == 1)
                rbuf = shmem_calloc(1, need + extra);
            else if (how == 2)
                rbuf = shmem_align((size_t)64 << rndn(&grng, 7), need + extra);
            else
                rbuf = shmem_malloc(need + extra);
            if (!rbuf)
                fail(T, "symmetric allocation of %zu bytes failed", need + extra);
            if (how == 1) {
                for (size_t i = 0; i < need; i++)
                    if (rbuf[i])
                        fail(T, "shmem_calloc memory not zero at byte %zu", i);
            } else {
                memset(rbuf, 0, need);
            }
            memset(model, 0, sizeof model);
        }
        rbuf_size = need + extra;
    }
    /* worker teams: destroyed and split again now and then */
    if (remake) {
        ts[T].op = "team_destroy (worker teams)";
        for (int i = 0; i < nwt; i++)
            if (wt[i].team != SHMEM_TEAM_INVALID)
                shmem_team_destroy(wt[i].team);
        nwt = 1 + (int)rndn(&grng, NWTEAM);
        for (int i = 0; i < nwt; i++)
            make_wteam(i, (int)rndn(&grng, 18));
    }
    ts[T].op = "create shared contexts";
    npool = (int)rndn(&grng, 3);
    for (int i = 0; i < npool; i++) {
        pool_team[i] = -1;
        if (shmem_ctx_create(0, &pool[i]))
            fail(T, "shmem_ctx_create(0) for the shared pool failed");
    }
    if (rndn(&grng, 2)) {
        int j = (int)rndn(&grng, (uint64_t)nwt);
        if (wt[j].rel[me] >= 0) {
            pool_team[npool] = j;
            if (shmem_team_create_ctx(wt[j].team, 0, &pool[npool]))
                fail(T, "shmem_team_create_ctx(%s, 0) for the shared pool failed", wt[j].name);
            npool++;
        }
    }
    if (rndn(&grng, 2)) {
        if (shmem_ctx_create(SHMEM_CTX_SERIALIZED, &serctx))
            fail(T, "shmem_ctx_create(SERIALIZED) failed");
        have_ser = 1;
    }
    /* reset the words of this episode (every remote update of the last one completed
     * before the last barrier) */
#define X_Z(N, T) memset(cnt_##N, 0, sizeof cnt_##N);
    AMO_TYPES(X_Z)
#undef X_Z
    ticket = 0;
    memset(tbits, 0, sizeof tbits);
    swapw = 0;
    bword64 = 0;
    bword32 = 0;
    memset(lockval, 0, sizeof lockval);
    memset(mflag, 0, sizeof mflag);
    memset(cdst, 0, sizeof cdst); /* a pushing collective may write it before this PE calls */
    memset(cidst, 0, sizeof cidst);
    memset(msig, 0, sizeof msig);
    memset(bmodel64, 0, sizeof bmodel64);
    memset(bmodel32, 0, sizeof bmodel32);
    memset(texp, 0, sizeof texp);
    memset(tmax, 0, sizeof tmax);
}

static void verify(void)
{
    int T = MAXT;
    memset(exp_src, 0, sizeof exp_src);
    memset(max_src, 0, sizeof max_src);
    for (int t = 0; t < nthr; t++) {
        for (int i = 0; i < E_N; i++)
            exp_src[i] += texp[t][i];
        for (int i = 0; i < M_N; i++)
            if (tmax[t][i] > max_src[i])
                max_src[i] = tmax[t][i];
    }
    ts[T].op = "verify reductions";
    shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, exp_dst, exp_src, E_N);
    shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, max_dst, max_src, M_N);
    for (int ty = 0; ty < AT_N; ty++)
        for (int i = 0; i < NCNT; i++) {
            uint64_t want = trunc_to(exp_dst[E_CNT + (ty * NCNT + i) * MAXPE + me], at_size[ty]);
            uint64_t got = trunc_to(cnt_get[ty](i), at_size[ty]);
            if (got != want)
                fail(T,
                     "%s counter %d = %" PRIu64 ", expected %" PRIu64
                     " (lost or extra atomic updates)",
                     amo_tname[ty], i, got, want);
            uint64_t mx = max_dst[(ty * NCNT + i) * MAXPE + me];
            if (mx && mx - 1 >= want)
                fail(T, "%s counter %d: a fetch returned %" PRIu64 ", the final total is %" PRIu64,
                     amo_tname[ty], i, mx - 1, want);
        }
    uint64_t nt = exp_dst[E_TICK + me];
    if (ticket != nt)
        fail(T, "ticket counter = %" PRIu64 ", expected %" PRIu64, ticket, nt);
    for (uint64_t v = 0; v < TBITS; v++) {
        int set = (tbits[v / 64] >> (v % 64)) & 1;
        if (set != (v < nt))
            fail(T, "ticket bitmap bit %" PRIu64 " is %d with %" PRIu64 " tickets", v, set, nt);
    }
    if (exp_dst[E_SWW + me] + mix64(0) != exp_dst[E_SWR + me] + mix64(swapw))
        fail(T,
             "swap word: the values written and the values returned do not match (final %" PRIx64
             ")",
             swapw);
    for (int k = 0; k < NLOCK; k++)
        if (P.lockhome[k] == me && (uint64_t)lockval[k] != exp_dst[E_LOCK + k])
            fail(T,
                 "value protected by lock %d = %ld, expected %" PRIu64 " (mutual exclusion broken)",
                 k, lockval[k], exp_dst[E_LOCK + k]);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            nthr = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            maxsteps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            maxops = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--watchdog") && i + 1 < argc)
            wd_sec = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--trace"))
            trace = 1;
        else if (!strcmp(argv[i], "--focus") && i + 1 < argc) {
            i++;
            for (int f = 0; f < (int)(sizeof focus_k / sizeof focus_k[0]); f++)
                if (!strcmp(argv[i], focus_name[f]))
                    focus = f;
            if (focus < 0) {
                fprintf(stderr,
                        "thread_mix: --focus rma|mem|amo|bits|ticket|swap|ctx|sync|ptr|lock\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: thread_mix [--seed S] [--iters N] [--threads T] [--steps S] "
                            "[--ops K] [--focus KIND] [--trace] [--watchdog SEC]\n");
            return 2;
        }
    }
    if (nthr < 1 || nthr > MAXT || maxsteps < 1 || maxsteps > MAXSTEP)
        nthr = nthr < 1 ? 1 : nthr > MAXT ? MAXT : nthr;
    if (maxsteps < 1)
        maxsteps = 1;
    if (maxsteps > MAXSTEP)
        maxsteps = MAXSTEP;
    int prov = -1;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov) != 0) {
        fprintf(stderr, "thread_mix: shmem_init_thread failed\n");
        return 1;
    }
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (prov != SHMEM_THREAD_MULTIPLE) {
        if (me == 0)
            printf("thread_mix: provided thread level %d, not SHMEM_THREAD_MULTIPLE: skipped\n",
                   prov);
        shmem_finalize();
        return 77;
    }
    int q = -1;
    shmem_query_thread(&q);
    if (q != prov)
        fail(MAXT, "shmem_query_thread gives %d, shmem_init_thread provided %d", q, prov);
    if (npes > MAXPE || npes * nthr > 64) {
        if (me == 0)
            fprintf(stderr, "thread_mix: at most %d PEs and 64 PE x threads\n", MAXPE);
        shmem_finalize();
        return 77;
    }
    grng.s = seed;
    pthread_t wd;
    pthread_create(&wd, NULL, watchdog, NULL);
    pthread_detach(wd);
    for (int t = 0; t < nthr; t++) {
        workers[t].scratch = aligned_alloc(64, SCRATCH);
        workers[t].t = t;
    }
    if (me == 0)
        printf("thread_mix: seed %" PRIu64 ", %d episodes, %d PEs x %d threads\n", seed, iters,
               npes, nthr);
    time_t t0 = time(NULL);
    for (ep = 0; ep < iters; ep++) {
        ep_start = time(NULL);
        ep_running = 1;
        boundary();
        draw_plan();
        if (trace && me == 0)
            fprintf(stderr,
                    "== episode %d: %d steps, %d groups, %d messages, %d collectives, %d worker "
                    "teams, %d pool contexts%s\n",
                    ep, P.steps, P.ngrp, P.nmsg, P.ncoll, nwt, npool,
                    have_ser ? ", a serialized context" : "");
        ts[MAXT].op = "barrier_all (start)";
        shmem_barrier_all();
        pthread_t th[MAXT];
        for (int t = 0; t < nthr; t++) {
            workers[t].nown = 0;
            workers[t].npf = 0;
            workers[t].sused = 0;
            ts[t].step = 0;
            ts[t].op = "start";
            if (pthread_create(&th[t], NULL, worker_main, &workers[t]))
                fail(MAXT, "pthread_create failed");
        }
        for (int c = 0; c < P.ncoll; c++)
            main_coll(c);
        ts[MAXT].op = "join";
        for (int t = 0; t < nthr; t++)
            pthread_join(th[t], NULL);
        ts[MAXT].op = "barrier_all (end)";
        shmem_barrier_all();
        verify();
        ep_running = 0;
    }
    shmem_barrier_all();
    for (int i = 0; i < npool; i++)
        if (pool_team[i] < 0)
            shmem_ctx_destroy(pool[i]);
    if (have_ser)
        shmem_ctx_destroy(serctx);
    for (int i = 0; i < nwt; i++)
        if (wt[i].team != SHMEM_TEAM_INVALID)
            shmem_team_destroy(wt[i].team);
    shmem_free(rbuf);
    if (me == 0)
        printf("thread_mix: %d episodes passed in %ld s (seed %" PRIu64 ")\n", iters,
               (long)(time(NULL) - t0), seed);
    shmem_finalize();
    return 0;
}
