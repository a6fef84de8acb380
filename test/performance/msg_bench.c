/*
 * msg_bench: two-sided messages (shmemx_send family), and the same loops over MPI
 * (msg_bench_mpi.c includes this file with MSG_BENCH_MPI defined; scripts/bench-msg.sh
 * builds it with mpicc and runs both side by side; docs/performance.md has the table).
 *   lat   ping-pong between PEs 0 and 1, half the round trip, 0 B .. --max
 *   bw    PE 0 streams windows of 16 messages to PE 1, which answers each window with
 *         an empty message; 1 KiB .. --max
 *   rate  every other PE sends 8-byte messages to PE 0 (any source): messages/s
 * usage: msg_bench [--sym] [--max BYTES] [--iters N] [--reps R]   (2 PEs for lat/bw; rate
 * uses all)
 * --sym: buffers in symmetric memory (the rendezvous gets them without a copy).
 * --reps: time each size R times (lat, bw) and print the best: on a loaded machine the
 * best of short runs is the time both PEs had a CPU, the same for either library.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef MSG_BENCH_MPI
#include <mpi.h>
static int me_, np_;
static void b_init(void)
{
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &me_);
    MPI_Comm_size(MPI_COMM_WORLD, &np_);
}
static void b_fini(void)
{
    MPI_Finalize();
}
static void b_barrier(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}
static void *b_alloc(size_t n, int sym)
{
    (void)sym;
    return malloc(n);
}
static void b_send(int pe, int tag, const void *b, size_t n)
{
    MPI_Send(b, (int)n, MPI_BYTE, pe, tag, MPI_COMM_WORLD);
}
static void b_recv(int pe, int tag, void *b, size_t n)
{
    MPI_Recv(b, (int)n, MPI_BYTE, pe < 0 ? MPI_ANY_SOURCE : pe, tag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}
typedef MPI_Request b_req;
static void b_isend(int pe, int tag, const void *b, size_t n, b_req *r)
{
    MPI_Isend(b, (int)n, MPI_BYTE, pe, tag, MPI_COMM_WORLD, r);
}
static void b_irecv(int pe, int tag, void *b, size_t n, b_req *r)
{
    MPI_Irecv(b, (int)n, MPI_BYTE, pe, tag, MPI_COMM_WORLD, r);
}
static void b_waitall(int n, b_req *r)
{
    MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
}
#define B_NAME "mpi"
#else
#include <shmem.h>
#include <shmemx.h>
static int me_, np_;
static void b_init(void)
{
    shmem_init();
    me_ = shmem_my_pe();
    np_ = shmem_n_pes();
}
static void b_fini(void)
{
    shmem_finalize();
}
static void b_barrier(void)
{
    shmem_barrier_all();
}
/* collective when sym: every PE allocates the same sizes in the same order */
static void *b_alloc(size_t n, int sym)
{
    return sym ? shmem_malloc(n) : malloc(n);
}
static void b_send(int pe, int tag, const void *b, size_t n)
{
    shmemx_send(pe, tag, b, n);
}
static void b_recv(int pe, int tag, void *b, size_t n)
{
    shmemx_recv(pe < 0 ? SHMEMX_ANY_SOURCE : pe, tag, b, n, SHMEMX_STATUS_IGNORE);
}
typedef shmemx_msg_h b_req;
static void b_isend(int pe, int tag, const void *b, size_t n, b_req *r)
{
    shmemx_isend(pe, tag, b, n, r);
}
static void b_irecv(int pe, int tag, void *b, size_t n, b_req *r)
{
    shmemx_irecv(pe, tag, b, n, r);
}
static void b_waitall(int n, b_req *r)
{
    for (int i = 0; i < n; i++)
        shmemx_msg_wait(&r[i], SHMEMX_STATUS_IGNORE);
}
#define B_NAME "shmemx"
#endif

#define WINDOW 16

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static long iters_for(size_t n, long base)
{
    long it = n <= 4096 ? base : (long)((size_t)base * 4096 / n);
    return it < 20 ? 20 : it;
}

static void step_lat(char *buf, size_t n)
{
    if (me_ == 0) {
        b_send(1, 1, buf, n);
        b_recv(1, 1, buf, n);
    } else if (me_ == 1) {
        b_recv(0, 1, buf, n);
        b_send(0, 1, buf, n);
    }
}

