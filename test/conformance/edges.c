/*
 * The edges of the specification, written the way users write programs: every case the
 * specification supports must work (mode "ok", one job: teams split with edge
 * triplets, contexts and teams compared with SHMEM_*_INVALID, queries on PEs and
 * addresses that do not exist, wait and test with every element masked or a NULL status,
 * allocations of nothing or of too much, sources reused the moment a collective
 * returns); cases it leaves undefined that one PE cannot see alone (arguments that must
 * agree across PEs) end the job with one line naming the routine (the other modes;
 * test/reliability/expect_fail.sh checks the line).  Exits nonzero on a wrong
 * result.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, me, npes;
static long sym[64], sym2[64];
static int isym[64];

#define CHECK(cond, ...)                              \
    do {                                              \
        if (!(cond)) {                                \
            printf("PE %d: line %d: ", me, __LINE__); \
            printf(__VA_ARGS__);                      \
            printf("\n");                             \
            failures++;                               \
        }                                             \
    } while (0)

/* a split that the specification says fails: nonzero, SHMEM_TEAM_INVALID, on every PE */
static void split_fails(int start, int stride, int size)
{
    shmem_team_t t = SHMEM_TEAM_WORLD;
    int r = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t);

    CHECK(r != 0 && t == SHMEM_TEAM_INVALID, "split (%d, %d, %d) of %d PEs: r = %d", start, stride,
          size, npes, r);
}

