/*
 * The implicit shmem_finalize at exit, and the watchdog that bounds it
 * (SHMEM_EXIT_TIMEOUT).
 */
#include "ofs.h"
#include "init.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* The watchdog of the shmem_finalize run at exit: a PE that calls exit() while the others
 * still wait for it in the program would otherwise wait for them in finalize forever. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    int done;
} exit_wd = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };

static void *init_exit_watchdog(void *arg)
{
    long secs = *(const long *)arg;
    struct timespec until;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += secs;
    pthread_mutex_lock(&exit_wd.lock);
    while (!exit_wd.done)
        if (pthread_cond_timedwait(&exit_wd.done_cv, &exit_wd.lock, &until) == ETIMEDOUT)
            break;
    int done = exit_wd.done;
    pthread_mutex_unlock(&exit_wd.lock);
    if (!done)
        ofs_fatal(1,
                  "this PE ended its program (exit or return from main) without "
                  "shmem_finalize, and the other PEs did not end theirs within %ld s "
                  "(SHMEM_EXIT_TIMEOUT): a PE that calls exit() while others still "
                  "expect it ends the job",
                  secs);
    return NULL;
}

/* A program that ends normally (returns from main or calls exit) without calling
 * shmem_finalize is finalized here, as other implementations do, so that legacy
 * start_pes programs end cleanly; abnormal ends (signals, _exit) still take the job
 * down.  Registered at the first successful shmem_init, so handlers the program
 * registers after it run first and may still use the library. */
static void init_exit_handler(int status, void *arg)
{
    static long secs;
    pthread_t wd;
    int have_wd;

    (void)arg;
    if (!ofs_g.initialized || ofs_g.finalized)
        return;
    /* a failure status: the others may wait for this PE in the program, and would keep
     * its collective finalize waiting until SHMEM_EXIT_TIMEOUT: end the job now, with
     * this status, as a launcher does when a process fails */
    if (status != 0)
        ofs_fatal(status,
                  "this PE ended its program with exit status %d without shmem_finalize: "
                  "the job ends",
                  status);
    secs = ofs_g.params.EXIT_TIMEOUT;
    have_wd = secs > 0 && pthread_create(&wd, NULL, init_exit_watchdog, &secs) == 0;
    ofs_finalize();
    if (have_wd) {
        pthread_mutex_lock(&exit_wd.lock);
        exit_wd.done = 1;
        pthread_cond_signal(&exit_wd.done_cv);
        pthread_mutex_unlock(&exit_wd.lock);
        pthread_join(wd, NULL);
    }
}

void init_exit_register(void)
{
    static int registered;

    if (!registered && on_exit(init_exit_handler, NULL) == 0)
        registered = 1;
}
