/* Every wait of the library ends its wait (comm_wait_end), and every blocking collective
 * releases the attend it holds from start to end (comm_attend_release), so that the OFI
 * progress thread, which stands by while an application thread waits in the library,
 * takes over as soon as the PE returns to its own work.  A wait that forgot would leave
 * the thread standing by for up to 1 ms on every later remote access.  PE 0 arrives late
 * at each step, so the others really wait; after each step every PE checks that it is no
 * longer counted as waiting.  Links the static core for comm_wait_active(). */
#include "tests.h"

#include <string.h>
#include <unistd.h>

int comm_wait_active(void); /* comm layer (hidden in libsma): this thread waits */

#define STEP(what)                                                                     \
    do {                                                                               \
        if (comm_wait_active())                                                        \
            fprintf(stderr, "PE %d: still counted as waiting after %s\n", me, (what)); \
        CHECK(!comm_wait_active());                                                    \
    } while (0)

static long flags[64], flag_in, lock, psync[SHMEM_BCAST_SYNC_SIZE], bsync[SHMEM_BARRIER_SYNC_SIZE];
static long src[8], dst[8 * 64], red[8];
/* one pSync per active-set collective below (a size that fits every kind) */
#define ASET_SYNC SHMEM_SYNC_SIZE
static long async[5][ASET_SYNC];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];

static void late(int me)
{
    if (me == 0)
        usleep(3000);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int status[64];

    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        bsync[i] = SHMEM_SYNC_VALUE;
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < ASET_SYNC; i++)
            async[k][i] = SHMEM_SYNC_VALUE;
    memset(status, 0, sizeof(status));
    shmem_barrier_all();
    STEP("the first barrier");

    late(me);
    shmem_barrier_all();
    STEP("shmem_barrier_all");

    /* wait_until: PE 0 (late) tells the others, they answer in its flags */
    if (me == 0) {
        usleep(3000);
        for (int pe = 1; pe < n; pe++)
            shmem_long_p(&flag_in, 1, pe);
        shmem_quiet();
        STEP("shmem_quiet");
        shmem_long_wait_until_all(flags + 1, (size_t)(n - 1), NULL, SHMEM_CMP_EQ, 1);
        STEP("shmem_long_wait_until_all");
    } else {
        shmem_long_wait_until(&flag_in, SHMEM_CMP_EQ, 1);
        STEP("shmem_long_wait_until");
        shmem_long_p(&flags[me], 1, 0);
        shmem_quiet();
    }
    shmem_barrier_all();
    if (me == 0) {
        size_t idx[64];
        memset(flags, 0, sizeof(flags));
        shmem_barrier_all(); /* the others put after this */
        (void)shmem_long_wait_until_any(flags + 1, (size_t)(n - 1), status, SHMEM_CMP_EQ, 2);
        STEP("shmem_long_wait_until_any");
        (void)shmem_long_wait_until_some(flags + 1, (size_t)(n - 1), idx, status, SHMEM_CMP_EQ, 2);
        STEP("shmem_long_wait_until_some");
    } else {
        shmem_barrier_all();
        usleep(3000);
        shmem_long_p(&flags[me], 2, 0);
        shmem_quiet();
    }
    shmem_barrier_all();

    /* a lock PE 0 takes first and holds a while */
    if (me == 0) {
        shmem_set_lock(&lock);
        shmem_barrier_all();
        usleep(3000);
        shmem_clear_lock(&lock);
    } else {
        shmem_barrier_all();
        shmem_set_lock(&lock);
        STEP("shmem_set_lock");
        shmem_clear_lock(&lock);
    }
    STEP("shmem_clear_lock");
    shmem_barrier_all();

    /* collectives, PE 0 (the root) late */
    for (int i = 0; i < 8; i++)
        src[i] = me * 100 + i;
    late(me);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 64, 0);
    STEP("shmem_broadcastmem");
    late(me);
    shmem_broadcast64(dst, src, 8, 0, 0, 0, n, psync);
    STEP("shmem_broadcast64 (active set)");
    late(me);
    shmem_barrier(0, 0, n, bsync);
    STEP("shmem_barrier (active set)");
    late(me);
    shmem_sync_all();
    STEP("shmem_sync_all");
    late(me);
    shmem_team_sync(SHMEM_TEAM_WORLD);
    STEP("shmem_team_sync");
    late(me);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, red, src, 8);
    STEP("shmem_long_sum_reduce");
    CHECK(red[1] == 100L * n * (n - 1) / 2 + n);
    late(me);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, 8 * sizeof(long));
    STEP("shmem_fcollectmem");
    late(me);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, sizeof(long));
    STEP("shmem_alltoallmem");
    late(me);
    shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, (size_t)(me % 2 + 1) * sizeof(long));
    STEP("shmem_collectmem");
    late(me);
    shmem_long_sum_inscan(SHMEM_TEAM_WORLD, red, src, 8);
    STEP("shmem_long_sum_inscan");
    CHECK(red[1] == 100L * me * (me + 1) / 2 + (me + 1));
    shmem_barrier_all(); /* the active sets below write into the same dst */
    late(me);
    shmem_fcollect64(dst, src, 8, 0, 0, n, async[0]);
    STEP("shmem_fcollect64 (active set)");
    late(me);
    shmem_collect64(dst, src, (size_t)(me % 2 + 1), 0, 0, n, async[1]);
    STEP("shmem_collect64 (active set)");
    late(me);
    shmem_alltoall64(dst, src, 1, 0, 0, n, async[2]);
    STEP("shmem_alltoall64 (active set)");
    late(me);
    shmem_long_sum_to_all(red, src, 8, 0, 0, n, pwrk, async[3]);
    STEP("shmem_long_sum_to_all (active set)");
    CHECK(red[1] == 100L * n * (n - 1) / 2 + n);
    late(me);
    shmem_sync(0, 0, n, async[4]);
    STEP("shmem_sync (active set)");
    return test_finish("wait_end");
}
