/*
 * Start-up at scale over the fabric (issue 30): a job whose PEs all reach each other
 * through libfabric starts, does one all-to-all of puts (every PE writes one word to
 * every PE, itself included: a connection per pair, opened lazily by tcp;ofi_rxm) and
 * one of gets, and finalizes.  Run by test/lists/startup.list with
 * SHMEM_LOCAL_TRANSPORT=ofi, so that the addresses every PE inserted into its AVs at
 * start-up (one fi_av_insert for all of them) are each used.  Not timed: the start-up
 * times are scripts/bench-startup.sh's (docs/performance.md, "Start-up").
 */
#include "tests.h"

#include <string.h>

#define SLOTS 1024 /* more PEs than this: the test says so and skips */

static long slot[SLOTS];
static long back[SLOTS];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    if (n > SLOTS) {
        if (me == 0)
            printf("startup_ofi: more than %d PEs: skipped\n", SLOTS);
        shmem_finalize();
        return 77;
    }
    for (int i = 0; i < n; i++)
        slot[i] = -1;
    shmem_barrier_all();
    /* each PE starts at its right-hand neighbour, so that no PE is everyone's first */
    for (int k = 0; k < n; k++) {
        int pe = (me + 1 + k) % n;
        long v = 1000L * me + pe;
        shmem_long_put(&slot[me], &v, 1, pe);
    }
    shmem_barrier_all();
    for (int i = 0; i < n; i++)
        CHECK(slot[i] == 1000L * i + me);
    /* and back: every PE reads what it wrote into every other PE */
    for (int k = 0; k < n; k++) {
        int pe = (me + n - 1 - k) % n;
        back[pe] = shmem_long_g(&slot[me], pe);
    }
    for (int pe = 0; pe < n; pe++)
        CHECK(back[pe] == 1000L * me + pe);
    return test_finish("startup_ofi");
}
