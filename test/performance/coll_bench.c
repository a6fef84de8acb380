/* Collective latency: barrier_all, sync_all, team_sync (or shmem_barrier on the active
 * set of all PEs), broadcast, int and double sum reductions, collect, fcollect and
 * alltoall over sizes (8 B, x8, ..., and max_bytes).  PE 0 prints the mean time per call
 * (mean over PEs).  Measured the way the OSU micro-benchmarks do: each call timed on its
 * own with shmem_barrier_all between calls (outside the timing); --back-to-back times a
 * loop of calls instead (the older figures; barriers are always timed back to back).
 * Usage: oshrun -n N coll_bench [--csv FILE] [--back-to-back] [--per-pe] [--only NAME,...]
 * [max_bytes] [iterations]; --only: just these collectives (barrier_all, int_sum, ... as
 * printed).  --per-pe (OSU style only): also each PE's median, 25th and 90th percentile
 * per call (the mean hides which PE waits, and a few descheduled calls move it), and
 * --only bcast_lat (never run by default) times an 8-byte broadcast from root 0 from the
 * moment the root starts it to the moment each PE returns (the root's clock travels in
 * the payload: PEs of one machine only, CLOCK_MONOTONIC).
 *
 * Built against an OpenSHMEM 1.4 library (Open MPI's OSHMEM 4.1 has no teams), or
 * with -DCOLL_BENCH_ASET, it times the active-set forms (shmem_broadcast64,
 * shmem_int_sum_to_all, shmem_fcollect64, shmem_alltoall64, shmem_barrier on pSync):
 * scripts/bench-compare.sh builds it that way for both libraries so that both run the
 * same calls, and also runs the team form of ofishmem beside them. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !defined(COLL_BENCH_ASET) && \
    (SHMEM_MAJOR_VERSION < 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION < 5))
#define COLL_BENCH_ASET 1
#endif

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double t_sum[1];
static double t_out[1];
static FILE *csv;

#ifdef COLL_BENCH_ASET
#define MAXSYNC(a, b) ((a) > (b) ? (a) : (b))
#define PSYNC_LEN                                                              \
    MAXSYNC(MAXSYNC(MAXSYNC(SHMEM_BARRIER_SYNC_SIZE, SHMEM_BCAST_SYNC_SIZE),   \
                    MAXSYNC(SHMEM_REDUCE_SYNC_SIZE, SHMEM_COLLECT_SYNC_SIZE)), \
            SHMEM_ALLTOALL_SYNC_SIZE)
static long psync[2][PSYNC_LEN]; /* alternated: consecutive calls never share one */
static double t_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 1];
static void *pwrk; /* reduction work array, big enough for the largest reduction */
static int npes_g, par;

static long *next_psync(void)
{
    par ^= 1;
    return psync[par];
}
#define OP_BARRIER() shmem_barrier(0, 0, npes_g, next_psync())
#define OP_BCAST(d, s, b) shmem_broadcast64(d, s, (b) / 8, 0, 0, 0, npes_g, next_psync())
#define OP_INT_SUM(d, s, n) \
    shmem_int_sum_to_all(d, s, (int)(n), 0, 0, npes_g, (int *)pwrk, next_psync())
#define OP_DOUBLE_SUM(d, s, n) \
    shmem_double_sum_to_all(d, s, (int)(n), 0, 0, npes_g, (double *)pwrk, next_psync())
#define OP_FCOLLECT(d, s, b) shmem_fcollect64(d, s, (b) / 8, 0, 0, npes_g, next_psync())
#define OP_ALLTOALL(d, s, b) shmem_alltoall64(d, s, (b) / 8, 0, 0, npes_g, next_psync())
#define OP_COLLECT(d, s, b) shmem_collect64(d, s, (b) / 8, 0, 0, npes_g, next_psync())
#define BARRIER_NAME "barrier_aset"
#else
#define OP_BARRIER() shmem_team_sync(SHMEM_TEAM_WORLD)
#define OP_BCAST(d, s, b) shmem_broadcastmem(SHMEM_TEAM_WORLD, d, s, b, 0)
#define OP_INT_SUM(d, s, n) shmem_int_sum_reduce(SHMEM_TEAM_WORLD, d, s, n)
#define OP_DOUBLE_SUM(d, s, n) shmem_double_sum_reduce(SHMEM_TEAM_WORLD, d, s, n)
#define OP_FCOLLECT(d, s, b) shmem_fcollectmem(SHMEM_TEAM_WORLD, d, s, b)
#define OP_ALLTOALL(d, s, b) shmem_alltoallmem(SHMEM_TEAM_WORLD, d, s, b)
#define OP_COLLECT(d, s, b) shmem_collectmem(SHMEM_TEAM_WORLD, d, s, b)
#define BARRIER_NAME "team_sync"
#endif

