/* PE 0 keeps putting to, getting from or fetch-adding on the last PE, which is killed
 * from outside (peer_gone.sh) while the launcher is held stopped, as when a node is
 * lost and the launcher is slow to notice: PE 0 must end the job with one line that
 * names the PE that went away.  argv[1]: "put" (blocking puts), "nbi" (put_nbi +
 * quiet), "get" (gets), "amo" (fetch-adds), "small" (8-byte puts + quiet). */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buf[1 << 16];
static long counter;

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "put";
    static char src[sizeof(buf)];

    shmem_init();
    int me = shmem_my_pe(), victim = shmem_n_pes() - 1;
    if (victim == 0) {
        fprintf(stderr, "peer_gone: needs 2 PEs or more\n");
        return 1;
    }
    shmem_barrier_all();
    if (me == victim) {
        printf("victim %ld\n", (long)getpid());
        fflush(stdout);
    }
    if (me == 0) {
        for (unsigned long i = 0;; i++) {
            if (strcmp(mode, "get") == 0)
                shmem_getmem(src, buf, sizeof(buf), victim);
            else if (strcmp(mode, "amo") == 0)
                (void)shmem_long_atomic_fetch_add(&counter, 1, victim);
            else if (strcmp(mode, "nbi") == 0) {
                shmem_putmem_nbi(buf, src, sizeof(buf), victim);
                shmem_quiet();
            } else if (strcmp(mode, "small") == 0) {
                shmem_long_p(&counter, (long)i, victim);
                shmem_quiet();
            } else
                shmem_putmem(buf, src, sizeof(buf), victim);
            if (i == 0) {
                printf("ready %ld\n", (long)getpid()); /* PE 0's pid: peer_gone.sh */
                fflush(stdout);
            }
        }
    }
    shmem_barrier_all(); /* the others wait here for the end of the job */
    shmem_finalize();
    return 0;
}
