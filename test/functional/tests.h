/* Helpers for self-checking functional tests. */
#ifndef OFS_TESTS_H
#define OFS_TESTS_H
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_check.h"

/* Every PE reports; exit status is nonzero if any PE failed. */
static inline int test_finish(const char *name)
{
    static int total;
    static long mine;
    mine = test_failures;
    shmem_barrier_all();
    total = 0;
    for (int pe = 0; pe < shmem_n_pes(); pe++) {
        long v;
        shmem_getmem(&v, &mine, sizeof(v), pe);
        total += (int)v;
    }
    if (shmem_my_pe() == 0)
        printf("%s: %s (%d PEs, %d failures)\n", name, total ? "FAILED" : "ok", shmem_n_pes(),
               total);
    shmem_finalize();
    return total != 0;
}
#endif