static void report(const char *what, size_t bytes, double us)
{
    t_sum[0] = us;
    shmem_barrier_all();
#ifdef COLL_BENCH_ASET
    shmem_double_sum_to_all(t_out, t_sum, 1, 0, 0, npes_g, t_wrk, next_psync());
#else
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, t_out, t_sum, 1);
#endif
    if (shmem_my_pe() == 0)
        printf("%-14s %9zu %10.2f\n", what, bytes, t_out[0] / shmem_n_pes());
    if (csv && shmem_my_pe() == 0)
        fprintf(csv, "%s,%zu,%d,%.3f\n", what, bytes, shmem_n_pes(), t_out[0] / shmem_n_pes());
    fflush(stdout);
}

static int back_to_back;
static const char *only; /* --only: comma-separated names of the sized collectives to run */
static int per_pe;       /* --per-pe: each PE's median and percentiles too */
static double *t_each;   /* --per-pe: this PE's time of each call */
static double *t_pe;     /* --per-pe, symmetric: median, p25, p90 of every PE (on PE 0) */
static int t_cap;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --per-pe: PE 0 prints every PE's median, 25th and 90th percentile of n calls */
static void report_pe(int n)
{
    int me = shmem_my_pe(), np = shmem_n_pes();

    if (!per_pe || n <= 0)
        return;
    n = n < t_cap ? n : t_cap;
    qsort(t_each, (size_t)n, sizeof(double), cmp_double);
    shmem_double_p(&t_pe[3 * me], t_each[n / 2], 0);
    shmem_double_p(&t_pe[3 * me + 1], t_each[n / 4], 0);
    shmem_double_p(&t_pe[3 * me + 2], t_each[n * 9 / 10], 0);
    shmem_barrier_all();
    if (me == 0)
        for (int p = 0; p < np; p++)
            printf("#   PE %d: median %.2f p25 %.2f p90 %.2f\n", p, t_pe[3 * p], t_pe[3 * p + 1],
                   t_pe[3 * p + 2]);
    fflush(stdout);
    shmem_barrier_all();
}

static int wanted(const char *what)
{
    size_t l = strlen(what);
    for (const char *p = only; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : "")
        if (strncmp(p, what, l) == 0 && (p[l] == ',' || p[l] == 0))
            return 1;
    return only == NULL;
}

/* OSU style: each call timed alone, a barrier (untimed) between calls */
#define TIME_OSU(what, bytes, iters, stmt)            \
    do {                                              \
        double tt_ = 0;                               \
        for (int w_ = 0; w_ < (iters) / 10 + 1; w_++) \
            stmt;                                     \
        shmem_barrier_all();                          \
        for (int i_ = 0; i_ < (iters); i_++) {        \
            double t0_ = now_us();                    \
            stmt;                                     \
            double d_ = now_us() - t0_;               \
            tt_ += d_;                                \
            if (i_ < t_cap)                           \
                t_each[i_] = d_;                      \
            shmem_barrier_all();                      \
        }                                             \
        report(what, bytes, tt_ / (iters));           \
        report_pe(iters);                             \
    } while (0)
#define TIME_LOOP(what, bytes, iters, stmt)              \
    do {                                                 \
        for (int w_ = 0; w_ < (iters) / 10 + 1; w_++)    \
            stmt;                                        \
        shmem_barrier_all();                             \
        double t0_ = now_us();                           \
        for (int i_ = 0; i_ < (iters); i_++)             \
            stmt;                                        \
        report(what, bytes, (now_us() - t0_) / (iters)); \
    } while (0)
