/* A collect whose counts are all 0 (NULL dest and source, which the specification
 * allows with a count of 0), then at once a collect with counts, on the same team, and
 * the same with the active-set form on two pSyncs.  The empty collect moved nothing and
 * returned without synchronizing, so a member's next collect overwrote the sizes (team:
 * in the team's scratch; active set: in the published length) of a member that had not
 * read them: "dest is NULL with a length of N bytes" or a hang (found by
 * stress/coll-mix).  PE 0 lags now and then; every result is checked. */
#include <shmem.h>
#include <time.h>

#include "tests.h"

static int src[8], dst[8 * 64];
static long ps1[SHMEM_COLLECT_SYNC_SIZE], ps2[SHMEM_COLLECT_SYNC_SIZE],
    ps3[SHMEM_BARRIER_SYNC_SIZE];
static int me, npes;

static void lag(int it)
{
    struct timespec a, b;

    if (me != 0 || it % 7)
        return;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 20000);
}

static void check(int it, size_t k)
{
    for (int j = 0; j < npes; j++)
        for (size_t x = 0; x < k; x++)
            CHECK(dst[(size_t)j * k + x] == 1000 * j + it + (int)x);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 64)
        return test_finish("coll_zero (skipped: more than 64 PEs)");
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        ps1[i] = ps2[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        ps3[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (int it = 0; it < 2000; it++) {
        size_t k = 1 + (size_t)(it % 5);
        for (size_t x = 0; x < k; x++)
            src[x] = 1000 * me + it + (int)x;
        CHECK(shmem_int_collect(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0);
        lag(it);
        CHECK(shmem_int_collect(SHMEM_TEAM_WORLD, dst, src, k) == 0);
        check(it, k);
        shmem_collect32(NULL, NULL, 0, 0, 0, npes, ps1);
        lag(it);
        shmem_collect32(dst, src, k, 0, 0, npes, ps2);
        check(it, k);
        shmem_barrier(0, 0, npes, ps3); /* dst, ps1 and ps2 free again everywhere */
    }
    return test_finish("coll_zero");
}
