/* Deprecated active-set collectives back to back on reused pSyncs while some members
 * lag (usleep or a little compute) and the root or one fast member runs ahead, on the
 * whole job, a stride-2 set and a shifted set; roots vary.  Every call's data depends
 * on the iteration, the call and the root, so two calls that exchange their data (a
 * member taking another call's announcement from its pSync) are caught: every element
 * is checked, and the first wrong one prints a FAIL line (part, set, iteration, call,
 * PE, element, expected, got) and stops the job with a nonzero status.
 *
 * Two parts:
 * - spec: only what the specification allows (OpenSHMEM 1.5, section "Active-set-based
 *   collectives": a pSync may be reused once every previous collective using it has
 *   completed on all participating PEs; shmem_barrier and shmem_sync may use the same
 *   pSync on consecutive calls with the same active set).  Each iteration runs two
 *   broadcasts on pSync B[0] and B[1] and then one "full" collective (fcollect, collect,
 *   a reduction or a barrier: none returns on any member before every member entered it)
 *   on F[it % 2]; a member that returns from that full call knows everyone completed the
 *   broadcasts before it and the full call on the other F, which is what reusing B[0],
 *   B[1] and F[(it + 1) % 2] next needs.  Dests and pWrk follow the same rule (the dests
 *   of a call are double-buffered by iteration: "dest ready to accept" holds because
 *   each iteration has a full call).  Barriers between the phases use their own pSync,
 *   consecutive barriers only.
 * - ext: what this library promises beyond that (docs/api.md "broadcasts may follow each
 *   other without any barrier"; src/coll/coll_aset.c: every other active-set call ends
 *   with a barrier, so its pSync may be reused at once): bursts of broadcasts from one
 *   root back to back on ONE pSync (and on two taking turns), shmem_broadcast64 and 32
 *   of sizes whose data fits in the announcement itself (the case where two calls of
 *   one burst exchanged their data) and larger ones, followed at once by a full
 *   collective on the same pSync; a barrier on the barrier pSync before the root
 *   changes.  A program that must stay portable does not do this.
 *
 * usage: coll_aset_race [iterations per set and part] (default 24) */
#include "tests.h"
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define NMAX 4100 /* largest broadcast64: 32800 bytes, past the same-node ring's 32 KiB */
#define NRED 24
#define NPS 6 /* pSync arrays: B[0], B[1], F[0], F[1], ext's P, the barriers' */

static long pSyncs[NPS][SHMEM_SYNC_SIZE];
static int iWrk[NPS][SHMEM_REDUCE_MIN_WRKDATA_SIZE + NRED];
static long lWrk[NPS][SHMEM_REDUCE_MIN_WRKDATA_SIZE + NRED];
static int64_t s64[NMAX], b64[3][NMAX], f64[2][8 * 64];
static int32_t s32[2 * NMAX], b32[3][2 * NMAX], c32[2][8 * 64];
static int isrc[NRED], idst[2][NRED];
static long lsrc[NRED], ldst[2][NRED];

static const char *part;
static int set_start, set_logs, set_size;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    return x;
}

/* element i of call c of iteration it from member r: distinct for every call */
static int64_t val(int it, int c, int r, int i)
{
    return (int64_t)(mix(((uint64_t)it << 40) ^ ((uint64_t)c << 32) ^ ((uint64_t)r << 20) ^
                         (uint64_t)i) >>
                     1);
}

static void fail(int it, const char *call, int root, int i, int64_t want, int64_t got)
{
    fprintf(stderr,
            "coll_aset_race: FAIL part %s set (PE_start %d, logPE_stride %d, PE_size %d) "
            "iteration %d call %s root %d: PE %d element %d expected %lld got %lld\n",
            part, set_start, set_logs, set_size, it, call, root, shmem_my_pe(), i, (long long)want,
            (long long)got);
    fflush(stderr);
    shmem_global_exit(1);
}

