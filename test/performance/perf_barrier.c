/*
 * shmem_barrier_all latency on however many PEs the job has (run it at 2 and 4).
 * Reported time is the mean per barrier seen by PE 0; first, barrier_all_first: the
 * job's first barrier, the longest any PE took (over the fabric it opens the
 * connections its rounds need).  With many PEs per CPU a small --iters is enough
 * (docs/ofi-internals.md, "Progress thread").
 */
#include "bench.h"

#include <shmem.h>

int main(int argc, char **argv)
{
    struct bench_opts o;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (bench_parse(argc, argv, &o) != 0) {
        shmem_finalize();
        return 2;
    }
    long iters = o.iters > 0 ? o.iters : 20000;

    static double first, first_max; /* symmetric: reduced */
    double t = bench_now_us();
    shmem_barrier_all();
    first = bench_now_us() - t;
#if SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5)
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, &first_max, &first, 1);
#else /* scripts/bench-coll.sh builds it for Open MPI 4.1's OSHMEM (1.4, no teams) too */
    static double wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    static long sync[SHMEM_REDUCE_SYNC_SIZE];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        sync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_double_max_to_all(&first_max, &first, 1, 0, 0, n, wrk, sync);
#endif
    if (me == 0) {
        bench_header("barrier_all latency");
        bench_row(&o, "barrier_all_first", 0, n, 1, first_max);
    }
    for (long i = 0; i < iters / 10; i++)
        shmem_barrier_all();
    double t0 = bench_now_us();
    for (long i = 0; i < iters; i++)
        shmem_barrier_all();
    double v = (bench_now_us() - t0) / iters;
    if (me == 0)
        bench_row(&o, "barrier_all", 0, n, iters, v);
    shmem_finalize();
    return 0;
}