static void teams(void)
{
    shmem_team_t t, t2;
    shmem_ctx_t ctx;
    int r;

    /* stride 0 is valid with size 1: a team of the start PE alone */
    r = shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 0, 1, NULL, 0, &t);
    CHECK(r == 0 && (me == 1) == (t != SHMEM_TEAM_INVALID), "stride 0, size 1: r = %d", r);
    if (t != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_n_pes(t) == 1 && shmem_team_my_pe(t) == 0, "team of one");
        shmem_team_destroy(t);
    }
    /* invalid triplets: stride 0 with size 2, size 0 or negative, out of range, wrapping,
     * overflowing */
    split_fails(1, 0, 2);
    split_fails(0, 1, 0);
    split_fails(0, 1, -3);
    split_fails(npes, 1, 1);
    split_fails(-1, 1, 1);
    split_fails(0, 1, npes + 1);
    split_fails(1, 1, npes);
    split_fails(1, -1, 3);
    split_fails(0, 0x40000000, 3);
    split_fails(npes - 1, -0x7fffffff - 1, 2);
    split_fails(0, 1, 0x7fffffff);

    /* a negative stride: the parent's PEs in reverse order; a collective, a team context
     * and a split of it (negative again: back to the world's order) */
    r = shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &t);
    CHECK(r == 0 && shmem_team_my_pe(t) == npes - 1 - me, "reversed team");
    CHECK(shmem_team_translate_pe(t, 0, SHMEM_TEAM_WORLD) == npes - 1, "reversed pe 0");
    sym[0] = me;
    shmem_long_sum_reduce(t, sym2, sym, 1);
    CHECK(sym2[0] == (long)npes * (npes - 1) / 2, "sum over the reversed team: %ld", sym2[0]);
    CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0, "context of the reversed team");
    shmem_ctx_int_p(ctx, &isym[me], 7, 0); /* team PE 0: world PE npes - 1 */
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    if (me == npes - 1)
        for (int i = 0; i < npes; i++)
            CHECK(isym[i] == 7, "put through the reversed team's context: isym[%d] = %d", i,
                  isym[i]);
    r = shmem_team_split_strided(t, npes - 1, -2, npes / 2, NULL, 0, &t2);
    CHECK(r == 0, "split of the reversed team");
    if (t2 != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_translate_pe(t2, 0, SHMEM_TEAM_WORLD) == 0, "twice reversed");
        shmem_team_destroy(t2);
    }
    shmem_team_destroy(t);

    /* the even and the odd PEs in one call, each PE passing its own start: the
     * specification wants one triplet from every PE, but programs do this; two disjoint
     * teams (docs/spec-edges.md) */
    r = shmem_team_split_strided(SHMEM_TEAM_WORLD, me % 2, 2, (npes - me % 2 + 1) / 2, NULL, 0, &t);
    CHECK(r == 0 && shmem_team_my_pe(t) == me / 2, "even/odd split");
    sym[0] = me;
    shmem_long_sum_reduce(t, sym2, sym, 1);
    {
        long want = 0;
        for (int i = me % 2; i < npes; i += 2)
            want += i;
        CHECK(sym2[0] == want, "sum over the PEs of my parity: %ld, not %ld", sym2[0], want);
    }
    shmem_team_destroy(t);

    /* SHMEM_TEAM_INVALID as the parent: nonzero, both handles invalid, nothing collective */
    t = t2 = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0 &&
              t == SHMEM_TEAM_INVALID,
          "split of SHMEM_TEAM_INVALID");
    t = t2 = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 2, NULL, 0, &t, NULL, 0, &t2) != 0 &&
              t == SHMEM_TEAM_INVALID && t2 == SHMEM_TEAM_INVALID,
          "split_2d of SHMEM_TEAM_INVALID");
    /* a PE outside the parent passes SHMEM_TEAM_INVALID while the members split it */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, npes / 2, NULL, 0, &t);
    r = shmem_team_split_strided(t, 0, 1, 1, NULL, 0, &t2);
    CHECK((me % 2 == 0) == (r == 0) && (me == 0) == (t2 != SHMEM_TEAM_INVALID), "sub-split");
    CHECK(shmem_team_my_pe(t) == (me % 2 ? -1 : me / 2), "my_pe in the even team");
    CHECK(shmem_team_n_pes(t) == (me % 2 ? -1 : npes / 2), "n_pes of the even team");
    if (t != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 1, t) == -1, "odd PE in even team");
        CHECK(shmem_team_translate_pe(t, npes / 2, SHMEM_TEAM_WORLD) == -1, "past the team");
        CHECK(shmem_team_translate_pe(t, 1, SHMEM_TEAM_WORLD) == 2, "team PE 1");
    }
    shmem_team_destroy(t2); /* SHMEM_TEAM_INVALID on all but PE 0: nothing */
    shmem_team_destroy(t);

    /* split_2d: xrange larger than the team, not dividing it, 1; 0 and negative fail */
    r = shmem_team_split_2d(SHMEM_TEAM_WORLD, npes + 3, NULL, 0, &t, NULL, 0, &t2);
    CHECK(r == 0 && shmem_team_n_pes(t) == npes && shmem_team_n_pes(t2) == 1, "xrange > N");
    shmem_team_destroy(t);
    shmem_team_destroy(t2);
    r = shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &t, NULL, 0, &t2);
    CHECK(r == 0 && shmem_team_my_pe(t) == me % 3 && shmem_team_my_pe(t2) == me / 3,
          "xrange 3: (%d, %d)", shmem_team_my_pe(t), shmem_team_my_pe(t2));
    CHECK(shmem_team_n_pes(t2) == (npes - me % 3 + 2) / 3, "xrange 3: y size");
    sym[0] = 1;
    shmem_long_sum_reduce(t2, sym2, sym, 1);
    CHECK(sym2[0] == shmem_team_n_pes(t2), "sum over a y team: %ld", sym2[0]);
    shmem_team_destroy(t);
    shmem_team_destroy(t2);
    r = shmem_team_split_2d(SHMEM_TEAM_WORLD, 1, NULL, 0, &t, NULL, 0, &t2);
    CHECK(r == 0 && shmem_team_n_pes(t) == 1 && shmem_team_n_pes(t2) == npes, "xrange 1");
    shmem_team_destroy(t);
    shmem_team_destroy(t2);
    for (int x = 0; x >= -2; x -= 2) {
        r = shmem_team_split_2d(SHMEM_TEAM_WORLD, x, NULL, 0, &t, NULL, 0, &t2);
        CHECK(r != 0 && t == SHMEM_TEAM_INVALID && t2 == SHMEM_TEAM_INVALID, "xrange %d", x);
    }

    /* translate with SHMEM_TEAM_INVALID and PEs out of range: -1 */
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "inv src");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) == -1, "inv dest");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, -1, SHMEM_TEAM_WORLD) == -1, "pe -1");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes, SHMEM_TEAM_SHARED) == -1, "pe npes");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_SHARED) ==
              shmem_team_my_pe(SHMEM_TEAM_SHARED),
          "world to shared");
    shmem_team_destroy(SHMEM_TEAM_INVALID);

    /* every slot taken: nonzero and SHMEM_TEAM_INVALID (the line names SHMEM_TEAMS_MAX);
     * all given back, a split works again */
    {
        static shmem_team_t ts[4096];
        int n;

        for (n = 0; n < 4096; n++)
            if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &ts[n]))
                break;
        CHECK(n < 4096 && ts[n] == SHMEM_TEAM_INVALID, "%d teams and no limit", n);
        while (n-- > 0)
            shmem_team_destroy(ts[n]);
        r = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        CHECK(r == 0, "a split after every team was destroyed");
        shmem_team_destroy(t);
    }

    /* configuration: what was asked is what get_config says; SHMEM_TEAM_INVALID: nonzero */
    {
        shmem_team_config_t c = { .num_contexts = 2 }, g = { 0 };
        r = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &c, SHMEM_TEAM_NUM_CONTEXTS, &t);
        CHECK(r == 0 && shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &g) == 0 &&
                  g.num_contexts == 2,
              "num_contexts %d", g.num_contexts);
        CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &g) != 0,
              "get_config of SHMEM_TEAM_INVALID");
        shmem_team_destroy(t);
    }
}

