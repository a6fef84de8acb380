/*
 * A small OpenSHMEM program for the parameter tests (test/lists/conf-env.list): every
 * PE puts its number to the next PE, then all check what they received.  With an
 * argument, each PE then computes (sleeps) that many milliseconds outside the library
 * before shmem_finalize, so that an OFI progress thread has gone to sleep by then.
 * Prints "ok" on PE 0; exits nonzero on a wrong value.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int received = -1;

int main(int argc, char **argv)
{
    long idle_ms = argc > 1 ? atol(argv[1]) : 0;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int *heap = shmem_malloc(sizeof(int));
    if (!heap) {
        fprintf(stderr, "PE %d: shmem_malloc failed\n", me);
        shmem_global_exit(1);
    }
    shmem_int_p(&received, me, (me + 1) % n);
    shmem_int_p(heap, me, (me + 1) % n);
    shmem_barrier_all();
    int want = (me + n - 1) % n;
    if (received != want || *heap != want) {
        fprintf(stderr, "PE %d: received %d and %d, expected %d\n", me, received, *heap, want);
        shmem_global_exit(1);
    }
    if (idle_ms > 0) {
        struct timespec ts = { idle_ms / 1000, (idle_ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
    }
    shmem_free(heap);
    shmem_finalize();
    if (me == 0)
        printf("ok\n");
    return 0;
}
