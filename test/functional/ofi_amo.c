/* Every atomic op on every type over the OFI route, self-targeted ones included:
 * exact totals for add (integers and small-integer floats), bit ops, swap chains,
 * fetch, compare-swap elections and CAS-loop counters, blocking and nbi fetching. */
#include "ofi_test.h"

#define ITERS 20

static uint64_t words[COMM_DT_COUNT][8]; /* symmetric: a few words per type */

static int is_float(enum comm_dtype dt)
{
    return dt == COMM_DT_FLOAT || dt == COMM_DT_DOUBLE;
}

/* value k as a dt element */
static void mk(enum comm_dtype dt, long k, void *out)
{
    switch (dt) {
    case COMM_DT_I32: *(int32_t *)out = (int32_t)k; break;
    case COMM_DT_U32: *(uint32_t *)out = (uint32_t)k; break;
    case COMM_DT_I64: *(int64_t *)out = k; break;
    case COMM_DT_U64: *(uint64_t *)out = (uint64_t)k; break;
    case COMM_DT_FLOAT: *(float *)out = (float)k; break;
    default: *(double *)out = (double)k; break;
    }
}

static long val(enum comm_dtype dt, const void *p)
{
    switch (dt) {
    case COMM_DT_I32: return *(const int32_t *)p;
    case COMM_DT_U32: return *(const uint32_t *)p;
    case COMM_DT_I64: return (long)*(const int64_t *)p;
    case COMM_DT_U64: return (long)*(const uint64_t *)p;
    case COMM_DT_FLOAT: return (long)*(const float *)p;
    default: return (long)*(const double *)p;
    }
}

static void set_local(enum comm_dtype dt, int w, long k)
{
    words[dt][w] = 0;
    mk(dt, k, &words[dt][w]);
}

