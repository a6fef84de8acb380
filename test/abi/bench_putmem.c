/* Cost of argument checking: 8-byte shmem_putmem in a loop (not a test: run by hand,
 * compare a default build with a --disable-error-checking one).
 * usage: oshrun -n 2 bench_putmem [iterations] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long target[64];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 10000000;
    long v = 42;
    shmem_init();
    int peer = (shmem_my_pe() + 1) % shmem_n_pes();
    shmem_barrier_all();
    for (long i = 0; i < iters / 10; i++) /* warm up */
        shmem_putmem(&target[i & 63], &v, 8, peer);
    shmem_quiet();
    double t0 = now();
    for (long i = 0; i < iters; i++)
        shmem_putmem(&target[i & 63], &v, 8, peer);
    shmem_quiet();
    double t1 = now();
    if (shmem_my_pe() == 0)
        printf("8-byte shmem_putmem: %.2f ns per call (%ld calls)\n", (t1 - t0) * 1e9 / iters,
               iters);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
