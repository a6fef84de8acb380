/* One PE (rank 1, or the rank in INIT_KILL_RANK) kills itself with SIGKILL at a random
 * point of shmem_init: INIT_KILL_US microseconds after main starts (random in 0-30 ms
 * when unset).  The job must end, whatever the point (init_kill.sh). */
#define _GNU_SOURCE
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void die(int sig)
{
    (void)sig;
    raise(SIGKILL);
}

int main(void)
{
    const char *rank = getenv("PMIX_RANK");
    const char *who = getenv("INIT_KILL_RANK");
    const char *us_s = getenv("INIT_KILL_US");

    if (rank && atoi(rank) == (who ? atoi(who) : 1)) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        srand((unsigned)(ts.tv_nsec ^ getpid()));
        long us = us_s ? atol(us_s) : rand() % 30000;
        struct itimerval it = { .it_value = { us / 1000000, us % 1000000 } };
        if (us <= 0)
            it.it_value.tv_usec = 1;
        signal(SIGALRM, die);
        fprintf(stderr, "init_kill: PE %s dies %ld us into start-up\n", rank, us);
        setitimer(ITIMER_REAL, &it, NULL);
    }
    shmem_init();
    shmem_barrier_all();
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
