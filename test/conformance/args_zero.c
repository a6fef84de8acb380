/*
 * A count of zero with a NULL pointer is supported by every routine that takes a
 * pointer and a count (spec, undefined behaviour table: "len is 0, pointer is null:
 * supported"); so is a count of zero with a private (non-symmetric) pointer where a
 * symmetric one would be needed: nothing is accessed.  Each family is called that way
 * on every PE, then moves real data, to show that the zero-count calls skipped nothing
 * they should not have (put-with-signal still updates the signal) and left the
 * collectives and their pSync in a usable state.  Exits nonzero on a wrong result.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 8

static long pSync[SHMEM_BCAST_SYNC_SIZE];
static long pSync2[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long sym[64 * N], src_sym[64 * N];
static uint64_t sig;
static int failures;

#define CHECK(cond, ...)                      \
    do {                                      \
        if (!(cond)) {                        \
            printf("PE %d: ", shmem_my_pe()); \
            printf(__VA_ARGS__);              \
            printf(" (line %d)\n", __LINE__); \
            failures++;                       \
        }                                     \
    } while (0)

/* every zero-count form, with p as every pointer argument */
static void zero_calls(void *p, int right)
{
    long *lp = p;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    size_t idx;

    /* RMA, blocking and nbi, typed, sized and mem, with and without a context */
    shmem_putmem(p, p, 0, right);
    shmem_getmem(p, p, 0, right);
    shmem_long_put(lp, lp, 0, right);
    shmem_long_get(lp, lp, 0, right);
    shmem_put64(p, p, 0, right);
    shmem_get32(p, p, 0, right);
    shmem_put128(p, p, 0, right);
    shmem_ctx_long_put(ctx, lp, lp, 0, right);
    shmem_ctx_getmem(ctx, p, p, 0, right);
    shmem_putmem_nbi(p, p, 0, right);
    shmem_getmem_nbi(p, p, 0, right);
    shmem_long_put_nbi(lp, lp, 0, right);
    shmem_long_get_nbi(lp, lp, 0, right);
    shmem_ctx_put16_nbi(ctx, p, p, 0, right);
    /* strided and blocked strided */
    shmem_long_iput(lp, lp, 2, 3, 0, right);
    shmem_long_iget(lp, lp, 2, 3, 0, right);
    shmem_iput32(p, p, 1, 1, 0, right);
    shmem_ctx_iget64(ctx, p, p, 1, 1, 0, right);
    shmem_long_ibput(lp, lp, 4, 4, 2, 0, right);
    shmem_long_ibget(lp, lp, 4, 4, 0, 3, right);
    shmem_ibput8(p, p, 4, 4, 2, 0, right);
    shmem_quiet();

    /* wait and test on nothing */
    shmem_long_wait_until_all(lp, 0, NULL, SHMEM_CMP_EQ, 42);
    idx = shmem_long_wait_until_any(lp, 0, NULL, SHMEM_CMP_EQ, 42);
    CHECK(idx == SIZE_MAX, "wait_until_any on 0 elements returned %zu", idx);
    idx = shmem_long_wait_until_some(lp, 0, (size_t *)p, NULL, SHMEM_CMP_EQ, 42);
    CHECK(idx == 0, "wait_until_some on 0 elements returned %zu", idx);
    shmem_long_wait_until_all_vector(lp, 0, NULL, SHMEM_CMP_EQ, lp);
    idx = shmem_long_wait_until_any_vector(lp, 0, NULL, SHMEM_CMP_EQ, lp);
    CHECK(idx == SIZE_MAX, "wait_until_any_vector on 0 elements returned %zu", idx);
    idx = shmem_int_wait_until_some_vector((int *)p, 0, (size_t *)p, NULL, SHMEM_CMP_NE, (int *)p);
    CHECK(idx == 0, "wait_until_some_vector on 0 elements returned %zu", idx);
    CHECK(shmem_long_test_all(lp, 0, NULL, SHMEM_CMP_EQ, 42) == 1, "test_all on 0 elements");
    CHECK(shmem_long_test_any(lp, 0, NULL, SHMEM_CMP_EQ, 42) == SIZE_MAX, "test_any on 0");
    CHECK(shmem_long_test_some(lp, 0, (size_t *)p, NULL, SHMEM_CMP_EQ, 42) == 0, "test_some 0");
    CHECK(shmem_long_test_all_vector(lp, 0, NULL, SHMEM_CMP_EQ, lp) == 1, "test_all_vector 0");
    CHECK(shmem_long_test_any_vector(lp, 0, NULL, SHMEM_CMP_EQ, lp) == SIZE_MAX, "test_any_v 0");
    CHECK(shmem_uint64_test_some_vector((uint64_t *)p, 0, (size_t *)p, NULL, SHMEM_CMP_EQ,
                                        (uint64_t *)p) == 0,
          "test_some_vector 0");
    shmem_pe_quiet((const int *)p, 0);

    /* team-based collectives */
    CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, lp, lp, 0, 0) == 0, "broadcast");
    CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, p, p, 0, shmem_n_pes() - 1) == 0, "broadcastmem");
    CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, lp, lp, 0) == 0, "collect");
    CHECK(shmem_collectmem(SHMEM_TEAM_WORLD, p, p, 0) == 0, "collectmem");
    CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, lp, lp, 0) == 0, "fcollect");
    CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, p, p, 0) == 0, "fcollectmem");
    CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, lp, lp, 0) == 0, "alltoall");
    CHECK(shmem_alltoallmem(SHMEM_TEAM_WORLD, p, p, 0) == 0, "alltoallmem");
    CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, lp, lp, 2, 3, 0) == 0, "alltoalls");
    CHECK(shmem_alltoallsmem(SHMEM_TEAM_WORLD, p, p, 1, 1, 0) == 0, "alltoallsmem");
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, lp, lp, 0) == 0, "sum_reduce");
    CHECK(shmem_long_max_reduce(SHMEM_TEAM_WORLD, lp, lp, 0) == 0, "max_reduce");
    CHECK(shmem_uint_and_reduce(SHMEM_TEAM_WORLD, (unsigned *)p, (unsigned *)p, 0) == 0,
          "and_reduce");
    CHECK(shmem_double_prod_reduce(SHMEM_TEAM_WORLD, (double *)p, (double *)p, 0) == 0, "prod");
    CHECK(shmem_long_sum_inscan(SHMEM_TEAM_WORLD, lp, lp, 0) == 0, "sum_inscan");
    CHECK(shmem_long_sum_exscan(SHMEM_TEAM_WORLD, lp, lp, 0) == 0, "sum_exscan");
    CHECK(shmem_long_broadcast(SHMEM_TEAM_SHARED, lp, lp, 0, 0) == 0, "broadcast shared");

    /* active-set collectives (deprecated), all PEs */
    shmem_broadcast64(p, p, 0, 0, 0, 0, shmem_n_pes(), pSync);
    shmem_broadcast32(p, p, 0, 0, 0, 0, shmem_n_pes(), pSync);
    shmem_collect64(p, p, 0, 0, 0, shmem_n_pes(), pSync);
    shmem_fcollect32(p, p, 0, 0, 0, shmem_n_pes(), pSync);
    shmem_alltoall64(p, p, 0, 0, 0, shmem_n_pes(), pSync);
    shmem_alltoalls32(p, p, 1, 1, 0, 0, 0, shmem_n_pes(), pSync);
    shmem_long_sum_to_all(lp, lp, 0, 0, 0, shmem_n_pes(), pWrk, pSync2);
    shmem_int_max_to_all((int *)p, (int *)p, 0, 0, 0, shmem_n_pes(), (int *)pWrk, pSync2);
}

