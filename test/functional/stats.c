/* SHMEM_STATS: a program whose counts are known (test/functional/stats_check.sh reads
 * them back from the table and the JSON document).  PE 0 aims everything at the last PE
 * T: 10 puts of 8 B, 5 of 16 KiB, 2 of 256 KiB, 7 gets of 100 B, 3 fetch-adds, 2
 * put-with-signal of 64 B, then a flag put that T waits for (PE 0 sleeps first, so T's
 * one wait_until waits); every PE then runs 4 broadcasts of 16 B, one sum reduction of
 * 4 longs and shmemx_stats_dump; after the dump PE 0 resets its counters and puts 8 B
 * once more. */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char big[256 * 1024], small[16 * 1024], sig_data[64];
static long flag, counter, red_src[4], red_dst[4];
static uint64_t sig;
static char bsrc[16], bdst[16];

int main(void)
{
    char local[256 * 1024];

    shmem_init();
    int me = shmem_my_pe(), t = shmem_n_pes() - 1;

    memset(local, me + 1, sizeof(local));
    shmem_barrier_all();
    if (me == 0) {
        for (int i = 0; i < 10; i++)
            shmem_putmem(small, local, 8, t);
        for (int i = 0; i < 5; i++)
            shmem_putmem(small, local, sizeof(small), t);
        for (int i = 0; i < 2; i++)
            shmem_putmem(big, local, sizeof(big), t);
        for (int i = 0; i < 7; i++)
            shmem_getmem(local, big, 100, t);
        for (int i = 0; i < 3; i++)
            (void)shmem_long_atomic_fetch_add(&counter, 1, t);
        for (int i = 0; i < 2; i++)
            shmem_putmem_signal(sig_data, local, sizeof(sig_data), &sig, 1, SHMEM_SIGNAL_ADD, t);
        shmem_quiet();
        usleep(100000); /* T is waiting by then (its one wait_until waits) */
        shmem_long_p(&flag, 1, t);
    }
    if (me == t)
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    shmem_barrier_all();
    for (int i = 0; i < 4; i++)
        shmem_broadcastmem(SHMEM_TEAM_WORLD, bdst, bsrc, sizeof(bsrc), 0);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, 4);
    shmemx_stats_dump();
    if (me == 0) {
        shmemx_stats_reset(); /* local: PE 0's counters only, from here on */
        shmem_putmem(small, local, 8, t);
    }
    shmem_barrier_all();
    printf("PE %d done\n", me);
    shmem_finalize();
    return 0;
}