static void contexts_and_queries(void)
{
    long priv[4];
    shmem_team_t tt = SHMEM_TEAM_WORLD;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;

    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID,
          "context of SHMEM_TEAM_INVALID");
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &tt) == 0 && tt == SHMEM_TEAM_WORLD, "default");
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &tt) != 0 && tt == SHMEM_TEAM_INVALID, "invalid");
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE, &ctx) == 0,
          "every option");
    shmem_ctx_long_p(ctx, &sym[1], 5, (me + 1) % npes);
    shmem_ctx_destroy(ctx); /* completes the put */
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &ctx) == 0, "context of SHMEM_TEAM_SHARED");
    CHECK(shmem_ctx_get_team(ctx, &tt) == 0 && tt == SHMEM_TEAM_SHARED, "its team");
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    CHECK(sym[1] == 5, "put through a context destroyed right after: %ld", sym[1]);

    /* queries: NULL, private memory, no such PE */
    CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, sym, 0) == NULL, "team_ptr invalid");
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, sym, -1) == NULL, "team_ptr -1");
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, sym, npes) == NULL, "team_ptr npes");
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, priv, 0) == NULL, "team_ptr private");
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, NULL, 0) == NULL, "team_ptr NULL");
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, sym, me) == sym, "team_ptr self");
    CHECK(shmem_ptr(NULL, 0) == NULL && shmem_ptr(priv, me) == NULL, "ptr NULL, private");
    CHECK(shmem_ptr(sym, me) == sym, "ptr self");
    CHECK(!shmem_addr_accessible(NULL, 0) && !shmem_addr_accessible(priv, 0), "addr_accessible");
    CHECK(!shmem_addr_accessible(sym, -1) && !shmem_addr_accessible(sym, npes), "no such PE");
    CHECK(shmem_addr_accessible(sym, npes - 1), "addr_accessible symmetric");
    CHECK(!shmem_pe_accessible(-1) && !shmem_pe_accessible(npes) && shmem_pe_accessible(0),
          "pe_accessible");

    /* a strided transfer of one element: the strides never apply */
    sym2[0] = me + 100;
    shmem_barrier_all();
    shmem_long_iput(&sym[2], sym2, PTRDIFF_MAX, PTRDIFF_MAX, 1, (me + 1) % npes);
    shmem_long_iget(&priv[0], sym2, PTRDIFF_MAX, PTRDIFF_MAX, 1, (me + 1) % npes);
    shmem_barrier_all();
    CHECK(sym[2] == (me + npes - 1) % npes + 100 && priv[0] == (me + 1) % npes + 100,
          "iput/iget of one element with the largest strides");
}

