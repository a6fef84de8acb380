/*
 * Signals, waits and the barrier every other algorithm ends with.
 * Dissemination barrier: round k signals member (me + 2^k) mod n on counter k and
 * waits for member (me - 2^k) on its own counter k: ceil(log2 n) rounds, one sender
 * per counter.
 */
#include "coll_internal.h"

void coll_signal(struct coll_grp *g, int idx, int i)
{
    int pe = coll_grp_pe(g, i);
    uint64_t *f = &g->flags[idx];
    uint64_t one = 1;

    /* every PE on one node with CPU atomics: add through the mapping (one executor) */
    if (coll_cfg.fast_signal) {
        uint64_t *p = comm_ptr(f, pe);
        if (p) {
            __atomic_fetch_add(p, 1, __ATOMIC_RELEASE);
            return;
        }
    }
    comm_fence(g->ctx);
    comm_amo(g->ctx, COMM_AMO_ADD, COMM_DT_U64, f, &one, NULL, NULL, pe, 0);
}

void coll_wait(struct coll_grp *g, int idx, uint64_t count)
{
    uint64_t *f = &g->flags[idx];
    uint64_t target;
    unsigned iter = 0;

    if (count == 0)
        return;
    target = g->seen ? (g->seen[idx] += count) : count;
    while (__atomic_load_n(f, __ATOMIC_ACQUIRE) < target)
        comm_wait_backoff(&iter);
    if (!g->seen) {
        /* pSync: take our count back out so it returns to SHMEM_SYNC_VALUE */
        uint64_t minus = (uint64_t)0 - count, old;
        if (coll_cfg.fast_signal)
            __atomic_fetch_add(f, minus, __ATOMIC_ACQ_REL);
        else /* fetching, so it is applied before we go on: a later wait on this counter
              * (the next round, the next call) must not see the count again, and pSync
              * must read SHMEM_SYNC_VALUE when the call returns */
            comm_amo(g->ctx, COMM_AMO_ADD, COMM_DT_U64, f, &minus, NULL, &old, ofs_g.my_pe, 0);
    }
}

void coll_put_signal(struct coll_grp *g, void *dst, const void *src, size_t len, int idx, int i)
{
    if (len)
        comm_put(g->ctx, dst, src, len, coll_grp_pe(g, i));
    coll_signal(g, idx, i);
}

void coll_grp_barrier(struct coll_grp *g)
{
    int n = g->size, me = g->me;

    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        coll_signal(g, COLL_F_BAR + k, (me + d) % n);
        coll_wait(g, COLL_F_BAR + k, 1);
    }
}

void coll_sync_all(void)
{
    coll_grp_barrier(coll_team_grp(&shmem_internal_team_world));
}

void coll_barrier_all(void)
{
    comm_quiet_all();
    coll_sync_all();
}

int coll_team_sync(struct coll_team *team)
{
    coll_grp_barrier(coll_team_grp(team));
    return 0;
}

void coll_barrier_aset(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    comm_quiet_all();
    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    coll_grp_barrier(&g);
}

void coll_sync_aset(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    coll_grp_barrier(&g);
}
