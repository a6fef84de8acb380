/* A program that never calls shmem_finalize, as legacy (start_pes) codes do: it must end
 * with status 0 and complete results.  argv[1]: "start_pes" (default) or "init" (use
 * shmem_init); "handler" also registers an atexit handler after start-up that still uses
 * the library (it runs before the library's own finalize at exit). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long ring[64];
static long counter;

static void user_handler(void)
{
    /* the library is still up: a barrier and an atomic must work here */
    shmem_long_atomic_inc(&counter, 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0 && counter != 2L * shmem_n_pes()) {
        fprintf(stderr, "PE 0: counter = %ld in the exit handler, expected %ld\n", counter,
                2L * shmem_n_pes());
        fflush(stderr);
        _exit(1);
    }
}

int main(int argc, char **argv)
{
    int init = argc > 1 && strcmp(argv[1], "init") == 0;
    int handler = argc > 2 && strcmp(argv[2], "handler") == 0;

    if (init)
        shmem_init();
    else
        start_pes(0);
    int me = shmem_my_pe(), n = shmem_n_pes();
    long src[64];
    for (int i = 0; i < 64; i++)
        src[i] = me * 1000L + i;
    shmem_long_put(ring, src, 64, (me + 1) % n);
    shmem_long_atomic_inc(&counter, 0);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    for (int i = 0; i < 64; i++)
        if (ring[i] != left * 1000L + i) {
            fprintf(stderr, "PE %d: ring[%d] = %ld, expected %ld\n", me, i, ring[i],
                    left * 1000L + i);
            return 1;
        }
    shmem_barrier_all(); /* every PE has checked its ring */
    if (handler)
        atexit(user_handler);
    /* the last put goes out without a quiet or barrier: the finalize at exit completes it */
    shmem_long_p(&ring[0], -1, (me + 1) % n);
    if (me == 0)
        printf("no_finalize on %d PEs: results ok, returning without shmem_finalize\n", n);
    return 0;
}