static void point_to_point(void)
{
    int all[4] = { 1, 1, 1, 1 }, odd[4] = { 5, -1, 0, 2 }; /* nonzero: excluded */
    size_t idx[4];
    long *flags = shmem_calloc((size_t)npes, sizeof(long));
    int *seen = calloc((size_t)npes, sizeof(int));
    size_t got = 0;

    for (int i = 0; i < 4; i++)
        sym[8 + i] = 0;
    long *v = &sym[8];
    /* every element masked: any -> SIZE_MAX, some -> 0, all -> at once */
    CHECK(shmem_long_test_any(v, 4, all, SHMEM_CMP_EQ, 0) == SIZE_MAX, "test_any masked");
    CHECK(shmem_long_wait_until_any(v, 4, all, SHMEM_CMP_EQ, 0) == SIZE_MAX, "wait_any masked");
    CHECK(shmem_long_test_some(v, 4, idx, all, SHMEM_CMP_EQ, 0) == 0, "test_some masked");
    CHECK(shmem_long_wait_until_some(v, 4, idx, all, SHMEM_CMP_EQ, 0) == 0, "wait_some masked");
    CHECK(shmem_long_test_all(v, 4, all, SHMEM_CMP_EQ, 1) == 1, "test_all masked");
    shmem_long_wait_until_all(v, 4, all, SHMEM_CMP_EQ, 1);
    CHECK(shmem_long_wait_until_any_vector(v, 4, all, SHMEM_CMP_NE, v) == SIZE_MAX, "any_vector");
    CHECK(shmem_long_wait_until_some_vector(v, 4, idx, all, SHMEM_CMP_NE, v) == 0, "some_vector");
    shmem_long_wait_until_all_vector(v, 4, all, SHMEM_CMP_NE, v);
    /* a NULL status includes every element */
    CHECK(shmem_long_test_some(v, 4, idx, NULL, SHMEM_CMP_EQ, 0) == 4, "test_some NULL status");
    CHECK(shmem_long_wait_until_some(v, 4, idx, NULL, SHMEM_CMP_EQ, 0) == 4, "wait_some NULL");
    CHECK(shmem_long_test_any(v, 4, NULL, SHMEM_CMP_EQ, 0) < 4, "test_any NULL status");
    CHECK(shmem_long_test_all(v, 4, NULL, SHMEM_CMP_EQ, 0) == 1, "test_all NULL status");
    CHECK(shmem_long_test_any(v, 4, odd, SHMEM_CMP_EQ, 0) == 2, "status 5, -1 and 2 exclude");
    shmem_barrier_all();

    /* a polling loop: test_any over flags the other PEs set, each index masked once seen */
    for (int p = 0; p < npes; p++)
        shmem_long_atomic_set(&flags[me], 1, p);
    while (got < (size_t)npes) {
        size_t i = shmem_long_test_any(flags, (size_t)npes, seen, SHMEM_CMP_EQ, 1);
        if (i != SIZE_MAX) {
            seen[i] = 1;
            got++;
        }
    }
    shmem_free(flags);
    free(seen);
}

static void memory(void)
{
    void *p;
    long *a, *b, *c;

    CHECK(shmem_malloc(0) == NULL && shmem_calloc(0, 8) == NULL && shmem_calloc(8, 0) == NULL,
          "nothing allocated");
    CHECK(shmem_calloc(SIZE_MAX / 2, 4) == NULL, "calloc: count * size overflows");
    CHECK(shmem_align(4096, SIZE_MAX - 10) == NULL, "align near SIZE_MAX");
    p = shmem_malloc_with_hints(64, 0x7fff0000L); /* unknown hints are advice too */
    CHECK(p != NULL, "unknown hints");
    shmem_free(p);
    p = shmem_align(2, 16); /* a power of two below sizeof(void *): honoured */
    CHECK(p && (uintptr_t)p % 2 == 0, "align 2");
    shmem_free(p);
    shmem_free(NULL);
    /* realloc: NULL is malloc, 0 is free, a move keeps the data and the symmetry */
    a = shmem_realloc(NULL, 16);
    b = shmem_malloc(16);
    CHECK(a && b, "realloc(NULL)");
    a[0] = me;
    a[1] = 2 * me;
    c = shmem_realloc(a, 1 << 20);
    CHECK(c && c[0] == me && c[1] == 2 * me, "realloc kept the data");
    shmem_long_p(&c[(1 << 17) - 1], me, (me + 1) % npes);
    shmem_barrier_all();
    CHECK(c[(1 << 17) - 1] == (me + npes - 1) % npes, "put into the moved block");
    CHECK(shmem_realloc(c, 0) == NULL, "realloc(p, 0)");
    shmem_free(b);
}

