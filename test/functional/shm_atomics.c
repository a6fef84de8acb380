/*
 * Cross-PE atomics are exact: every PE fetch-adds many times on counters that all
 * PEs hit at once (heap and static, on PE 0 and on every PE round-robin); each
 * fetched value must be unique (each PE records which tickets it drew, then every
 * ticket 0..n*K-1 must have been drawn exactly once) and the totals exact.
 */
#include "tests.h"
#include <string.h>

#define K 4000

static long static_counter;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *heap_counter = shmem_calloc(1, sizeof(long));
    long *adds = shmem_calloc(1, sizeof(long));
    long *tickets = shmem_malloc(K * sizeof(long)); /* tickets drawn from the heap counter */
    long *sticket = shmem_malloc(K * sizeof(long)); /* ... and from the static one */
    CHECK(heap_counter && adds && tickets && sticket);
    static_counter = 0;
    shmem_barrier_all();

    for (int i = 0; i < K; i++) {
        tickets[i] = shmem_long_atomic_fetch_add(heap_counter, 1, 0);
        sticket[i] = shmem_long_atomic_fetch_add(&static_counter, 1, 0);
        shmem_long_atomic_add(adds, 3, (me + i) % n);
        if (i > 0) {
            CHECK(tickets[i] > tickets[i - 1]);
            CHECK(sticket[i] > sticket[i - 1]);
        }
    }
    shmem_barrier_all();
    if (me == 0) {
        CHECK(*heap_counter == (long)n * K);
        CHECK(static_counter == (long)n * K);
        /* every ticket drawn exactly once */
        unsigned char *seen = calloc((size_t)n * K, 2);
        long *buf = malloc(K * sizeof(long));
        for (int pe = 0; pe < n; pe++) {
            for (int which = 0; which < 2; which++) {
                shmem_getmem(buf, which ? sticket : tickets, K * sizeof(long), pe);
                for (int i = 0; i < K; i++) {
                    long t = buf[i];
                    if (t < 0 || t >= (long)n * K || seen[which * (size_t)n * K + t]++) {
                        CHECK(!"ticket out of range or drawn twice");
                        break;
                    }
                }
            }
        }
        free(seen);
        free(buf);
    }
    /* every PE received K/n*3-ish adds: the sum over PEs is exact */
    long total = 0;
    for (int pe = 0; pe < n; pe++)
        total += shmem_long_atomic_fetch_add(adds, 0, pe);
    CHECK(total == 3L * n * K);
    return test_finish("shm_atomics");
}
