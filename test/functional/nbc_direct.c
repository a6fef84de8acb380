/* Non-blocking fcollect, alltoall and reductions on one node above the ring's size (the direct path,
 * src/coll/nbc_shm.c, SHMEM_NBC_DIRECT; the engine's with SHMEM_NBC_DIRECT=0): results
 * against the blocking forms on the world team, a team of every other PE and a team of
 * the last three, blocks of 2 KiB to 200 KiB and odd sizes, several requests outstanding
 * with small (ring) ones between them, completed in reverse order or polled by
 * req_test, buffers refilled and posted again right after each wait.
 * "progress": PE 0 posts a direct fcollect and alltoall, then computes without calling
 * the library; the others must complete meanwhile, with or without an engine thread:
 * the later poster of each pair makes its transfers.
 * "bad_order": PE 0 posts an fcollect where the others post an alltoall (a named error).
 * "open_at_finalize": requests never waited for, completed by shmem_finalize. */
#include <shmemx.h>
#include <string.h>
#include <time.h>

#include "tests.h"

#define MAXB (200 * 1024 + 24) /* bytes per block at most */
#define MAXN 8                 /* PEs at most for the largest blocks */

static unsigned char *src, *dst, *ref;
static long *lsrc, *ldst;
static double *dsrc, *ddst;
static unsigned char small_s[64 * MAXN], small_d[64 * MAXN], small_r[64 * MAXN];
static int me, npes;

static void fill(unsigned char *a, size_t n, int salt)
{
    for (size_t i = 0; i < n; i++)
        a[i] = (unsigned char)(me * 31 + (int)(i % 251) + salt * 7);
}

static int same(const unsigned char *a, const unsigned char *b, size_t n, const char *what,
                size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            fprintf(stderr, "PE %d: %s of %zu-byte blocks: byte %zu of %zu is %u, expected %u\n",
                    me, what, len, i, n, a[i], b[i]);
            return 0;
        }
    return 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* reductions of len bytes on team t (of n members, me its tme-th): a long sum into
 * ldst and in place in lsrc, a double max into ddst, outstanding together, each against
 * the values every member's fill gives */
static void reduce_on(shmem_team_t t, size_t len, int salt)
{
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
    size_t nl = len / sizeof(long), nd = len / sizeof(double);
    shmemx_req_h r[3];
    long base = 0;

    if (tme < 0)
        return;
    for (int k = 0; k < n; k++)
        base += (long)(k + 1) * 1000;
    for (size_t i = 0; i < nl; i++)
        lsrc[i] = (long)(tme + 1) * 1000 + (long)i * 7 + salt;
    for (size_t i = 0; i < nd; i++)
        dsrc[i] = (double)(tme * 3 + (int)(i % 5)) + 0.25;
    memcpy(lsrc + nl, lsrc, nl * sizeof(long));
    CHECK(shmemx_long_sum_reduce_nb(t, ldst, lsrc, nl, &r[0]) == 0);
    CHECK(shmemx_double_max_reduce_nb(t, ddst, dsrc, nd, &r[1]) == 0);
    CHECK(shmemx_long_sum_reduce_nb(t, lsrc + nl, lsrc + nl, nl, &r[2]) == 0);
    CHECK(shmemx_req_wait(&r[2]) == 0);
    CHECK(shmemx_req_wait(&r[0]) == 0);
    CHECK(shmemx_req_wait(&r[1]) == 0);
    for (size_t i = 0; i < nl; i++) {
        long want = base + (long)n * ((long)i * 7 + salt);
        if (ldst[i] != want || lsrc[nl + i] != want) {
            fprintf(stderr,
                    "PE %d: sum of %zu longs: element %zu is %ld (in place %ld), expected %ld\n",
                    me, nl, i, ldst[i], lsrc[nl + i], want);
            CHECK(0);
            break;
        }
    }
    for (size_t i = 0; i < nd; i++)
        if (ddst[i] != (double)((n - 1) * 3 + (int)(i % 5)) + 0.25) {
            fprintf(stderr, "PE %d: max of %zu doubles: element %zu is %g\n", me, nd, i, ddst[i]);
            CHECK(0);
            break;
        }
    shmem_team_sync(t);
}

/* fcollect and alltoall of len bytes per block on team t: four requests outstanding
 * (two of them small, through the ring), completed in reverse order or by req_test, each
 * checked against the blocking form on the same team, then posted again at once with
 * new contents */
