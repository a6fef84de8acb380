/* Handles: contexts and teams used after destruction, garbage handle values, the
 * SHMEM_CTX_INVALID / SHMEM_TEAM_INVALID behaviour of the specification, slot reuse,
 * and handles left at shmem_finalize.  argv[1] (or HANDLES_MODE) is the mode:
 *
 * each of these must end the job with one line naming the routine and the handle
 * (test/lists/conf-handles.list gives the pattern):
 *   ctx_destroy_twice    shmem_ctx_destroy on a context already destroyed
 *   ctx_put_destroyed    shmem_ctx_int_put on a destroyed context
 *   ctx_quiet_destroyed  shmem_ctx_quiet on a destroyed context
 *   ctx_fence_destroyed  shmem_ctx_fence on a destroyed context
 *   ctx_amo_destroyed    shmem_ctx_long_atomic_fetch_add on a destroyed context
 *   ctx_signal_destroyed shmem_ctx_signal_set on a destroyed context
 *   ctx_get_team_destroyed  shmem_ctx_get_team on a destroyed context
 *   ctx_of_dead_team     shmem_ctx_int_put on a context whose team was destroyed
 *   ctx_pooled_destroy_twice  shmem_ctx_destroy twice on a context of a team's
 *                        SHMEM_TEAM_NUM_CONTEXTS reserve (the first gives it back)
 *   ctx_garbage_int      shmem_ctx_int_put on (shmem_ctx_t)0x1234
 *   ctx_garbage_local    shmem_ctx_long_p on the address of a local variable
 *   ctx_garbage_heap     shmem_ctx_quiet on a pointer into malloc'd memory
 *   team_my_pe_destroyed, team_n_pes_destroyed, team_sync_destroyed,
 *   team_alltoall_destroyed, team_broadcast_destroyed, team_reduce_destroyed,
 *   team_split_destroyed, team_translate_destroyed, team_destroy_twice,
 *   team_create_ctx_destroyed, team_ptr_destroyed, team_config_destroyed,
 *   team_bcastmem_destroyed
 *                        that routine on a destroyed team
 *   team_garbage_int     shmem_team_sync on (shmem_team_t)0x1234
 *   team_garbage_local   shmem_team_my_pe on the address of a local variable
 *   team_garbage_heap    shmem_int_sum_reduce on a pointer into malloc'd memory
 *   ctx_stale_wrap, team_stale_wrap, nbc_stale_wrap
 *                        a destroyed context / team / completed request, used after
 *                        more creations of its kind than the handle tables once had
 *                        slots (16384 contexts, 64 + 1024 teams, SHMEM_NBC_REQS_MAX
 *                        + 1024 requests: run with SHMEM_NBC_REQS_MAX=4) with a newer
 *                        one alive: it must still read as dead, never as the new one
 *
 * each of these must succeed (exit 0):
 *   invalid              the routines the specification defines on SHMEM_CTX_INVALID /
 *                        SHMEM_TEAM_INVALID do what it says
 *   reuse [ROUNDS]       contexts and teams created and destroyed over and over, several
 *                        open at once, each checked by moving data through it
 *   wrap                 many more contexts and teams created and destroyed than may be
 *                        open at once, one of each kept open throughout
 *   leak                 contexts and teams left for shmem_finalize to free (run
 *                        under valgrind: nothing may be lost)
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, npes;

#define CHECK(cond, ...)                                       \
    do {                                                       \
        if (!(cond)) {                                         \
            fprintf(stderr, "PE %d: FAILED: %s: ", me, #cond); \
            fprintf(stderr, __VA_ARGS__);                      \
            fprintf(stderr, "\n");                             \
            exit(1);                                           \
        }                                                      \
    } while (0)

static int sym_int[64], sym_dst[64];
static long sym_long;
static uint64_t sym_sig;

static shmem_ctx_t dead_ctx(void)
{
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create failed");
    shmem_ctx_destroy(ctx);
    return ctx;
}

/* every PE: a team of all PEs, split and destroyed */
static shmem_team_t dead_team(void)
{
    shmem_team_t t;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) == 0, "split failed");
    shmem_team_destroy(t);
    return t;
}

