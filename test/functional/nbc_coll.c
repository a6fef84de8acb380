/* Non-blocking collectives (shmemx_*_nb): every family against its blocking form, several
 * requests outstanding on one team and on two teams, mixed with blocking collectives;
 * "progress": PE 0 posts, then computes ~1 s without calling the library, and the others
 * must complete meanwhile; bad_*: errors the library must name (expect_fail.sh). */
#include <shmemx.h>
#include <complex.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "tests.h"

#define N 700 /* elements: 5.6 KB of longs, so reductions take the reduce-scatter path too */

static long src[4][N * 8], dst[4][N * 8], ref[4][N * 8];
static double dsrc[N], ddst[N], dref[N];
static int me, npes;

static void fill(long *a, size_t n, int salt)
{
    for (size_t i = 0; i < n; i++)
        a[i] = (long)(me + 1) * 1000 + (long)i * 7 + salt;
}

static int same(const long *a, const long *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            fprintf(stderr, "PE %d: element %zu of %zu: %ld, expected %ld\n", me, i, n, a[i], b[i]);
            return 0;
        }
    return 1;
}

static void wait_or_test(shmemx_req_h *r, int use_test)
{
    if (use_test) {
        int done = 0;
        while (!done)
            CHECK(shmemx_req_test(r, &done) == 0);
    } else {
        CHECK(shmemx_req_wait(r) == 0);
    }
    CHECK(*r == SHMEMX_REQ_NULL);
}

/* each family once on team t (of n members), against the blocking form */
static void families(shmem_team_t t, int use_test)
{
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
    shmemx_req_h r[8];
    size_t k = 37;

    if (tme < 0)
        return;
    for (int i = 0; i < 4; i++)
        fill(src[i], N * 8, i);
    /* broadcast from the last member, fcollect, alltoall, sum: four outstanding at once */
    memset(dst, 0, sizeof(dst));
    memset(ref, 0, sizeof(ref)); /* before the sync: blocking forms may write it early */
    shmem_team_sync(t);
    CHECK(shmemx_long_broadcast_nb(t, dst[0], src[0], N, n - 1, &r[0]) == 0);
    CHECK(shmemx_long_fcollect_nb(t, dst[1], src[1], k, &r[1]) == 0);
    CHECK(shmemx_long_alltoall_nb(t, dst[2], src[2], k, &r[2]) == 0);
    CHECK(shmemx_long_sum_reduce_nb(t, dst[3], src[3], N, &r[3]) == 0);
    for (int i = 3; i >= 0; i--) /* completed in any order */
        wait_or_test(&r[i], use_test);
    shmem_long_broadcast(t, ref[0], src[0], N, n - 1);
    shmem_long_fcollect(t, ref[1], src[1], k);
    shmem_long_alltoall(t, ref[2], src[2], k);
    shmem_long_sum_reduce(t, ref[3], src[3], N);
    CHECK(same(dst[0], ref[0], N));
    CHECK(same(dst[1], ref[1], k * (size_t)n));
    CHECK(same(dst[2], ref[2], k * (size_t)n));
    CHECK(same(dst[3], ref[3], N));

    /* collect (member i gives i + 1 elements), alltoalls, scans, max, xor, team_sync */
    memset(dst, 0, sizeof(dst));
    memset(ref, 0, sizeof(ref));
    shmem_team_sync(t);
    CHECK(shmemx_long_collect_nb(t, dst[0], src[0], (size_t)tme + 1, &r[0]) == 0);
    CHECK(shmemx_long_alltoalls_nb(t, dst[1], src[1], 2, 3, 5, &r[1]) == 0);
    CHECK(shmemx_long_sum_inscan_nb(t, dst[2], src[2], N, &r[2]) == 0);
    CHECK(shmemx_long_sum_exscan_nb(t, dst[3], src[3], N, &r[3]) == 0);
    CHECK(shmemx_team_sync_nb(t, &r[4]) == 0);
    for (int i = 0; i < 5; i++)
        wait_or_test(&r[i], use_test);
    shmem_long_collect(t, ref[0], src[0], (size_t)tme + 1);
    shmem_long_alltoalls(t, ref[1], src[1], 2, 3, 5);
    shmem_long_sum_inscan(t, ref[2], src[2], N);
    shmem_long_sum_exscan(t, ref[3], src[3], N);
    CHECK(same(dst[0], ref[0], (size_t)n * (size_t)(n + 1) / 2));
    CHECK(same(dst[1], ref[1], N * 8));
    CHECK(same(dst[2], ref[2], N));
    if (tme > 0) /* the exclusive scan leaves rank 0's dest as the spec says: compare the rest */
        CHECK(same(dst[3], ref[3], N));

    memset(dst, 0, sizeof(dst));
    memset(ref, 0, sizeof(ref));
    fill(ref[3], N, 3);
    shmem_team_sync(t);
    CHECK(shmemx_long_max_reduce_nb(t, dst[0], src[0], N, &r[0]) == 0);
    CHECK(shmemx_int64_xor_reduce_nb(t, (int64_t *)dst[1], (int64_t *)src[1], N, &r[1]) == 0);
    for (size_t i = 0; i < N; i++)
        dsrc[i] = (double)(tme + 1) * 0.5 + (double)i; /* exact sums */
    CHECK(shmemx_double_sum_reduce_nb(t, ddst, dsrc, N, &r[2]) == 0);
    /* in place */
    CHECK(shmemx_long_min_reduce_nb(t, src[3], src[3], N, &r[3]) == 0);
    CHECK(shmemx_broadcastmem_nb(t, dst[2], src[2], 100, 0, &r[4]) == 0);
    for (int i = 0; i < 5; i++)
        wait_or_test(&r[i], use_test);
    shmem_long_max_reduce(t, ref[0], src[0], N);
    shmem_int64_xor_reduce(t, (int64_t *)ref[1], (int64_t *)src[1], N);
    shmem_double_sum_reduce(t, dref, dsrc, N);
    shmem_long_min_reduce(t, ref[3], ref[3], N);
    shmem_broadcastmem(t, ref[2], src[2], 100, 0);
    CHECK(same(dst[0], ref[0], N));
    CHECK(same(dst[1], ref[1], N));
    CHECK(memcmp(ddst, dref, sizeof(ddst)) == 0);
    CHECK(same(src[3], ref[3], N));
    CHECK(memcmp(dst[2], ref[2], 100) == 0);
    shmem_team_sync(t);
}

