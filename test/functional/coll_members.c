/* The group engine with an explicit member list (the path of non-strided teams such
 * as SHMEM_TEAM_SHARED on an irregular node): members in reverse world order, pSync-
 * style counters; barrier, broadcast, fcollect, collect, alltoall, reductions. */
#include "ofs_api.h"
#include "tests.h"
#include "../../src/coll/coll_internal.h"
#include <string.h>

static uint64_t flags[COLL_NFLAGS];
static long src[64], dst[64 * 8];

int main(void)
{
    struct coll_grp g;
    int me, n, *members, reach = 1;

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    members = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        members[i] = n - 1 - i;
    memset(&g, 0, sizeof(g));
    g.size = n;
    g.me = n - 1 - me;
    g.members = members;
    g.flags = flags;
    g.ctx = COMM_CTX_DEFAULT;
    g.f_bcast = COLL_F_BCAST;
    g.f_ring = COLL_F_RING;
    /* the shared-memory paths need every member load/store reachable (not so with
     * SHMEM_LOCAL_TRANSPORT=ofi or across simulated nodes) */
    for (int i = 0; i < n; i++)
        if (!shmem_ptr(flags, members[i]))
            reach = 0;
    for (int pass = 0; pass < 2; pass++) {
        g.all_local = pass && reach; /* the comm-only and the shared-memory paths */
        for (int rep = 0; rep < 20; rep++) {
            int root = rep % n;
            coll_grp_barrier(&g);
            for (int i = 0; i < 5; i++)
                src[i] = 100 * g.me + i + rep;
            coll_grp_bcast(&g, dst, src, 5 * sizeof(long), root, 1);
            for (int i = 0; i < 5; i++)
                CHECK(dst[i] == 100 * root + i + rep);
            coll_grp_barrier(&g);
            coll_grp_fcollect(&g, dst, src, 3 * sizeof(long));
            for (int p = 0; p < n; p++)
                for (int i = 0; i < 3; i++)
                    CHECK(dst[p * 3 + i] == 100 * p + i + rep);
            for (int p = 0; p < n; p++)
                src[p] = 1000 * g.me + p + rep;
            coll_grp_barrier(&g);
            coll_grp_alltoalls(&g, dst, src, 1, 1, 1, sizeof(long));
            for (int p = 0; p < n; p++)
                CHECK(dst[p] == 1000 * p + g.me + rep);
            src[0] = g.me + rep;
            coll_grp_barrier(&g);
            coll_grp_reduce_linear(&g, dst, src, 1, COLL_OP_MAX, COLL_T_LONG);
            CHECK(dst[0] == n - 1 + rep);
        }
    }
    shmem_barrier_all();
    for (int i = 0; i < COLL_NFLAGS; i++)
        CHECK(flags[i] == 0); /* consumed */
    free(members);
    return test_finish("coll_members");
}
