/* Non-blocking collectives at their edges (issue 27):
 * - zero: every family with NULL buffers and a count of 0 (accepted as by the blocking
 *   forms), all outstanding at once, then one at a time; a collect where one member gives
 *   0 elements from NULL;
 * - reuse: post, wait, check dest and overwrite source and dest at once, post the next, in
 *   a loop over the families: a member still reading a source (or writing a dest) after
 *   its owner's wait returned would see, or leave, the wrong round's values;
 * - poll: shmemx_req_test in a polling loop to completion, requests outstanding on two
 *   teams at once (completed in turn), a blocking collective on a third team meanwhile;
 *   waiting twice on one handle variable (SHMEMX_REQ_NULL the second time);
 * - a count of 0 with non-NULL pointers that are not symmetric (supported, as the spec's
 *   table of undefined behaviour has it for every routine taking a pointer and a count);
 * - bad_*: errors the library must name (test/lists/nbc.list, expect_fail.sh and
 *   check_bad_input.sh): a count whose size overflows, an invalid root, invalid,
 *   destroyed and garbage teams, NULL request and done pointers, a freed request. */
#include <shmemx.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "tests.h"

#define MAXPE 8
#define BIG 700 /* longs: 5.6 KB, the reduce-scatter path of the reductions on 3+ PEs */

static long s[BIG * MAXPE], d[BIG * MAXPE], e[BIG * MAXPE];
static int me, npes;

static long val(int pe, int round, size_t i)
{
    return (long)pe * 100000 + (long)round * 1000 + (long)i;
}

static void done_by(shmemx_req_h *r, int use_test)
{
    int done = 0, polls = 0;

    if (!use_test) {
        CHECK(shmemx_req_wait(r) == 0);
    } else {
        while (!done) {
            CHECK(shmemx_req_test(r, &done) == 0);
            polls++;
        }
        CHECK(polls >= 1);
    }
    CHECK(*r == SHMEMX_REQ_NULL);
}

/* every family with dest = source = NULL and a count of 0 */
static int post_zero(shmem_team_t t, shmemx_req_h *r)
{
    int k = 0;

    CHECK(shmemx_team_sync_nb(t, &r[k++]) == 0);
    CHECK(shmemx_long_broadcast_nb(t, NULL, NULL, 0, 0, &r[k++]) == 0);
    CHECK(shmemx_broadcastmem_nb(t, NULL, NULL, 0, shmem_team_n_pes(t) - 1, &r[k++]) == 0);
    CHECK(shmemx_long_collect_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_collectmem_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_int_fcollect_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_fcollectmem_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_double_alltoall_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_alltoallmem_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_long_alltoalls_nb(t, NULL, NULL, 1, 1, 0, &r[k++]) == 0);
    CHECK(shmemx_alltoallsmem_nb(t, NULL, NULL, 2, 3, 0, &r[k++]) == 0);
    CHECK(shmemx_ulong_and_reduce_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_uint_or_reduce_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_int64_xor_reduce_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_long_max_reduce_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_double_min_reduce_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_long_sum_reduce_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_float_prod_reduce_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_long_sum_inscan_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    CHECK(shmemx_int_sum_exscan_nb(t, NULL, NULL, 0, &r[k++]) == 0);
    return k;
}

static void zero(void)
{
    shmemx_req_h r[32];
    int k;

    /* all outstanding at once, completed in reverse order */
    k = post_zero(SHMEM_TEAM_WORLD, r);
    for (int i = k - 1; i >= 0; i--)
        done_by(&r[i], i % 2);
    /* one at a time */
    k = post_zero(SHMEM_TEAM_WORLD, r);
    for (int i = 0; i < k; i++)
        done_by(&r[i], 0);
    /* a count of 0 with pointers that are not symmetric (here: on the stack) */
    {
        long priv[4] = { 1, 2, 3, 4 };
        k = 0;
        CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, priv, priv + 1, 0, 0, &r[k++]) == 0);
        CHECK(shmemx_long_collect_nb(SHMEM_TEAM_WORLD, priv, priv, 0, &r[k++]) == 0);
        CHECK(shmemx_alltoallmem_nb(SHMEM_TEAM_WORLD, priv, priv + 2, 0, &r[k++]) == 0);
        CHECK(shmemx_long_alltoalls_nb(SHMEM_TEAM_WORLD, priv, priv, 3, 5, 0, &r[k++]) == 0);
        CHECK(shmemx_long_prod_reduce_nb(SHMEM_TEAM_WORLD, priv, priv + 1, 0, &r[k++]) == 0);
        CHECK(shmemx_long_sum_exscan_nb(SHMEM_TEAM_WORLD, priv + 3, priv, 0, &r[k++]) == 0);
        for (int i = 0; i < k; i++)
            done_by(&r[i], i % 2);
        CHECK(priv[0] == 1 && priv[1] == 2 && priv[2] == 3 && priv[3] == 4);
    }
    /* the blocking forms accept the same (here, for comparison) */
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    shmem_long_collect(SHMEM_TEAM_WORLD, NULL, NULL, 0);

    /* collect: member 0 gives nothing from NULL, member j > 0 gives j elements */
    for (int i = 0; i < npes; i++)
        s[i] = val(me, 0, (size_t)i);
    memset(d, 0, sizeof(d));
    memset(e, 0, sizeof(e));
    shmem_barrier_all();
    CHECK(shmemx_long_collect_nb(SHMEM_TEAM_WORLD, d, me ? s : NULL, (size_t)me, &r[0]) == 0);
    done_by(&r[0], 1);
    shmem_long_collect(SHMEM_TEAM_WORLD, e, me ? s : NULL, (size_t)me);
    CHECK(memcmp(d, e, sizeof(long) * (size_t)npes * (size_t)(npes - 1) / 2) == 0);
    shmem_barrier_all();
}

