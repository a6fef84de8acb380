/* Signals and fences where puts and atomics may take different routes (run under every
 * route variant; the mixed case is SHMEM_SIM_PES_PER_NODE, where same-node puts are shm
 * stores and every atomic goes over the fabric):
 *  1. put-with-signal ADD is atomic with fabric atomics on the same signal word: every
 *     other PE mixes shmem_putmem_signal(ADD) and shmem_uint64_atomic_add on one word of
 *     PE 0 (and of PE 1) and no add may be lost;
 *  2. shmem_fence orders an atomic before a later put to the same PE: PE 0 streams
 *     atomic_set(x, i); fence; put(y, i) to PE 1, which must never see y ahead of x. */
#include "tests.h"
#include <string.h>

#define ADDS 400
#define STREAM 2000

static uint64_t sig[2];
static long data[8], x, y;

int main(void)
{
    int me, n;

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();

    /* 1: mixed put_signal / atomic adds */
    for (int i = 0; i < ADDS; i++) {
        for (int t = 0; t < 2 && t < n; t++) {
            long v[8];
            if (t == me)
                continue;
            for (int k = 0; k < 8; k++)
                v[k] = me * 100000L + i;
            if (i % 2)
                shmem_putmem_signal(data, v, sizeof(v), &sig[t], 1, SHMEM_SIGNAL_ADD, t);
            else
                shmem_uint64_atomic_add(&sig[t], 1, t);
        }
    }
    shmem_barrier_all();
    for (int t = 0; t < 2 && t < n; t++) {
        if (t == me) {
            uint64_t got = shmem_uint64_atomic_fetch(&sig[t], me);
            if (got != (uint64_t)ADDS * (uint64_t)(n - 1))
                fprintf(stderr, "PE %d: signal word %d is %llu, expected %llu\n", me, t,
                        (unsigned long long)got, (unsigned long long)ADDS * (n - 1));
            CHECK(got == (uint64_t)ADDS * (uint64_t)(n - 1));
        }
    }

    /* 2: atomic; fence; put to one PE arrive in that order */
    if (n >= 2) {
        if (me == 0) {
            for (long i = 1; i <= STREAM; i++) {
                shmem_long_atomic_set(&x, i, 1);
                shmem_fence();
                shmem_long_p(&y, i, 1);
            }
        } else if (me == 1) {
            long seen = 0, bad = 0;
            while (seen < STREAM) {
                shmem_long_wait_until(&y, SHMEM_CMP_GT, seen);
                seen = __atomic_load_n(&y, __ATOMIC_ACQUIRE);
                long xv = shmem_long_atomic_fetch(&x, 1);
                if (xv < seen && bad++ == 0)
                    fprintf(stderr,
                            "PE 1: saw y = %ld but x = %ld: the fence did not order the "
                            "atomic before the put\n",
                            seen, xv);
            }
            CHECK(bad == 0);
        }
    }
    return test_finish("coll_sigmix");
}