static void round_on(shmem_team_t t, size_t len, int salt, int use_test)
{
    int n = shmem_team_n_pes(t);
    shmemx_req_h r[4];
    size_t half = (size_t)n * len;

    if (shmem_team_my_pe(t) < 0)
        return;
    for (int rep = 0; rep < 2; rep++) {
        fill(src, 2 * half, salt + rep);
        memset(dst, 0, 2 * half);
        fill(small_s, sizeof(small_s), salt + rep + 1);
        CHECK(shmemx_fcollectmem_nb(t, dst, src, len, &r[0]) == 0);
        CHECK(shmemx_fcollectmem_nb(t, small_d, small_s, 8, &r[1]) == 0);
        CHECK(shmemx_alltoallmem_nb(t, dst + half, src + half, len, &r[2]) == 0);
        CHECK(shmemx_alltoallmem_nb(t, small_d + 8 * n, small_s + 8 * n, 4, &r[3]) == 0);
        for (int i = 3; i >= 0; i--) {
            if (use_test) {
                int done = 0;
                while (!done)
                    CHECK(shmemx_req_test(&r[i], &done) == 0);
            } else {
                CHECK(shmemx_req_wait(&r[i]) == 0);
            }
            CHECK(r[i] == SHMEMX_REQ_NULL);
        }
        /* the reference into ref, the same team, blocking */
        shmem_fcollectmem(t, ref, src, len);
        shmem_alltoallmem(t, ref + half, src + half, len);
        CHECK(same(dst, ref, half, "fcollect", len));
        CHECK(same(dst + half, ref + half, half, "alltoall", len));
        shmem_fcollectmem(t, small_r, small_s, 8);
        shmem_alltoallmem(t, small_r + 8 * n, small_s + 8 * n, 4);
        CHECK(same(small_d, small_r, (size_t)12 * n, "small fcollect/alltoall", 8));
        /* nobody refills src or reads ref for the next round before everyone is done */
        shmem_team_sync(t);
    }
}

static int all(void)
{
    static const size_t lens[] = { 2048, 4104, 24 * 1024 + 8, 65536, MAXB };
    shmem_team_t odd = SHMEM_TEAM_INVALID, last3 = SHMEM_TEAM_INVALID;

    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    if (npes >= 3)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 3, 1, 3, NULL, 0, &last3);
    for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
        round_on(SHMEM_TEAM_WORLD, lens[k], (int)k, (int)k & 1);
        reduce_on(SHMEM_TEAM_WORLD, lens[k] * 4, (int)k);
        if (odd != SHMEM_TEAM_INVALID) {
            round_on(odd, lens[k], (int)k + 3, 0);
            reduce_on(odd, lens[k], (int)k + 3);
        }
        if (last3 != SHMEM_TEAM_INVALID) {
            round_on(last3, lens[k], (int)k + 5, 1);
            reduce_on(last3, lens[k] + 8, (int)k + 5);
        }
        shmem_barrier_all();
    }
    /* seventy direct requests outstanding on the world team at once, more than its ring
     * of 64 entries: a post waits for an entry, completing earlier requests meanwhile */
    {
        enum { R = 70 };
        size_t len = 2048, per = (size_t)npes * len;
        shmemx_req_h r[R];
        fill(src, (size_t)R * len, 9);
        for (int i = 0; i < R; i++)
            CHECK(shmemx_fcollectmem_nb(SHMEM_TEAM_WORLD, dst + (size_t)i * per,
                                        src + (size_t)i * len, len, &r[i]) == 0);
        for (int i = 0; i < R; i++)
            CHECK(shmemx_req_wait(&r[i]) == 0);
        /* the expected contents: PE k's bytes (fill) at i x len of its source */
        for (int i = 0; i < R; i++) {
            for (int k = 0; k < npes; k++)
                for (size_t b = 0; b < len; b++)
                    ref[(size_t)k * len + b] =
                        (unsigned char)(k * 31 + (int)(((size_t)i * len + b) % 251) + 9 * 7);
            CHECK(same(dst + (size_t)i * per, ref, per, "one of seventy fcollects", len));
        }
    }
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    if (last3 != SHMEM_TEAM_INVALID)
        shmem_team_destroy(last3);
    return test_finish("nbc_direct");
}

/* PE 0 posts first, then computes; the others post 0.1 s later, so their posts find PE
 * 0's entries and make every transfer with it: they complete (and tell PE 0 with an
 * atomic increment of a counter it reads with plain loads) while PE 0 makes no library
 * call, whether or not it has an engine thread */