/* a window of WINDOW messages from PE 0 to PE 1, answered by an empty one */
static void step_bw(char *buf, size_t n)
{
    b_req rq[WINDOW];
    char ack;

    if (me_ == 0) {
        for (int w = 0; w < WINDOW; w++)
            b_isend(1, 2, buf, n, &rq[w]);
        b_waitall(WINDOW, rq);
        b_recv(1, 3, &ack, 0);
    } else if (me_ == 1) {
        for (int w = 0; w < WINDOW; w++)
            b_irecv(0, 2, buf, n, &rq[w]);
        b_waitall(WINDOW, rq);
        b_send(0, 3, &ack, 0);
    }
}

/* microseconds for it steps, after warm ones */
static double timed(void (*step)(char *, size_t), char *buf, size_t n, long it, long warm)
{
    double t0 = 0;

    b_barrier();
    for (long i = 0; i < it + warm; i++) {
        if (i == warm)
            t0 = now_us();
        step(buf, n);
    }
    return now_us() - t0;
}

static int reps_ = 1;

/* the best (least) time of reps_ runs of it steps */
static double timed_best(void (*step)(char *, size_t), char *buf, size_t n, long it, long warm)
{
    double best = 0;

    for (int r = 0; r < reps_; r++) {
        double us = timed(step, buf, n, it, r ? 1 : warm);
        if (r == 0 || us < best)
            best = us;
    }
    return best;
}

static void bench_lat(char *buf, size_t max, long base)
{
    for (size_t n = 0; n <= max; n = n ? n * 2 : 1) {
        long it = iters_for(n, base);
        double us = timed_best(step_lat, buf, n, it, it / 10 + 2);
        if (me_ == 0)
            printf("lat %zu %.3f\n", n, us / (2.0 * it));
    }
}

static void bench_bw(char *buf, size_t max, long base)
{
    for (size_t n = 1024; n <= max; n *= 2) {
        long it = iters_for(n, base / 8);
        double us = timed_best(step_bw, buf, n, it, 2);
        if (me_ == 0)
            printf("bw %zu %.1f\n", n, (double)n * WINDOW * it / us);
    }
}

static void bench_rate(char *buf, long base)
{
    long it = base * 4;
    double t0;

    b_barrier();
    t0 = now_us();
    if (me_ == 0) {
        for (long i = 0; i < it * (np_ - 1); i++)
            b_recv(-1, 4, buf, 8);
    } else {
        for (long i = 0; i < it; i++)
            b_send(0, 4, buf, 8);
    }
    b_barrier();
    if (me_ == 0)
        printf("rate %d %.3f\n", np_, (double)it * (np_ - 1) / (now_us() - t0));
}

int main(int argc, char **argv)
{
    size_t max = 4u << 20;
    long base = 2000;
    int sym = 0;
    const char *only = NULL;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sym"))
            sym = 1;
        else if (!strcmp(argv[i], "--max") && i + 1 < argc)
            max = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            base = strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps_ = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else if (!strcmp(argv[i], "lat") || !strcmp(argv[i], "bw") || !strcmp(argv[i], "rate"))
            only = argv[i];
        else {
            fprintf(stderr,
                    "usage: %s [lat|bw|rate] [--sym] [--max BYTES] [--iters N] [--reps R]\n",
                    argv[0]);
            return 2;
        }
    }
    b_init();
    char *buf = b_alloc(max + 64, sym);
    if (!buf) {
        fprintf(stderr, "msg_bench: no memory for %zu bytes\n", max);
        return 1;
    }
    memset(buf, 1, max + 64);
    if (me_ == 0)
        printf("# msg_bench %s, %d PEs, %s buffers\n", B_NAME, np_, sym ? "symmetric" : "private");
    if (np_ >= 2 && (!only || !strcmp(only, "lat")))
        bench_lat(buf, max, base);
    if (np_ >= 2 && (!only || !strcmp(only, "bw")))
        bench_bw(buf, max, base);
    if (np_ >= 2 && (!only || !strcmp(only, "rate")))
        bench_rate(buf, base);
    b_barrier();
    b_fini();
    return 0;
}
