/*
 * The cost of first use: PE 0 times its first and second get, fetch-add and
 * put-with-signal (+ quiet) to every other PE, which wait in a barrier, and prints
 * the resident memory of PE 0 before and after and the minor page faults of PE 0 in
 * each first operation and of the other PEs over the whole section.  Over
 * tcp;ofi_rxm the provider connects and fills its buffer pools lazily, so the first
 * of each kind costs milliseconds (see docs/ofi.md, The first operation to a PE); on
 * the shared-memory route nothing is set up late.  With PERF_FIRST_SELF=1 every PE
 * first gets and fetch-adds its own word (timed on PE 0 as self_first): that fills
 * its pools and opens its connection to itself, so the rows that follow show what
 * a connection to a peer costs alone.  Times in usec, one sample each (a first use
 * happens once); rows are averaged over the peers.
 */
#include "bench.h"

#include <shmem.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

static long minflt(void)
{
    struct rusage ru;

    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : 0;
}

int main(int argc, char **argv)
{
    static long word;
    static long data[4];
    static uint64_t sig;
    static long flt; /* each PE's page faults over the section, read by PE 0 */
    struct bench_opts o;
    const char *names[6] = { "first_g",     "second_g",     "first_fadd",
                             "second_fadd", "first_putsig", "second_putsig" };
    double sum[6] = { 0 }, fsum[6] = { 0 };
    const char *self = getenv("PERF_FIRST_SELF");

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (bench_parse(argc, argv, &o) != 0) {
        shmem_finalize();
        return 2;
    }
    long rss0 = rss_kb();
    long flt0 = minflt();
    double self_us = 0;
    long self_flt = 0;
    if (self && atoi(self)) {
        double t = bench_now_us();
        data[0] = shmem_long_g(&word, me);
        data[1] = shmem_long_atomic_fetch_add(&word, 1, me);
        self_us = bench_now_us() - t;
        self_flt = minflt() - flt0;
    }
    shmem_barrier_all();
    if (me == 0) {
        for (int pe = 1; pe < n; pe++) {
            double t;
            long f;
            for (int k = 0; k < 2; k++) {
                f = minflt();
                t = bench_now_us();
                data[k] = shmem_long_g(&word, pe);
                sum[k] += bench_now_us() - t;
                fsum[k] += minflt() - f;
            }
            for (int k = 0; k < 2; k++) {
                f = minflt();
                t = bench_now_us();
                data[k] = shmem_long_atomic_fetch_add(&word, 1, pe);
                sum[2 + k] += bench_now_us() - t;
                fsum[2 + k] += minflt() - f;
            }
            for (int k = 0; k < 2; k++) {
                f = minflt();
                t = bench_now_us();
                shmem_long_put_signal(data, data, 4, &sig, 1, SHMEM_SIGNAL_SET, pe);
                shmem_quiet();
                sum[4 + k] += bench_now_us() - t;
                fsum[4 + k] += minflt() - f;
            }
        }
    }
    shmem_barrier_all(); /* the others count their faults once PE 0 is done */
    flt = minflt() - flt0;
    shmem_barrier_all();
    if (me == 0) {
        double others = 0;
        for (int pe = 1; pe < n; pe++)
            others += shmem_long_g(&flt, pe);
        bench_header("first use: PE 0 -> each other PE (usec, mean over the peers)");
        if (self && atoi(self))
            bench_row(&o, "self_first", 8, n, 1, self_us);
        for (int k = 0; k < 6 && n > 1; k++)
            bench_row(&o, names[k], 8, n, 1, sum[k] / (n - 1));
        printf("# PE 0 resident memory: %ld kB after shmem_init, %ld kB after first use\n", rss0,
               rss_kb());
        printf("# PE 0 minor page faults:");
        if (self && atoi(self))
            printf(" self_first %ld,", self_flt);
        for (int k = 0; k < 6 && n > 1; k++)
            printf(" %s %.0f%s", names[k], fsum[k] / (n - 1), k < 5 ? "," : "");
        printf("\n# the other PEs' minor page faults over the section: %.0f (mean)\n",
               n > 1 ? others / (n - 1) : 0.0);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
