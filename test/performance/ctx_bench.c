/*
 * The cost of contexts: every PE creates N contexts (shmem_ctx_create), then on each
 * makes its first put, fetch-add and get to the next PE (+ quiet), then destroys them
 * all; twice (round 2 creates after round 1 destroyed).  Usage: ctx_bench [N...]
 * (default 1 8 64).  Times in msec, the slowest PE's total per phase; one sample each
 * (a first use happens once).  Never run by make check.
 */
#include "bench.h"

#include <shmem.h>
#include <stdlib.h>

#define MAXCTX 1024

static double t_in[4], t_out[4];
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static double pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long word;
static long data[MAXCTX];

int main(int argc, char **argv)
{
    static shmem_ctx_t ctx[MAXCTX];
    int counts[16] = { 1, 8, 64 }, ncounts = 3;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n;
    if (argc > 1) {
        ncounts = 0;
        for (int i = 1; i < argc && ncounts < 16; i++) {
            int k = atoi(argv[i]);
            counts[ncounts++] = k < 1 ? 1 : k > MAXCTX ? MAXCTX : k;
        }
    }
    if (me == 0)
        printf("# ctx_bench: %d PEs; msec, slowest PE, total over the contexts\n"
               "# %5s %5s %10s %10s %10s %10s\n",
               n, "nctx", "round", "create", "first_ops", "second_ops", "destroy");
    for (int ci = 0; ci < ncounts; ci++) {
        int nc = counts[ci];
        for (int round = 1; round <= 2; round++) {
            double t;
            shmem_barrier_all();
            t = bench_now_us();
            for (int i = 0; i < nc; i++)
                if (shmem_ctx_create(0, &ctx[i]) != 0) {
                    fprintf(stderr, "ctx_bench: PE %d: shmem_ctx_create %d failed\n", me, i);
                    shmem_global_exit(1);
                }
            t_in[0] = bench_now_us() - t;
            for (int pass = 1; pass <= 2; pass++) {
                t = bench_now_us();
                for (int i = 0; i < nc; i++) {
                    shmem_ctx_long_p(ctx[i], &data[i], i, next);
                    (void)shmem_ctx_long_atomic_fetch_add(ctx[i], &word, 1, next);
                    (void)shmem_ctx_long_g(ctx[i], &data[i], next);
                    shmem_ctx_quiet(ctx[i]);
                }
                t_in[pass] = bench_now_us() - t;
            }
            t = bench_now_us();
            for (int i = 0; i < nc; i++)
                shmem_ctx_destroy(ctx[i]);
            t_in[3] = bench_now_us() - t;
            for (int k = 0; k < 4; k++)
                t_in[k] /= 1000.0;
            shmem_barrier_all();
            for (int k = 0; k < SHMEM_REDUCE_SYNC_SIZE; k++)
                psync[k] = SHMEM_SYNC_VALUE;
            shmem_barrier_all();
            shmem_double_max_to_all(t_out, t_in, 4, 0, 0, n, pwrk, psync);
            if (me == 0)
                printf("  %5d %5d %10.2f %10.2f %10.2f %10.2f\n", nc, round, t_out[0], t_out[1],
                       t_out[2], t_out[3]);
            fflush(stdout);
        }
    }
    shmem_finalize();
    return 0;
}
