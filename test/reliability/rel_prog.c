/* A program that fails on purpose, for the failure tests.  argv[1] is the mode:
 *   ok              barrier, finalize, exit 0
 *   global_exit     PE 1 calls shmem_global_exit(3) while the others wait in a barrier
 *   global_exit_fini  PE 1 calls shmem_global_exit(3) while the others are in shmem_finalize
 *                   (the spec's shmem_global_exit example): they must not report an error
 *   kill            PE 1 kills itself with SIGKILL while the others wait in a barrier
 *   exit_early      PE 1 exits(0) without shmem_finalize while the others wait
 *   exit_fail       PE 1 exits(3) (a failed check) without shmem_finalize while the
 *                   others wait: the job ends at once with its status
 *   uexit_early     PE 1 calls _exit(0) (no exit handlers) while the others wait
 *   segv            PE 1 dereferences NULL while the others wait
 *   init_twice      every PE calls shmem_init twice and finalizes (must work)
 *   bad_free        every PE calls shmem_free on a pointer from malloc
 *   bad_team        every PE calls a reduction on SHMEM_TEAM_INVALID
 *   after_finalize  every PE calls shmem_int_p after shmem_finalize
 *   bad_session     every PE starts a context session with an unknown config_mask bit
 *   am_mismatch     PE 1 (PMIX_RANK 1) runs with SHMEM_OFI_AM_PART=16, and PE 0 sends it
 *                   a 4 KiB put-with-signal: over the OFI route its receive buffers are
 *                   too small (the settings must match on every PE; shmem_init says so)
 *   rxm_mismatch    PE 1 runs with FI_OFI_RXM_BUFFER_SIZE=16384 (the others with what
 *                   ofishmem sets: rxm would not connect them)
 *   prov_mismatch   PE 1 runs with SHMEM_OFI_PROVIDER=shm
 *   hang            PE 0 prints "ready" and PE 1 computes forever while the others wait
 *                   in a barrier (for killing the launcher)
 *   hang_noterm     the same, every PE ignoring SIGTERM and SIGPIPE
 * With REL_PID_DIR set, every PE first creates an empty file named by its pid in that
 * directory, so that a test can tell its own job's PEs (and their /dev/shm regions) from
 * those of other jobs running beside it.
 */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    const char *rank = getenv("PMIX_RANK"), *piddir = getenv("REL_PID_DIR");

    if (piddir) {
        char path[4096];
        FILE *f;
        snprintf(path, sizeof(path), "%s/%ld", piddir, (long)getpid());
        f = fopen(path, "w");
        if (!f) {
            perror(path);
            return 1;
        }
        fclose(f);
    }

    if (rank && strcmp(rank, "1") == 0) {
        if (strcmp(mode, "am_mismatch") == 0)
            setenv("SHMEM_OFI_AM_PART", "16", 1);
        else if (strcmp(mode, "rxm_mismatch") == 0)
            setenv("FI_OFI_RXM_BUFFER_SIZE", "16384", 1);
        else if (strcmp(mode, "prov_mismatch") == 0)
            setenv("SHMEM_OFI_PROVIDER", "shm", 1);
    }
    shmem_init();
    if (strcmp(mode, "init_twice") == 0)
        shmem_init();
    int me = shmem_my_pe(), victim = shmem_n_pes() > 1 ? 1 : 0;
    shmem_barrier_all();
    if (strcmp(mode, "bad_free") == 0) {
        void *p = malloc(64);
        shmem_free(p);
    }
    if (strcmp(mode, "bad_team") == 0) {
        static int src, dst;
        shmem_int_sum_reduce(SHMEM_TEAM_INVALID, &dst, &src, 1);
    }
    if (strcmp(mode, "bad_session") == 0) {
        shmem_ctx_session_config_t cfg = { 0 };
        shmem_ctx_session_start(SHMEM_CTX_DEFAULT, 0, &cfg, 0x100);
    }
    if (strcmp(mode, "am_mismatch") == 0 && me == 0) {
        static char buf[4096];
        static uint64_t sig;
        shmem_putmem_signal(buf, buf, sizeof(buf), &sig, 1, SHMEM_SIGNAL_SET, victim);
        shmem_quiet();
    }
    if (strcmp(mode, "hang_noterm") == 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGPIPE, SIG_IGN); /* a write to the dead launcher must not end it either */
        mode = "hang";
        shmem_barrier_all();
    }
    if (strcmp(mode, "hang") == 0 && me == 0) {
        printf("ready\n");
        fflush(stdout);
    }
    if (strcmp(mode, "global_exit_fini") == 0) {
        if (me == victim) {
            usleep(300000); /* the others are in shmem_finalize's fence by now */
            shmem_global_exit(3);
        }
        shmem_finalize();
        return 0;
    }
    if (me == victim) {
        if (strcmp(mode, "hang") == 0)
            for (volatile unsigned long n = 0;; n++)
                ;
        if (strcmp(mode, "global_exit") == 0)
            shmem_global_exit(3);
        if (strcmp(mode, "kill") == 0)
            raise(SIGKILL);
        if (strcmp(mode, "exit_early") == 0)
            exit(0);
        if (strcmp(mode, "exit_fail") == 0)
            exit(3);
        if (strcmp(mode, "uexit_early") == 0)
            _exit(0);
        if (strcmp(mode, "segv") == 0) {
            volatile int *p = NULL;
            *p = 1;
        }
    }
    shmem_barrier_all();
    shmem_finalize();
    if (strcmp(mode, "after_finalize") == 0) {
        static int x;
        shmem_int_p(&x, 1, 0);
    }
    return 0;
}