/* member lagging before call c: sleep, compute or neither (fast: never) */
static volatile double sink;
static void lag(int it, int c, int me, int fast)
{
    uint64_t h = mix(((uint64_t)it << 24) ^ ((uint64_t)c << 8) ^ (uint64_t)me ^ 0x5bd1e995);

    if (fast)
        return;
    switch (h % 5) {
    case 0: usleep((useconds_t)(h >> 8) % 120); break;
    case 1: {
        double x = 1.0;
        for (unsigned k = 0; k < (h >> 8) % 3000; k++)
            x = x * 1.0000001 + 1e-9;
        sink = x;
        break;
    }
    default: break;
    }
}

static void bcast64(int it, int c, int64_t *d, size_t n, int root, int r, long *ps)
{
    for (size_t i = 0; i < n; i++)
        s64[i] = val(it, c, r, (int)i);
    shmem_broadcast64(d, s64, n, root, set_start, set_logs, set_size, ps);
    if (r != root)
        for (size_t i = 0; i < n; i++)
            if (d[i] != val(it, c, root, (int)i))
                fail(it, "shmem_broadcast64", root, (int)i, val(it, c, root, (int)i), d[i]);
}

static void bcast32(int it, int c, int32_t *d, size_t n, int root, int r, long *ps)
{
    for (size_t i = 0; i < n; i++)
        s32[i] = (int32_t)val(it, c, r, (int)i);
    shmem_broadcast32(d, s32, n, root, set_start, set_logs, set_size, ps);
    if (r != root)
        for (size_t i = 0; i < n; i++)
            if (d[i] != (int32_t)val(it, c, root, (int)i))
                fail(it, "shmem_broadcast32", root, (int)i, (int32_t)val(it, c, root, (int)i),
                     d[i]);
}

/* a call that returns on no member before every member entered it: kind it % 5 */
static void full(int it, int c, int r, int par, int ps)
{
    int n = set_size;

    switch ((it + c) % 5) {
    case 0: /* fcollect64: 3 elements from every member */
        for (int i = 0; i < 3; i++)
            s64[i] = val(it, c, r, i);
        shmem_fcollect64(f64[par], s64, 3, set_start, set_logs, n, pSyncs[ps]);
        for (int p = 0; p < n; p++)
            for (int i = 0; i < 3; i++)
                if (f64[par][p * 3 + i] != val(it, c, p, i))
                    fail(it, "shmem_fcollect64", -1, p * 3 + i, val(it, c, p, i),
                         f64[par][p * 3 + i]);
        break;
    case 1: /* collect32: (r + it) % 3 + 1 elements from member r */
        for (int i = 0; i < 3; i++)
            s32[i] = (int32_t)val(it, c, r, i);
        shmem_collect32(c32[par], s32, (size_t)((r + it) % 3 + 1), set_start, set_logs, n,
                        pSyncs[ps]);
        for (int p = 0, o = 0; p < n; o += (p + it) % 3 + 1, p++)
            for (int i = 0; i < (p + it) % 3 + 1; i++)
                if (c32[par][o + i] != (int32_t)val(it, c, p, i))
                    fail(it, "shmem_collect32", -1, o + i, (int32_t)val(it, c, p, i),
                         c32[par][o + i]);
        break;
    case 2:
        for (int i = 0; i < NRED; i++)
            isrc[i] = (int)(val(it, c, r, i) % 1000);
        shmem_int_sum_to_all(idst[par], isrc, NRED, set_start, set_logs, n, iWrk[ps], pSyncs[ps]);
        for (int i = 0; i < NRED; i++) {
            int e = 0;
            for (int p = 0; p < n; p++)
                e += (int)(val(it, c, p, i) % 1000);
            if (idst[par][i] != e)
                fail(it, "shmem_int_sum_to_all", -1, i, e, idst[par][i]);
        }
        break;
    case 3:
        for (int i = 0; i < NRED; i++)
            lsrc[i] = (long)val(it, c, r, i);
        shmem_long_max_to_all(ldst[par], lsrc, NRED, set_start, set_logs, n, lWrk[ps], pSyncs[ps]);
        for (int i = 0; i < NRED; i++) {
            long e = (long)val(it, c, 0, i);
            for (int p = 1; p < n; p++)
                e = (long)val(it, c, p, i) > e ? (long)val(it, c, p, i) : e;
            if (ldst[par][i] != e)
                fail(it, "shmem_long_max_to_all", -1, i, e, ldst[par][i]);
        }
        break;
    default: shmem_barrier(set_start, set_logs, n, pSyncs[ps]); break;
    }
}