/* SHMEM_NBC_REQS_MAX + 1024 slots were the old table of requests */
#define OLD_CTX_SLOTS 16384
#define OLD_TEAM_SLOTS (64 + 1024)
#define OLD_REQ_SLOTS (4 + 1024)

static int stale_wrap(const char *mode)
{
    if (!strcmp(mode, "ctx_stale_wrap")) {
        shmem_ctx_t first = dead_ctx(), c;

        for (int i = 0; i < OLD_CTX_SLOTS + 16; i++) {
            CHECK(shmem_ctx_create(0, &c) == 0, "create %d", i);
            CHECK(c != first, "create %d: the handle of the destroyed first context", i);
            shmem_ctx_destroy(c);
        }
        CHECK(shmem_ctx_create(0, &c) == 0 && c != first, "create");
        shmem_ctx_quiet(first);
    } else if (!strcmp(mode, "team_stale_wrap")) {
        shmem_team_t first = dead_team(), t;

        for (int i = 0; i < OLD_TEAM_SLOTS + 16; i++) {
            CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) == 0,
                  "split %d", i);
            CHECK(t != first, "split %d: the handle of the destroyed first team", i);
            shmem_team_destroy(t);
        }
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) == 0 &&
                  t != first,
              "split");
        shmem_team_sync(first);
    } else if (!strcmp(mode, "nbc_stale_wrap")) {
        shmemx_req_h r, copy;

        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0, "post");
        copy = r;
        CHECK(shmemx_req_wait(&r) == 0, "wait");
        for (int i = 0; i < OLD_REQ_SLOTS + 16; i++) {
            CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0, "post %d", i);
            CHECK(r != copy, "post %d: the handle of the completed first request", i);
            CHECK(shmemx_req_wait(&r) == 0, "wait %d", i);
        }
        CHECK(shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &r) == 0 && r != copy, "post");
        shmemx_req_wait(&copy);
    } else {
        return 0;
    }
    return 1;
}

