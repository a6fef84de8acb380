/* Non-blocking collectives, the eager path (docs/nbc.md): a sender runs up to
 * NBC_EAGER_DEPTH requests ahead through its landing slots and waits for the answers it
 * is owed when it reuses a slot, at a DATA wait of a larger (get) request, and at
 * shmem_team_destroy.  Rounds of up to twenty small requests outstanding at once (more
 * than the landing units) with a rotating root and values that change every round, a large broadcast
 * every few rounds, then the same on a team that is destroyed and made again in the
 * same slot.  With the argument "red": rounds of small reductions only (their landing
 * area has two parts used in turn and nobody answers: a member may run one reduction
 * ahead), of sizes that take every small algorithm (all to all, recursive doubling with
 * and without the fold of a non-power-of-two team, in place through shared memory),
 * outstanding six at a time, a member late by turns, blocking reductions on the world team
 * in between (on a copy of it; then on all but PE 0 without them). */
#include <shmemx.h>
#include <string.h>
#include <time.h>

#include "tests.h"

#define NS 16   /* longs per small block: eager */
#define NL 4096 /* longs of the large broadcast: by get */
#define ROUNDS 60
#define OUT 20 /* requests outstanding at once (more than the landing units) */

static long src[OUT][NS * 8], dst[OUT][NS * 8], big_src[NL], big_dst[NL];
static int me;

static long val(int pe, int round, int k, int i)
{
    return (long)pe * 1000003 + (long)round * 1009 + (long)k * 101 + i;
}

static void rounds(shmem_team_t t, int salt)
{
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);

    for (int round = 0; round < ROUNDS; round++) {
        shmemx_req_h r[OUT];
        int rs = round + salt, root = round % n;

        for (int k = 0; k < OUT; k++)
            for (int i = 0; i < NS * 8; i++)
                src[k][i] = val(tme, rs, k, i);
        /* even rounds: broadcasts only, the members post 1 ms late, so the root runs
         * ahead and must wait for the answers that free its landing slots */
        if (round % 2 == 0 && tme != root) {
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
        }
        for (int k = 0; k < OUT; k++) {
            switch (round % 2 == 0 ? 0 : k % 3) {
            case 0: /* the last one larger: it takes a whole landing slot, the others a unit */
                CHECK(shmemx_long_broadcast_nb(t, dst[k], src[k], k == OUT - 1 ? NS * 8 : NS, root,
                                               &r[k]) == 0);
                break;
            case 1: CHECK(shmemx_long_alltoall_nb(t, dst[k], src[k], NS, &r[k]) == 0); break;
            default: CHECK(shmemx_long_sum_reduce_nb(t, dst[k], src[k], NS, &r[k]) == 0);
            }
        }
        for (int k = OUT - 1; k >= 0; k--) /* completed in reverse */
            CHECK(shmemx_req_wait(&r[k]) == 0);
        for (int k = 0; k < OUT; k++) {
            int kind = round % 2 == 0 ? 0 : k % 3;
            int cnt = kind == 1 ? NS * n : kind == 0 && k == OUT - 1 ? NS * 8 : NS;
            for (int i = 0; i < cnt; i++) {
                long want = 0;
                if (kind == 0)
                    want = val(root, rs, k, i);
                else if (kind == 1)
                    want = val(i / NS, rs, k, tme * NS + i % NS);
                else
                    for (int j = 0; j < n; j++)
                        want += val(j, rs, k, i);
                if (dst[k][i] != want) {
                    CHECK(dst[k][i] == want);
                    fprintf(stderr, "PE %d round %d request %d element %d: %ld, expected %ld\n", me,
                            round, k, i, dst[k][i], want);
                    return;
                }
            }
        }
        if (round % 7 == 3) { /* a get-based request absorbs the owed answers */
            shmemx_req_h b;
            for (int i = 0; i < NL; i++)
                big_src[i] = val(tme, rs, 9, i);
            CHECK(shmemx_long_broadcast_nb(t, big_dst, big_src, NL, root, &b) == 0);
            CHECK(shmemx_req_wait(&b) == 0);
            for (int i = 0; i < NL; i += 97)
                CHECK(big_dst[i] == val(root, rs, 9, i));
        }
    }
}

#define RN 512 /* longs of the largest small reduction */
#define ROUT 6
static long rsrc[ROUT][RN], rdst[ROUT][RN], bsrc[RN], bdst[RN];

