/* Team contexts (SHMEM_TEAM_NUM_CONTEXTS): a team of all PEs created with
 * num_contexts = 4 reports 4 and gives 4 contexts (shareable, private, serialized),
 * each used for puts and atomics with every byte checked; contexts given back are
 * handed out again and work; a fifth one either works or is SHMEM_CTX_INVALID with a
 * nonzero return.  Round 0 destroys every context before the team; the later rounds
 * leave the shareable ones to shmem_team_destroy (spec: it destroys them).  That
 * team holds world PEs 0..n-1 in order.  Then PE numbers on team contexts are
 * team-relative (spec 1.5): on the world PEs in reverse order and on PEs 1..n-1,
 * a put and an add to team PE me+1 arrive at world PE translate(me+1). */
#include "tests.h"
#include <string.h>

#define NCTX 4
#define LEN 100
#define ROUNDS 2

static unsigned char buf[NCTX + 1][LEN];
static long cnt[NCTX + 1];

static unsigned char pat(int src, int i, int round, int k)
{
    return (unsigned char)(src * 31 + i * 7 + round * 13 + k + 1);
}

/* contexts ctx[i] for i in [lo, hi): put a pattern and add to PE me+1+i */
static void use(shmem_ctx_t *ctx, int lo, int hi, int round)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    unsigned char src[LEN];

    memset(buf, 0, sizeof(buf));
    memset(cnt, 0, sizeof(cnt));
    shmem_barrier_all();
    for (int i = lo; i < hi; i++) {
        int t = (me + 1 + i) % npes;
        for (int k = 0; k < LEN; k++)
            src[k] = pat(me, i, round, k);
        shmem_ctx_putmem(ctx[i], buf[i], src, LEN, t);
        CHECK(shmem_ctx_long_atomic_fetch_add(ctx[i], &cnt[i], me + 1, t) >= 0);
        shmem_ctx_long_atomic_add(ctx[i], &cnt[i], 1000, t);
    }
    for (int i = lo; i < hi; i++)
        shmem_ctx_quiet(ctx[i]);
    shmem_barrier_all();
    for (int i = lo; i < hi; i++) {
        int s = ((me - 1 - i) % npes + npes) % npes, bad = 0;
        for (int k = 0; k < LEN; k++)
            bad += buf[i][k] != pat(s, i, round, k);
        CHECK(bad == 0);
        CHECK(cnt[i] == s + 1 + 1000);
    }
    shmem_barrier_all();
}

static long tbuf[2];

/* on a context of team t: my team number to team PE me+1 */
static void use_team(shmem_team_t t)
{
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    int tme = shmem_team_my_pe(t), tn = shmem_team_n_pes(t);
    long v = 100 + tme;

    tbuf[0] = tbuf[1] = -1;
    shmem_barrier_all();
    if (t != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_create_ctx(t, 0, &c) == 0);
        shmem_ctx_long_put(c, &tbuf[0], &v, 1, (tme + 1) % tn);
        shmem_ctx_long_atomic_add(c, &tbuf[1], 1 + tme, (tme + 1) % tn);
        shmem_ctx_quiet(c);
    }
    shmem_barrier_all();
    if (t != SHMEM_TEAM_INVALID) {
        int from = (tme - 1 + tn) % tn;
        CHECK(tbuf[0] == 100 + from);
        CHECK(tbuf[1] == -1 + 1 + from);
        shmem_ctx_destroy(c);
    } else {
        CHECK(tbuf[0] == -1 && tbuf[1] == -1);
    }
    shmem_barrier_all();
}

int main(void)
{
    shmem_team_config_t conf = { .num_contexts = NCTX }, got;
    shmem_ctx_t ctx[NCTX + 1];
    shmem_team_t team, t2;
    int npes;

    shmem_init();
    npes = shmem_n_pes();
    for (int round = 0; round < ROUNDS; round++) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &conf, SHMEM_TEAM_NUM_CONTEXTS,
                                       &team) == 0);
        got.num_contexts = -1;
        CHECK(shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
              got.num_contexts == NCTX);
        /* 0, 2: shareable; 1, 3: private (serialized on 3) */
        for (int i = 0; i < NCTX; i++) {
            long opt = i % 2 ? SHMEM_CTX_PRIVATE : 0;
            if (i == 3)
                opt |= SHMEM_CTX_SERIALIZED;
            ctx[i] = SHMEM_CTX_INVALID;
            CHECK(shmem_team_create_ctx(team, opt, &ctx[i]) == 0 && ctx[i] != SHMEM_CTX_INVALID);
            CHECK(shmem_ctx_get_team(ctx[i], &t2) == 0 && t2 == team);
            for (int j = 0; j < i; j++)
                CHECK(ctx[i] != ctx[j]);
        }
        use(ctx, 0, NCTX, round);
        /* give two back and take them again, with other options */
        shmem_ctx_destroy(ctx[1]);
        shmem_ctx_destroy(ctx[2]);
        CHECK(shmem_team_create_ctx(team, SHMEM_CTX_PRIVATE, &ctx[2]) == 0);
        CHECK(shmem_team_create_ctx(team, SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE, &ctx[1]) == 0);
        CHECK(ctx[1] != SHMEM_CTX_INVALID && ctx[2] != SHMEM_CTX_INVALID && ctx[1] != ctx[2]);
        CHECK(shmem_ctx_get_team(ctx[2], &t2) == 0 && t2 == team);
        use(ctx, 0, NCTX, round);
        /* beyond the reservation: may fail, never half-way */
        ctx[NCTX] = SHMEM_CTX_DEFAULT;
        if (shmem_team_create_ctx(team, 0, &ctx[NCTX]) == 0) {
            CHECK(ctx[NCTX] != SHMEM_CTX_INVALID);
            use(ctx, NCTX, NCTX + 1, round);
            shmem_ctx_destroy(ctx[NCTX]);
        } else {
            CHECK(ctx[NCTX] == SHMEM_CTX_INVALID);
        }
        if (round == 0) {
            for (int i = 0; i < NCTX; i++)
                shmem_ctx_destroy(ctx[i]);
        } else {
            /* private ones are the program's to destroy; 0 and 1 are shareable */
            shmem_ctx_destroy(ctx[2]);
            shmem_ctx_destroy(ctx[3]);
        }
        shmem_team_destroy(team);
    }
    /* team-relative PE numbers on team contexts */
    conf.num_contexts = 1;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, &conf,
                                   SHMEM_TEAM_NUM_CONTEXTS, &team) == 0);
    CHECK(shmem_team_my_pe(team) == npes - 1 - shmem_my_pe());
    use_team(team);
    shmem_team_destroy(team);
    if (npes > 1) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0, &team) == 0);
        use_team(team);
        shmem_team_destroy(team);
    }
    /* contexts from shmem_ctx_create and the default one belong to SHMEM_TEAM_WORLD */
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t2) == 0 && t2 == SHMEM_TEAM_WORLD);
    CHECK(shmem_ctx_create(0, &ctx[0]) == 0);
    CHECK(shmem_ctx_get_team(ctx[0], &t2) == 0 && t2 == SHMEM_TEAM_WORLD);
    use(ctx, 0, 1, ROUNDS);
    shmem_ctx_destroy(ctx[0]);
    t2 = SHMEM_TEAM_WORLD;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t2) != 0 && t2 == SHMEM_TEAM_INVALID);
    return test_finish("coll_teamctx");
}