static int bad_mode(const char *mode)
{
    int src = me, local = 0;
    shmem_team_t t, t2;
    shmem_ctx_t ctx;

    if (!strcmp(mode, "ctx_destroy_twice")) {
        shmem_ctx_destroy(dead_ctx());
    } else if (!strcmp(mode, "ctx_put_destroyed")) {
        shmem_ctx_int_put(dead_ctx(), sym_int, &src, 1, (me + 1) % npes);
    } else if (!strcmp(mode, "ctx_quiet_destroyed")) {
        shmem_ctx_quiet(dead_ctx());
    } else if (!strcmp(mode, "ctx_fence_destroyed")) {
        shmem_ctx_fence(dead_ctx());
    } else if (!strcmp(mode, "ctx_amo_destroyed")) {
        (void)shmem_ctx_long_atomic_fetch_add(dead_ctx(), &sym_long, 1, 0);
    } else if (!strcmp(mode, "ctx_signal_destroyed")) {
        shmem_ctx_signal_set(dead_ctx(), &sym_sig, 1, 0);
    } else if (!strcmp(mode, "ctx_get_team_destroyed")) {
        (void)shmem_ctx_get_team(dead_ctx(), &t);
    } else if (!strcmp(mode, "ctx_of_dead_team")) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) == 0,
              "split failed");
        CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0, "shmem_team_create_ctx failed");
        shmem_team_destroy(t); /* destroys its contexts too */
        shmem_ctx_int_put(ctx, sym_int, &src, 1, 0);
    } else if (!strcmp(mode, "ctx_pooled_destroy_twice")) {
        shmem_team_config_t cfg = { .num_contexts = 1 };
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &cfg, SHMEM_TEAM_NUM_CONTEXTS,
                                       &t) == 0,
              "split failed");
        CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0, "shmem_team_create_ctx failed");
        shmem_ctx_destroy(ctx); /* back to the team's reserve, still open */
        shmem_ctx_destroy(ctx);
    } else if (!strcmp(mode, "ctx_garbage_int")) {
        shmem_ctx_int_put((shmem_ctx_t)(uintptr_t)0x1234, sym_int, &src, 1, 0);
    } else if (!strcmp(mode, "ctx_garbage_local")) {
        shmem_ctx_long_p((shmem_ctx_t)(void *)&local, &sym_long, 1, 0);
    } else if (!strcmp(mode, "ctx_garbage_heap")) {
        char *p = malloc(4096);
        memset(p, 0x6f, 4096);
        shmem_ctx_quiet((shmem_ctx_t)(void *)(p + 128));
    } else if (!strcmp(mode, "team_my_pe_destroyed")) {
        printf("PE %d: my_pe %d\n", me, shmem_team_my_pe(dead_team()));
    } else if (!strcmp(mode, "team_n_pes_destroyed")) {
        printf("PE %d: n_pes %d\n", me, shmem_team_n_pes(dead_team()));
    } else if (!strcmp(mode, "team_sync_destroyed")) {
        shmem_team_sync(dead_team());
    } else if (!strcmp(mode, "team_alltoall_destroyed")) {
        shmem_int_alltoall(dead_team(), sym_dst, sym_int, 1);
    } else if (!strcmp(mode, "team_broadcast_destroyed")) {
        shmem_int_broadcast(dead_team(), sym_dst, sym_int, 1, 0);
    } else if (!strcmp(mode, "team_reduce_destroyed")) {
        shmem_int_sum_reduce(dead_team(), sym_dst, sym_int, 1);
    } else if (!strcmp(mode, "team_bcastmem_destroyed")) {
        shmem_broadcastmem(dead_team(), sym_dst, sym_int, 4, 0);
    } else if (!strcmp(mode, "team_split_destroyed")) {
        (void)shmem_team_split_strided(dead_team(), 0, 1, 1, NULL, 0, &t2);
    } else if (!strcmp(mode, "team_translate_destroyed")) {
        printf("PE %d: %d\n", me, shmem_team_translate_pe(dead_team(), 0, SHMEM_TEAM_WORLD));
    } else if (!strcmp(mode, "team_destroy_twice")) {
        shmem_team_destroy(dead_team());
    } else if (!strcmp(mode, "team_create_ctx_destroyed")) {
        (void)shmem_team_create_ctx(dead_team(), 0, &ctx);
    } else if (!strcmp(mode, "team_ptr_destroyed")) {
        printf("PE %d: %p\n", me, shmem_team_ptr(dead_team(), sym_int, 0));
    } else if (!strcmp(mode, "team_config_destroyed")) {
        shmem_team_config_t cfg;
        (void)shmem_team_get_config(dead_team(), SHMEM_TEAM_NUM_CONTEXTS, &cfg);
    } else if (!strcmp(mode, "team_garbage_int")) {
        shmem_team_sync((shmem_team_t)(uintptr_t)0x1234);
    } else if (!strcmp(mode, "team_garbage_local")) {
        printf("PE %d: %d\n", me, shmem_team_my_pe((shmem_team_t)(void *)&local));
    } else if (!strcmp(mode, "team_garbage_heap")) {
        char *p = malloc(4096);
        memset(p, 0x6f, 4096);
        shmem_int_sum_reduce((shmem_team_t)(void *)(p + 64), sym_dst, sym_int, 1);
    } else {
        return stale_wrap(mode);
    }
    return 1;
}

/* what the specification defines on the invalid handles */
static void invalid_mode(void)
{
    shmem_team_t t = SHMEM_TEAM_WORLD, x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    shmem_team_config_t cfg;

    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0, "ctx_get_team(SHMEM_CTX_INVALID)");
    CHECK(t == SHMEM_TEAM_INVALID, "ctx_get_team(SHMEM_CTX_INVALID) team");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "team_my_pe(SHMEM_TEAM_INVALID)");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "team_n_pes(SHMEM_TEAM_INVALID)");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "translate src");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) == -1, "translate dest");
    CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0,
          "get_config(SHMEM_TEAM_INVALID)");
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0, "create_ctx(INVALID)");
    CHECK(ctx == SHMEM_CTX_INVALID, "create_ctx(SHMEM_TEAM_INVALID) ctx");
    CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, sym_int, 0) == NULL, "team_ptr(INVALID)");
    t = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0,
          "split_strided(SHMEM_TEAM_INVALID)");
    CHECK(t == SHMEM_TEAM_INVALID, "split_strided(SHMEM_TEAM_INVALID) new_team");
    CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y) != 0,
          "split_2d(SHMEM_TEAM_INVALID)");
    CHECK(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "split_2d new teams");
    shmem_team_destroy(SHMEM_TEAM_INVALID);
    /* the predefined handles stay good */
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t) == 0 && t == SHMEM_TEAM_WORLD,
          "default ctx team");
    shmem_team_sync(SHMEM_TEAM_WORLD);
    shmem_team_sync(SHMEM_TEAM_SHARED);
}