/* broadcast sizes: those that fit in the announcement (8 bytes or less), a few ring
 * slots, and now and then the ring's largest or past it */
static size_t n64(int it, int c)
{
    static const size_t s[] = { 1, 1, 2, 3, 300, 1, 1024, 1, 4100 };
    return s[(unsigned)(it * 3 + c) % (sizeof(s) / sizeof(s[0]))];
}

static size_t n32(int it, int c)
{
    static const size_t s[] = { 2, 1, 2, 7, 513, 2, 1, 8192 };
    return s[(unsigned)(it * 5 + c) % (sizeof(s) / sizeof(s[0]))];
}

static void part_spec(int iters, int r)
{
    int n = set_size;

    part = "spec";
    for (int it = 0; it < iters; it++) {
        int root = (it * 5 + it / 3) % n, par = it % 2, fast = (it + 1) % n;
        lag(it, 0, r, r == root);
        bcast64(it, 0, b64[par], n64(it, 0), root, r, pSyncs[0]);
        lag(it, 1, r, r == root);
        bcast32(it, 1, b32[par], n32(it, 1), root, r, pSyncs[1]);
        lag(it, 2, r, r == fast);
        full(it, 2, r, par, 2 + par);
        if (it % 7 == 6) /* consecutive barriers on one pSync, one PE ahead */
            for (int k = 0; k < 3; k++) {
                lag(it, 3 + k, r, r == fast);
                shmem_barrier(set_start, set_logs, n, pSyncs[5]);
            }
    }
}

static void part_ext(int iters, int r)
{
    int n = set_size;

    part = "ext";
    for (int it = 0; it < iters; it++) {
        int streak = it / 4, root = (streak + streak / 3) % n, par = it % 2;
        if (it % 4 == 0) /* a new root: everyone is done with the last one's */
            shmem_barrier(set_start, set_logs, n, pSyncs[5]);
        /* a burst on one pSync (even iterations) or two taking turns (odd) */
        for (int c = 0; c < 6; c++) {
            long *ps = pSyncs[it % 2 ? 4 - c % 2 : 4];
            int b = c / 2; /* a dest of its own for each call of the burst */
            if (c == 0)    /* the members wait in their queues, then the burst comes */
                lag(it, c, r, r != root);
            else if (c % 3 == 2)
                lag(it, c, r, r == root);
            if (c % 2 == 0)
                bcast64(it, 10 + c, b64[b], c < 4 ? 1 : n64(it, c), root, r, ps);
            else
                bcast32(it, 10 + c, b32[b], c < 4 ? (size_t)(1 + c / 2 % 2) : n32(it, c), root, r,
                        ps);
        }
        /* then at once a full call on the burst's last pSync */
        lag(it, 20, r, r == root);
        full(it, 20, r, par, 4);
    }
}

static void run_set(int start, int logs, int size, int iters)
{
    int me = shmem_my_pe(), stride = 1 << logs;

    if (size < 1 || me < start || (me - start) % stride || (me - start) / stride >= size)
        return;
    set_start = start;
    set_logs = logs;
    set_size = size;
    part_spec(iters, (me - start) / stride);
    shmem_barrier(start, logs, size, pSyncs[5]);
    part_ext(iters, (me - start) / stride);
    shmem_barrier(start, logs, size, pSyncs[5]);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 24, npes;

    for (int p = 0; p < NPS; p++)
        for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
            pSyncs[p][i] = SHMEM_SYNC_VALUE;
    shmem_init();
    npes = shmem_n_pes();
    run_set(0, 0, npes, iters);
    shmem_barrier_all(); /* every set's calls completed: its pSyncs may serve the next */
    run_set(0, 1, (npes + 1) / 2, iters);
    shmem_barrier_all();
    run_set(1, 0, npes - 1, iters);
    shmem_barrier_all();
    run_set(1, 1, npes / 2, iters);
    shmem_barrier_all();
    for (int p = 0; p < NPS; p++)
        for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
            CHECK(pSyncs[p][i] == SHMEM_SYNC_VALUE);
    return test_finish("coll_aset_race");
}
