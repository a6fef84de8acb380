/*
 * shmem_finalize against another collective under SHMEM_DEBUG=1 (src/coll/coll_check.c,
 * coll_check_finalize): what a Python program does when one PE raises an exception
 * (shmem4py frees that PE's arrays, a collective that matches the others' barrier, then
 * finalizes at exit while the others wait in their next barrier).  Without the check the
 * job hung: that PE in finalize's fence, the others in the barrier.
 *   mismatch  PE 0 finalizes; the others call shmem_barrier_all: the named error
 *   ok        every PE calls the same collectives, then finalizes: must pass
 */
#include <shmem.h>
#include <string.h>

#include "tests.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    int me, *a;

    shmem_init();
    me = shmem_my_pe();
    a = shmem_malloc(sizeof(int));
    shmem_barrier_all();
    if (strcmp(mode, "mismatch") == 0) {
        if (me == 0) {
            shmem_free(a); /* its barrier matches the others' first barrier_all */
            shmem_finalize();
            return 0;
        }
        shmem_barrier_all();
        shmem_barrier_all(); /* PE 0 finalizes instead: named, not a hang */
        return 1;
    }
    shmem_team_sync(SHMEM_TEAM_WORLD);
    shmem_free(a);
    shmem_finalize();
    if (me == 0)
        printf("fini_mismatch ok\n");
    return 0;
}