/* sources reused the moment a collective returns (each collective has its own dest: the
 * specification wants it ready on every PE before any PE calls) */
static void reuse(void)
{
    long *s = shmem_malloc(64 * sizeof(long));
    long *d = shmem_malloc(4 * 64 * (size_t)npes * sizeof(long));
    long *d1 = d, *d2 = d + 64 * npes, *d3 = d + 128 * npes, *d4 = d + 192 * npes;
    int bad = 0;

    for (int it = 0; it < 20; it++) {
        for (int i = 0; i < 64; i++)
            s[i] = it * 1000 + me * 10 + i % 10;
        shmem_long_fcollect(SHMEM_TEAM_WORLD, d1, s, 4);
        for (int i = 0; i < 64; i++)
            s[i] = -1;
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d2, s, 8);
        s[0] = it + me;
        shmem_long_broadcast(SHMEM_TEAM_WORLD, d3, s, 1, it % npes);
        for (int p = 0; p < npes; p++)
            s[p] = me * 100 + p + it;
        shmem_long_alltoall(SHMEM_TEAM_WORLD, d4, s, 1);
        for (int p = 0; p < npes; p++)
            s[p] = -9;
        for (int p = 0; p < npes; p++)
            for (int i = 0; i < 4; i++)
                bad += d1[p * 4 + i] != it * 1000 + p * 10 + i;
        bad += d2[0] != -npes;
        bad += me != it % npes && d3[0] != it + it % npes;
        for (int p = 0; p < npes; p++)
            bad += d4[p] != p * 100 + me + it;
        shmem_barrier_all();
    }
    CHECK(bad == 0, "%d wrong results with sources reused at once", bad);
    shmem_free(s);
    shmem_free(d);
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "ok";
    shmem_team_t t;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();

    if (!strcmp(m, "ok")) {
        if (npes < 4) {
            printf("edges: needs 4 PEs or more\n");
            shmem_finalize();
            return 77;
        }
        teams();
        contexts_and_queries();
        point_to_point();
        memory();
        reuse();
    } else if (!strcmp(m, "split2d_mismatch")) { /* one PE's xrange is invalid */
        shmem_team_t t2;
        shmem_team_split_2d(SHMEM_TEAM_WORLD, me == 1 ? 0 : 2, NULL, 0, &t, NULL, 0, &t2);
    } else if (!strcmp(m, "split_mismatch")) {
        /* PE 0 describes {0, 1}, PE 1 {0, 2}: overlapping teams, not disjoint ones; the
         * even/odd idiom (disjoint teams, each PE its own start) stays valid */
        shmem_team_t ev;
        if (shmem_team_split_strided(SHMEM_TEAM_WORLD, me % 2, 2, (shmem_n_pes() + 1 - me % 2) / 2,
                                     NULL, 0, &ev) != 0)
            return 1;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, me == 1 ? 2 : 1, 2, NULL, 0, &t);
        if (t != SHMEM_TEAM_INVALID)
            shmem_team_sync(t);
    } else if (!strcmp(m, "malloc_mismatch")) {
        shmem_malloc(me == 1 ? 128 : 64);
    } else if (!strcmp(m, "free_mismatch")) { /* one PE frees the other block */
        long *a = shmem_malloc(64), *b = shmem_malloc(64);
        shmem_free(me == 1 ? b : a);
    } else if (!strcmp(m, "align_npot")) {
        shmem_align(24, 64);
    } else {
        printf("edges: unknown mode %s\n", m);
        return 2;
    }
    shmem_barrier_all();
    if (me == 0)
        printf("edges %s: %s\n", m, failures ? "FAILED" : "ok");
    shmem_finalize();
    return failures ? 1 : 0;
}
