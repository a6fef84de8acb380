/*
 * shmem_test_any and shmem_wait_until_any (and their _vector forms): "If an entry i ...
 * satisfies the test condition, a series of calls to shmem_test_any must eventually
 * return i" (spec 1.5/1.6).  With every flag set and a NULL status, a series of calls must
 * return every index, not only the lowest (SOS spec-example shmem_test_any spun forever
 * waiting for index 1).  Each PE sets its flag on every PE, as the spec's example does.
 */
#include "tests.h"

#include <stdint.h>
#include <string.h>

#define MAXPES 64

static int flags[MAXPES];

/* calls `call` (an expression yielding an index) until every index of npes is seen;
 * 4 * npes calls are plenty for a fair scan (a fair one needs npes) */
#define SEES_ALL(call)                                                                        \
    do {                                                                                      \
        int seen[MAXPES], nseen = 0;                                                          \
        memset(seen, 0, sizeof(seen));                                                        \
        for (int t = 0; t < 4 * npes && nseen < npes; t++) {                                  \
            size_t i = (call);                                                                \
            CHECK(i < (size_t)npes);                                                          \
            if (i < (size_t)npes && !seen[i]) {                                               \
                seen[i] = 1;                                                                  \
                nseen++;                                                                      \
            }                                                                                 \
        }                                                                                     \
        if (nseen != npes)                                                                    \
            fprintf(stderr, "PE %d: %s returned %d of %d indices\n", me, #call, nseen, npes); \
        CHECK(nseen == npes);                                                                 \
    } while (0)

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int cmpv[MAXPES];

    if (npes > MAXPES)
        return test_finish("any_fair"); /* the arrays are sized for MAXPES */
    for (int i = 0; i < npes; i++) {
        shmem_int_atomic_set(&flags[me], 1, i);
        cmpv[i] = 1;
    }
    shmem_int_wait_until_all(flags, (size_t)npes, NULL, SHMEM_CMP_EQ, 1);

    SEES_ALL(shmem_int_test_any(flags, (size_t)npes, NULL, SHMEM_CMP_EQ, 1));
    SEES_ALL(shmem_int_wait_until_any(flags, (size_t)npes, NULL, SHMEM_CMP_EQ, 1));
    SEES_ALL(shmem_int_test_any_vector(flags, (size_t)npes, NULL, SHMEM_CMP_EQ, cmpv));
    SEES_ALL(shmem_int_wait_until_any_vector(flags, (size_t)npes, NULL, SHMEM_CMP_EQ, cmpv));

    /* an excluded element is still never returned, whatever index the scan starts at */
    int status[MAXPES];
    for (int i = 0; i < npes; i++)
        status[i] = i != npes - 1;
    for (int t = 0; t < 2 * npes; t++)
        CHECK(shmem_int_test_any(flags, (size_t)npes, status, SHMEM_CMP_EQ, 1) ==
              (size_t)(npes - 1));
    status[npes - 1] = 1;
    CHECK(shmem_int_test_any(flags, (size_t)npes, status, SHMEM_CMP_EQ, 1) == SIZE_MAX);
    /* a shorter array than the last call's: the scan still starts inside it */
    CHECK(shmem_int_test_any(flags, 1, NULL, SHMEM_CMP_EQ, 1) == 0);

    shmem_barrier_all();
    return test_finish("any_fair");
}
