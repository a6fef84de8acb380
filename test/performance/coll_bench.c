/* Collective latency: barrier_all, sync_all, team_sync, broadcast, int and double sum
 * reductions, fcollect and alltoall over sizes.  PE 0 prints the mean time per call
 * (mean over PEs).  Usage: oshrun -n N coll_bench [--csv FILE] [max_bytes] [iterations]. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double t_sum[1];
static double t_out[1];
static FILE *csv;

static void report(const char *what, size_t bytes, double us)
{
    t_sum[0] = us;
    shmem_barrier_all();
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, t_out, t_sum, 1);
    if (shmem_my_pe() == 0)
        printf("%-14s %9zu %10.2f\n", what, bytes, t_out[0] / shmem_n_pes());
    if (csv && shmem_my_pe() == 0)
        fprintf(csv, "%s,%zu,%d,%.3f\n", what, bytes, shmem_n_pes(), t_out[0] / shmem_n_pes());
    fflush(stdout);
}

#define TIME(what, bytes, iters, stmt)                   \
    do {                                                 \
        for (int w_ = 0; w_ < (iters) / 10 + 1; w_++)    \
            stmt;                                        \
        shmem_barrier_all();                             \
        double t0_ = now_us();                           \
        for (int i_ = 0; i_ < (iters); i_++)             \
            stmt;                                        \
        report(what, bytes, (now_us() - t0_) / (iters)); \
    } while (0)

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--csv") == 0) {
        csv = fopen(argv[2], "w");
        if (csv)
            fprintf(csv, "test,bytes,npes,usec\n");
        argc -= 2;
        argv += 2;
    }
    size_t maxb = argc > 1 ? strtoul(argv[1], NULL, 0) : (1 << 20);
    int iters = argc > 2 ? atoi(argv[2]) : 1000, npes;
    char *src, *dst;

    shmem_init();
    npes = shmem_n_pes();
    src = shmem_malloc(maxb * npes);
    dst = shmem_malloc(maxb * npes);
    if (!src || !dst) {
        fprintf(stderr, "coll_bench: cannot allocate %zu bytes\n", 2 * maxb * npes);
        shmem_global_exit(1);
    }
    memset(src, 1, maxb * npes);
    if (shmem_my_pe() == 0)
        printf("# coll_bench: %d PEs, mean microseconds per call\n# %-12s %9s %10s\n", npes,
               "operation", "bytes", "usec");
    TIME("barrier_all", 0, iters * 10, shmem_barrier_all());
    TIME("sync_all", 0, iters * 10, shmem_sync_all());
    TIME("team_sync", 0, iters * 10, shmem_team_sync(SHMEM_TEAM_WORLD));
    for (size_t b = 8; b <= maxb; b *= 8) {
        int it = b >= 65536 ? iters / 10 + 1 : iters;
        TIME("broadcast", b, it, shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, b, 0));
        TIME("int_sum", b, it,
             shmem_int_sum_reduce(SHMEM_TEAM_WORLD, (int *)dst, (int *)src, b / sizeof(int)));
        TIME("double_sum", b, it,
             shmem_double_sum_reduce(SHMEM_TEAM_WORLD, (double *)dst, (double *)src,
                                     b / sizeof(double)));
        TIME("fcollect", b, it, shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, b));
        TIME("alltoall", b, it, shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, b));
    }
    shmem_free(dst);
    shmem_free(src);
    if (csv)
        fclose(csv);
    shmem_finalize();
    return 0;
}
