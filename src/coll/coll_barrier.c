/*
 * barrier_all / sync_all: a dissemination barrier on the comm layer.  Round k
 * signals PE (me + 2^k) mod n by an atomic add on its flag k and waits for its own
 * flag k to reach the barrier's epoch; flags only grow, so nothing is reset.
 */
#include "coll.h"
#include "rt.h"

#include <stdatomic.h>

#define COLL_MAX_ROUNDS 32

struct coll_state {
    int64_t *flags;   /* symmetric: COLL_MAX_ROUNDS counters */
    int64_t epoch;
    int rounds;
};
static struct coll_state coll;

ofs_status_t coll_init(void)
{
    coll.flags = heap_alloc(COLL_MAX_ROUNDS * sizeof(int64_t), 64);
    if (!coll.flags)
        return OFS_ERR_NOMEM;
    for (int i = 0; i < COLL_MAX_ROUNDS; i++)
        coll.flags[i] = 0;
    coll.epoch = 0;
    coll.rounds = 0;
    while ((1 << coll.rounds) < ofs_g.n_pes)
        coll.rounds++;
    /* every PE's flags are zero before anyone signals */
    return rt_barrier() == OFS_OK ? OFS_OK : OFS_ERR_RUNTIME;
}

void coll_fini(void)
{
    if (coll.flags)
        heap_free(coll.flags);
    coll.flags = NULL;
}

void coll_sync_all(void)
{
    struct comm_ctx *ctx = COMM_CTX_DEFAULT;
    int me = ofs_g.my_pe, n = ofs_g.n_pes;
    int64_t one = 1;
    int64_t epoch = ++coll.epoch;

    for (int k = 0; k < coll.rounds; k++) {
        int to = (me + (1 << k)) % n;
        unsigned iter = 0;

        comm_amo(ctx, COMM_AMO_ADD, COMM_DT_I64, &coll.flags[k], &one, NULL, NULL, to, 0);
        while (__atomic_load_n(&coll.flags[k], __ATOMIC_ACQUIRE) < epoch)
            comm_wait_backoff(&iter);
    }
}

void coll_barrier_all(void)
{
    comm_quiet_all();
    coll_sync_all();
}
