/* Waiting helpers for the shm tests: poll with an acquire load, yield, then sleep
 * (4 PEs share 2 cores), and give up loudly instead of hanging. */
#ifndef OFS_SHM_UTIL_H
#define OFS_SHM_UTIL_H
#include "tests.h"
#include <sched.h>
#include <time.h>

static inline void shm_test_wait_ge(long *word, long v)
{
    for (unsigned long i = 0; __atomic_load_n(word, __ATOMIC_ACQUIRE) < v; i++) {
        if (i < 100) {
            continue;
        } else if (i < 2000) {
            sched_yield();
        } else {
            struct timespec ts = { 0, 20000 };
            nanosleep(&ts, NULL);
        }
        if (i > 2000 + 500000) { /* ~10+ s asleep: the update never arrived */
            fprintf(stderr, "PE %d: timeout waiting for %ld (have %ld)\n", shmem_my_pe(), v,
                    __atomic_load_n(word, __ATOMIC_ACQUIRE));
            shmem_global_exit(3);
        }
    }
}
#endif
