/* (4) the 68 C11 generic names compile and select the right typed routine.  Runs on
 * one PE against itself; the collective ones (teams arrive with another branch) are
 * compiled and type-checked only.  Dispatch is checked through result types and
 * through values that would be truncated by a routine of the wrong width. */
#include <shmem.h>
#include <stdio.h>
#include "../functional/tests.h"

#define IS(expr, type) _Generic((expr), type : 1, default : 0)

static long l[4], l2[4];
static long double ld[2], ld2[2];
static unsigned long long ull[2];
static unsigned int ui[2];
static short sh[4];
static float fl[2];
static double dd[2], dd2[2];
static int iv[4];
static uint64_t sig;

static void collectives_compile_only(void)
{
    long pSync[SHMEM_SYNC_SIZE];
    shmem_and_reduce(SHMEM_TEAM_WORLD, ull, ull, 1);
    shmem_or_reduce(SHMEM_TEAM_WORLD, ull, ull, 1);
    shmem_xor_reduce(SHMEM_TEAM_WORLD, ui, ui, 1);
    /* the signed fixed-width types of the bitwise table (int16_t, int32_t, int64_t) */
    shmem_and_reduce(SHMEM_TEAM_WORLD, sh, sh, 1);
    shmem_or_reduce(SHMEM_TEAM_WORLD, iv, iv, 1);
    shmem_xor_reduce(SHMEM_TEAM_WORLD, l, l2, 1);
    shmem_max_reduce(SHMEM_TEAM_WORLD, dd, dd2, 1);
    shmem_min_reduce(SHMEM_TEAM_WORLD, l, l2, 1);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, ld, ld2, 1);
    shmem_prod_reduce(SHMEM_TEAM_WORLD, fl, fl, 1);
    shmem_broadcast(SHMEM_TEAM_WORLD, l, l2, 1, 0);
    shmem_collect(SHMEM_TEAM_WORLD, l, l2, 1);
    shmem_fcollect(SHMEM_TEAM_WORLD, sh, sh, 1);
    shmem_alltoall(SHMEM_TEAM_WORLD, iv, iv, 1);
    shmem_alltoalls(SHMEM_TEAM_WORLD, iv, iv, 1, 1, 1);
    shmem_sync(SHMEM_TEAM_WORLD);
    shmem_sync(0, 0, 1, pSync);
    shmem_global_exit(1);
}

