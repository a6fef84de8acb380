/*
 * PE numbers on a team's context are relative to that team (OpenSHMEM 1.5, section on
 * RMA: "relative to the team associated with the communication context").  A team of
 * the odd world PEs in reverse order (stride -2) makes team numbers and world numbers
 * differ; puts, gets, p/g, AMOs, put-with-signal, strided and signal_add on the team
 * context must reach the member the team number names.  Contexts of SHMEM_TEAM_WORLD
 * and SHMEM_TEAM_SHARED keep world numbers.
 */
#include "tests.h"
#include <stdint.h>

static long word;
static long arr[4];
static uint64_t sig;
static int counter;

int main(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    shmem_ctx_t ctx;
    int me, npes, nodd, start;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    nodd = npes / 2;
    start = nodd > 0 ? 2 * nodd - 1 : 0; /* last odd PE first */
    if (nodd > 0)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, start, -2, nodd, NULL, 0, &t);
    word = -1;
    shmem_barrier_all();

    if (t != SHMEM_TEAM_INVALID) {
        int r = shmem_team_my_pe(t), n = shmem_team_n_pes(t);
        int right = (r + 1) % n;
        int right_world = shmem_team_translate_pe(t, right, SHMEM_TEAM_WORLD);
        long v = 1000 + me, got = 0, a[4] = { me, me + 1, me + 2, me + 3 };

        CHECK(right_world == start - 2 * right);
        CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0);
        shmem_ctx_long_put(ctx, &word, &v, 1, right);
        shmem_ctx_quiet(ctx);
        shmem_team_sync(t);
        /* my left neighbour in the team wrote its world number + 1000 */
        CHECK(word == 1000 + shmem_team_translate_pe(t, (r + n - 1) % n, SHMEM_TEAM_WORLD));
        shmem_ctx_long_get(ctx, &got, &word, 1, right);
        CHECK(got == 1000 + me); /* what I put there */
        CHECK(shmem_ctx_long_g(ctx, &word, right) == 1000 + me);
        shmem_ctx_int_atomic_add(ctx, &counter, 1, 0); /* team member 0 = world PE start */
        shmem_ctx_long_iput(ctx, arr, a, 1, 1, 4, right);
        shmem_ctx_putmem_signal(ctx, &word, &v, sizeof(v), &sig, 1, SHMEM_SIGNAL_ADD, right);
        shmem_ctx_signal_add(ctx, &sig, 1, right);
        shmem_ctx_quiet(ctx);
        shmem_team_sync(t);
        CHECK(sig == 2);
        for (int i = 0; i < 4; i++)
            CHECK(arr[i] == shmem_team_translate_pe(t, (r + n - 1) % n, SHMEM_TEAM_WORLD) + i);
        shmem_ctx_destroy(ctx);
    }
    shmem_barrier_all();
    if (nodd > 0 && me == start)
        CHECK(counter == nodd);
    else
        CHECK(counter == 0);

    /* world and shared contexts: world numbering */
    word = -1;
    shmem_barrier_all();
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &ctx) == 0);
    shmem_ctx_long_p(ctx, &word, me, (me + 1) % npes);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    CHECK(word == (me + npes - 1) % npes);
    if (shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &ctx) == 0) {
        int r = shmem_team_my_pe(SHMEM_TEAM_SHARED);
        CHECK(shmem_ctx_long_g(ctx, &word, r) == (me + npes - 1) % npes);
        shmem_ctx_destroy(ctx);
    }
    if (t != SHMEM_TEAM_INVALID)
        shmem_team_destroy(t);
    return test_finish("ctx_team_pe");
}