int main(void)
{
    long priv[4 * N];
    int me, npes, right, left;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        pSync2[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    zero_calls(NULL, right);
    zero_calls(priv, right);

    /* a scan of no elements is still one of the team's collectives: PE 0 lags before
     * the next one while the others wait in it long enough to look at PE 0's published
     * signature, which must not be taken for a mismatch */
    shmem_long_sum_exscan(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    shmem_long_sum_inscan(SHMEM_TEAM_WORLD, NULL, NULL, 0);
    if (me == 0)
        usleep(1500000);
    shmem_barrier_all();

    /* put-with-signal with no data still delivers the signal */
    shmem_long_put_signal(NULL, NULL, 0, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_putmem_signal_nbi(priv, priv, 0, &sig, 10, SHMEM_SIGNAL_ADD, right);
    shmem_ctx_long_put_signal_nbi(SHMEM_CTX_DEFAULT, NULL, priv, 0, &sig, 100, SHMEM_SIGNAL_ADD,
                                  right);
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 111);
    CHECK(shmem_signal_fetch(&sig) == 111, "signal after zero-length puts: %lu",
          (unsigned long)shmem_signal_fetch(&sig));
    shmem_barrier_all();

    /* a collect where only odd PEs contribute (even PEs: NULL, 0) */
    for (int i = 0; i < N; i++)
        src_sym[i] = 1000 * me + i;
    {
        int mine = me % 2 ? N : 0, total = 0;
        shmem_long_collect(SHMEM_TEAM_WORLD, sym, mine ? src_sym : NULL, (size_t)mine);
        for (int p = 0; p < npes; p++)
            if (p % 2)
                for (int i = 0; i < N; i++, total++)
                    CHECK(sym[total] == 1000 * p + i, "collect: sym[%d] = %ld", total, sym[total]);
        shmem_barrier_all();
    }

    /* then every family moves real data */
    for (int i = 0; i < N; i++)
        priv[i] = 100 * me + i;
    memset(sym, 0, sizeof(sym));
    shmem_barrier_all();
    shmem_long_put(sym, priv, N, right);
    shmem_long_put_signal(sym + N, priv, N, &sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 112);
    shmem_barrier_all();
    for (int i = 0; i < N; i++) {
        CHECK(sym[i] == 100 * left + i, "put: sym[%d] = %ld", i, sym[i]);
        CHECK(sym[N + i] == 100 * left + i, "put_signal: sym[%d] = %ld", N + i, sym[N + i]);
    }
    shmem_long_iget(priv, sym, 1, 2, N / 2, right);
    for (int i = 0; i < N / 2; i++)
        CHECK(priv[i] == 100 * me + 2 * i, "iget: priv[%d] = %ld", i, priv[i]);
    CHECK(shmem_long_wait_until_any(sym, N, NULL, SHMEM_CMP_EQ, 100 * left + 3) == 3, "any");
    shmem_barrier_all();

    for (int i = 0; i < N; i++)
        src_sym[i] = me + i;
    shmem_long_broadcast(SHMEM_TEAM_WORLD, sym, src_sym, N, npes - 1);
    for (int i = 0; i < N; i++)
        CHECK(sym[i] == npes - 1 + i, "broadcast: sym[%d] = %ld", i, sym[i]);
    shmem_barrier_all(); /* before the next collective writes sym */
    shmem_long_fcollect(SHMEM_TEAM_WORLD, sym, src_sym, N);
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            CHECK(sym[p * N + i] == p + i, "fcollect: sym[%d] = %ld", p * N + i, sym[p * N + i]);
    shmem_barrier_all(); /* before the next collective writes sym */
    for (int p = 0; p < npes; p++)
        src_sym[p] = 10 * me + p;
    shmem_long_alltoall(SHMEM_TEAM_WORLD, sym, src_sym, 1);
    for (int p = 0; p < npes; p++)
        CHECK(sym[p] == 10 * p + me, "alltoall: sym[%d] = %ld", p, sym[p]);
    shmem_barrier_all(); /* before the next collective writes sym */
    src_sym[0] = me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sym, src_sym, 1);
    CHECK(sym[0] == (long)npes * (npes + 1) / 2, "sum_reduce: %ld", sym[0]);
    shmem_barrier_all(); /* before the next collective writes sym */
    shmem_long_sum_inscan(SHMEM_TEAM_WORLD, sym, src_sym, 1);
    CHECK(sym[0] == (long)(me + 1) * (me + 2) / 2, "sum_inscan: %ld", sym[0]);
    shmem_barrier_all(); /* before the next collective writes sym */
    /* active sets reuse the pSync the zero-count calls were given */
    shmem_broadcast64(sym, src_sym, 1, 0, 0, 0, npes, pSync);
    if (me != 0)
        CHECK(sym[0] == 1, "broadcast64: %ld", sym[0]);
    shmem_barrier_all();
    shmem_fcollect64(sym, src_sym, 1, 0, 0, npes, pSync);
    for (int p = 0; p < npes; p++)
        CHECK(sym[p] == p + 1, "fcollect64: sym[%d] = %ld", p, sym[p]);
    shmem_barrier_all();
    shmem_long_max_to_all(sym, src_sym, 1, 0, 0, npes, pWrk, pSync2);
    CHECK(sym[0] == npes, "max_to_all: %ld", sym[0]);
    shmem_barrier_all();

    shmem_finalize();
    if (failures)
        printf("PE %d: %d failures\n", me, failures);
    return failures != 0;
}
