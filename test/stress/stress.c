/*
 * Randomized stress test: every PE issues random puts, gets and fetch-adds of random
 * sizes to random PEs and checks them against a model.
 *
 * Memory layout on every PE: a symmetric region split into one slice per writer PE;
 * only PE w writes slice w (on any target), so w's private model of "what slice w holds
 * on PE t" is exact.  Counters: one array of longs per PE hit by random fetch-adds;
 * the sum of everything added must equal the sum of the final counters.
 *
 *   stress [--iters N] [--seconds S] [--seed X] [--slice BYTES]
 * The seed is printed; rerun with --seed to replay a failure.  With --seconds it runs
 * for that long (long soak) and samples its resident memory to catch growth.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define NCOUNTERS 64

static long counters[NCOUNTERS];
static long added_total, counter_sum;
static int failures;

static uint64_t rng_state;
static uint64_t rnd(void)
{
    /* xorshift64*: small, fast, reproducible from the seed */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, res = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &res) != 2)
            res = 0;
        fclose(f);
    }
    return res * 4;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long iters = 2000, seconds = 0, slice = 64 * 1024;
    uint64_t seed = (uint64_t)time(NULL);

    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--iters"))
            iters = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds"))
            seconds = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--slice"))
            slice = atol(argv[i + 1]);
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    static uint64_t seed_all;
    if (me == 0) {
        seed_all = seed;
        printf("stress: seed %llu, %d PEs, %s %ld, slice %ld bytes\n", (unsigned long long)seed, n,
               seconds ? "seconds" : "iterations", seconds ? seconds : iters, slice);
        fflush(stdout);
    }
    shmem_barrier_all();
    {
        uint64_t s;
        shmem_getmem(&s, &seed_all, sizeof(s), 0);
        rng_state = s * 0x9E3779B97F4A7C15ULL + (uint64_t)me * 0xD1B54A32D192ED03ULL + 1;
    }
    char *region = shmem_malloc((size_t)slice * n);
    char *model = calloc((size_t)n, (size_t)slice); /* model[t*slice..]: my slice on PE t */
    char *buf = malloc((size_t)slice);
    if (!region || !model || !buf) {
        fprintf(stderr, "PE %d: cannot allocate (raise SHMEM_SYMMETRIC_SIZE)\n", me);
        shmem_global_exit(2);
    }
    memset(region, 0, (size_t)slice * n);
    shmem_barrier_all();

    double t0 = now(), last_sample = t0;
    long rss_first = 0, rss_last = 0, ops = 0;
    for (long it = 0;; it++) {
        if (seconds ? now() - t0 >= seconds : it >= iters)
            break;
        int t = (int)(rnd() % n);
        uint64_t r = rnd();
        size_t len = (r & 3) == 0 ? (size_t)(rnd() % slice) + 1 : (size_t)(rnd() % 256) + 1;
        size_t off = (size_t)(rnd() % (slice - len + 1));
        char *remote = region + (size_t)me * slice + off;
        switch ((r >> 2) % 4) {
        case 0:
        case 1: /* put */
            for (size_t i = 0; i < len; i++)
                buf[i] = (char)rnd();
            shmem_putmem(remote, buf, len, t);
            memcpy(model + (size_t)t * slice + off, buf, len);
            break;
        case 2: /* get after completing my puts */
            shmem_quiet();
            shmem_getmem(buf, remote, len, t);
            if (memcmp(buf, model + (size_t)t * slice + off, len) != 0) {
                fprintf(stderr,
                        "PE %d: iteration %ld: get of %zu bytes at %zu from PE %d "
                        "differs from the model\n",
                        me, it, len, off, t);
                failures++;
            }
            break;
        default: { /* fetch-add */
            long v = (long)(rnd() % 1000) + 1;
            int k = (int)(rnd() % NCOUNTERS);
            long old = shmem_long_atomic_fetch_add(&counters[k], v, t);
            if (old < 0) {
                fprintf(stderr, "PE %d: fetch-add returned %ld < 0\n", me, old);
                failures++;
            }
            added_total += v;
            break;
        }
        }
        ops++;
        if (seconds && now() - last_sample >= 10) {
            last_sample = now();
            rss_last = rss_kb();
            if (!rss_first)
                rss_first = rss_last;
        }
    }
    shmem_barrier_all();
    /* final check: every slice of mine on every PE equals the model */
    for (int t = 0; t < n; t++) {
        shmem_getmem(buf, region + (size_t)me * slice, slice, t);
        if (memcmp(buf, model + (size_t)t * slice, slice) != 0) {
            fprintf(stderr, "PE %d: final contents of my slice on PE %d differ\n", me, t);
            failures++;
        }
    }
    for (int k = 0; k < NCOUNTERS; k++)
        counter_sum += counters[k];
    shmem_barrier_all();
    long all_added = 0, all_counted = 0;
    int all_fail = 0;
    static int fail_copy;
    fail_copy = failures;
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++) {
        long a, c;
        int f;
        shmem_getmem(&a, &added_total, sizeof(a), pe);
        shmem_getmem(&c, &counter_sum, sizeof(c), pe);
        shmem_getmem(&f, &fail_copy, sizeof(f), pe);
        all_added += a;
        all_counted += c;
        all_fail += f;
    }
    if (all_added != all_counted) {
        if (me == 0)
            fprintf(stderr, "fetch-add totals differ: added %ld, counters hold %ld\n", all_added,
                    all_counted);
        all_fail++;
    }
    if (seconds && rss_first && rss_last > rss_first + 16 * 1024) {
        fprintf(stderr, "PE %d: resident memory grew from %ld to %ld KiB\n", me, rss_first,
                rss_last);
        all_fail++;
    }
    if (me == 0)
        printf("stress: %s: %ld ops on PE 0 in %.1f s, %d failures, seed %llu\n",
               all_fail ? "FAILED" : "ok", ops, now() - t0, all_fail, (unsigned long long)seed_all);
    if (me == 0 && seconds)
        printf("stress: PE 0 resident memory %ld KiB after the first 10 s, %ld KiB at the end\n",
               rss_first, rss_last);
    shmem_barrier_all();
    shmem_free(region);
    free(model);
    free(buf);
    shmem_finalize();
    return all_fail != 0;
}
