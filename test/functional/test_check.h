/* The failure counter and CHECK() shared by tests.h (public API tests), ofi_test.h
 * (comm-layer tests) and mn_check.c; the includer declares shmem_my_pe() first. */
#ifndef OFS_TEST_CHECK_H
#define OFS_TEST_CHECK_H
#include <stdio.h>

static int test_failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", shmem_my_pe(), __FILE__, __LINE__, \
                    #cond);                                                                        \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)
#endif
