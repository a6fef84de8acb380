/* Teams and contexts: predefined teams, split_strided (valid, invalid, nested),
 * translate_pe, split_2d, get_config, team_sync, slot exhaustion and reuse (run with
 * SHMEM_TEAMS_MAX small), contexts on teams. */
#include "tests.h"
#include <string.h>
#include <strings.h>

static long sym[64];

static void check_bcast(shmem_team_t t)
{
    static int v[4];
    int me = shmem_team_my_pe(t);
    v[0] = me == 0 ? 4242 : -1;
    shmem_team_sync(t);
    CHECK(shmem_broadcastmem(t, &v[1], &v[0], sizeof(int), 0) == 0);
    CHECK(v[1] == 4242);
    CHECK(shmem_team_sync(t) == 0);
}

int main(void)
{
    shmem_team_t odd, sub, x, y, t[8];
    shmem_team_config_t cfg = { 0 };
    shmem_ctx_t ctx, ctx2;
    shmem_team_t got;
    int me, npes, limit;
    const char *lim = getenv("SHMEM_TEAMS_MAX"), *lt;
    int local_ofi;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();

    /* predefined teams */
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me);
    CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes);
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1);
    CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1);
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) >= 1);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_SHARED, shmem_team_my_pe(SHMEM_TEAM_SHARED),
                                  SHMEM_TEAM_WORLD) == me);
    /* SHMEM_TEAM_SHARED is exactly the PEs whose memory shmem_ptr reaches (spec), static
     * and heap alike: with SHMEM_LOCAL_TRANSPORT=ofi, this PE alone */
    lt = getenv("SHMEM_LOCAL_TRANSPORT");
    local_ofi = lt && strcasecmp(lt, "ofi") == 0;
    if (local_ofi)
        CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == 1);
    {
        long *h = shmem_malloc(sizeof(long));
        int members = 0;
        for (int w = 0; w < npes; w++) {
            int t = shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, SHMEM_TEAM_SHARED);
            members += t >= 0;
            CHECK((t >= 0) == (shmem_ptr(sym, w) != NULL));
            CHECK((t >= 0) == (shmem_ptr(h, w) != NULL));
        }
        CHECK(members == shmem_team_n_pes(SHMEM_TEAM_SHARED));
        shmem_free(h);
    }
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0);
    CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0);
    CHECK(shmem_team_sync(SHMEM_TEAM_SHARED) == 0);
    check_bcast(SHMEM_TEAM_SHARED);

    /* invalid splits: nonzero and SHMEM_TEAM_INVALID on every PE */
    sub = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes, 1, 1, NULL, 0, &sub) != 0);
    CHECK(sub == SHMEM_TEAM_INVALID);
    sub = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes + 1, NULL, 0, &sub) != 0);
    CHECK(sub == SHMEM_TEAM_INVALID);
    sub = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 0, NULL, 0, &sub) != 0);
    CHECK(sub == SHMEM_TEAM_INVALID);
    sub = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &sub) != 0);
    CHECK(sub == SHMEM_TEAM_INVALID);

    /* reversed world (negative stride) */
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &sub) == 0);
    CHECK(sub != SHMEM_TEAM_INVALID);
    CHECK(shmem_team_my_pe(sub) == npes - 1 - me);
    CHECK(shmem_team_translate_pe(sub, 0, SHMEM_TEAM_WORLD) == npes - 1);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, sub) == npes - 1);
    check_bcast(sub);
    {
        static long rs[4], rd[4 * 8];
        rs[0] = me;
        shmem_team_sync(sub);
        CHECK(shmem_fcollectmem(sub, rd, rs, sizeof(long)) == 0);
        for (int i = 0; i < npes && i < 8; i++)
            CHECK(rd[i] == npes - 1 - i);
    }
    shmem_team_destroy(sub);
    if (npes > 1) {
        sub = SHMEM_TEAM_WORLD; /* wraps below 0: invalid */
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, -1, 2, NULL, 0, &sub) != 0);
        CHECK(sub == SHMEM_TEAM_INVALID);
        sub = SHMEM_TEAM_WORLD; /* stride 0 with size > 1: invalid */
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 0, 2, NULL, 0, &sub) != 0);
        CHECK(sub == SHMEM_TEAM_INVALID);
    }

    /* odd-numbered PEs (PE 0 alone at 1 PE), with a context count */
    cfg.num_contexts = 3;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes > 1, 2, npes > 1 ? npes / 2 : 1, &cfg,
                                   SHMEM_TEAM_NUM_CONTEXTS, &odd) == 0);
    if ((npes > 1 && me % 2 == 1) || npes == 1) {
        shmem_team_config_t c2 = { 0 };
        CHECK(odd != SHMEM_TEAM_INVALID);
        CHECK(shmem_team_my_pe(odd) == me / 2);
        CHECK(shmem_team_n_pes(odd) == (npes > 1 ? npes / 2 : 1));
        CHECK(shmem_team_get_config(odd, SHMEM_TEAM_NUM_CONTEXTS, &c2) == 0 &&
              c2.num_contexts == 3);
        CHECK(shmem_team_translate_pe(odd, 0, SHMEM_TEAM_WORLD) == (npes > 1));
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, odd) == me / 2);
        CHECK(shmem_team_translate_pe(odd, shmem_team_n_pes(odd), SHMEM_TEAM_WORLD) == -1);
        check_bcast(odd);
        /* nested: the last member of odd alone */
        CHECK(shmem_team_split_strided(odd, shmem_team_n_pes(odd) - 1, 1, 1, NULL, 0, &sub) == 0);
        CHECK((sub != SHMEM_TEAM_INVALID) == (shmem_team_my_pe(odd) == shmem_team_n_pes(odd) - 1));
        if (sub != SHMEM_TEAM_INVALID) {
            CHECK(shmem_team_translate_pe(sub, 0, SHMEM_TEAM_WORLD) == me);
            CHECK(shmem_team_translate_pe(sub, 0, odd) == shmem_team_my_pe(odd));
            check_bcast(sub);
        }
        shmem_team_destroy(sub);
        /* a context on the team */
        CHECK(shmem_team_create_ctx(odd, SHMEM_CTX_PRIVATE, &ctx2) == 0);
        CHECK(shmem_ctx_get_team(ctx2, &got) == 0 && got == odd);
        /* left for shmem_team_destroy to destroy */
    } else {
        CHECK(odd == SHMEM_TEAM_INVALID);
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_WORLD) == me);
    }
    shmem_team_destroy(odd);
    if (npes > 1)
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) == -1);

    /* 2-D splits for every xrange (and one larger than the job) */
    for (int xr = 1; xr <= npes + 1; xr++) {
        int xe = xr > npes ? npes : xr;
        CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, NULL, 0, &x, NULL, 0, &y) == 0);
        CHECK(x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID);
        CHECK(shmem_team_my_pe(x) == me % xe);
        CHECK(shmem_team_my_pe(y) == me / xe);
        CHECK(shmem_team_n_pes(x) == ((me / xe) * xe + xe <= npes ? xe : npes - (me / xe) * xe));
        CHECK(shmem_team_n_pes(y) == (npes - me % xe + xe - 1) / xe);
        CHECK(shmem_team_translate_pe(y, 0, SHMEM_TEAM_WORLD) == me % xe);
        check_bcast(x);
        check_bcast(y);
        shmem_team_destroy(x);
        shmem_team_destroy(y);
    }
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &x, NULL, 0, &y) != 0);
    CHECK(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID);

    /* slots: create until the limit, every PE fails together, reuse after destroy */
    limit = lim ? atoi(lim) - 2 : 6;
    if (limit > 8)
        limit = 6;
    for (int i = 0; i < limit; i++) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t[i]) == 0);
        CHECK(t[i] != SHMEM_TEAM_INVALID);
    }
    if (lim) {
        sub = SHMEM_TEAM_WORLD;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &sub) != 0);
        CHECK(sub == SHMEM_TEAM_INVALID);
    }
    for (int i = 0; i < limit; i++)
        check_bcast(t[i]);
    shmem_team_destroy(t[0]);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t[0]) == 0);
    check_bcast(t[0]);
    for (int i = 0; i < limit; i++)
        shmem_team_destroy(t[i]);
    for (int i = 0; i < 100; i++) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &sub) == 0);
        shmem_team_destroy(sub);
    }

    /* contexts */
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &got) == 0 && got == SHMEM_TEAM_WORLD);
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &got) != 0 && got == SHMEM_TEAM_INVALID);
    ctx = SHMEM_CTX_DEFAULT;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID);
    CHECK(shmem_ctx_create(0, &ctx) == 0 && ctx != SHMEM_CTX_INVALID);
    CHECK(shmem_ctx_get_team(ctx, &got) == 0 && got == SHMEM_TEAM_WORLD);
    {
        long v = 1000 + me;
        shmem_ctx_putmem(ctx, &sym[me], &v, sizeof(v), (me + 1) % npes);
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        CHECK(sym[(me - 1 + npes) % npes] == 1000 + (me - 1 + npes) % npes);
    }
    shmem_ctx_destroy(ctx);
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_SHARED, SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE,
                                &ctx) == 0);
    CHECK(shmem_ctx_get_team(ctx, &got) == 0 && got == SHMEM_TEAM_SHARED);
    shmem_ctx_destroy(ctx);
    return test_finish("coll_team");
}