/* round `round' of the reuse loop: post one family, complete it, check dest at once */
static void reuse_round(int round, int use_test)
{
    int fam = round % 6, root = round % npes;
    size_t n = round % 4 < 2 ? 16 : BIG / (size_t)npes, tot;
    shmemx_req_h r;

    for (size_t i = 0; i < BIG * MAXPE; i++)
        s[i] = val(me, round, i);
    switch (fam) {
    case 0: CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, d, s, n, root, &r) == 0); break;
    case 1: CHECK(shmemx_long_fcollect_nb(SHMEM_TEAM_WORLD, d, s, n, &r) == 0); break;
    case 2: CHECK(shmemx_long_alltoall_nb(SHMEM_TEAM_WORLD, d, s, n, &r) == 0); break;
    case 3:
        n = round % 12 < 6 ? 16 : BIG; /* both reduction paths */
        CHECK(shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, d, s, n, &r) == 0);
        break;
    case 4: CHECK(shmemx_long_collect_nb(SHMEM_TEAM_WORLD, d, s, (size_t)me + 1, &r) == 0); break;
    default: CHECK(shmemx_long_sum_inscan_nb(SHMEM_TEAM_WORLD, d, s, n, &r) == 0); break;
    }
    done_by(&r, use_test);
    /* check at once: every other member may be posting the next round already */
    tot = 0;
    switch (fam) {
    case 0:
        for (size_t i = 0; i < n; i++)
            CHECK(d[i] == val(root, round, i));
        tot = n;
        break;
    case 1:
        for (int j = 0; j < npes; j++)
            for (size_t i = 0; i < n; i++)
                CHECK(d[(size_t)j * n + i] == val(j, round, i));
        tot = n * (size_t)npes;
        break;
    case 2:
        for (int j = 0; j < npes; j++)
            for (size_t i = 0; i < n; i++)
                CHECK(d[(size_t)j * n + i] == val(j, round, (size_t)me * n + i));
        tot = n * (size_t)npes;
        break;
    case 3:
        for (size_t i = 0; i < n; i++)
            CHECK(d[i] == 100000L * npes * (npes - 1) / 2 + (long)npes * val(0, round, i));
        tot = n;
        break;
    case 4:
        for (int j = 0, off = 0; j < npes; off += j + 1, j++)
            for (int i = 0; i <= j; i++)
                CHECK(d[off + i] == val(j, round, (size_t)i));
        tot = (size_t)npes * (size_t)(npes + 1) / 2;
        break;
    default:
        for (size_t i = 0; i < n; i++)
            CHECK(d[i] == 100000L * me * (me + 1) / 2 + (long)(me + 1) * val(0, round, i));
        tot = n;
        break;
    }
    /* and overwrite both before the next post */
    memset(s, 0xa5, sizeof(s));
    memset(d, 0x5a, tot * sizeof(long));
}

