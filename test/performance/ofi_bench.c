/* OFI route micro-benchmarks (not run by make check): put ping-pong latency (half
 * round trip, comparable to fi_pingpong), put+quiet and get latency, put/get
 * bandwidth (window of nbi transfers then quiet), 8-byte put message rate and
 * fetch-add latency, between PE 0 and PE 1.  Run with 2 PEs and
 * SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=... */
#include "../functional/ofi_test.h"

#include <time.h>

#define MAXSZ ((size_t)4 << 20)
#define WINDOW 64

static uint64_t pp_flag;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int iters_for(size_t sz, int base)
{
    int it = (int)(base * 4096.0 / (sz + 4096));
    return it < 10 ? 10 : it;
}

int main(int argc, char **argv)
{
    FILE *csv = NULL;

    shmem_init();
    if (argc > 2 && strcmp(argv[1], "--csv") == 0 && shmem_my_pe() == 0) {
        csv = fopen(argv[2], "w");
        if (csv)
            fprintf(csv, "bytes,pp_lat_us,putq_us,get_us,put_GBps,get_GBps\n");
    }
    int me = shmem_my_pe();
    struct comm_ctx *ctx = COMM_CTX_DEFAULT;
    unsigned char *heap = shmem_malloc(MAXSZ * 2);
    unsigned char *buf = malloc(MAXSZ);
    static long counter;
    double t;

    memset(buf, 1, MAXSZ);
    if (shmem_n_pes() < 2) {
        if (me == 0)
            fprintf(stderr, "ofi_bench: run with 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    if (me == 0)
        printf("%-10s %10s %10s %10s %10s %10s %10s\n", "bytes", "pp_lat_us", "putq_us", "get_us",
               "put_GB/s", "get_GB/s", "");
    for (size_t sz = 8; sz <= MAXSZ; sz *= 4) {
        int it = iters_for(sz, 2000);
        double pp = 0, putq = 0, get = 0, pbw = 0, gbw = 0;

        /* ping-pong: data put then a flag put, the other side answers */
        pp_flag = 0;
        shmem_barrier_all();
        t = now_us();
        for (uint64_t i = 1; i <= (uint64_t)it; i++) {
            if (me == 0) {
                comm_put(ctx, heap, buf, sz, 1);
                comm_fence(ctx);
                comm_put(ctx, &pp_flag, &i, 8, 1);
                wait_u64_ge(&pp_flag, i);
            } else if (me == 1) {
                wait_u64_ge(&pp_flag, i);
                comm_put(ctx, heap, buf, sz, 0);
                comm_fence(ctx);
                comm_put(ctx, &pp_flag, &i, 8, 0);
            }
        }
        pp = (now_us() - t) / it / 2;
        shmem_barrier_all();
        if (me == 0) {
            t = now_us();
            for (int i = 0; i < it; i++) {
                comm_put(ctx, heap, buf, sz, 1);
                comm_quiet(ctx);
            }
            putq = (now_us() - t) / it;
            t = now_us();
            for (int i = 0; i < it; i++)
                comm_get(ctx, buf, heap, sz, 1);
            get = (now_us() - t) / it;
            int bw_it = iters_for(sz, 200);
            t = now_us();
            for (int i = 0; i < bw_it; i++) {
                for (int w = 0; w < WINDOW; w++)
                    comm_put_nbi(ctx, heap + (w % 2) * MAXSZ, buf, sz, 1);
                comm_quiet(ctx);
            }
            pbw = (double)sz * WINDOW * bw_it / (now_us() - t) / 1e3;
            t = now_us();
            for (int i = 0; i < bw_it; i++) {
                for (int w = 0; w < WINDOW; w++)
                    comm_get_nbi(ctx, buf, heap + (w % 2) * MAXSZ, sz, 1);
                comm_quiet(ctx);
            }
            gbw = (double)sz * WINDOW * bw_it / (now_us() - t) / 1e3;
            printf("%-10zu %10.2f %10.2f %10.2f %10.3f %10.3f\n", sz, pp, putq, get, pbw, gbw);
            if (csv)
                fprintf(csv, "%zu,%.3f,%.3f,%.3f,%.4f,%.4f\n", sz, pp, putq, get, pbw, gbw);
            fflush(stdout);
        }
        shmem_barrier_all();
    }
    if (me == 0) {
        int n = 20000;
        long one = 1, old;
        t = now_us();
        for (int i = 0; i < n; i++)
            comm_put_nbi(ctx, heap + (i % 512) * 8, buf, 8, 1);
        comm_quiet(ctx);
        printf("8-byte put_nbi message rate: %.3f Mmsg/s\n", n / (now_us() - t));
        n = 2000;
        t = now_us();
        for (int i = 0; i < n; i++)
            comm_amo(ctx, COMM_AMO_ADD, COMM_DT_I64, &counter, &one, NULL, &old, 1, 0);
        printf("fetch-add latency: %.2f us\n", (now_us() - t) / n);
        t = now_us();
        for (int i = 0; i < n; i++)
            comm_amo(ctx, COMM_AMO_ADD, COMM_DT_I64, &counter, &one, NULL, NULL, 1, 0);
        comm_quiet(ctx);
        printf("add (non-fetching) rate: %.2f us each\n", (now_us() - t) / n);
    }
    shmem_barrier_all();
    if (csv)
        fclose(csv);
    shmem_free(heap);
    free(buf);
    shmem_finalize();
    return 0;
}
