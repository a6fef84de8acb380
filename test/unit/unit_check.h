/* The failure counter and CHECK() of the unit tests (no PEs, no shmem_my_pe). */
#ifndef OFS_UNIT_CHECK_H
#define OFS_UNIT_CHECK_H
#include <stdio.h>

static int failures;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)
#endif
