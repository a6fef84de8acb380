/*
 * A member that finalized instead of joining a collective (src/coll/coll_fin.c): the
 * PEs left waiting in it end the job with a line naming the routine, the member and the
 * mismatch, without SHMEM_DEBUG; a member that finalizes legitimately is never named.
 *   barrier     PE 0 calls shmem_finalize (an error path that skips the last barrier)
 *               while the others wait in shmem_barrier_all: the named error
 *   bcast_exit  PE 1 returns from main (shmem_finalize at exit) while the other members
 *               of the team of PEs 1..n-1 wait in its broadcast, rooted at PE 1; PE 0,
 *               not a member, finalizes: the named error
 *   nb          PE 0 calls shmem_finalize while the others wait for a non-blocking
 *               broadcast it roots (shmemx_long_broadcast_nb, shmemx_req_wait): the
 *               named error
 *   ok          PE 0 (root) leaves a world broadcast and finalizes while PE 2 has not
 *               called it yet and the others may still wait for it; PEs 1..n-1 then run
 *               a reduction on their team (PE 3 late), compute, and finalize: must pass
 */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"

static long bsrc[4], bdst[4];
static int rsrc, rdst;

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    shmem_team_t team;
    int me, n;

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    if (n < 4) {
        if (me == 0)
            printf("fin_watch: needs 4 PEs\n");
        shmem_finalize();
        return 77;
    }
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &team);
    shmem_barrier_all();
    if (strcmp(mode, "barrier") == 0) {
        if (me == 0) {
            shmem_finalize(); /* skips the barrier below */
            return 0;
        }
        shmem_barrier_all();
        return 1;
    }
    if (strcmp(mode, "malloc") == 0) { /* the barrier inside shmem_malloc is named so */
        if (me == 0) {
            shmem_finalize();
            return 0;
        }
        (void)shmem_malloc(64);
        return 1;
    }
    if (strcmp(mode, "bcast_exit") == 0) {
        if (me == 0) {
            shmem_finalize();
            return 0;
        }
        if (me == 1)
            return 0; /* finalized at exit, never calls the broadcast */
        shmem_long_broadcast(team, bdst, bsrc, 4, 0);
        return 1;
    }
    if (strcmp(mode, "nb") == 0) {
        shmemx_req_h r;
        if (me == 0) {
            shmem_finalize();
            return 0;
        }
        shmemx_long_broadcast_nb(SHMEM_TEAM_WORLD, bdst, bsrc, 4, 0, &r);
        shmemx_req_wait(&r);
        return 1;
    }
    /* ok */
    bsrc[0] = 42;
    if (me == 2)
        usleep(400000); /* the others wait for it (through it, on a tree) */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, bdst, bsrc, 4, 0);
    if (me == 0) {
        shmem_finalize(); /* while the others may still be in the broadcast */
        return 0;
    }
    CHECK(bdst[0] == 42);
    rsrc = me;
    if (me == 3)
        usleep(400000); /* the team's others wait, PE 0 (not a member) finalized */
    shmem_int_sum_reduce(team, &rdst, &rsrc, 1);
    CHECK(rdst == n * (n - 1) / 2);
    usleep(300000); /* computing for a while, PE 0 in shmem_finalize */
    shmem_team_destroy(team);
    if (test_failures)
        return 1;
    shmem_finalize();
    if (me == 1)
        printf("fin_watch ok\n");
    return 0;
}
