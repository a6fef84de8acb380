/* Back-pressure: floods every PE with non-blocking puts and non-fetching atomics, far
 * more than any provider queue holds (run with tiny queues: FI_*_TX_SIZE=8 ...), then
 * one quiet; every byte and every count must arrive. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define N 20000

static long counter;
static int failures;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *slots = shmem_calloc((size_t)N * n, sizeof(long));
    long *vals = malloc(sizeof(long) * N);

    for (int i = 0; i < N; i++)
        vals[i] = (long)me * 1000000 + i;
    shmem_barrier_all();
    for (int i = 0; i < N; i++) {
        int t = (me + i) % n;
        shmem_long_put_nbi(&slots[(size_t)me * N + i], &vals[i], 1, t);
        shmem_long_atomic_add(&counter, 1, t);
        if (i % 4096 == 4095)
            shmem_putmem_nbi(&slots[(size_t)me * N], vals, 512 * sizeof(long), (me + 1) % n);
    }
    shmem_quiet();
    shmem_barrier_all();
    for (int w = 0; w < n; w++) {
        for (int i = 0; i < N; i++) {
            if ((w + i) % n != me && !(i < 512 && (w + 1) % n == me))
                continue;
            long want = (long)w * 1000000 + i;
            if (slots[(size_t)w * N + i] != want) {
                if (failures++ < 5)
                    fprintf(stderr, "PE %d: slot %d of PE %d holds %ld, want %ld\n", me, i, w,
                            slots[(size_t)w * N + i], want);
            }
        }
    }
    long want_count = 0;
    for (int w = 0; w < n; w++)
        for (int i = 0; i < N; i++)
            want_count += ((w + i) % n == me);
    if (counter != want_count) {
        fprintf(stderr, "PE %d: counter %ld, want %ld\n", me, counter, want_count);
        failures++;
    }
    static int total, mine;
    mine = failures;
    shmem_barrier_all();
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &total, &mine, 1);
    if (me == 0)
        printf("flood: %s (%d PEs, %d failures)\n", total ? "FAILED" : "ok", n, total);
    shmem_free(slots);
    free(vals);
    shmem_finalize();
    return total != 0;
}
