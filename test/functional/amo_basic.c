/* Every PE fetch-adds into every PE's counter, the own one included: totals exact. */
#include "tests.h"

static long counter;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const int iters = 1000;
    long seen_max = -1;

    shmem_barrier_all();
    for (int i = 0; i < iters; i++) {
        for (int pe = 0; pe < n; pe++) {
            long old = shmem_long_atomic_fetch_add(&counter, 1, (pe + me) % n);
            CHECK(old >= 0 && old < (long)iters * n + 2L * iters);
            if (pe == 0 && old > seen_max)
                seen_max = old;
        }
        shmem_long_atomic_add(&counter, 2, me);
    }
    shmem_barrier_all();
    CHECK(counter == (long)iters * n + 2L * iters);
    return test_finish("amo_basic");
}
