/*
 * Message rate of 8-byte non-blocking puts from PE 0 to the last PE: windows of
 * back-to-back shmem_putmem_nbi calls to distinct words, a quiet after each window.
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
        bench_header("message rate: 8-byte puts, PE 0 -> last PE");
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
    }
    shmem_barrier_all();
    shmem_free(remote);
    shmem_finalize();
    return 0;
}
