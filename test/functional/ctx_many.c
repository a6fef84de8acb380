/*
 * Many contexts (the SOS many-ctx pattern): every PE creates 64 contexts, of each
 * option in turn, makes a put, a fetch-add and a get on each to the next PE and quiets
 * each; then three cycles destroy half of them and create them again (a destroyed
 * context's endpoint is taken by the next one over OFI), using the new ones at once.
 * Each context's quiet must complete its own puts: after it, an atomic on the default
 * context tells the target, which then reads the value in place.  Destroy completes a
 * context's non-blocking puts (OpenSHMEM 1.5, shmem_ctx_destroy).  Usage: ctx_many [N].
 */
#include "tests.h"

#define MAXCTX 256

static long data[MAXCTX];   /* data[i]: written by the previous PE's context i */
static long counts[MAXCTX]; /* counts[i]: fetch-adds through the previous PE's context i */
static long nbi_data[MAXCTX];
static long nbi_src[MAXCTX]; /* the source of a put_nbi: untouched until its destroy */
static long arrived;

static const long opts[4] = { 0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE };

static void use(shmem_ctx_t ctx, int i, long v, int next)
{
    shmem_ctx_long_p(ctx, &data[i], v, next);
    long old = shmem_ctx_long_atomic_fetch_add(ctx, &counts[i], 1, next);
    CHECK(old >= 0 && old < 16);
    long got = shmem_ctx_long_g(ctx, &data[i], next);
    /* a get after a put to the same address on the same context: ordered (1.5, 9.5) */
    CHECK(got == v);
    shmem_ctx_quiet(ctx);
}

int main(int argc, char **argv)
{
    static shmem_ctx_t ctx[MAXCTX];
    int n = argc > 1 ? atoi(argv[1]) : 64;

    if (n < 2 || n > MAXCTX)
        n = 64;
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), next = (me + 1) % npes;
    for (int i = 0; i < n; i++)
        CHECK(shmem_ctx_create(opts[i % 4], &ctx[i]) == 0);
    for (int i = 0; i < n; i++)
        use(ctx[i], i, 1000L * me + i, next);
    /* quiet on context i alone makes its put visible: tell the target afterwards */
    shmem_ctx_long_p(ctx[0], &data[0], 7 + me, next);
    shmem_ctx_quiet(ctx[0]);
    shmem_long_atomic_inc(&arrived, next);
    shmem_long_wait_until(&arrived, SHMEM_CMP_GE, 1);
    CHECK(data[0] == 7 + (me + npes - 1) % npes);
    shmem_barrier_all();
    int prev = (me + npes - 1) % npes;
    for (int i = 1; i < n; i++) {
        CHECK(data[i] == 1000L * prev + i);
        CHECK(counts[i] == 1);
    }
    shmem_barrier_all(); /* checked before the cycles write them again */
    /* create / destroy / create: half of them each cycle, non-blocking puts pending at
     * destroy must land */
    for (int cycle = 0; cycle < 3; cycle++) {
        for (int i = cycle % 2; i < n; i += 2) {
            nbi_src[i] = 1000000L * (cycle + 1) + 1000L * me + i;
            shmem_ctx_long_put_nbi(ctx[i], &nbi_data[i], &nbi_src[i], 1, next);
            shmem_ctx_destroy(ctx[i]);
        }
        for (int i = cycle % 2; i < n; i += 2) {
            CHECK(shmem_ctx_create(opts[(i + cycle) % 4], &ctx[i]) == 0);
            use(ctx[i], i, 100000L * (cycle + 1) + 1000L * me + i, next);
        }
        shmem_barrier_all();
        for (int i = cycle % 2; i < n; i += 2) {
            CHECK(nbi_data[i] == 1000000L * (cycle + 1) + 1000L * prev + i);
            CHECK(data[i] == 100000L * (cycle + 1) + 1000L * prev + i);
            CHECK(counts[i] == 2 + cycle / 2);
        }
        shmem_barrier_all();
    }
    for (int i = 0; i < n; i++)
        shmem_ctx_destroy(ctx[i]);
    return test_finish("ctx_many");
}
