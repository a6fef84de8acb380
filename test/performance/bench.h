/*
 * Shared helpers of the performance suite: timing, argument parsing, and one
 * output format (a table on stdout, optionally CSV with --csv FILE) so that
 * scripts/bench-compare.sh can put two implementations side by side.
 *
 * The programs use only the public OpenSHMEM API, so they also build with other
 * implementations' oshcc (Open MPI's OSHMEM).
 */
#ifndef OFS_BENCH_H
#define OFS_BENCH_H

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CSV columns: test,bytes,npes,iters,usec,mbps,mops */
struct bench_opts {
    const char *csv; /* --csv FILE: append rows (header written if the file is new) */
    long iters;      /* --iters N: iterations for small messages (0: program default) */
    size_t max_size; /* --max SIZE: largest message in bytes */
};

static inline double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static inline void bench_usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--csv FILE] [--iters N] [--max BYTES]\n", prog);
}

static inline int bench_parse(int argc, char **argv, struct bench_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->max_size = 4u << 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            o->csv = argv[++i];
        } else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc) {
            o->iters = strtol(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            o->max_size = strtoul(argv[++i], NULL, 0);
        } else {
            bench_usage(argv[0]);
            return -1;
        }
    }
    return 0;
}

static inline void bench_header(const char *title)
{
    printf("# %s\n", title);
    printf("%-22s %10s %5s %10s %12s %12s %10s\n", "test", "bytes", "npes", "iters", "usec", "MB/s",
           "Mops/s");
}

/* One result row: usec is the time of one operation; MB/s and Mops/s follow from it. */
static inline void bench_row(const struct bench_opts *o, const char *test, size_t bytes, int npes,
                             long iters, double usec)
{
    double mbps = usec > 0 ? (double)bytes / usec : 0; /* bytes/us == MB/s */
    double mops = usec > 0 ? 1.0 / usec : 0;

    printf("%-22s %10zu %5d %10ld %12.3f %12.1f %10.3f\n", test, bytes, npes, iters, usec, mbps,
           mops);
    fflush(stdout);
    if (o->csv) {
        FILE *f = fopen(o->csv, "a+");
        if (!f) {
            perror(o->csv);
            return;
        }
        fseek(f, 0, SEEK_END);
        if (ftell(f) == 0)
            fprintf(f, "test,bytes,npes,iters,usec,mbps,mops\n");
        fprintf(f, "%s,%zu,%d,%ld,%.4f,%.2f,%.4f\n", test, bytes, npes, iters, usec, mbps, mops);
        fclose(f);
    }
}

/* Keep the CPU busy for ms milliseconds before measuring: whatever runs first in a
 * program measured up to 30% slower here (clock ramp-up on the VM host) without it. */
static inline void bench_warmup(double ms)
{
    static char a[1 << 16], b[1 << 16];
    double end = bench_now_us() + ms * 1000;

    while (bench_now_us() < end) {
        memcpy(a, b, sizeof(a));
        __asm__ __volatile__("" ::"r"(a) : "memory");
    }
}

/* Iterations for a message size: many for small ones, enough bytes for large ones. */
static inline long bench_iters(const struct bench_opts *o, size_t bytes, long small)
{
    long n;

    if (o->iters > 0)
        small = o->iters;
    n = bytes <= 8192 ? small : (long)((256u << 20) / bytes);
    return n < 20 ? 20 : n;
}
#endif
