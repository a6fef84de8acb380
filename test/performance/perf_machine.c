/*
 * The machine's limits, measured in the same run as the SHMEM benchmarks so that
 * ratios can be stated: the round trip of one cache line between two cores (two
 * threads ping-ponging an atomic flag) and single-core memcpy bandwidth for the
 * sizes the bandwidth benchmarks use.  No SHMEM calls.
 */
#include "bench.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <unistd.h>

static _Alignas(64) volatile uint64_t line[8];
static long rt_iters;

static void pin(int cpu)
{
    cpu_set_t set;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    CPU_ZERO(&set);
    CPU_SET(cpu % (ncpu > 0 ? ncpu : 1), &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *pong(void *arg)
{
    (void)arg;
    pin(1);
    for (long i = 1; i <= rt_iters; i++) {
        while (__atomic_load_n(&line[0], __ATOMIC_ACQUIRE) != 2 * (uint64_t)i - 1)
            ;
        __atomic_store_n(&line[0], 2 * (uint64_t)i, __ATOMIC_RELEASE);
    }
    return NULL;
}

static double cacheline_rtt_us(long iters)
{
    pthread_t t;
    double t0, t1;

    rt_iters = iters;
    line[0] = 0;
    pin(0);
    if (pthread_create(&t, NULL, pong, NULL) != 0)
        return -1;
    t0 = bench_now_us();
    for (long i = 1; i <= iters; i++) {
        __atomic_store_n(&line[0], 2 * (uint64_t)i - 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&line[0], __ATOMIC_ACQUIRE) != 2 * (uint64_t)i)
            ;
    }
    t1 = bench_now_us();
    pthread_join(t, NULL);
    return (t1 - t0) / iters;
}

int main(int argc, char **argv)
{
    struct bench_opts o;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    if (bench_parse(argc, argv, &o) != 0)
        return 2;
    bench_warmup(300);
    bench_header("machine limits (no SHMEM): cache-line round trip, single-core memcpy");
    if (ncpu >= 2) {
        /* many short bursts, best one: a burst that another process interrupted is
         * not the machine's round trip */
        long burst = o.iters > 0 ? o.iters : 5000;
        double best = 1e9;
        cacheline_rtt_us(burst); /* warm-up */
        for (int r = 0; r < 40; r++) {
            double v = cacheline_rtt_us(burst);
            best = v < best ? v : best;
        }
        bench_row(&o, "cacheline_rtt", 64, 1, burst, best);
    }
    pin(0);
    char *src = aligned_alloc(4096, o.max_size), *dst = aligned_alloc(4096, o.max_size);
    if (!src || !dst)
        return 1;
    memset(src, 1, o.max_size);
    memset(dst, 2, o.max_size);
    for (size_t len = 8; len <= o.max_size; len *= 2) {
        if (len < 1024 && len != 8)
            continue;
        long n = bench_iters(&o, len, 100000);
        double best = 1e9;
        for (int r = 0; r < 7; r++) {
            double t0 = bench_now_us();
            for (long i = 0; i < n; i++) {
                memcpy(dst, src, len);
                __asm__ __volatile__("" ::"r"(dst) : "memory");
            }
            double v = (bench_now_us() - t0) / n;
            best = v < best ? v : best;
        }
        bench_row(&o, "memcpy", len, 1, n, best);
    }
    free(src);
    free(dst);
    return 0;
}
