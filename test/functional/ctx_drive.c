/*
 * Messages sent from a context's own endpoint arrive without a quiet of that context:
 * each PE sends a put-with-signal round the ring on a context of its own and waits for
 * its neighbour's, never quieting the context until the end, then the same through a
 * SHMEM_CTX_PRIVATE context; last an active-set barrier (pSync), whose counters the
 * library takes back with an atomic.  Run over udp;ofi_rxd (which sends only while the
 * sending endpoint is driven and cannot fetch) with SHMEM_OFI_AM_EP=context.
 */
#include "tests.h"

#define ROUNDS 50

static long data[ROUNDS];
static uint64_t sig;
static long psync[SHMEM_BARRIER_SYNC_SIZE];

static void ring(long options)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_ctx_t ctx;

    CHECK(shmem_ctx_create(options, &ctx) == 0);
    sig = 0;
    shmem_barrier_all();
    for (int i = 0; i < ROUNDS; i++) {
        long v = (long)me * 1000 + i;
        shmem_ctx_long_put_signal(ctx, &data[i], &v, 1, &sig, 1, SHMEM_SIGNAL_ADD, (me + 1) % n);
        shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)i + 1);
        CHECK(data[i] == (long)((me + n - 1) % n) * 1000 + i);
    }
    shmem_ctx_destroy(ctx);
}

int main(void)
{
    shmem_init();
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    ring(0);
    ring(SHMEM_CTX_PRIVATE);
    for (int i = 0; i < 20; i++)
        shmem_barrier(0, 0, shmem_n_pes(), psync);
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        CHECK(psync[i] == SHMEM_SYNC_VALUE);
    return test_finish("ctx_drive");
}