/* the untyped *mem forms, and reductions of other types and operators */
static void more_forms(shmem_team_t t)
{
    static unsigned int ua[N], ub[N], ur[N];
    static int ia[N], ib[N], ir[N];
    static float fa[N], fb[N], fr[N];
    static double _Complex ca[N], cb[N], cr[N];
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
    shmemx_req_h r[8];

    if (tme < 0)
        return;
    for (int i = 0; i < 4; i++)
        fill(src[i], N * 8, i + 10);
    for (int i = 0; i < N; i++) {
        ua[i] = (unsigned)(tme * 37 + i) | (1u << (tme % 7));
        ia[i] = (i % 5 == 0) ? 2 : 1 + (tme == i % n);
        fa[i] = (float)(tme * 3 - i);
        ca[i] = (double)(tme + i) + (double)(i - tme) * _Complex_I;
    }
    memset(dst, 0, sizeof(dst));
    memset(ref, 0, sizeof(ref));
    shmem_team_sync(t);
    CHECK(shmemx_collectmem_nb(t, dst[0], src[0], 8 * ((size_t)tme + 2), &r[0]) == 0);
    CHECK(shmemx_fcollectmem_nb(t, dst[1], src[1], 24, &r[1]) == 0);
    CHECK(shmemx_alltoallmem_nb(t, dst[2], src[2], 40, &r[2]) == 0);
    CHECK(shmemx_alltoallsmem_nb(t, dst[3], src[3], 3, 2, 16, &r[3]) == 0);
    CHECK(shmemx_uint_and_reduce_nb(t, ub, ua, N, &r[4]) == 0);
    CHECK(shmemx_int_prod_reduce_nb(t, ib, ia, N, &r[5]) == 0);
    CHECK(shmemx_float_max_reduce_nb(t, fb, fa, N, &r[6]) == 0);
    CHECK(shmemx_complexd_sum_reduce_nb(t, cb, ca, N, &r[7]) == 0);
    for (int i = 7; i >= 0; i--)
        wait_or_test(&r[i], i % 2);
    shmem_collectmem(t, ref[0], src[0], 8 * ((size_t)tme + 2));
    shmem_fcollectmem(t, ref[1], src[1], 24);
    shmem_alltoallmem(t, ref[2], src[2], 40);
    shmem_alltoallsmem(t, ref[3], src[3], 3, 2, 16);
    shmem_uint_and_reduce(t, ur, ua, N);
    shmem_int_prod_reduce(t, ir, ia, N);
    shmem_float_max_reduce(t, fr, fa, N);
    shmem_complexd_sum_reduce(t, cr, ca, N);
    CHECK(same(dst[0], ref[0], (size_t)n * (size_t)(n + 3) / 2));
    CHECK(same(dst[1], ref[1], 3 * (size_t)n));
    CHECK(same(dst[2], ref[2], 5 * (size_t)n));
    CHECK(same(dst[3], ref[3], N * 8));
    CHECK(memcmp(ub, ur, sizeof(ub)) == 0);
    CHECK(memcmp(ib, ir, sizeof(ib)) == 0);
    CHECK(memcmp(fb, fr, sizeof(fb)) == 0);
    CHECK(memcmp(cb, cr, sizeof(cb)) == 0);
    shmem_team_sync(t);
}

