/*
 * Mismatched collectives under SHMEM_DEBUG=1 (src/coll/coll_check.c): each mode but
 * "ok" has the PEs disagree on one collective, which hangs (or answers wrongly) without
 * the check; the list expects the named error (test/lists/coll_check.list).
 *   kind      PE 0 broadcasts on SHMEM_TEAM_WORLD while the others sum-reduce
 *   root      broadcast on a team of every PE, roots 0 and 1
 *   count     fcollect, the last PE with twice the count of the others
 *   nb_order  two non-blocking requests of one team posted in different orders
 *   aset      active-set reduction, the last PE with another count
 * Without SHMEM_DEBUG (the always-on check: the algorithms carry the signature):
 *   root_other   broadcast, root 0 on the last PE, root 1 on the others
 *   bcast_count  broadcast, the last PE with half the count of the others
 *   bcast_big    broadcast of 256 bytes, 512 on the last PE (past the inline entries)
 *   op           sum_reduce on the last PE, max_reduce on the others
 *   red_fcollect sum_reduce on PE 0, fcollect of as many bytes on the others
 *   order        a broadcast then a barrier on PE 0, the barrier first on the others
 *   a2a          alltoall, the last PE with twice the count of the others
 *   a2as         alltoalls, the last PE with strides 1 and 1 (contiguous), the others
 *                with dst 1 and sst 2
 *   a2as_aset    the same on the active set of every PE (shmem_alltoalls32)
 *   a2as_nb      the same, non-blocking (checked under SHMEM_DEBUG only)
 *   ok        every family matched (blocking, non-blocking, active sets, a team made
 *             and destroyed in a loop so its slot's numbers restart): must pass
 */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

#include "tests.h"

#define N 16

static int src[N * 8], dst[N * 8 * 8];
static long pSync[SHMEM_REDUCE_SYNC_SIZE], pSync2[SHMEM_BARRIER_SYNC_SIZE];
static long pSync3[SHMEM_ALLTOALLS_SYNC_SIZE];
static int pWrk[2 * N + SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static void ok_round(shmem_team_t t, int me, int n)
{
    shmemx_req_h r[3];

    shmem_int_broadcast(t, dst, src, N, n - 1);
    shmem_int_fcollect(t, dst, src, N);
    shmem_int_collect(t, dst, src, (size_t)(me % 2 + 1));
    shmem_int_alltoall(t, dst, src, 2);
    shmem_int_alltoalls(t, dst, src, 2, 1, 2);
    shmem_int_sum_reduce(t, dst, src, N);
    shmem_int_max_reduce(t, dst, src, 3);
    shmem_int_sum_inscan(t, dst, src, 4);
    shmem_int_sum_exscan(t, dst, src, 4);
    shmem_team_sync(t);
    shmemx_int_broadcast_nb(t, dst, src, 4, 0, &r[0]);
    shmemx_int_sum_reduce_nb(t, dst + 64, src, 4, &r[1]);
    shmemx_team_sync_nb(t, &r[2]);
    for (int i = 2; i >= 0; i--)
        shmemx_req_wait(&r[i]);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    shmem_team_t t;
    int me, n;

    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        pSync2[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_ALLTOALLS_SYNC_SIZE; i++)
        pSync3[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    for (int i = 0; i < N * 8; i++)
        src[i] = me + i;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t);
    shmem_barrier_all();

    if (!strcmp(mode, "kind")) {
        if (me == 0)
            shmem_int_broadcast(SHMEM_TEAM_WORLD, dst, src, N, 0);
        else
            shmem_int_sum_reduce(SHMEM_TEAM_WORLD, dst, src, N);
    } else if (!strcmp(mode, "root")) {
        shmem_int_broadcast(t, dst, src, N, me == 0 ? 0 : 1);
    } else if (!strcmp(mode, "count")) {
        shmem_int_fcollect(t, dst, src, me == n - 1 ? 2 * N : N);
    } else if (!strcmp(mode, "nb_order")) {
        shmemx_req_h a, b;
        if (me == 0) {
            shmemx_int_broadcast_nb(t, dst, src, N, 0, &a);
            shmemx_int_sum_reduce_nb(t, dst + 256, src, N, &b);
        } else {
            shmemx_int_sum_reduce_nb(t, dst + 256, src, N, &b);
            shmemx_int_broadcast_nb(t, dst, src, N, 0, &a);
        }
        shmemx_req_wait(&a);
        shmemx_req_wait(&b);
    } else if (!strcmp(mode, "root_other")) {
        shmem_int_broadcast(t, dst, src, N, me == n - 1 ? 0 : 1);
    } else if (!strcmp(mode, "bcast_count")) {
        shmem_int_broadcast(t, dst, src, me == n - 1 ? N / 2 : N, 0);
    } else if (!strcmp(mode, "bcast_big")) {
        shmem_int_broadcast(t, dst, src, me == n - 1 ? 8 * N : 4 * N, 0);
    } else if (!strcmp(mode, "op")) {
        if (me == n - 1)
            shmem_int_sum_reduce(t, dst, src, 4);
        else
            shmem_int_max_reduce(t, dst, src, 4);
    } else if (!strcmp(mode, "red_fcollect")) {
        if (me == 0)
            shmem_int_sum_reduce(t, dst, src, 4);
        else
            shmem_int_fcollect(t, dst, src, 4);
    } else if (!strcmp(mode, "order")) {
        if (me == 0) {
            shmem_int_broadcast(t, dst, src, 4, 0);
            shmem_team_sync(t);
        } else {
            shmem_team_sync(t);
            shmem_int_broadcast(t, dst, src, 4, 0);
        }
    } else if (!strcmp(mode, "a2a")) {
        shmem_int_alltoall(t, dst, src, me == n - 1 ? 4 : 2);
    } else if (!strcmp(mode, "a2as")) {
        shmem_int_alltoalls(t, dst, src, 1, me == n - 1 ? 1 : 2, 2);
    } else if (!strcmp(mode, "a2as_nb")) {
        shmemx_req_h r;
        shmemx_int_alltoalls_nb(t, dst, src, 1, me == n - 1 ? 1 : 2, 2, &r);
        shmemx_req_wait(&r);
    } else if (!strcmp(mode, "a2as_aset")) {
        shmem_alltoalls32(dst, src, 1, me == n - 1 ? 1 : 2, 2, 0, 0, n, pSync3);
    } else if (!strcmp(mode, "aset")) {
        shmem_int_sum_to_all(dst, src, me == n - 1 ? 2 * N : N, 0, 0, n, pWrk, pSync);
    } else {
        for (int k = 0; k < 3; k++) {
            shmem_team_t u;
            ok_round(SHMEM_TEAM_WORLD, me, n);
            ok_round(t, me, n);
            shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &u);
            ok_round(u, me, n);
            shmem_team_destroy(u);
            shmem_int_sum_to_all(dst, src, N, 0, 0, n, pWrk, pSync);
            shmem_barrier(0, 0, n, pSync2);
        }
        /* a PE running 40 collectives ahead of another: past the board's depth */
        for (int k = 0; k < 40; k++)
            shmem_int_broadcast(t, dst, src, 1, 0);
        shmem_team_destroy(t);
        return test_finish("coll_mismatch");
    }
    return test_finish("coll_mismatch: the mismatch went unnoticed");
}
