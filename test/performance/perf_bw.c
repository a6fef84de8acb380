/*
 * Bandwidth of put and get from PE 0 to the last PE for 1 KiB .. --max bytes
 * (default 4 MiB): a stream of blocking putmem/getmem calls on one buffer, one
 * quiet at the end.  The other PEs wait in a barrier.  Best of 3 runs per size.
 */
#include "bench.h"

#include <shmem.h>

int main(int argc, char **argv)
{
    struct bench_opts o;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), target = n - 1;
    if (bench_parse(argc, argv, &o) != 0) {
        shmem_finalize();
        return 2;
    }
    char *remote = shmem_align(4096, o.max_size); /* same page offset as local: see below */
    /* Both buffers page-aligned, like perf_machine's memcpy buffers: when source and
     * destination sit at different offsets within a page, memcpy itself runs up to 40%
     * slower at 8-256 KiB in one direction (4 KiB aliasing of loads with earlier
     * stores), which would be charged to the library. */
    char *local = aligned_alloc(4096, o.max_size);
    if (!remote || !local) {
        fprintf(stderr, "perf_bw: cannot allocate %zu bytes\n", o.max_size);
        shmem_global_exit(1);
    }
    memset(local, me + 1, o.max_size);
    memset(remote, 0, o.max_size);
    bench_warmup(300);
    if (me == 0)
        bench_header("bandwidth: PE 0 -> last PE (MB/s = bytes/usec)");
    shmem_barrier_all();
    for (int dir = 0; dir < 2; dir++) {
        for (size_t len = 1024; len <= o.max_size; len *= 2) {
            if (me == 0) {
                long iters = bench_iters(&o, len, 20000);
                double best = 1e9;
                for (int r = 0; r < 3; r++) {
                    double t0 = bench_now_us();
                    for (long i = 0; i < iters; i++) {
                        if (dir == 0)
                            shmem_putmem(remote, local, len, target);
                        else
                            shmem_getmem(local, remote, len, target);
                    }
                    shmem_quiet();
                    double v = (bench_now_us() - t0) / iters;
                    best = v < best ? v : best;
                }
                bench_row(&o, dir == 0 ? "put_bw" : "get_bw", len, n, iters, best);
            }
            shmem_barrier_all();
        }
    }
    free(local);
    shmem_free(remote);
    shmem_finalize();
    return 0;
}