/* two teams (even and odd world PEs) with requests outstanding on both, and a blocking
 * collective on a third team while they are */
static void two_teams(void)
{
    static long a[N], b[N], c[N], e[N], w[N];
    shmem_team_t even = SHMEM_TEAM_INVALID, all2 = SHMEM_TEAM_INVALID;
    shmemx_req_h r1 = SHMEMX_REQ_NULL, r2 = SHMEMX_REQ_NULL;
    int par = me % 2;

    shmem_team_split_strided(SHMEM_TEAM_WORLD, par, 2, (npes - par + 1) / 2, NULL, 0, &even);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all2);
    for (int i = 0; i < N; i++)
        a[i] = me + i;
    CHECK(shmemx_long_sum_reduce_nb(even, b, a, N, &r1) == 0);
    CHECK(shmemx_sum_reduce_nb(all2, c, a, N, &r2) == 0); /* C11 generic */
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, w, a, N);     /* blocking, another team */
    CHECK(shmemx_req_wait(&r2) == 0);
    CHECK(shmemx_req_wait(&r1) == 0);
    shmem_long_sum_reduce(even, e, a, N);
    CHECK(same(b, e, N));
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, e, a, N);
    CHECK(same(c, e, N));
    CHECK(w[0] == npes - 1);
    shmem_team_destroy(even);
    shmem_team_destroy(all2);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* SHMEM_NBC_THREAD as the library reads it (include/ofs_env_defs.h: a BOOL, default 1) */
static int engine_thread_on(void)
{
    static const char *no[] = { "0", "n", "no", "false", "off", "" };
    const char *v = getenv("SHMEM_NBC_THREAD");

    if (!v)
        return 1;
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (!strcasecmp(v, no[i]))
            return 0;
    return 1;
}

/* PE 0 posts an alltoall, then computes without library calls until the others tell it
 * (an atomic increment of its own counter, which it reads with plain loads) that their
 * requests completed: its engine thread served them.  No time bound: on a loaded machine
 * that thread may wait long for a CPU, but the others must finish while PE 0 computes
 * (PE 0 gives up after NBC_PROGRESS_S and the test fails).  With SHMEM_NBC_THREAD=0
 * nobody serves PE 0's part while it computes: it computes 1 s, the others wait for it
 * (their waits must not fail or time out meanwhile) and only the results are checked. */
#define NBC_PROGRESS_S 60.0
static int progress(void)
{
    static long s[64 * 8], d[64 * 8];
    static long done;
    shmemx_req_h r, rs;
    volatile double x = 0;
    double t0, t;
    int served = engine_thread_on();

    for (int i = 0; i < 64 * npes; i++)
        s[i] = me * 100 + i;
    shmem_barrier_all();
    t0 = now();
    /* the others post 0.1 s after PE 0, so PE 0 finds nothing to do while it posts: the
     * sync needs it to take its rounds later, and the alltoall starts after the sync */
    if (me != 0) {
        struct timespec ts = { 0, 100000000 };
        nanosleep(&ts, NULL);
    }
    CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &rs) == 0);
    CHECK(shmemx_long_alltoall_nb(SHMEM_TEAM_WORLD, d, s, 64, &r) == 0);
    if (me == 0) {
        long seen = 0;
        while ((t = now() - t0) < (served ? NBC_PROGRESS_S : 1.0) &&
               (!served || (seen = __atomic_load_n(&done, __ATOMIC_ACQUIRE)) < npes - 1))
            for (int i = 0; i < 1000; i++)
                x += i * 0.5;
        if (served && seen < npes - 1)
            fprintf(stderr, "PE 0: %ld of the %d other PEs completed while it computed %.1f s\n",
                    seen, npes - 1, t);
        CHECK(!served || seen == npes - 1);
        CHECK(shmemx_req_wait(&r) == 0);
        CHECK(shmemx_req_wait(&rs) == 0);
    } else {
        CHECK(shmemx_req_wait(&r) == 0);
        CHECK(shmemx_req_wait(&rs) == 0);
        if (!served)
            printf("PE %d: waited %.3f s without an engine thread\n", me, now() - t0);
        else
            shmem_long_atomic_inc(&done, 0);
    }
    for (int j = 0; j < npes; j++)
        for (int i = 0; i < 64; i++)
            CHECK(d[j * 64 + i] == j * 100 + me * 64 + i);
    return test_finish("nbc_coll progress");
}

