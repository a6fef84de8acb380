/*
 * Latency of one small operation from PE 0 to the last PE (the other PEs wait in
 * a barrier): 8-byte put + quiet, 8-byte get, int p + quiet, int g, long
 * fetch-add and long add + quiet.  Times are per operation, averaged over many.
 * These one-sided loops keep the target line in PE 0's cache; put8_pingpong_rtt
 * (PE 0 and the last PE take turns putting a counter into each other's word and
 * waiting for it by polling the word outside the library) moves the line between
 * cores every time, like the machine's cache-line round trip it is compared with;
 * put8_pingpong_wait is the same with shmem_long_wait_until, a wait in the library
 * (which serves what arrives meanwhile, as raw libfabric's polling of its completion
 * queue does: ofi_raw reports its one ping-pong under both names).
 */
#include "bench.h"

#include <sched.h>
#include <shmem.h>

typedef void (*bench_op_fn)(long *target, long *local, int pe);

static void op_put(long *t, long *l, int pe)
{
    shmem_putmem(t, l, 8, pe);
    shmem_quiet();
}
static void op_get(long *t, long *l, int pe)
{
    shmem_getmem(l, t, 8, pe);
}
static void op_p(long *t, long *l, int pe)
{
    shmem_int_p((int *)t, (int)*l, pe);
    shmem_quiet();
}
static void op_g(long *t, long *l, int pe)
{
    *l = shmem_int_g((int *)t, pe);
}
static void op_fadd(long *t, long *l, int pe)
{
    *l = shmem_long_atomic_fetch_add(t, 1, pe);
}
static void op_add(long *t, long *l, int pe)
{
    (void)l;
    shmem_long_atomic_add(t, 1, pe);
    shmem_quiet();
}

static const struct {
    const char *name;
    bench_op_fn fn;
} ops[] = {
    { "put8_quiet", op_put }, { "get8", op_get },       { "int_p_quiet", op_p },
    { "int_g", op_g },        { "fetch_add", op_fadd }, { "add_quiet", op_add },
};

/* wait_until is not in every implementation's bootstrap API: poll a volatile word */
static void wait_for(volatile long *w, long v)
{
    for (unsigned spins = 0; *w != v; spins++)
        if (spins > 2000)
            sched_yield();
}

/* Bursts of round trips; the best burst is reported (one that another process
 * interrupted says nothing about the library). */
static void pingpong(const struct bench_opts *o, long *word, int me, int n, long iters,
                     int in_library)
{
    int target = n - 1;
    long burst = iters / 20 > 100 ? iters / 20 : 100;
    long v = 0;
    double best = 1e9;

    shmem_barrier_all();
    for (int b = 0; b < 21; b++) { /* the first burst warms up */
        double t0 = bench_now_us();
        for (long i = 0; i < burst; i++) {
            v++;
            if (me == 0) {
                shmem_putmem(word, &v, 8, target);
                shmem_quiet();
                if (in_library)
                    shmem_long_wait_until(word, SHMEM_CMP_EQ, v);
                else
                    wait_for(word, v);
            } else if (me == target) {
                if (in_library)
                    shmem_long_wait_until(word, SHMEM_CMP_EQ, v);
                else
                    wait_for(word, v);
                shmem_putmem(word, &v, 8, 0);
                shmem_quiet();
            }
        }
        double t = (bench_now_us() - t0) / burst;
        if (b > 0 && t < best)
            best = t;
    }
    if (me == 0)
        bench_row(o, in_library ? "put8_pingpong_wait" : "put8_pingpong_rtt", 8, n, 20 * burst,
                  best);
    shmem_barrier_all();
}

/* Every PE fetch-adds on PE 0's counter at once: the line moves between cores on
 * (nearly) every operation.  Reported: mean time per fetch-add seen by PE 0. */
static void fadd_contended(const struct bench_opts *o, long *ctr, int me, int n, long iters)
{
    shmem_barrier_all();
    double t0 = bench_now_us();
    for (long i = 0; i < iters; i++)
        (void)shmem_long_atomic_fetch_add(ctr, 1, 0);
    double v = (bench_now_us() - t0) / iters;
    shmem_barrier_all();
    if (me == 0)
        bench_row(o, "fetch_add_contended", 8, n, iters, v);
}

int main(int argc, char **argv)
{
    struct bench_opts o;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), target = n - 1;
    if (bench_parse(argc, argv, &o) != 0) {
        shmem_finalize();
        return 2;
    }
    long *t = shmem_malloc(64);
    static long local = 42;
    long iters = o.iters > 0 ? o.iters : 200000;

    *t = 0;
    bench_warmup(300);
    if (me == 0)
        bench_header("latency: PE 0 -> last PE, one operation (usec)");
    shmem_barrier_all();
    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        if (me == 0) {
            double best = 1e9;
            for (long i = 0; i < iters / 10; i++) /* warm-up */
                ops[k].fn(t, &local, target);
            for (int r = 0; r < 3; r++) {
                double t0 = bench_now_us();
                for (long i = 0; i < iters; i++)
                    ops[k].fn(t, &local, target);
                double v = (bench_now_us() - t0) / iters;
                best = v < best ? v : best;
            }
            bench_row(&o, ops[k].name, 8, n, iters, best);
        }
        shmem_barrier_all();
    }
    if (n > 1) {
        t[1] = 0;
        pingpong(&o, &t[1], me, n, iters / 4, 0);
        t[1] = 0;
        pingpong(&o, &t[1], me, n, iters / 4, 1);
        t[2] = 0;
        fadd_contended(&o, &t[2], me, n, iters / 4);
    }
    shmem_free(t);
    shmem_finalize();
    return 0;
}