/* contexts: several open at once, destroyed out of order, data through each */
static void reuse_ctx(int rounds)
{
    enum { K = 4 };
    shmem_ctx_t c[K];
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < K; k++) {
            CHECK(shmem_ctx_create(k & 1 ? SHMEM_CTX_PRIVATE : 0, &c[k]) == 0,
                  "round %d: shmem_ctx_create %d failed", r, k);
            for (int j = 0; j < k; j++)
                CHECK(c[j] != c[k], "round %d: two live contexts share a handle", r);
        }
        for (int k = 0; k < K; k++) {
            int v = r * 100 + k * 10 + me;
            shmem_ctx_int_put(c[k], &sym_int[k], &v, 1, right);
            shmem_ctx_quiet(c[k]);
        }
        /* out of order */
        shmem_ctx_destroy(c[2]);
        shmem_ctx_destroy(c[0]);
        shmem_barrier_all();
        for (int k = 0; k < K; k++)
            CHECK(sym_int[k] == r * 100 + k * 10 + left, "round %d: got %d in slot %d", r,
                  sym_int[k], k);
        shmem_ctx_destroy(c[3]);
        shmem_ctx_destroy(c[1]);
        shmem_barrier_all();
    }
}

/* teams: split, use (sync, broadcast, a context of the team), destroy; also a 2d
 * split and a team with SHMEM_TEAM_NUM_CONTEXTS */
static void reuse_team(int rounds)
{
    for (int r = 0; r < rounds; r++) {
        shmem_team_t even, x, y;
        shmem_team_config_t cfg = { .num_contexts = 1 };
        shmem_ctx_t ctx;
        int half = (npes + 1) / 2;

        /* the even PEs; the odd ones get SHMEM_TEAM_INVALID */
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, half, &cfg,
                                       r & 1 ? SHMEM_TEAM_NUM_CONTEXTS : 0, &even) == 0,
              "round %d: split", r);
        if (me % 2 == 0) {
            CHECK(even != SHMEM_TEAM_INVALID, "round %d: member got SHMEM_TEAM_INVALID", r);
            CHECK(shmem_team_my_pe(even) == me / 2, "round %d: my_pe %d", r,
                  shmem_team_my_pe(even));
            CHECK(shmem_team_n_pes(even) == half, "round %d: n_pes", r);
            CHECK(shmem_team_translate_pe(even, shmem_team_n_pes(even) - 1, SHMEM_TEAM_WORLD) ==
                      2 * (half - 1),
                  "round %d: translate", r);
            sym_int[8] = me == 0 ? 1000 + r : -1;
            shmem_team_sync(even);
            shmem_int_broadcast(even, &sym_dst[8], &sym_int[8], 1, 0);
            CHECK(sym_dst[8] == 1000 + r, "round %d: broadcast gave %d", r, sym_dst[8]);
            CHECK(shmem_team_create_ctx(even, 0, &ctx) == 0, "round %d: team ctx", r);
            {
                int v = r + me, peer = (shmem_team_my_pe(even) + 1) % half;
                shmem_ctx_int_put(ctx, &sym_int[9], &v, 1, peer); /* team-relative */
                shmem_ctx_quiet(ctx);
            }
            shmem_team_sync(even);
            {
                int from = (shmem_team_my_pe(even) + half - 1) % half;
                CHECK(sym_int[9] == r + 2 * from, "round %d: team ctx put gave %d", r, sym_int[9]);
            }
            if (r % 3 == 0)
                shmem_ctx_destroy(ctx); /* else: shmem_team_destroy takes it */
            shmem_team_sync(even);
            shmem_team_destroy(even);
        } else {
            CHECK(even == SHMEM_TEAM_INVALID, "round %d: non-member got a team", r);
        }
        CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y) == 0,
              "round %d: split_2d", r);
        CHECK(shmem_team_n_pes(x) == (npes - me / 2 * 2 >= 2 ? 2 : 1), "round %d: x n_pes", r);
        shmem_team_sync(x);
        shmem_team_sync(y);
        shmem_team_destroy(y);
        shmem_team_destroy(x);
        shmem_barrier_all();
    }
}