int main(int argc, char **argv)
{
    long lv = 0;
    double dv = 0;
    size_t idx[4];
    long cmpv[4] = { 0, 0, 0, 0 };
    shmem_init();
    if (argc > 99)
        collectives_compile_only();

    /* RMA */
    l2[0] = 0x1122334455667788L;
    shmem_put(l, l2, 1, 0);
    CHECK(l[0] == 0x1122334455667788L);
    shmem_put(SHMEM_CTX_DEFAULT, l, l2, 1, 0);
    shmem_get(&lv, l, 1, 0);
    CHECK(lv == 0x1122334455667788L);
    shmem_get(SHMEM_CTX_DEFAULT, &lv, l, 1, 0);
    shmem_p(&ld[0], 1.5L, 0);
    CHECK(ld[0] == 1.5L);
    shmem_p(SHMEM_CTX_DEFAULT, &dd[0], 2.5, 0);
    CHECK(IS(shmem_g(&ld[0], 0), long double) && shmem_g(&ld[0], 0) == 1.5L);
    CHECK(IS(shmem_g(SHMEM_CTX_DEFAULT, &dd[0], 0), double));
    shmem_iput(l, l2, 2, 1, 2, 0);
    shmem_iput(SHMEM_CTX_DEFAULT, l, l2, 2, 1, 2, 0);
    CHECK(l[2] == l2[1]);
    shmem_iget(l2, l, 1, 1, 1, 0);
    shmem_iget(SHMEM_CTX_DEFAULT, l2, l, 1, 1, 1, 0);
    shmem_put_nbi(sh, sh + 2, 2, 0);
    shmem_put_nbi(SHMEM_CTX_DEFAULT, sh, sh + 2, 2, 0);
    shmem_get_nbi(&lv, l, 1, 0);
    shmem_get_nbi(SHMEM_CTX_DEFAULT, &lv, l, 1, 0);
    shmem_quiet();
    ull[1] = 0xFFFFFFFF00000001ULL;
    shmem_put_signal(ull, &ull[1], 1, &sig, 5, SHMEM_SIGNAL_SET, 0);
    shmem_put_signal(SHMEM_CTX_DEFAULT, ull, &ull[1], 1, &sig, 1, SHMEM_SIGNAL_ADD, 0);
    shmem_put_signal_nbi(ull, &ull[1], 1, &sig, 1, SHMEM_SIGNAL_ADD, 0);
    shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, ull, &ull[1], 1, &sig, 1, SHMEM_SIGNAL_ADD, 0);
    shmem_quiet();
    CHECK(ull[0] == 0xFFFFFFFF00000001ULL && shmem_signal_fetch(&sig) == 8);

    /* AMO (1.5 names) */
    l[0] = 0;
    shmem_atomic_add(l, 1L << 40, 0);
    shmem_atomic_add(SHMEM_CTX_DEFAULT, l, 1L, 0);
    CHECK(l[0] == (1L << 40) + 1);
    CHECK(IS(shmem_atomic_fetch_add(l, 1L, 0), long));
    shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, l, 1L, 0);
    shmem_atomic_fetch_add_nbi(&lv, l, 1L, 0);
    shmem_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &lv, l, 1L, 0);
    shmem_atomic_inc(l, 0);
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, l, 0);
    shmem_atomic_fetch_inc(l, 0);
    shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, l, 0);
    shmem_atomic_fetch_inc_nbi(&lv, l, 0);
    shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &lv, l, 0);
    shmem_quiet();
    CHECK(l[0] == (1L << 40) + 10);
    CHECK(shmem_atomic_compare_swap(l, (1L << 40) + 10, 7L, 0) == (1L << 40) + 10 && l[0] == 7);
    shmem_atomic_compare_swap(SHMEM_CTX_DEFAULT, l, 7L, 8L, 0);
    shmem_atomic_compare_swap_nbi(&lv, l, 8L, 9L, 0);
    shmem_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, &lv, l, 9L, 10L, 0);
    shmem_quiet();
    CHECK(l[0] == 10);
    shmem_atomic_set(dd, 0.25, 0);
    shmem_atomic_set(SHMEM_CTX_DEFAULT, dd, 0.5, 0);
    CHECK(IS(shmem_atomic_fetch(dd, 0), double) && shmem_atomic_fetch(dd, 0) == 0.5);
    CHECK(shmem_atomic_fetch(SHMEM_CTX_DEFAULT, dd, 0) == 0.5);
    shmem_atomic_fetch_nbi(&dv, dd, 0);
    shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &dv, dd, 0);
    shmem_quiet();
    CHECK(dv == 0.5);
    CHECK(shmem_atomic_swap(fl, 3.0f, 0) == 0.0f);
    shmem_atomic_swap(SHMEM_CTX_DEFAULT, fl, 4.0f, 0);
    shmem_atomic_swap_nbi(&fl[1], fl, 5.0f, 0);
    shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &fl[1], fl, 6.0f, 0);
    shmem_quiet();
    CHECK(fl[0] == 6.0f && fl[1] == 5.0f);
    ull[0] = 0xFF00000000000000ULL;
    shmem_atomic_and(ull, 0xF000000000000000ULL, 0);
    shmem_atomic_and(SHMEM_CTX_DEFAULT, ull, ~0ULL, 0);
    shmem_atomic_or(ull, 1ULL, 0);
    shmem_atomic_or(SHMEM_CTX_DEFAULT, ull, 2ULL, 0);
    shmem_atomic_xor(ull, 1ULL, 0);
    shmem_atomic_xor(SHMEM_CTX_DEFAULT, ull, 0ULL, 0);
    CHECK(ull[0] == 0xF000000000000002ULL);
    CHECK(IS(shmem_atomic_fetch_and(ui, 0u, 0), unsigned int));
    shmem_atomic_fetch_and(SHMEM_CTX_DEFAULT, ui, 0u, 0);
    shmem_atomic_fetch_and_nbi(&ui[1], ui, 0u, 0);
    shmem_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &ui[1], ui, 0u, 0);
    shmem_atomic_fetch_or(ui, 6u, 0);
    shmem_atomic_fetch_or(SHMEM_CTX_DEFAULT, ui, 1u, 0);
    shmem_atomic_fetch_or_nbi(&ui[1], ui, 0u, 0);
    shmem_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, &ui[1], ui, 0u, 0);
    shmem_atomic_fetch_xor(ui, 2u, 0);
    shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, ui, 0u, 0);
    shmem_atomic_fetch_xor_nbi(&ui[1], ui, 0u, 0);
    shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &ui[1], ui, 0u, 0);
    shmem_quiet();
    CHECK(ui[0] == 5u && ui[1] == 5u);

    /* deprecated AMO names */
    iv[0] = 0;
    shmem_add(iv, 2, 0);
    shmem_inc(iv, 0);
    CHECK(shmem_fadd(iv, 1, 0) == 3 && shmem_finc(iv, 0) == 4);
    CHECK(shmem_cswap(iv, 5, 9, 0) == 5 && shmem_swap(iv, 1, 0) == 9);
    shmem_set(dd, 8.0, 0);
    CHECK(shmem_fetch(dd, 0) == 8.0 && IS(shmem_fetch(dd, 0), double));

    /* point-to-point synchronization */
    l[0] = 1;
    l[1] = 1;
    l[2] = 0;
    l[3] = 1;
    cmpv[0] = 1;
    cmpv[1] = 1;
    cmpv[2] = 0;
    cmpv[3] = 1;
    shmem_wait_until(l, SHMEM_CMP_EQ, 1L);
    shmem_wait_until_all(l, 2, NULL, SHMEM_CMP_EQ, 1L);
    CHECK(shmem_wait_until_any(l, 4, NULL, SHMEM_CMP_EQ, 0L) == 2);
    CHECK(shmem_wait_until_some(l, 4, idx, NULL, SHMEM_CMP_EQ, 1L) == 3);
    shmem_wait_until_all_vector(l, 4, NULL, SHMEM_CMP_EQ, cmpv);
    /* every element satisfies: any of them (a series of calls takes turns) */
    CHECK(shmem_wait_until_any_vector(l, 4, NULL, SHMEM_CMP_EQ, cmpv) < 4);
    CHECK(shmem_wait_until_some_vector(l, 4, idx, NULL, SHMEM_CMP_EQ, cmpv) == 4);
    CHECK(shmem_test(l, SHMEM_CMP_EQ, 1L) == 1 && shmem_test(&l[2], SHMEM_CMP_EQ, 1L) == 0);
    CHECK(shmem_test_all(l, 4, NULL, SHMEM_CMP_EQ, 1L) == 0);
    CHECK(shmem_test_any(l, 4, NULL, SHMEM_CMP_EQ, 0L) == 2);
    CHECK(shmem_test_some(l, 4, idx, NULL, SHMEM_CMP_GT, 0L) == 3);
    CHECK(shmem_test_all_vector(l, 4, NULL, SHMEM_CMP_EQ, cmpv) == 1);
    CHECK(shmem_test_any_vector(l, 4, NULL, SHMEM_CMP_NE, cmpv) == SIZE_MAX);
    CHECK(shmem_test_some_vector(l, 4, idx, NULL, SHMEM_CMP_EQ, cmpv) == 4);
    sh[0] = 3;
    shmem_wait_until(sh, SHMEM_CMP_EQ, (short)3);
    /* short is in the point-to-point table for the array forms too (SOS
     * c11_shmem_test_all_any_some did not compile); an int-wide read of sh[0..1]
     * would see 0x00030003, not 3 */
    short shv[2] = { 3, 3 };
    sh[1] = 3;
    CHECK(shmem_test_all(sh, 2, NULL, SHMEM_CMP_EQ, (short)3) == 1);
    CHECK(shmem_test_any(sh, 2, NULL, SHMEM_CMP_EQ, (short)3) < 2);
    CHECK(shmem_test_some_vector(sh, 2, idx, NULL, SHMEM_CMP_EQ, shv) == 2);
    shmem_wait_until_all(sh, 2, NULL, SHMEM_CMP_EQ, (short)3);
    CHECK(shmem_wait_until_any_vector((unsigned short *)sh, 2, NULL, SHMEM_CMP_EQ,
                                      (unsigned short *)shv) < 2);
    return test_finish("c11_generics");
}