#define TIME(what, bytes, iters, stmt)           \
    do {                                         \
        if (!wanted(what))                       \
            break;                               \
        if (back_to_back)                        \
            TIME_LOOP(what, bytes, iters, stmt); \
        else                                     \
            TIME_OSU(what, bytes, iters, stmt);  \
    } while (0)

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--csv") == 0) {
        csv = fopen(argv[2], "w");
        if (csv)
            fprintf(csv, "test,bytes,npes,usec\n");
        argc -= 2;
        argv += 2;
    }
    if (argc > 1 && strcmp(argv[1], "--back-to-back") == 0) {
        back_to_back = 1;
        argc--;
        argv++;
    }
    if (argc > 1 && strcmp(argv[1], "--per-pe") == 0) {
        per_pe = 1;
        argc--;
        argv++;
    }
    if (argc > 2 && strcmp(argv[1], "--only") == 0) {
        only = argv[2];
        argc -= 2;
        argv += 2;
    }
    size_t maxb = argc > 1 ? strtoul(argv[1], NULL, 0) : (1 << 20);
    int iters = argc > 2 ? atoi(argv[2]) : 1000, npes;
    char *src, *dst;

    shmem_init();
    npes = shmem_n_pes();
    src = shmem_malloc(maxb * npes);
    dst = shmem_malloc(maxb * npes);
#ifdef COLL_BENCH_ASET
    npes_g = npes;
    for (int i = 0; i < PSYNC_LEN; i++)
        psync[0][i] = psync[1][i] = SHMEM_SYNC_VALUE;
    size_t wrk = maxb / 2 + 8;
    if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE * sizeof(double))
        wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE * sizeof(double);
    pwrk = shmem_malloc(wrk);
#endif
    if (!src || !dst) {
        fprintf(stderr, "coll_bench: cannot allocate %zu bytes\n", 2 * maxb * npes);
        shmem_global_exit(1);
    }
    memset(src, 1, maxb * npes);
    if (per_pe) {
        t_cap = iters;
        t_each = malloc((size_t)t_cap * sizeof(double));
        t_pe = shmem_malloc(3 * (size_t)npes * sizeof(double));
        if (!t_each || !t_pe) {
            fprintf(stderr, "coll_bench: cannot allocate the --per-pe times\n");
            shmem_global_exit(1);
        }
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("# coll_bench: %d PEs, mean microseconds per call\n# %-12s %9s %10s\n", npes,
               "operation", "bytes", "usec");
    if (wanted("barrier_all"))
        TIME_LOOP("barrier_all", 0, iters * 10, shmem_barrier_all());
    if (wanted("sync_all"))
        TIME_LOOP("sync_all", 0, iters * 10, shmem_sync_all());
    if (wanted(BARRIER_NAME))
        TIME_LOOP(BARRIER_NAME, 0, iters * 10, OP_BARRIER());
    /* the delivery time of a small broadcast (named in --only, never by default) */
    if (only && wanted("bcast_lat") && maxb >= 8) {
        double tt = 0;
        int me = shmem_my_pe();
        for (int i = -(iters / 10 + 1); i < iters; i++) {
            double t0 = now_us(), tr;
            if (me == 0)
                memcpy(src, &t0, sizeof(t0));
            OP_BCAST(dst, src, 8);
            double t1 = now_us();
            memcpy(&tr, me == 0 ? src : dst, sizeof(tr));
            if (i >= 0) {
                tt += t1 - tr;
                if (i < t_cap)
                    t_each[i] = t1 - tr;
            }
            shmem_barrier_all();
        }
        report("bcast_lat", 8, tt / iters);
        report_pe(iters);
    }
    /* 8, 64, ... and max_bytes itself */
    for (size_t b = 8; b <= maxb; b = b < maxb && b * 8 > maxb ? maxb : b * 8) {
        int it = b >= 65536 ? iters / 10 + 1 : iters;
        TIME("broadcast", b, it, OP_BCAST(dst, src, b));
        TIME("int_sum", b, it, OP_INT_SUM((int *)dst, (int *)src, b / sizeof(int)));
        TIME("double_sum", b, it, OP_DOUBLE_SUM((double *)dst, (double *)src, b / sizeof(double)));
        TIME("collect", b, it, OP_COLLECT(dst, src, b));
        TIME("fcollect", b, it, OP_FCOLLECT(dst, src, b));
        TIME("alltoall", b, it, OP_ALLTOALL(dst, src, b));
    }
#ifdef COLL_BENCH_ASET
    shmem_free(pwrk);
#endif
    if (per_pe) {
        shmem_free(t_pe);
        free(t_each);
    }
    shmem_free(dst);
    shmem_free(src);
    if (csv)
        fclose(csv);
    shmem_finalize();
    return 0;
}