/* more creations than the tables have slots: every slot is reused, several times for
 * the teams; a context and a team stay open throughout and keep working */
static void wrap_mode(void)
{
    shmem_ctx_t keep, c;
    shmem_team_t tkeep, t;
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    CHECK(shmem_ctx_create(0, &keep) == 0, "shmem_ctx_create");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &tkeep) == 0, "split");
    for (int i = 0; i < 40000; i++) {
        CHECK(shmem_ctx_create(i & 1 ? SHMEM_CTX_PRIVATE : 0, &c) == 0, "create %d", i);
        CHECK(c != keep, "create %d: the handle of a live context", i);
        if (i % 4000 == 0) {
            int v = i + me;
            shmem_ctx_int_put(c, &sym_int[0], &v, 1, right);
            shmem_ctx_int_put(keep, &sym_int[1], &v, 1, right);
            shmem_ctx_quiet(c);
            shmem_ctx_quiet(keep);
            shmem_barrier_all();
            CHECK(sym_int[0] == i + left && sym_int[1] == i + left, "create %d: got %d, %d", i,
                  sym_int[0], sym_int[1]);
            shmem_barrier_all();
        }
        shmem_ctx_destroy(c);
    }
    for (int i = 0; i < 3000; i++) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) == 0, "split %d",
              i);
        CHECK(t != tkeep && shmem_team_n_pes(t) == npes && shmem_team_my_pe(t) == me,
              "split %d: a bad team", i);
        if (i % 500 == 0) {
            sym_int[2] = me == 0 ? i : -1;
            shmem_int_broadcast(t, &sym_dst[2], &sym_int[2], 1, 0);
            shmem_int_broadcast(tkeep, &sym_dst[3], &sym_int[2], 1, 0);
            CHECK(sym_dst[2] == i && sym_dst[3] == i, "split %d: broadcast gave %d, %d", i,
                  sym_dst[2], sym_dst[3]);
        }
        shmem_team_destroy(t);
    }
    shmem_team_sync(tkeep);
    shmem_team_destroy(tkeep);
    shmem_ctx_destroy(keep);
}

/* left for shmem_finalize: contexts (one with traffic pending), teams (one with a
 * context of its own, one with SHMEM_TEAM_NUM_CONTEXTS) */
static void leak_mode(void)
{
    shmem_ctx_t c1, c2, c3, tc;
    shmem_team_t t1, t2;
    shmem_team_config_t cfg = { .num_contexts = 2 };
    int v = me;

    CHECK(shmem_ctx_create(0, &c1) == 0 && shmem_ctx_create(SHMEM_CTX_PRIVATE, &c2) == 0 &&
              shmem_ctx_create(SHMEM_CTX_SERIALIZED, &c3) == 0,
          "shmem_ctx_create");
    shmem_ctx_int_put_nbi(c1, sym_int, &v, 1, (me + 1) % npes);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t1) == 0, "split");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &cfg, SHMEM_TEAM_NUM_CONTEXTS,
                                   &t2) == 0,
          "split with contexts");
    CHECK(shmem_team_create_ctx(t1, 0, &tc) == 0 && shmem_team_create_ctx(t2, 0, &tc) == 0,
          "shmem_team_create_ctx");
    (void)c2;
    (void)c3;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : getenv("HANDLES_MODE");

    if (!mode) {
        fprintf(stderr, "usage: handles_prog MODE\n");
        return 2;
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    shmem_barrier_all();
    if (bad_mode(mode)) {
        fprintf(stderr, "PE %d: FAILED: %s was accepted\n", me, mode);
        shmem_finalize();
        return 1;
    }
    if (!strcmp(mode, "invalid"))
        invalid_mode();
    else if (!strcmp(mode, "reuse")) {
        reuse_ctx(argc > 2 ? atoi(argv[2]) : 50);
        reuse_team(argc > 2 ? atoi(argv[2]) : 50);
    } else if (!strcmp(mode, "wrap"))
        wrap_mode();
    else if (!strcmp(mode, "leak"))
        leak_mode();
    else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    shmem_barrier_all();
    if (me == 0)
        printf("%s: ok\n", mode);
    shmem_finalize();
    return 0;
}
