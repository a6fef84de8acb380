/* Cross-transport atomicity (DESIGN rule 1): every PE hammers ONE word of PE 0 with
 * fetch-add and with compare-swap increment loops (and PE 0 hits its own word too);
 * with routes mixed (SHMEM_SIM_PES_PER_NODE=2) no update may be lost. */
#include "tests.h"

static long word;
static long cas_word;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const int iters = 400;

    shmem_barrier_all();
    for (int i = 0; i < iters; i++) {
        long old = shmem_long_atomic_fetch_add(&word, 1, 0);
        CHECK(old >= 0 && old < (long)iters * n * 2);
        /* compare-swap increment: retry until our value lands */
        long seen = shmem_long_atomic_fetch(&cas_word, 0), prev;
        while ((prev = shmem_long_atomic_compare_swap(&cas_word, seen, seen + 1, 0)) != seen)
            seen = prev;
        shmem_long_atomic_inc(&word, 0);
    }
    shmem_barrier_all();
    if (me == 0) {
        CHECK(word == (long)iters * n * 2);
        CHECK(cas_word == (long)iters * n);
    }
    CHECK(shmem_long_atomic_fetch(&word, 0) == (long)iters * n * 2);
    return test_finish("xatomic");
}
