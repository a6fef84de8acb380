/*
 * The cost of first use: PE 0 times its first and second get, fetch-add and
 * put-with-signal (+ quiet) to every other PE, which wait in a barrier, and prints
 * the resident memory of PE 0 before and after.  Over tcp;ofi_rxm the provider
 * connects and fills its buffer pools lazily, so the first of each kind costs
 * milliseconds (see docs/ofi.md, The first operation to a PE); on the shared-memory
 * route nothing is set up late.  Times in usec, one sample each (a first use happens
 * once); rows are averaged over the peers.
 */
#include "bench.h"

#include <shmem.h>
#include <stdlib.h>
#include <string.h>

static long rss_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");

    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = atol(line + 6);
    fclose(f);
    return kb;
}

int main(int argc, char **argv)
{
    static long word;
    static long data[4];
    static uint64_t sig;
    struct bench_opts o;
    const char *names[6] = { "first_g",     "second_g",     "first_fadd",
                             "second_fadd", "first_putsig", "second_putsig" };
    double sum[6] = { 0 };

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (bench_parse(argc, argv, &o) != 0) {
        shmem_finalize();
        return 2;
    }
    long rss0 = rss_kb();
    shmem_barrier_all();
    if (me == 0) {
        for (int pe = 1; pe < n; pe++) {
            double t;
            for (int k = 0; k < 2; k++) {
                t = bench_now_us();
                data[k] = shmem_long_g(&word, pe);
                sum[k] += bench_now_us() - t;
            }
            for (int k = 0; k < 2; k++) {
                t = bench_now_us();
                data[k] = shmem_long_atomic_fetch_add(&word, 1, pe);
                sum[2 + k] += bench_now_us() - t;
            }
            for (int k = 0; k < 2; k++) {
                t = bench_now_us();
                shmem_long_put_signal(data, data, 4, &sig, 1, SHMEM_SIGNAL_SET, pe);
                shmem_quiet();
                sum[4 + k] += bench_now_us() - t;
            }
        }
        bench_header("first use: PE 0 -> each other PE (usec, mean over the peers)");
        for (int k = 0; k < 6 && n > 1; k++)
            bench_row(&o, names[k], 8, n, 1, sum[k] / (n - 1));
        printf("# PE 0 resident memory: %ld kB after shmem_init, %ld kB after first use\n", rss0,
               rss_kb());
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
