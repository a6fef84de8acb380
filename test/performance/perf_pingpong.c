/*
 * perf_pingpong: a message ping-pong across sizes, the pattern of libfabric's
 * fi_pingpong (which sends and receives), written the OpenSHMEM way: PE 0 and the last
 * PE take turns sending a message with shmem_putmem_signal into the other's buffer and
 * waiting for it with shmem_signal_wait_until.  Reported per size: the time of one
 * transfer (half the round trip, fi_pingpong's usec/xfer) and bytes / that time (its
 * MB/sec), the best of 10 bursts.  scripts/ofi-compare.sh runs it beside fi_pingpong
 * on the same provider.
 *
 * --max (default 1 MiB) bounds the sizes: 1, 8, 64, 256 B, then powers of 4 from 1 KiB.
 * --iters sets the round trips of sizes up to 8 KiB (default 10000; larger sizes run
 * fewer, see bench_iters).
 */
#include "bench.h"

#include <shmem.h>

static void pingpong(const struct bench_opts *o, char *buf, char *src, uint64_t *sig, size_t len,
                     int me, int peer, int n)
{
    long iters = bench_iters(o, len, 10000) / 10;
    double best = 1e9;
    static uint64_t seq;

    if (iters < 10)
        iters = 10;
    shmem_barrier_all();
    for (int b = 0; b < 11 && (me == 0 || me == peer); b++) { /* the first warms up */
        double t0 = bench_now_us();
        for (long i = 0; i < iters; i++) {
            seq++;
            if (me == 0) {
                shmem_putmem_signal(buf, src, len, sig, seq, SHMEM_SIGNAL_SET, peer);
                shmem_signal_wait_until(sig, SHMEM_CMP_EQ, seq);
            } else {
                shmem_signal_wait_until(sig, SHMEM_CMP_EQ, seq);
                shmem_putmem_signal(buf, src, len, sig, seq, SHMEM_SIGNAL_SET, 0);
            }
        }
        double t = (bench_now_us() - t0) / (2.0 * iters);
        if (b > 0 && t < best)
            best = t;
    }
    if (me == 0)
        bench_row(o, "putsig_pingpong", len, n, 10 * iters, best);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    struct bench_opts o;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), peer = n - 1;
    if (bench_parse(argc, argv, &o) != 0) {
        shmem_finalize();
        return 2;
    }
    if (o.max_size == 4u << 20) /* bench.h's default */
        o.max_size = 1u << 20;
    if (n < 2) {
        if (me == 0)
            fprintf(stderr, "perf_pingpong: needs 2 or more PEs (PE 0 and the last one play)\n");
        shmem_finalize();
        return 2;
    }
    char *buf = shmem_malloc(o.max_size), *src = shmem_malloc(o.max_size);
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    if (!buf || !src || !sig) {
        if (me == 0)
            fprintf(stderr,
                    "perf_pingpong: cannot allocate 2 x %zu bytes: raise SHMEM_SYMMETRIC_SIZE\n",
                    o.max_size);
        shmem_global_exit(1);
    }
    memset(src, me + 1, o.max_size);
    bench_warmup(300);
    if (me == 0)
        bench_header("put_signal ping-pong: PE 0 <-> last PE, usec per transfer (half round trip)");
    /* the PEs between PE 0 and the last one only take part in the barriers */
    static const size_t small[] = { 1, 8, 64, 256 };
    for (size_t k = 0; k < 4 && small[k] <= o.max_size; k++)
        pingpong(&o, buf, src, sig, small[k], me, peer, n);
    for (size_t len = 1024; len <= o.max_size; len *= 4)
        pingpong(&o, buf, src, sig, len, me, peer, n);
    shmem_free(sig);
    shmem_free(src);
    shmem_free(buf);
    shmem_finalize();
    return 0;
}
