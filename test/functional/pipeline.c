/* A spec-style signal pipeline: PE 0 produces NCHUNK chunks for PE 1 with
 * shmem_putmem_signal (SHMEM_SIGNAL_ADD); every PE waits for each chunk with
 * shmem_signal_wait_until, adds its PE number to every element and forwards it to the
 * next PE; the last PE checks every element.  The data must be there when the signal is. */
#include "tests.h"
#include <string.h>

#define NCHUNK 64
#define CHUNK 512 /* longs */

static uint64_t sig;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *buf = shmem_malloc(sizeof(long) * NCHUNK * CHUNK);
    long *out = malloc(sizeof(long) * CHUNK);
    long want_add = (long)n * (n - 1) / 2;

    shmem_barrier_all();
    for (int k = 0; k < NCHUNK; k++) {
        long *chunk = &buf[(size_t)k * CHUNK];
        if (me == 0) {
            for (int i = 0; i < CHUNK; i++)
                out[i] = 1000L * k + i;
        } else {
            shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)k + 1);
            for (int i = 0; i < CHUNK; i++)
                out[i] = chunk[i] + me;
        }
        if (me < n - 1) {
            shmem_putmem_signal(chunk, out, sizeof(long) * CHUNK, &sig, 1, SHMEM_SIGNAL_ADD,
                                me + 1);
        } else if (n > 1) {
            for (int i = 0; i < CHUNK; i++)
                if (out[i] != 1000L * k + i + want_add) {
                    CHECK(out[i] == 1000L * k + i + want_add);
                    break;
                }
        }
    }
    shmem_barrier_all();
    if (me > 0)
        CHECK(shmem_signal_fetch(&sig) == NCHUNK);
    shmem_free(buf);
    free(out);
    return test_finish("pipeline");
}