static void red_rounds(shmem_team_t t, int blocking)
{
    static const int sizes[] = { 1, 16, 130, 512, 3, 300 };
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);

    for (int round = 0; round < 30; round++) {
        shmemx_req_h r[ROUT];

        for (int k = 0; k < ROUT; k++)
            for (int i = 0; i < sizes[k]; i++)
                rsrc[k][i] = val(tme, round, k, i);
        if (round % 2 && tme == round % n) {
            struct timespec ts = { 0, 500000 };
            nanosleep(&ts, NULL);
        }
        for (int k = 0; k < ROUT; k++) {
            long *d = k == 4 ? rsrc[k] : rdst[k]; /* in place */
            CHECK(shmemx_long_sum_reduce_nb(t, d, rsrc[k], (size_t)sizes[k], &r[k]) == 0);
            if (k == 2 && blocking) { /* a blocking reduction on another team meanwhile */
                for (int i = 0; i < RN; i++)
                    bsrc[i] = me + round + i;
                shmem_long_max_reduce(SHMEM_TEAM_WORLD, bdst, bsrc, RN);
                CHECK(bdst[7] == shmem_n_pes() - 1 + round + 7);
            }
        }
        for (int k = 0; k < ROUT; k++)
            CHECK(shmemx_req_wait(&r[round % 2 ? ROUT - 1 - k : k]) == 0);
        for (int k = 0; k < ROUT; k++) {
            const long *d = k == 4 ? rsrc[k] : rdst[k];
            for (int i = 0; i < sizes[k]; i++) {
                long want = 0;
                for (int j = 0; j < n; j++)
                    want += val(j, round, k, i);
                if (d[i] != want) {
                    CHECK(d[i] == want);
                    fprintf(stderr, "PE %d round %d reduction %d element %d: %ld, expected %ld\n",
                            me, round, k, i, d[i], want);
                    return;
                }
            }
        }
    }
}

/* "shm": every family the same-node fast path takes (SHMEM_NBC_SHM), OUT requests
 * outstanding at once (more than its ring's 16 entries), a member late by turns, one
 * large broadcast (the engine's path) among them, a blocking reduction on another team
 * among the posts, completion in both orders, then a loop that reuses the buffers right
 * after each wait */
static long want_of(int kind, int n, int tme, int rs, int k, int i, int root, int m)
{
    long w = 0;

    switch (kind) {
    case 1: return val(root, rs, k, i);
    case 2: return val(i / m, rs, k, i % m);
    case 3: return val(i / m, rs, k, tme * m + i % m);
    case 5:
        for (int j = 0; j < n; j++)
            w += val(j, rs, k, i);
        return w;
    case 6:
    case 7:
        for (int j = 0; j < (kind == 6 ? tme + 1 : tme); j++)
            w += val(j, rs, k, i);
        return w;
    }
    return 0;
}

/* longs per block of request k: requests 8-15 larger (up to 4 entries of the ring: a
 * contribution in pieces; an alltoall of 3 PEs or more beyond it: the engine's path) */
#define SM 1600
static long ssrc[OUT][SM], sdst[OUT][SM];
static int msize(int k)
{
    return k / 8 != 1 ? NS : k % 8 == 3 ? 200 : 400;
}

