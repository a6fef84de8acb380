/* Locks under mixed use: every PE takes a pseudo-random sequence of 8 locks (their
 * home PEs differ: a lock's home follows its symmetric offset) by shmem_set_lock or
 * by polling shmem_test_lock, sometimes two at once (lower index first), and checks
 * mutual exclusion and lost updates per lock.  Then, after a barrier, every lock word
 * is 0 on every PE; locks held by different PEs are reported as held; cleared, they
 * are 0 again.  Each check of the lock words is fenced by barriers on both sides: a
 * word may legitimately change as soon as any PE takes that lock again. */
#include "tests.h"

#define NLOCKS 8
#define ROUNDS 300

static long locks[NLOCKS];
static long count[NLOCKS], inside[NLOCKS];
static long total[NLOCKS]; /* per PE: how often I held each lock */

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 16;
}

static void take(int l, int by_test)
{
    if (by_test) {
        while (shmem_test_lock(&locks[l]) != 0)
            ;
    } else {
        shmem_set_lock(&locks[l]);
    }
}

static void critical(int l)
{
    long c;
    /* nobody else holds lock l */
    CHECK(shmem_long_atomic_fetch_add(&inside[l], 1, 0) == 0);
    shmem_getmem(&c, &count[l], sizeof(c), 0);
    shmem_long_p(&count[l], c + 1, 0);
    shmem_long_atomic_add(&inside[l], -1, 0);
    total[l]++;
}

static int words_zero(void)
{
    for (int l = 0; l < NLOCKS; l++)
        if (locks[l] != 0)
            return 0;
    return 1;
}

int main(void)
{
    static long sums[NLOCKS];
    int me, npes;
    unsigned seed;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    seed = 12345u + 7919u * (unsigned)me;
    for (int r = 0; r < ROUNDS; r++) {
        unsigned x = rnd(&seed);
        int a = (int)(x % NLOCKS), b = (int)((x >> 3) % NLOCKS), by_test = (x >> 6) & 1;
        if ((x >> 7) % 4 == 0 && a != b) {
            int lo = a < b ? a : b, hi = a < b ? b : a;
            take(lo, by_test);
            take(hi, !by_test);
            critical(lo);
            critical(hi);
            /* release in either order */
            if (x & 0x100) {
                shmem_clear_lock(&locks[lo]);
                shmem_clear_lock(&locks[hi]);
            } else {
                shmem_clear_lock(&locks[hi]);
                shmem_clear_lock(&locks[lo]);
            }
        } else {
            take(a, by_test);
            critical(a);
            shmem_clear_lock(&locks[a]);
        }
    }
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sums, total, NLOCKS);
    if (me == 0)
        for (int l = 0; l < NLOCKS; l++)
            CHECK(count[l] == sums[l]);
    /* lock l held by PE (l + shift) % npes, the others see it held; two shifts, so
     * that whatever the home PEs of the locks, some lock is held by a PE other than
     * its home (the check of the words on the home PE must precede that) */
    for (int shift = 0; shift < 2; shift++) {
        CHECK(words_zero());
        /* nobody takes a lock before everybody has read its lock words */
        shmem_barrier_all();
        for (int l = 0; l < NLOCKS; l++)
            if ((l + shift) % npes == me)
                CHECK(shmem_test_lock(&locks[l]) == 0);
        shmem_barrier_all();
        for (int l = 0; l < NLOCKS; l++)
            if ((l + shift) % npes != me)
                CHECK(shmem_test_lock(&locks[l]) == 1);
        shmem_barrier_all();
        for (int l = 0; l < NLOCKS; l++)
            if ((l + shift) % npes == me)
                shmem_clear_lock(&locks[l]);
        shmem_barrier_all();
    }
    CHECK(words_zero());
    return test_finish("coll_lockmix");
}