#define NBC_PROGRESS_S 60.0
static int progress(void)
{
    static long done;
    size_t len = 64 * 1024, half = (size_t)npes * len;
    shmemx_req_h r[3];
    volatile double x = 0;
    double t0, t;
    size_t nl = len / sizeof(long);

    fill(src, 2 * half, 1);
    for (size_t i = 0; i < nl; i++)
        lsrc[i] = (long)(me + 1) * (long)i;
    shmem_barrier_all();
    t0 = now();
    if (me != 0) {
        struct timespec ts = { 0, 100000000 };
        nanosleep(&ts, NULL);
    }
    CHECK(shmemx_fcollectmem_nb(SHMEM_TEAM_WORLD, dst, src, len, &r[0]) == 0);
    CHECK(shmemx_alltoallmem_nb(SHMEM_TEAM_WORLD, dst + half, src + half, len, &r[1]) == 0);
    CHECK(shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, ldst, lsrc, nl, &r[2]) == 0);
    if (me == 0) {
        long seen = 0;
        while ((t = now() - t0) < NBC_PROGRESS_S &&
               (seen = __atomic_load_n(&done, __ATOMIC_ACQUIRE)) < npes - 1)
            for (int i = 0; i < 1000; i++)
                x += i * 0.5;
        if (seen < npes - 1)
            fprintf(stderr, "PE 0: %ld of the %d other PEs completed while it computed %.1f s\n",
                    seen, npes - 1, t);
        CHECK(seen == npes - 1);
    }
    CHECK(shmemx_req_wait(&r[0]) == 0);
    CHECK(shmemx_req_wait(&r[1]) == 0);
    CHECK(shmemx_req_wait(&r[2]) == 0);
    for (size_t i = 0; i < nl; i++)
        if (ldst[i] != (long)(npes * (npes + 1) / 2) * (long)i) {
            fprintf(stderr, "PE %d: sum element %zu is %ld\n", me, i, ldst[i]);
            CHECK(0);
            break;
        }
    if (me != 0)
        shmem_long_atomic_inc(&done, 0);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, ref, src, len);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, ref + half, src + half, len);
    CHECK(same(dst, ref, 2 * half, "fcollect and alltoall", len));
    return test_finish("nbc_direct progress");
}

/* PE 0 posts an fcollect of 64 KiB blocks where the others post an alltoall of the same
 * blocks: named by whoever looks at the other's entry first */
static int bad_order(void)
{
    size_t len = 64 * 1024;
    shmemx_req_h r;

    if (me == 0)
        shmemx_fcollectmem_nb(SHMEM_TEAM_WORLD, dst, src, len, &r);
    else
        shmemx_alltoallmem_nb(SHMEM_TEAM_WORLD, dst, src, len, &r);
    shmemx_req_wait(&r);
    return test_finish("nbc_direct bad_order (should not get here)");
}

/* direct requests never waited for: shmem_finalize names them, completes them (PE 1
 * posts late, so PE 0's are still open) and the job ends normally */
static int open_at_finalize(void)
{
    size_t len = 64 * 1024;
    shmemx_req_h r[2];

    if (me == 1) {
        struct timespec ts = { 0, 50000000 };
        nanosleep(&ts, NULL);
    }
    CHECK(shmemx_fcollectmem_nb(SHMEM_TEAM_WORLD, dst, src, len, &r[0]) == 0);
    CHECK(shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, ldst, lsrc, len / sizeof(long), &r[1]) == 0);
    shmem_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXN) {
        if (me == 0)
            printf("nbc_direct: at most %d PEs\n", MAXN);
        shmem_finalize();
        return 77;
    }
    src = shmem_malloc((size_t)2 * MAXN * MAXB);
    dst = shmem_malloc((size_t)2 * MAXN * MAXB);
    ref = shmem_malloc((size_t)2 * MAXN * MAXB);
    lsrc = shmem_malloc((size_t)8 * MAXB + 64);
    ldst = shmem_malloc((size_t)4 * MAXB + 64);
    dsrc = shmem_malloc((size_t)4 * MAXB + 64);
    ddst = shmem_malloc((size_t)4 * MAXB + 64);
    CHECK(src && dst && ref && lsrc && ldst && dsrc && ddst);
    if (!strcmp(mode, "progress"))
        return progress();
    if (!strcmp(mode, "bad_order"))
        return bad_order();
    if (!strcmp(mode, "open_at_finalize"))
        return open_at_finalize();
    return all();
}