/* SHMEM_THREAD_MULTIPLE: two threads per PE, each posting on a team of its own, several
 * requests outstanding, completed by wait or test */
static shmem_team_t tteam[2];
static long tsrc[2][64], tdst[2][4][64];

static void *thread_main(void *arg)
{
    int tid = (int)(long)arg;
    shmemx_req_h r[4];

    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 64; i++)
            tsrc[tid][i] = me + i + tid + round;
        for (int k = 0; k < 4; k++)
            CHECK(shmemx_long_sum_reduce_nb(tteam[tid], tdst[tid][k], tsrc[tid], 64, &r[k]) == 0);
        for (int k = 0; k < 4; k++)
            wait_or_test(&r[k], (k + tid) % 2);
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 64; i++)
                CHECK(tdst[tid][k][i] ==
                      (long)npes * (npes - 1) / 2 + (long)npes * (i + tid + round));
    }
    return NULL;
}

static int threads(void)
{
    pthread_t th[2];

    for (int t = 0; t < 2; t++)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &tteam[t]);
    for (int t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, thread_main, (void *)(long)t);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < 2; t++)
        shmem_team_destroy(tteam[t]);
    return test_finish("nbc_coll threads");
}

/* Requests that cannot complete at their post (PE 1 posts only when PE 0's are all out),
 * several outstanding, waited in reverse order: their handles name requests held until the
 * wait (nbc_engine.c, pend).  Then, with bad, PE 0 waits for one of them twice. */
static long go;
static long pdst[8][8], psrc[8];

static void pending(int bad)
{
    shmemx_req_h r[8], copy = SHMEMX_REQ_NULL;

    for (int i = 0; i < 8; i++)
        psrc[i] = 100 * me + i;
    shmem_barrier_all();
    if (me == 1)
        shmem_long_wait_until(&go, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < 8; i++)
        CHECK(shmemx_long_fcollect_nb(SHMEM_TEAM_WORLD, pdst[i], &psrc[i], 1, &r[i]) == 0);
    if (me == 0 && npes > 1)
        shmem_long_atomic_set(&go, 1, 1);
    if (me == 0)
        copy = r[0];
    for (int i = 7; i >= 0; i--)
        CHECK(shmemx_req_wait(&r[i]) == 0 && r[i] == SHMEMX_REQ_NULL);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < npes && j < 8; j++)
            CHECK(pdst[i][j] == 100 * j + i);
    if (bad && me == 0)
        shmemx_req_wait(&copy);
}

/* PE 0 posts more requests on a team than the same-node ring of the team holds (16
 * entries, the world team's 64) before a blocking collective of another team; the others
 * post theirs after it (for the world team's requests, a sync of another team).  Legal:
 * the requests of a team need the same order on every member, not the same place among
 * other teams' collectives.  A post that waited for
 * the others to complete earlier requests waited for ever.  PE 0 then computes without
 * calling the library (its engine thread publishes what its posts left), and waits for
 * its requests last to first. */
#define AHEAD_MAX 80
static long adst[AHEAD_MAX][8 * 64], asrc[AHEAD_MAX][64];

