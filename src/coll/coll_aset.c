/*
 * The deprecated active-set collectives: the active set becomes a group whose
 * counters are the user's pSync (counting signals that are consumed again, so pSync
 * is back at SHMEM_SYNC_VALUE = 0 on exit and may be reused at once, the barrier at
 * the end of each call making "not still in use" true).  An active set of n PEs uses
 * ceil(log2 n) + 2 longs of pSync (at most COLL_ASET_NFLAGS = 18), and on one node
 * words COLL_ASET_SHM_ARRIVE and COLL_ASET_SHM_RELEASE (the shm barrier): every
 * SHMEM_*_SYNC_SIZE must be at least COLL_ASET_BQ + 2 * COLL_ASET_BQN.  pWrk is not used:
 * reductions read the members' sources between two barriers (through shared memory on
 * one node).  The same-node broadcast of a few slots (coll_bring.c) ends without a
 * barrier: its announcements go into pSync words COLL_ASET_BQ.. that the member
 * empties itself (never counting words: the next broadcast on the same node may
 * already signal the member's counters while it still reads this one).
 */
#include "coll_internal.h"

#include <stdlib.h>

#define COLL_ASET_MAX_LOG_STRIDE 30 /* 1 << logPE_stride is an int */

void coll_aset_grp(struct coll_grp *g, int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    int stride = 1 << logPE_stride, me = ofs_g.my_pe - PE_start;

    if (PE_size < 1 || PE_start < 0 || logPE_stride < 0 ||
        logPE_stride > COLL_ASET_MAX_LOG_STRIDE ||
        (long)PE_start + (long)(PE_size - 1) * stride >= ofs_g.n_pes)
        ofs_bad_input("active-set collective",
                      "PE_start = %d, logPE_stride = %d, PE_size = %d "
                      "do not describe PEs of the job (%d PEs)",
                      PE_start, logPE_stride, PE_size, ofs_g.n_pes);
    if (me < 0 || me % stride != 0 || me / stride >= PE_size)
        ofs_bad_input("active-set collective",
                      "PE %d is not in the active set PE_start = %d, "
                      "logPE_stride = %d, PE_size = %d",
                      ofs_g.my_pe, PE_start, logPE_stride, PE_size);
    memset(g, 0, sizeof(*g));
    g->size = PE_size;
    g->me = me / stride;
    g->start = PE_start;
    g->stride = stride;
    g->flags = (uint64_t *)pSync;
    g->ctx = COMM_CTX_DEFAULT;
    g->f_bcast = 0;
    while ((1 << g->f_bcast) < PE_size)
        g->f_bcast++;
    g->f_ring = g->f_bcast + 1;
    g->all_local = ofs_g.params.COLL_SHM;
    for (int i = 0; i < PE_size && g->all_local; i++)
        if (!comm_ptr(pSync, PE_start + i * stride))
            g->all_local = 0;
    g->one_host = coll_grp_one_host(g);
}

void coll_broadcast_aset(void *dest, const void *src, size_t nelems, size_t elem_size, int PE_root,
                         int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    if (PE_root < 0 || PE_root >= PE_size)
        ofs_bad_input("shmem_broadcast", "PE_root = %d is not in [0, PE_size = %d)", PE_root,
                      PE_size);
    COLL_CHECK_ASET(NULL, &g, .kind = COLL_NBC_BCAST, .root = PE_root, .es = elem_size,
                    .nelems = nelems);
    comm_attend_hold();
    coll_grp_bcast(&g, dest, src, nelems * elem_size, PE_root, 0);
    comm_attend_release();
}

void coll_fcollect_aset(void *dest, const void *src, size_t nelems, size_t elem_size, int PE_start,
                        int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    COLL_CHECK_ASET(NULL, &g, .kind = COLL_NBC_FCOLLECT, .es = elem_size, .nelems = nelems);
    comm_attend_hold();
    coll_grp_fcollect(&g, dest, src, nelems * elem_size);
    comm_attend_release();
}

void coll_collect_aset(const char *r, coll_total_check_fn check, void *dest, const void *src,
                       size_t nelems, size_t elem_size, int PE_start, int logPE_stride, int PE_size,
                       long *pSync)
{
    struct coll_grp g;
    size_t *offs, o = 0;

    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    COLL_CHECK_ASET(NULL, &g, .kind = COLL_NBC_COLLECT, .es = elem_size, .nelems = nelems);
    offs = malloc(2 * (size_t)PE_size * sizeof(size_t));
    if (!offs)
        ofs_fatal(1, "shmem_collect: out of host memory");
    comm_attend_hold();
    /* each PE publishes its length in its own copy of coll_aset_pub */
    __atomic_store_n(coll_aset_pub, (uint64_t)(nelems * elem_size), __ATOMIC_RELEASE);
    coll_grp_barrier(&g);
    for (int i = 0; i < PE_size; i++) {
        uint64_t l = *coll_aset_pub;
        if (i != g.me)
            comm_get(g.ctx, &l, coll_aset_pub, sizeof(l), coll_grp_pe(&g, i));
        offs[i] = o;
        offs[PE_size + i] = l;
        o = coll_total_add(r, check, dest, nelems, o, l);
    }
    if (check)
        check(r, dest, nelems, o, 0);                       /* dest holds every member's block */
    coll_grp_collectv(&g, dest, src, offs, offs + PE_size); /* ends with a barrier */
    /* ... unless nothing moved: a member's next collect (on another pSync, as the
     * specification allows) must not publish its length before every member read mine */
    if (o == 0 && PE_size > 1)
        coll_grp_barrier(&g);
    comm_attend_release();
    free(offs);
}

void coll_alltoall_aset(void *dest, const void *src, size_t nelems, size_t elem_size, int PE_start,
                        int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    COLL_CHECK_ASET(NULL, &g, .kind = COLL_NBC_ALLTOALL, .es = elem_size, .nelems = nelems);
    comm_attend_hold();
    coll_grp_alltoalls(&g, dest, src, 1, 1, nelems, elem_size);
    comm_attend_release();
}

void coll_alltoalls_aset(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                         size_t elem_size, int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    COLL_CHECK_ASET(NULL, &g, .kind = COLL_NBC_ALLTOALLS, .es = elem_size, .nelems = nelems,
                    .dst = dst, .sst = sst);
    comm_attend_hold();
    coll_grp_alltoalls(&g, dest, src, dst, sst, nelems, elem_size);
    comm_attend_release();
}

void coll_reduce_aset(void *dest, const void *src, int nreduce, enum coll_op op,
                      enum coll_type type, int PE_start, int logPE_stride, int PE_size, void *pWrk,
                      long *pSync)
{
    struct coll_grp g;

    (void)pWrk;
    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    if (!coll_op_valid(op, type))
        ofs_fatal(1, "internal: reduction op %d on type %d does not exist", (int)op, (int)type);
    COLL_CHECK_ASET(NULL, &g, .kind = COLL_NBC_REDUCE, .op = op, .type = type,
                    .nelems = (size_t)nreduce);
    if (nreduce <= 0)
        return;
    comm_attend_hold();
    if (g.all_local && coll_cfg.reduce != COLL_ALG_LINEAR)
        coll_grp_reduce_shm(&g, dest, src, (size_t)nreduce, op, type);
    else
        coll_grp_reduce_linear(&g, dest, src, (size_t)nreduce, op, type);
    comm_attend_release();
}
