/*
 * Signals, waits and the barrier every other algorithm ends with.
 * Dissemination barrier: round k signals member (me + 2^k) mod n on counter k and
 * waits for member (me - 2^k) on its own counter k: ceil(log2 n) rounds, one sender
 * per counter.
 */
#include "coll_internal.h"

void coll_signal(struct coll_grp *g, int idx, int i)
{
    coll_put_signal(g, NULL, NULL, 0, idx, i);
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

/* The signal is an atomic add by the job's atomic executor, ordered after the data and
 * every earlier put to that PE.  comm_put_signal does that on every route (also when
 * puts go by shm and atomics by the fabric) without the full completion that a
 * comm_fence needs in such a job. */
void coll_put_signal(struct coll_grp *g, void *dst, const void *src, size_t len, int idx, int i)
{
    int pe = coll_grp_pe(g, i);
    uint64_t *f = &g->flags[idx];

    /* every PE on one node with CPU atomics: add through the mapping (one executor) */
    if (coll_cfg.fast_signal) {
        uint64_t *p = comm_ptr(f, pe);
        if (p) {
            if (len)
                comm_put(g->ctx, dst, src, len, pe);
            __atomic_fetch_add(p, 1, __ATOMIC_RELEASE);
            return;
        }
    }
    if (!len)
        dst = f, src = f;
    comm_put_signal(g->ctx, dst, src, len, f, 1, COMM_SIG_ADD, pe, 0);
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
