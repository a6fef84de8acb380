/*
 * Message rate of 8-byte non-blocking puts from PE 0 to the last PE: windows of
 * back-to-back shmem_putmem_nbi calls to distinct words, a quiet after each window;
 * then the same for atomic adds, and fetch-adds one after the other.
 */
#include "bench.h"

#include <shmem.h>

#define WINDOW 64

int main(int argc, char **argv)
{
    struct bench_opts o;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), target = n - 1;
    if (bench_parse(argc, argv, &o) != 0) {
        shmem_finalize();
        return 2;
    }
    long *remote = shmem_malloc(WINDOW * sizeof(long));
    static long local[WINDOW];
    long windows = (o.iters > 0 ? o.iters : 1000000) / WINDOW;

    if (me == 0)
        bench_header("message rate: 8-byte puts and atomics, PE 0 -> last PE");
    shmem_barrier_all();
    if (me == 0) {
        double best = 1e9;
        for (int r = 0; r < 3; r++) {
            double t0 = bench_now_us();
            for (long w = 0; w < windows; w++) {
                for (int i = 0; i < WINDOW; i++)
                    shmem_putmem_nbi(&remote[i], &local[i], 8, target);
                shmem_quiet();
            }
            double v = (bench_now_us() - t0) / (windows * WINDOW);
            best = v < best ? v : best;
        }
        bench_row(&o, "put8_rate", 8, n, windows * WINDOW, best);

        /* atomic rate: non-fetching adds, then fetch-adds (one at a time) */
        best = 1e9;
        for (int r = 0; r < 3; r++) {
            double t0 = bench_now_us();
            for (long w = 0; w < windows; w++) {
                for (int i = 0; i < WINDOW; i++)
                    shmem_long_atomic_add(&remote[i], 1, target);
                shmem_quiet();
            }
            double v = (bench_now_us() - t0) / (windows * WINDOW);
            best = v < best ? v : best;
        }
        bench_row(&o, "add_rate", 8, n, windows * WINDOW, best);
        best = 1e9;
        for (int r = 0; r < 3; r++) {
            long sink = 0;
            double t0 = bench_now_us();
            for (long w = 0; w < windows / 4; w++)
                for (int i = 0; i < WINDOW; i++)
                    sink += shmem_long_atomic_fetch_add(&remote[i], 1, target);
            double v = (bench_now_us() - t0) / (windows / 4 * WINDOW);
            best = v < best ? v : best;
            local[0] = sink;
        }
        bench_row(&o, "fetch_add_rate", 8, n, windows / 4 * WINDOW, best);
    }
    shmem_barrier_all();
    shmem_free(remote);
    shmem_finalize();
    return 0;
}
