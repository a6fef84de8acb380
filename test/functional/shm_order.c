/*
 * Memory ordering (DESIGN rule 4) over the public API: each PE streams data to its
 * right neighbour and then raises a flag; the neighbour waits for the flag with an
 * acquire load and must then see all of the data.  Three flavours per round:
 *   fence + put flag, quiet + put flag, fence + atomic add on the flag (signal-like).
 * Before the data each round also does an atomic add on a counter of the receiver:
 * the fence/quiet must order it before the flag too (this matters when atomics and
 * puts to one PE travel by different transports, e.g. SHMEM_SIM_PES_PER_NODE with
 * shm for puts and the fabric for atomics).
 * The receiver acknowledges each round with an atomic add so the sender never
 * overwrites data that is still being checked.
 */
#include "shm_util.h"
#include <string.h>

#define ROUNDS 600
#define WORDS 1024 /* 8 KiB of data per round, larger than one flag's cache line */

static long static_data[WORDS];
static long static_flag;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    long *heap_data = shmem_malloc(WORDS * sizeof(long));
    long *heap_flag = shmem_calloc(3, sizeof(long)); /* [0] flag, [1] acks, [2] counter */
    long *src = malloc(WORDS * sizeof(long));
    CHECK(heap_data && heap_flag && src);
    static_flag = 0;
    shmem_barrier_all();

    for (long r = 1; r <= ROUNDS; r++) {
        int mode = (int)(r % 3);
        int use_static = (r / 3) % 2;
        long *data = use_static ? static_data : heap_data;
        long *flag = use_static ? &static_flag : &heap_flag[0];

        for (int i = 0; i < WORDS; i++)
            src[i] = r * 1000003 + me * 7919 + i;
        shmem_long_atomic_add(&heap_flag[2], 1, right);
        shmem_putmem(data, src, WORDS * sizeof(long), right);
        if (mode == 0) {
            shmem_fence();
            shmem_putmem(flag, &r, sizeof(long), right);
        } else if (mode == 1) {
            shmem_quiet();
            shmem_putmem(flag, &r, sizeof(long), right);
        } else {
            shmem_fence();
            shmem_long_atomic_add(flag, 1, right); /* flag was r-1: now r */
        }
        /* receive from the left neighbour */
        shm_test_wait_ge(flag, r);
        int bad = 0;
        for (int i = 0; i < WORDS; i++)
            bad += data[i] != r * 1000003 + left * 7919 + i;
        if (bad)
            fprintf(stderr, "PE %d round %ld mode %d %s: %d stale words\n", me, r, mode,
                    use_static ? "static" : "heap", bad);
        CHECK(bad == 0);
        long cnt = __atomic_load_n(&heap_flag[2], __ATOMIC_ACQUIRE);
        if (cnt != r)
            fprintf(stderr, "PE %d round %ld mode %d: counter %ld\n", me, r, mode, cnt);
        CHECK(cnt == r);
        /* the flags of both kinds must advance together: copy the value across */
        long other = r;
        if (use_static)
            heap_flag[0] = other;
        else
            static_flag = other;
        shmem_long_atomic_add(&heap_flag[1], 1, left); /* ack: left may write again */
        shm_test_wait_ge(&heap_flag[1], r);
    }
    free(src);
    return test_finish("shm_order");
}
