/* Bad input must end the job with one line naming the routine (checked by
 * test/abi/check_bad_input.sh).  argv[1] selects the mistake. */
#include <shmem.h>
#include <string.h>
#include <stdio.h>

static int target[4];
static uint64_t sig;

int main(int argc, char **argv)
{
    int local[4] = { 0 };
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "noinit")) {
        shmem_int_p(target, 1, 0);
        return 0;
    }
    shmem_init();
    if (!strcmp(what, "pe"))
        shmem_int_put(target, local, 1, shmem_n_pes());
    else if (!strcmp(what, "sym"))
        shmem_int_put(local, local, 1, 0);
    else if (!strcmp(what, "null"))
        shmem_int_put(target, NULL, 4, 0);
    else if (!strcmp(what, "amo"))
        shmem_int_atomic_add(local, 1, 0);
    else if (!strcmp(what, "cmp"))
        shmem_int_wait_until(target, 42, 0);
    else if (!strcmp(what, "sigop"))
        shmem_int_put_signal(target, local, 1, &sig, 1, 7, 0);
    else if (!strcmp(what, "ctx"))
        shmem_ctx_int_put(SHMEM_CTX_INVALID, target, local, 1, 0);
    else if (!strcmp(what, "align")) /* needs SHMEM_DEBUG */
        shmem_int_atomic_add((int *)((char *)target + 1), 1, 0);
    else if (!strcmp(what, "overlap"))
        shmem_int_put(target, target + 1, 2, shmem_my_pe()); /* needs SHMEM_DEBUG */
    else if (!strcmp(what, "pequiet")) {
        int pes[2] = { 0, shmem_n_pes() };
        shmem_pe_quiet(pes, 2);
    } else if (!strcmp(what, "teampe")) {
        /* team-relative PE numbers on a team context: pe 1 is not in a team of 1 PE */
        shmem_team_t t;
        shmem_ctx_t c;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &t);
        if (t != SHMEM_TEAM_INVALID && shmem_team_create_ctx(t, 0, &c) == 0)
            shmem_ctx_int_put(c, target, local, 1, 1);
    }
    shmem_finalize();
    printf("bad_input: %s was not caught\n", what);
    return 0;
}