static void test_type(enum comm_dtype dt)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    struct comm_ctx *ctx = COMM_CTX_DEFAULT;
    uint64_t op, res, cmp;

    for (int w = 0; w < 8; w++)
        set_local(dt, w, 0);
    set_local(dt, 3, -1); /* all ones for AND (integers) */
    shmem_barrier_all();

    /* add / fetch-add (blocking and nbi) to every PE, self included: word 0 */
    long fetched_max = 0;
    uint64_t nbi_res[ITERS];
    for (int i = 0; i < ITERS; i++) {
        for (int d = 0; d < n; d++) {
            int pe = (me + d) % n;
            mk(dt, me + 1, &op);
            if (i % 3 == 0) {
                comm_amo(ctx, COMM_AMO_ADD, dt, &words[dt][0], &op, NULL, NULL, pe, 0);
            } else if (i % 3 == 1) {
                res = 0;
                comm_amo(ctx, COMM_AMO_ADD, dt, &words[dt][0], &op, NULL, &res, pe, 0);
                if (val(dt, &res) > fetched_max)
                    fetched_max = val(dt, &res);
                CHECK(val(dt, &res) >= 0);
            } else {
                nbi_res[i] = 0;
                comm_amo(ctx, COMM_AMO_ADD, dt, &words[dt][0], &op, NULL, &nbi_res[i], pe, 1);
            }
        }
    }
    comm_quiet(ctx);
    for (int i = 2; i < ITERS; i += 3)
        CHECK(val(dt, &nbi_res[i]) >= 0 && val(dt, &nbi_res[i]) < (long)ITERS * n * (n + 1) / 2);
    shmem_barrier_all();
    CHECK(val(dt, &words[dt][0]) == (long)ITERS * n * (n + 1) / 2);
    CHECK(fetched_max < (long)ITERS * n * (n + 1) / 2);

    /* atomic fetch of the neighbour's total */
    res = 0;
    comm_amo(ctx, COMM_AMO_FETCH, dt, &words[dt][0], NULL, NULL, &res, (me + 1) % n, 0);
    CHECK(val(dt, &res) == (long)ITERS * n * (n + 1) / 2);
    res = 0;
    comm_amo(ctx, COMM_AMO_FETCH, dt, &words[dt][0], NULL, NULL, &res, me, 1);
    comm_quiet(ctx);
    CHECK(val(dt, &res) == (long)ITERS * n * (n + 1) / 2);

    /* swap chain on PE 0's word 1: the values seen plus the last form a permutation */
    shmem_barrier_all();
    mk(dt, me + 1, &op);
    res = 0;
    comm_amo(ctx, COMM_AMO_SET, dt, &words[dt][1], &op, NULL, &res, 0, 0);
    static long seen[64];
    seen[me] = val(dt, &res);
    shmem_barrier_all();
    if (me == 0) {
        long all[65];
        unsigned long mask = 0;
        for (int pe = 0; pe < n; pe++) {
            long v;
            comm_get(ctx, &v, &seen[pe], sizeof(v), pe);
            all[pe] = v;
        }
        all[n] = val(dt, &words[dt][1]);
        for (int i = 0; i <= n; i++) {
            CHECK(all[i] >= 0 && all[i] <= n);
            if (all[i] >= 0 && all[i] <= n)
                mask |= 1UL << all[i];
        }
        CHECK(mask == (1UL << (n + 1)) - 1);
    }
    /* plain set (no fetch) of the neighbour's word 2 */
    mk(dt, 500 + me, &op);
    comm_amo(ctx, COMM_AMO_SET, dt, &words[dt][2], &op, NULL, NULL, (me + 1) % n, 0);
    shmem_barrier_all();
    CHECK(val(dt, &words[dt][2]) == 500 + (me + n - 1) % n);

    /* compare-swap: one winner per PE's word 4; then a CAS-loop counter on word 5 */
    mk(dt, 0, &cmp);
    mk(dt, me + 1, &op);
    res = 0;
    shmem_barrier_all();
    int wins = 0;
    for (int pe = 0; pe < n; pe++) {
        comm_amo(ctx, COMM_AMO_CSWAP, dt, &words[dt][4], &op, &cmp, &res, pe, 0);
        wins += val(dt, &res) == 0;
        CHECK(val(dt, &res) >= 0 && val(dt, &res) <= n);
    }
    for (int i = 0; i < ITERS / 2; i++) {
        int pe = (me + i) % n;
        uint64_t cur = 0, nv;
        comm_amo(ctx, COMM_AMO_FETCH, dt, &words[dt][5], NULL, NULL, &cur, pe, 0);
        for (;;) {
            mk(dt, val(dt, &cur) + 1, &nv);
            comm_amo(ctx, COMM_AMO_CSWAP, dt, &words[dt][5], &nv, &cur, &res, pe, 0);
            if (val(dt, &res) == val(dt, &cur))
                break;
            cur = res;
        }
    }
    shmem_barrier_all();
    CHECK(val(dt, &words[dt][4]) >= 1 && val(dt, &words[dt][4]) <= n);
    CHECK(val(dt, &words[dt][5]) == ITERS / 2); /* one increment per PE per i */
    static long total_wins;
    long w = wins;
    comm_amo(ctx, COMM_AMO_ADD, COMM_DT_I64, &total_wins, &w, NULL, NULL, 0, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK(total_wins == n);
    shmem_barrier_all();
    if (me == 0)
        total_wins = 0;

    if (is_float(dt))
        return;
    /* bit ops: OR sets bit me, AND clears bit me, XOR toggles bit me twice + once */
    for (int pe = 0; pe < n; pe++) {
        mk(dt, 1L << me, &op);
        res = 0;
        comm_amo(ctx, COMM_AMO_OR, dt, &words[dt][6], &op, NULL, pe == me ? &res : NULL, pe, 0);
        mk(dt, ~(1L << me), &op);
        comm_amo(ctx, COMM_AMO_AND, dt, &words[dt][3], &op, NULL, NULL, pe, 0);
        mk(dt, 1L << me, &op);
        for (int t = 0; t < 3; t++)
            comm_amo(ctx, COMM_AMO_XOR, dt, &words[dt][7], &op, NULL, t == 1 ? &res : NULL, pe,
                     t == 2);
    }
    comm_quiet(ctx);
    shmem_barrier_all();
    long mask = (1L << n) - 1;
    CHECK(val(dt, &words[dt][6]) == mask);
    uint64_t and_expect = 0;
    mk(dt, ~mask, &and_expect);
    CHECK(val(dt, &words[dt][3]) == val(dt, &and_expect));
    CHECK(val(dt, &words[dt][7]) == mask);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    for (int dt = 0; dt < COMM_DT_COUNT; dt++)
        test_type((enum comm_dtype)dt);
    /* a private context too */
    struct comm_ctx *ctx;
    static long counter;
    CHECK(comm_ctx_create(1, NULL, &ctx) == OFS_OK);
    long one = 1;
    for (int i = 0; i < 50; i++)
        comm_amo(ctx, COMM_AMO_ADD, COMM_DT_I64, &counter, &one, NULL, NULL, i % shmem_n_pes(), 0);
    comm_ctx_destroy(ctx);
    shmem_barrier_all();
    long expect = 0;
    for (int pe = 0; pe < shmem_n_pes(); pe++)
        for (int i = 0; i < 50; i++)
            expect += i % shmem_n_pes() == shmem_my_pe();
    CHECK(counter == expect);
    return test_finish("ofi_amo");
}