static void shm_rounds(shmem_team_t t, int salt)
{
    int n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);

    for (int round = 0; round < 12; round++) {
        shmemx_req_h r[OUT];
        int rs = round + salt;

        for (int k = 0; k < OUT; k++)
            for (int i = 0; i < SM; i++) {
                ssrc[k][i] = val(tme, rs, k, i);
                sdst[k][i] = -1;
            }
        for (int i = 0; i < NL; i++)
            big_src[i] = val(tme, rs, 9, i);
        if (tme == round % n) {
            struct timespec ts = { 0, 300000 };
            nanosleep(&ts, NULL);
        }
        for (int k = 0; k < OUT; k++) {
            size_t m = (size_t)msize(k);
            long *d = sdst[k], *sr = ssrc[k];
            switch (k % 8) {
            case 0: CHECK(shmemx_team_sync_nb(t, &r[k]) == 0); break;
            case 1: CHECK(shmemx_long_broadcast_nb(t, d, sr, m, (rs + k) % n, &r[k]) == 0); break;
            case 2: CHECK(shmemx_long_fcollect_nb(t, d, sr, m, &r[k]) == 0); break;
            case 3: CHECK(shmemx_long_alltoall_nb(t, d, sr, m, &r[k]) == 0); break;
            case 4: /* strided: blocks of 2 elements, source stride 2, dest stride 3 */
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < 2; i++)
                        sr[j * 4 + i * 2] = val(tme, rs, k, j * 100 + i);
                CHECK(shmemx_long_alltoalls_nb(t, d, sr, 3, 2, 2, &r[k]) == 0);
                break;
            case 5: CHECK(shmemx_long_sum_reduce_nb(t, sr, sr, m, &r[k]) == 0); break;
            case 6: CHECK(shmemx_long_sum_inscan_nb(t, d, sr, m, &r[k]) == 0); break;
            default: CHECK(shmemx_long_sum_exscan_nb(t, d, sr, m, &r[k]) == 0);
            }
            if (k == OUT / 2) { /* the engine's path among the fast ones */
                shmemx_req_h b;
                CHECK(shmemx_long_broadcast_nb(t, big_dst, big_src, NL, round % n, &b) == 0 &&
                      shmemx_req_wait(&b) == 0);
            }
            if (k == OUT / 2 && t == SHMEM_TEAM_WORLD) { /* a blocking one on another team */
                static long b, bd;
                b = me;
                shmem_long_max_reduce(SHMEM_TEAM_SHARED, &bd, &b, 1);
                CHECK(bd == shmem_team_n_pes(SHMEM_TEAM_SHARED) - 1);
            }
        }
        for (int k = 0; k < OUT; k++)
            CHECK(shmemx_req_wait(&r[round % 2 ? OUT - 1 - k : k]) == 0);
        for (int i = 0; i < NL; i += 101)
            CHECK(big_dst[i] == val(round % n, rs, 9, i));
        for (int k = 0; k < OUT; k++) {
            int kind = k % 8, m = msize(k);
            int cnt = kind == 2 || kind == 3 ? m * n : kind == 4 ? 6 * n : m;
            const long *d = kind == 5 ? ssrc[k] : sdst[k];
            if (kind == 0 || (kind == 7 && tme == 0))
                continue;
            for (int i = 0; i < cnt; i++) {
                long want = kind == 4 ? (i % 3 ? -1 : val(i / 6, rs, k, tme * 100 + i % 6 / 3))
                                      : want_of(kind, n, tme, rs, k, i, (rs + k) % n, m);
                if (d[i] != want) {
                    CHECK(d[i] == want);
                    fprintf(stderr,
                            "PE %d round %d request %d (kind %d) element %d: %ld, expected %ld\n",
                            me, round, k, kind, i, d[i], want);
                    return;
                }
            }
        }
    }
    /* buffers reused right after each wait: the next post overwrites them */
    for (int i = 0; i < 200; i++) {
        shmemx_req_h q;
        src[0][0] = val(tme, i, 0, 0);
        CHECK(shmemx_long_broadcast_nb(t, dst[0], src[0], 1, i % n, &q) == 0 &&
              shmemx_req_wait(&q) == 0);
        CHECK(dst[0][0] == val(i % n, i, 0, 0));
        CHECK(shmemx_long_sum_reduce_nb(t, dst[0], src[0], 1, &q) == 0 && shmemx_req_wait(&q) == 0);
        CHECK(dst[0][0] == want_of(5, n, tme, i, 0, 0, 0, 1));
    }
}

/* fn on the world team, on a team of all but PE 0 destroyed right after its traffic and
 * made again in its slot (twice: the slot's state starts afresh), then on the world team
 * again */
static void on_teams(void (*fn)(shmem_team_t, int))
{
    fn(SHMEM_TEAM_WORLD, 0);
    for (int again = 0; again < 2 && shmem_n_pes() > 2; again++) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, shmem_n_pes() - 1, NULL, 0, &t);
        if (t != SHMEM_TEAM_INVALID) {
            fn(t, 100 * (again + 1));
            shmem_team_destroy(t);
        }
    }
    fn(SHMEM_TEAM_WORLD, 1000);
}

int main(int argc, char **argv)
{
    shmem_init();
    me = shmem_my_pe();
    if (argc > 1 && strcmp(argv[1], "shm") == 0) {
        on_teams(shm_rounds);
        return test_finish("nbc_eager");
    }
    if (argc > 1 && strcmp(argv[1], "red") == 0) {
        shmem_team_t t;
        /* on a copy of the world team (the blocking reductions go on the world team), then
         * on all but PE 0 */
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
        red_rounds(t, 1);
        shmem_team_destroy(t);
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, shmem_n_pes() - 1, NULL, 0, &t);
        if (t != SHMEM_TEAM_INVALID) {
            red_rounds(t, 0);
            shmem_team_destroy(t);
        }
        return test_finish("nbc_eager");
    }
    on_teams(rounds);
    return test_finish("nbc_eager");
}