static void ahead(shmem_team_t t, shmem_team_t u, int k)
{
    shmemx_req_h r[AHEAD_MAX];
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);

    for (int i = 0; i < k; i++)
        for (int x = 0; x < 64; x++)
            asrc[i][x] = 1000 * tme + i + x;
    shmem_barrier_all();
    if (me != 0)
        shmem_team_sync(u);
    for (int i = 0; i < k; i++) {
        switch (i % 4) {
        case 0: CHECK(shmemx_long_fcollect_nb(t, adst[i], asrc[i], 64, &r[i]) == 0); break;
        case 1: CHECK(shmemx_long_broadcast_nb(t, adst[i], asrc[i], 8, i % n, &r[i]) == 0); break;
        case 2: CHECK(shmemx_long_sum_reduce_nb(t, adst[i], asrc[i], 64, &r[i]) == 0); break;
        default: CHECK(shmemx_long_sum_exscan_nb(t, adst[i], asrc[i], 8, &r[i]) == 0); break;
        }
    }
    if (me == 0)
        shmem_team_sync(u);
    if (me == 0) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        do
            clock_gettime(CLOCK_MONOTONIC, &t1);
        while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 20000000L);
    }
    for (int i = 0; i < k; i++)
        wait_or_test(&r[me == 0 ? k - 1 - i : i], i % 2);
    for (int i = 0; i < k; i++) {
        for (int x = 0; x < 64; x++) {
            long sum = 1000L * n * (n - 1) / 2 + (long)n * (i + x);
            long ex = 1000L * tme * (tme - 1) / 2 + (long)tme * (i + x);
            switch (i % 4) {
            case 0:
                for (int j = 0; j < n; j++)
                    CHECK(adst[i][j * 64 + x] == 1000 * j + i + x);
                break;
            case 1: CHECK(x >= 8 || adst[i][x] == 1000 * (i % n) + i + x); break;
            case 2: CHECK(adst[i][x] == sum); break;
            default: CHECK(x >= 8 || adst[i][x] == ex); break;
            }
        }
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    shmemx_req_h r = SHMEMX_REQ_NULL, copy;

    if (!strcmp(mode, "threads")) {
        int provided;
        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
        me = shmem_my_pe();
        npes = shmem_n_pes();
        return threads();
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (!strcmp(mode, "progress"))
        return progress();
    if (!strcmp(mode, "ahead")) {
        shmem_team_t t;
        if (npes > 8)
            return test_finish("nbc_coll ahead (skipped: more than 8 PEs)");
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        ahead(t, SHMEM_TEAM_WORLD, 40);
        ahead(SHMEM_TEAM_WORLD, t, AHEAD_MAX);
        shmem_team_destroy(t);
        return test_finish("nbc_coll ahead");
    }
    if (!strcmp(mode, "pending") || !strcmp(mode, "bad_pending")) {
        pending(mode[0] == 'b');
        return test_finish("nbc_coll pending");
    } else if (!strcmp(mode, "bad_garbage")) {
        long junk[4];
        r = (shmemx_req_h)junk;
        shmemx_req_wait(&r);
    } else if (!strcmp(mode, "bad_twice")) {
        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0);
        copy = r;
        shmemx_req_wait(&r);
        shmemx_req_wait(&copy);
    } else if (!strcmp(mode, "bad_destroy")) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        CHECK(shmemx_team_sync_nb(t, &r) == 0);
        shmem_team_destroy(t);
    } else if (!strcmp(mode, "bad_mem")) {
        /* a scan of 64 KiB of longs: its private buffers exceed SHMEM_NBC_MEM_MAX=64K of
         * the list (a reduction on a same-node team needs none: build_reduce_shm) */
        shmemx_long_sum_inscan_nb(SHMEM_TEAM_WORLD, dst[0], src[0], 8192, &r);
    } else if (!strcmp(mode, "bad_limit")) {
        shmemx_req_h rs[8];
        for (int i = 0; i < 8; i++) /* SHMEM_NBC_REQS_MAX=4 in the list */
            shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &rs[i]);
    } else {
        /* NULL request: nothing to wait for */
        CHECK(shmemx_req_wait(&r) == 0);
        families(SHMEM_TEAM_WORLD, 0);
        families(SHMEM_TEAM_WORLD, 1);
        more_forms(SHMEM_TEAM_WORLD);
        if (npes > 1) {
            shmem_team_t half;
            shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0, &half);
            families(half, 0);
            if (half != SHMEM_TEAM_INVALID)
                shmem_team_destroy(half);
            two_teams();
        }
        return test_finish("nbc_coll");
    }
    shmem_finalize();
    return 0;
}
