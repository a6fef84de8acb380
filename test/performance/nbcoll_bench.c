/* nbcoll_bench: non-blocking collectives (shmemx_*_nb) against their blocking forms.
 * For each collective and size (bytes per PE block, 8 B to 1 MiB): the blocking latency,
 * the latency of post + wait, and the overlap as the OSU non-blocking collective
 * benchmarks define it: with a compute time t_cpu equal to the pure post + wait latency,
 * overlap % = max(0, 100 * (1 - (t_overlapped - t_cpu) / t_pure)), where t_overlapped
 * is post; compute t_cpu without library calls; wait.  Times are PE 0's averages in us,
 * after OSU's warm-up (200 calls of each form up to 8 KiB, 10 above) outside the timing:
 * a same-node ring's first lap takes its pages' first touches, dear on some machines.
 * usage: nbcoll_bench [max_bytes] [iterations at 8 B] [collective] [min_bytes]
 * (collective: broadcast, fcollect, alltoall or sum_reduce; all by default) */
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BCAST, FCOLLECT, ALLTOALL, REDUCE, NCOLL };
static const char *names[NCOLL] = { "broadcast", "fcollect", "alltoall", "sum_reduce" };

static char *src, *dst;
static int npes;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static void compute(double us)
{
    double t0 = now_us();
    while (now_us() - t0 < us)
        ;
}

static void blocking(int c, size_t len)
{
    switch (c) {
    case BCAST: shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, len, 0); break;
    case FCOLLECT: shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, len); break;
    case ALLTOALL: shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, len); break;
    default:
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)dst, (const long *)src, len / sizeof(long));
    }
}

static void post(int c, size_t len, shmemx_req_h *r)
{
    switch (c) {
    case BCAST: shmemx_broadcastmem_nb(SHMEM_TEAM_WORLD, dst, src, len, 0, r); break;
    case FCOLLECT: shmemx_fcollectmem_nb(SHMEM_TEAM_WORLD, dst, src, len, r); break;
    case ALLTOALL: shmemx_alltoallmem_nb(SHMEM_TEAM_WORLD, dst, src, len, r); break;
    default:
        shmemx_long_sum_reduce_nb(SHMEM_TEAM_WORLD, (long *)dst, (const long *)src,
                                  len / sizeof(long), r);
    }
}

/* average us per operation of mode 0 blocking, 1 post+wait, 2 post+compute(cpu)+wait */
static double run(int c, size_t len, int iters, int mode, double cpu)
{
    shmemx_req_h r;
    double t0;

    shmem_barrier_all();
    t0 = now_us();
    for (int i = 0; i < iters; i++) {
        if (mode == 0) {
            blocking(c, len);
        } else {
            post(c, len, &r);
            if (mode == 2)
                compute(cpu);
            shmemx_req_wait(&r);
        }
    }
    t0 = (now_us() - t0) / iters;
    shmem_barrier_all();
    return t0;
}

int main(int argc, char **argv)
{
    size_t max = argc > 1 ? strtoul(argv[1], NULL, 0) : 1 << 20;
    int base_iters = argc > 2 ? atoi(argv[2]) : 200;
    const char *only = argc > 3 ? argv[3] : NULL;
    size_t min = argc > 4 ? strtoul(argv[4], NULL, 0) : 0;
    static double tb, tp, to;

    shmem_init();
    npes = shmem_n_pes();
    src = shmem_malloc(max * (size_t)npes);
    dst = shmem_malloc(max * (size_t)npes);
    if (!src || !dst) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "nbcoll_bench: no room for %zu bytes x %d PEs\n", max, npes);
        shmem_global_exit(1);
    }
    memset(src, 1, max * (size_t)npes);
    if (shmem_my_pe() == 0)
        printf("# %d PEs; us per operation (PE 0); overlap as OSU (compute = pure latency)\n"
               "%-11s %8s %10s %10s %7s %10s %8s\n",
               npes, "collective", "bytes", "blocking", "post+wait", "ratio", "overlapped",
               "overlap%");
    for (int c = 0; c < NCOLL; c++) {
        if (only && strcmp(only, names[c]) != 0)
            continue;
        static const size_t sizes[] = { 8, 64, 512, 4096, 32768, 262144, 1048576 };
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]) && sizes[si] <= max; si++) {
            size_t len = sizes[si];
            int iters = base_iters;
            double ov;
            if (len < min)
                continue;
            if (len >= 32768)
                iters = base_iters / 10 > 5 ? base_iters / 10 : 5;
            if (len >= 262144)
                iters = base_iters / 40 > 3 ? base_iters / 40 : 3;
            /* warm-up as OSU's (skip, skip_large; LARGE_MESSAGE_SIZE 8 KiB) */
            int warm = len > 8192 ? 10 : 200;
            run(c, len, warm, 1, 0);
            run(c, len, warm, 0, 0);
            tb = run(c, len, iters, 0, 0);
            tp = run(c, len, iters, 1, 0);
            /* every PE computes as long as PE 0's pure latency */
            shmem_double_broadcast(SHMEM_TEAM_WORLD, &tp, &tp, 1, 0);
            to = run(c, len, iters, 2, tp);
            ov = 100.0 * (1.0 - (to - tp) / tp);
            if (ov < 0)
                ov = 0;
            if (shmem_my_pe() == 0)
                printf("%-11s %8zu %10.2f %10.2f %7.2f %10.2f %8.1f\n", names[c], len, tb, tp,
                       tp / tb, to, ov);
        }
    }
    shmem_free(src);
    shmem_free(dst);
    shmem_finalize();
    return 0;
}