static void reuse(void)
{
    shmem_barrier_all();
    for (int round = 0; round < 36; round++)
        reuse_round(round, round % 5 == 4);
    shmem_barrier_all();
}

/* requests on two teams at once (world and its mirror image), completed by polling */
static void poll(void)
{
    static long a[BIG], b[BIG * MAXPE], c[BIG * MAXPE], w[4];
    shmem_team_t mirror = SHMEM_TEAM_INVALID, half = SHMEM_TEAM_INVALID;
    shmemx_req_h r[6];
    int pending = 6, polls = 0, done;
    volatile double x = 0;

    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &mirror);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &half);
    for (int i = 0; i < BIG; i++)
        a[i] = val(me, 7, (size_t)i);
    CHECK(shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, d, a, BIG, &r[0]) == 0);
    CHECK(shmemx_long_fcollect_nb(mirror, b, a, 5, &r[1]) == 0);
    CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r[2]) == 0);
    CHECK(shmemx_long_alltoall_nb(mirror, c, a, 3, &r[3]) == 0);
    CHECK(shmemx_long_max_reduce_nb(mirror, e, a, BIG, &r[4]) == 0);
    CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, s, a, BIG, npes - 1, &r[5]) == 0);
    if (half != SHMEM_TEAM_INVALID) /* blocking, a third team, while those are outstanding */
        shmem_long_sum_reduce(half, w, a, 4);
    while (pending) {
        for (int i = 0; i < 6; i++) {
            if (r[i] == SHMEMX_REQ_NULL)
                continue;
            CHECK(shmemx_req_test(&r[i], &done) == 0);
            if (done) {
                CHECK(r[i] == SHMEMX_REQ_NULL);
                pending--;
            }
        }
        polls++;
        for (int i = 0; i < 200; i++) /* compute a little between polls */
            x += i * 0.5;
    }
    CHECK(polls >= 1);
    for (int i = 0; i < BIG; i++) {
        CHECK(d[i] == 100000L * npes * (npes - 1) / 2 + (long)npes * val(0, 7, (size_t)i));
        CHECK(e[i] == val(npes - 1, 7, (size_t)i));
        CHECK(s[i] == val(npes - 1, 7, (size_t)i));
    }
    for (int j = 0; j < npes; j++) {
        for (int i = 0; i < 5; i++)
            CHECK(b[j * 5 + i] == val(j, 7, (size_t)i));
        for (int i = 0; i < 3; i++)
            CHECK(c[j * 3 + i] == val(j, 7, (size_t)(me * 3 + i)));
    }
    if (half != SHMEM_TEAM_INVALID) {
        int m = (npes + 1) / 2;
        CHECK(w[0] == 100000L * 2 * (long)m * (m - 1) / 2 + (long)m * val(0, 7, 0));
        shmem_team_destroy(half);
    }
    /* waiting twice on one variable: the second time it is SHMEMX_REQ_NULL, complete */
    CHECK(shmemx_team_sync_nb(mirror, &r[0]) == 0);
    CHECK(shmemx_req_wait(&r[0]) == 0);
    CHECK(shmemx_req_wait(&r[0]) == 0);
    done = 0;
    CHECK(shmemx_req_test(&r[0], &done) == 0 && done == 1);
    shmem_team_destroy(mirror);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    shmemx_req_h r = SHMEMX_REQ_NULL, copy;
    int done;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPE) {
        if (me == 0)
            printf("SKIP: more than %d PEs\n", MAXPE);
        shmem_finalize();
        return 77;
    }
    if (!strcmp(mode, "bad_test_garbage")) {
        long junk[4] = { 0 };
        r = (shmemx_req_h)junk;
        shmemx_req_test(&r, &done);
    } else if (!strcmp(mode, "bad_stale")) {
        /* a copy of a released handle, with another request outstanding */
        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0);
        copy = r;
        CHECK(shmemx_req_wait(&r) == 0);
        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0);
        shmemx_req_wait(&copy);
    } else if (!strcmp(mode, "bad_null_request")) {
        shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, d, s, 4, NULL);
    } else if (!strcmp(mode, "bad_count")) {
        /* nreduce x 8 bytes overflows size_t */
        shmemx_long_max_reduce_nb(SHMEM_TEAM_WORLD, d, s, SIZE_MAX / 8 + 2, &r);
    } else if (!strcmp(mode, "bad_count_team")) {
        /* nelems x 8 fits, nelems x 8 x team size does not (a team of 1 needs a count
         * whose bytes overflow on their own) */
        shmemx_long_alltoall_nb(SHMEM_TEAM_WORLD, d, s, SIZE_MAX / 8 / (size_t)npes + 1, &r);
    } else if (!strcmp(mode, "bad_huge")) {
        /* huge but no overflow: far past the end of dest's segment */
        shmemx_fcollectmem_nb(SHMEM_TEAM_WORLD, d, s, SIZE_MAX / 2 / (size_t)npes, &r);
    } else if (!strcmp(mode, "bad_root")) {
        shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, d, s, 0, -1, &r);
    } else if (!strcmp(mode, "bad_team_invalid")) {
        shmemx_team_sync_nb(SHMEM_TEAM_INVALID, &r);
    } else if (!strcmp(mode, "bad_team_destroyed")) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        shmem_team_destroy(t);
        shmemx_long_sum_inscan_nb(t, d, s, 4, &r);
    } else if (!strcmp(mode, "bad_team_garbage")) {
        long junk[8] = { 0 };
        shmemx_long_fcollect_nb((shmem_team_t)(void *)junk, d, s, 4, &r);
    } else if (!strcmp(mode, "bad_null_done")) {
        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0);
        shmemx_req_test(&r, NULL);
    } else if (!strcmp(mode, "bad_wait_null")) {
        shmemx_req_wait(NULL);
    } else if (!strcmp(mode, "bad_test_freed")) {
        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0);
        copy = r;
        CHECK(shmemx_req_wait(&r) == 0);
        shmemx_req_test(&copy, &done);
    } else if (!strcmp(mode, "bad_order")) {
        /* the same two requests posted in opposite orders on PEs 0 and 1 (the same-node
         * path names it; elsewhere it would hang) */
        if (me == 0) {
            CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, d, s, 4, 0, &r) == 0);
            CHECK(shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, d + 8, s, 4, &copy) == 0);
        } else {
            CHECK(shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, d + 8, s, 4, &copy) == 0);
            CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, d, s, 4, 0, &r) == 0);
        }
        shmemx_req_wait(&r);
        shmemx_req_wait(&copy);
    } else if (!strcmp(mode, "bad_order_big") || !strcmp(mode, "bad_order_sync")) {
        /* the same on the engine's schedules (2048 longs: more than the same-node path
         * takes anywhere): PE 0 posts the two requests in the opposite order to the
         * others'.  A broadcast and a reduction would mix their data; a sync and a
         * broadcast wait for each other's signals for ever.  Named by the signals' hashes */
        static long big[2048], bigd[2048];
        int sync = !strcmp(mode, "bad_order_sync");
        for (int k = 0; k < 2; k++) {
            if ((k == 0) == (me == 0)) {
                CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, bigd, big, 2048, 0, &r) == 0);
            } else if (sync) {
                CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &copy) == 0);
            } else {
                CHECK(shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, bigd, big, 2048, &copy) == 0);
            }
        }
        shmemx_req_wait(&r);
        shmemx_req_wait(&copy);
        /* a mix that completed: the next waits notice the sums (one named error) */
        for (int k = 0; k < 400; k++) {
            struct timespec ts = { 0, 1000000 };
            CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, bigd, big, 2048, 0, &r) == 0);
            shmemx_req_wait(&r);
            nanosleep(&ts, NULL);
        }
    } else if (!strcmp(mode, "open_at_finalize")) {
        /* requests never waited for: shmem_finalize names them, completes them (the
         * broadcast still runs on PE 0: PE 1 posts late) and the job ends normally */
        static long big[16384];
        if (me == 1) {
            struct timespec ts = { 0, 50000000 };
            nanosleep(&ts, NULL);
        }
        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0);
        CHECK(shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, big, big, 16384, 0, &copy) == 0);
    } else {
        zero();
        reuse();
        poll();
        return test_finish("nbc_edge");
    }
    shmem_finalize();
    return 0;
}
