/* Collectives at scale (16-64 PEs oversubscribed): barriers, int/double sum reductions,
 * broadcast, fcollect and alltoall, every result checked. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT 1000

#define EXPECT(cond, what, idx)                                               \
    do {                                                                      \
        if (!(cond) && bad++ < 5)                                             \
            fprintf(stderr, "PE %d: %s wrong at %d\n", me, what, (int)(idx)); \
    } while (0)

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), bad = 0;
    int *isrc = shmem_malloc(COUNT * sizeof(int)), *idst = shmem_malloc(COUNT * sizeof(int));
    double *dsrc = shmem_malloc(COUNT * sizeof(double)),
           *ddst = shmem_malloc(COUNT * sizeof(double));
    long *a_src = shmem_malloc(2 * n * sizeof(long)), *a_dst = shmem_malloc(2 * n * sizeof(long));
    long *f_dst = shmem_malloc(n * sizeof(long));
    static long f_src, b;

    for (int it = 0; it < 100; it++)
        shmem_barrier_all();
    for (int i = 0; i < COUNT; i++) {
        isrc[i] = me + i;
        dsrc[i] = 0.5 * me + i;
    }
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, idst, isrc, COUNT);
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, COUNT);
    for (int i = 0; i < COUNT; i++) {
        EXPECT(idst[i] == n * (n - 1) / 2 + n * i, "int sum", i);
        EXPECT(ddst[i] == 0.25 * n * (n - 1) + (double)n * i, "double sum", i);
    }
    b = me == n / 2 ? 4242 : -1;
    shmem_barrier_all(); /* others may write b as soon as one PE enters the broadcast */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, &b, &b, 1, n / 2);
    EXPECT(b == 4242, "broadcast", 0);
    f_src = 7 * me;
    shmem_long_fcollect(SHMEM_TEAM_WORLD, f_dst, &f_src, 1);
    for (int p = 0; p < n; p++)
        EXPECT(f_dst[p] == 7 * p, "fcollect", p);
    for (int p = 0; p < n; p++)
        for (int i = 0; i < 2; i++)
            a_src[2 * p + i] = 1000L * me + 10 * p + i;
    shmem_long_alltoall(SHMEM_TEAM_WORLD, a_dst, a_src, 2);
    for (int p = 0; p < n; p++)
        for (int i = 0; i < 2; i++)
            EXPECT(a_dst[2 * p + i] == 1000L * p + 10 * me + i, "alltoall", 2 * p + i);
    static int total, mine;
    mine = bad;
    shmem_barrier_all();
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &total, &mine, 1);
    if (me == 0)
        printf("load_coll: %s (%d PEs, %d wrong values)\n", total ? "FAILED" : "ok", n, total);
    shmem_finalize();
    return total != 0;
}
