m4_include(`shmem_types.m4')m4_changecom()m4_dnl
/* generated -- do not edit: made by m4 from test/functional/api_types.c.m4 and the
 * type table mpp/shmem_types.m4.  Calls every typed RMA/AMO/sync family for every
 * type of its table and checks the results; each PE works with its right neighbour. */
#include <shmem.h>
#include <string.h>
#include "tests.h"

static int me, npes, right, left;
#define V(i) ((i) % 50 + 1)

m4_define(`T_RMA', `
static $2 rma_dst_$1[8], rma_src_$1[8], rma_sdst_$1[8];
static uint64_t rma_sig_$1;
static void test_rma_$1(void)
{
    $2 loc[8];
    for (int i = 0; i < 8; i++) {
        rma_src_$1[i] = ($2)V(me * 8 + i);
        rma_dst_$1[i] = 0;
        rma_sdst_$1[i] = 0;
    }
    rma_sig_$1 = 0;
    shmem_barrier_all();
    shmem_$1_put(rma_dst_$1, rma_src_$1, 2, right);
    shmem_$1_p(&rma_dst_$1[2], ($2)V(me + 3), right);
    shmem_$1_iput(&rma_dst_$1[3], rma_src_$1, 2, 1, 2, right); /* dst[3], dst[5] <- src[0], src[1] */
    shmem_ctx_$1_put_nbi(SHMEM_CTX_DEFAULT, &rma_dst_$1[6], &rma_src_$1[6], 2, right);
    shmem_$1_put_signal(rma_sdst_$1, rma_src_$1, 4, &rma_sig_$1, 1, SHMEM_SIGNAL_ADD, right);
    shmem_ctx_$1_put_signal_nbi(SHMEM_CTX_DEFAULT, rma_sdst_$1 + 4, rma_src_$1 + 4, 4, &rma_sig_$1, 1, SHMEM_SIGNAL_ADD, right);
    shmem_quiet();
    shmem_uint64_wait_until(&rma_sig_$1, SHMEM_CMP_EQ, 2);
    shmem_barrier_all();
    CHECK(rma_dst_$1[0] == ($2)V(left * 8 + 0) && rma_dst_$1[1] == ($2)V(left * 8 + 1));
    CHECK(rma_dst_$1[2] == ($2)V(left + 3));
    CHECK(rma_dst_$1[3] == ($2)V(left * 8 + 0) && rma_dst_$1[5] == ($2)V(left * 8 + 1));
    CHECK(rma_dst_$1[4] == 0);
    CHECK(rma_dst_$1[6] == ($2)V(left * 8 + 6) && rma_dst_$1[7] == ($2)V(left * 8 + 7));
    for (int i = 0; i < 8; i++)
        CHECK(rma_sdst_$1[i] == ($2)V(left * 8 + i));
    memset(loc, 0, sizeof(loc));
    shmem_$1_get(loc, rma_src_$1, 2, right);
    CHECK(loc[0] == ($2)V(right * 8) && loc[1] == ($2)V(right * 8 + 1));
    CHECK(shmem_$1_g(&rma_src_$1[3], right) == ($2)V(right * 8 + 3));
    CHECK(shmem_ctx_$1_g(SHMEM_CTX_DEFAULT, &rma_src_$1[4], right) == ($2)V(right * 8 + 4));
    memset(loc, 0, sizeof(loc));
    shmem_$1_iget(loc, rma_src_$1, 2, 3, 2, right); /* loc[0], loc[2] <- src[0], src[3] */
    CHECK(loc[0] == ($2)V(right * 8) && loc[2] == ($2)V(right * 8 + 3) && loc[1] == 0);
    memset(loc, 0, sizeof(loc));
    shmem_$1_get_nbi(loc, rma_src_$1, 8, right);
    shmem_quiet();
    CHECK(loc[7] == ($2)V(right * 8 + 7));
    shmem_barrier_all();
}
')
m4_define(`T_AMO_STD', `
static $2 amo_$1[4];
static void test_amo_std_$1(void)
{
    $2 f = 0;
    amo_$1[0] = 0; amo_$1[1] = 5; amo_$1[2] = 0; amo_$1[3] = 0;
    shmem_barrier_all();
    /* every PE adds to its right neighbour: each location gets one of each */
    shmem_$1_atomic_add(&amo_$1[0], 2, right);
    shmem_$1_atomic_inc(&amo_$1[0], right);
    CHECK(shmem_$1_atomic_fetch_inc(&amo_$1[2], right) == 0);
    CHECK(shmem_ctx_$1_atomic_compare_swap(SHMEM_CTX_DEFAULT, &amo_$1[1], 5, 9, right) == 5);
    shmem_$1_atomic_fetch_add_nbi(&f, &amo_$1[3], 4, right);
    shmem_quiet();
    CHECK(f == 0);
    CHECK(shmem_$1_atomic_fetch_add(&amo_$1[3], 1, right) == 4);
    shmem_$1_atomic_fetch_inc_nbi(&f, &amo_$1[2], right);
    shmem_quiet();
    CHECK(f == 1);
    shmem_ctx_$1_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, &f, &amo_$1[1], 9, 11, right);
    shmem_quiet();
    CHECK(f == 9);
    shmem_barrier_all();
    CHECK(amo_$1[0] == 3 && amo_$1[1] == 11 && amo_$1[2] == 2 && amo_$1[3] == 5);
    shmem_barrier_all();
}
')
m4_define(`T_AMO_EXT', `
static $2 amoe_$1[2];
static void test_amo_ext_$1(void)
{
    $2 f = 0;
    amoe_$1[0] = 0; amoe_$1[1] = 0;
    shmem_barrier_all();
    shmem_$1_atomic_set(&amoe_$1[0], ($2)(me + 1), right);
    shmem_barrier_all();
    CHECK(amoe_$1[0] == ($2)(left + 1));
    CHECK(shmem_$1_atomic_fetch(&amoe_$1[0], right) == ($2)(me + 1));
    CHECK(shmem_$1_atomic_swap(&amoe_$1[1], 7, right) == 0);
    shmem_$1_atomic_fetch_nbi(&f, &amoe_$1[1], right);
    shmem_quiet();
    CHECK(f == 7);
    shmem_ctx_$1_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &f, &amoe_$1[1], 8, right);
    shmem_quiet();
    CHECK(f == 7);
    CHECK(shmem_ctx_$1_atomic_fetch(SHMEM_CTX_DEFAULT, &amoe_$1[1], right) == 8);
    shmem_barrier_all();
}
')
m4_define(`T_AMO_BIT', `
static $2 amob_$1[3];
static void test_amo_bit_$1(void)
{
    $2 f = 0, f2 = 0;
    amob_$1[0] = 0xF; amob_$1[1] = 0x1; amob_$1[2] = 0x3;
    shmem_barrier_all();
    shmem_$1_atomic_and(&amob_$1[0], 0x6, right);
    CHECK(shmem_$1_atomic_fetch_or(&amob_$1[1], 0x4, right) == 0x1);
    shmem_$1_atomic_fetch_xor_nbi(&f, &amob_$1[2], 0x1, right);
    shmem_quiet();
    CHECK(f == 0x3);
    shmem_fence();
    shmem_ctx_$1_atomic_or(SHMEM_CTX_DEFAULT, &amob_$1[1], 0x8, right);      /* 0xD */
    shmem_$1_atomic_xor(&amob_$1[2], 0x4, right);                            /* 0x6 */
    CHECK(shmem_$1_atomic_fetch_and(&amob_$1[0], 0xE, right) == 0x6);        /* 0x6 */
    shmem_$1_atomic_fetch_or_nbi(&f2, &amob_$1[0], 0x1, right);              /* 0x7 */
    shmem_ctx_$1_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &f, &amob_$1[1], 0x5, right); /* 0x5 */
    shmem_quiet();
    CHECK(f == 0xD && f2 == 0x6);
    CHECK(shmem_$1_atomic_fetch_xor(&amob_$1[2], 0x0, right) == 0x6);
    shmem_barrier_all();
    CHECK(amob_$1[0] == 0x7 && amob_$1[1] == 0x5 && amob_$1[2] == 0x6);
    shmem_barrier_all();
}
')
m4_define(`T_SYNC', `
static $2 sync_$1[4];
static void test_sync_$1(void)
{
    size_t idx[4];
    int status[4] = {0, 0, 0, 1};
    $2 cmpv[4] = {1, 2, 3, 4};
    for (int i = 0; i < 4; i++)
        sync_$1[i] = 0;
    CHECK(shmem_$1_test(&sync_$1[0], SHMEM_CMP_EQ, 0) == 1); /* nobody writes before the barrier */
    shmem_barrier_all();
    for (int i = 0; i < 3; i++)
        shmem_$1_p(&sync_$1[i], ($2)(i + 1), right);
    shmem_quiet();
    shmem_$1_wait_until(&sync_$1[2], SHMEM_CMP_EQ, 3);
    shmem_$1_wait_until_all(sync_$1, 4, status, SHMEM_CMP_GE, 1);
    CHECK(shmem_$1_wait_until_any(sync_$1, 4, status, SHMEM_CMP_EQ, 2) == 1);
    CHECK(shmem_$1_wait_until_some(sync_$1, 4, idx, status, SHMEM_CMP_GT, 1) == 2 && idx[0] == 1 && idx[1] == 2);
    shmem_$1_wait_until_all_vector(sync_$1, 4, status, SHMEM_CMP_EQ, cmpv);
    CHECK(shmem_$1_wait_until_any_vector(sync_$1, 4, status, SHMEM_CMP_EQ, cmpv) < 3);
    CHECK(shmem_$1_wait_until_some_vector(sync_$1, 4, idx, NULL, SHMEM_CMP_EQ, cmpv) == 3);
    CHECK(shmem_$1_test_all(sync_$1, 4, status, SHMEM_CMP_NE, 0) == 1);
    CHECK(shmem_$1_test_all(sync_$1, 4, NULL, SHMEM_CMP_NE, 0) == 0);
    CHECK(shmem_$1_test_any(sync_$1, 4, status, SHMEM_CMP_LT, 1) == SIZE_MAX);
    CHECK(shmem_$1_test_some(sync_$1, 4, idx, NULL, SHMEM_CMP_LE, 1) == 2 && idx[0] == 0 && idx[1] == 3);
    CHECK(shmem_$1_test_all_vector(sync_$1, 4, status, SHMEM_CMP_EQ, cmpv) == 1);
    CHECK(shmem_$1_test_any_vector(sync_$1, 4, NULL, SHMEM_CMP_EQ, cmpv) < 3);
    CHECK(shmem_$1_test_some_vector(sync_$1, 4, idx, NULL, SHMEM_CMP_NE, cmpv) == 1 && idx[0] == 3);
    shmem_barrier_all();
}
')
m4_define(`T_SYNC_SHORT', `
static $2 synw_$1;
static void test_wait_$1(void)
{
    synw_$1 = 0;
    shmem_barrier_all();
    shmem_$1_p(&synw_$1, 5, right);
    shmem_$1_wait_until(&synw_$1, SHMEM_CMP_GE, 5);
    CHECK(shmem_$1_test(&synw_$1, SHMEM_CMP_EQ, 5) == 1);
    shmem_barrier_all();
}
')
m4_define(`T_SIZED', `
static unsigned char sz_dst_$1[64], sz_src_$1[64];
static uint64_t sz_sig_$1;
static void test_sized_$1(void)
{
    unsigned char loc[64];
    for (int i = 0; i < 64; i++) {
        sz_src_$1[i] = (unsigned char)(me * 64 + i);
        sz_dst_$1[i] = 0;
    }
    sz_sig_$1 = 0;
    shmem_barrier_all();
    shmem_put$1(sz_dst_$1, sz_src_$1, 1, right);
    shmem_ctx_put$1_nbi(SHMEM_CTX_DEFAULT, sz_dst_$1 + $2, sz_src_$1 + $2, 1, right);
    shmem_put$1_signal(sz_dst_$1 + 2 * $2, sz_src_$1 + 2 * $2, 1, &sz_sig_$1, 1, SHMEM_SIGNAL_SET, right);
    shmem_uint64_wait_until(&sz_sig_$1, SHMEM_CMP_EQ, 1);
    shmem_barrier_all();
    for (int i = 0; i < 3 * $2; i++)
        CHECK(sz_dst_$1[i] == (unsigned char)(left * 64 + i));
    shmem_get$1(loc, sz_src_$1, 2, right);
    shmem_get$1_nbi(loc + 2 * $2, sz_src_$1 + 2 * $2, 1, right);
    shmem_quiet();
    for (int i = 0; i < 3 * $2; i++)
        CHECK(loc[i] == (unsigned char)(right * 64 + i));
    shmem_barrier_all();
}
')
m4_define(`T_ISIZED', `
static unsigned char isz_src_$1[64];
static void test_isized_$1(void)
{
    unsigned char loc[64];
    for (int i = 0; i < 64; i++)
        isz_src_$1[i] = (unsigned char)(me * 64 + i);
    shmem_barrier_all();
    memset(loc, 0, sizeof(loc));
    shmem_iget$1(loc, isz_src_$1, 2, 1, 2, right); /* elements 0, 1 -> 0, 2 */
    CHECK(loc[0] == (unsigned char)(right * 64) && loc[2 * $2] == (unsigned char)(right * 64 + $2));
    shmem_barrier_all();
}
')
m4_define(`T_AMO_DEPR', `
static $2 amod_$1[3];
static void test_amo_depr_$1(void)
{
    amod_$1[0] = 0; amod_$1[1] = 0; amod_$1[2] = 0;
    shmem_barrier_all();
    shmem_$1_add(&amod_$1[0], 2, right);
    shmem_$1_inc(&amod_$1[0], right);
    CHECK(shmem_$1_fadd(&amod_$1[1], 4, right) == 0);
    CHECK(shmem_$1_finc(&amod_$1[1], right) == 4);
    CHECK(shmem_$1_cswap(&amod_$1[2], 0, 6, right) == 0);
    shmem_barrier_all();
    CHECK(amod_$1[0] == 3 && amod_$1[1] == 5 && amod_$1[2] == 6);
    shmem_barrier_all();
}
')
m4_define(`T_AMO_DEPR_EXT', `
static $2 amodx_$1;
static void test_amo_deprx_$1(void)
{
    amodx_$1 = 0;
    shmem_barrier_all();
    shmem_$1_set(&amodx_$1, 3, right);
    shmem_barrier_all();
    CHECK(shmem_$1_fetch(&amodx_$1, left) == 3 && amodx_$1 == 3);
    shmem_barrier_all();
    CHECK(shmem_$1_swap(&amodx_$1, 9, right) == 3);
    shmem_barrier_all();
    CHECK(amodx_$1 == 9);
    shmem_barrier_all();
}
')
m4_define(`T_WAIT_DEPR', `
static $2 wd_$1;
static void test_wait_depr_$1(void)
{
    wd_$1 = 0;
    shmem_barrier_all();
    shmem_$1_p(&wd_$1, 2, right);
    shmem_$1_wait(&wd_$1, 0); /* waits while equal to 0 */
    CHECK(wd_$1 == 2);
    shmem_barrier_all();
}
')
MT_RMA(`T_RMA')MT_AMO_STD(`T_AMO_STD')MT_AMO_EXT(`T_AMO_EXT')MT_AMO_BIT(`T_AMO_BIT')m4_dnl
MT_SYNC(`T_SYNC')MT_SYNC_SHORT(`T_SYNC_SHORT')MT_AMO_DEPR(`T_AMO_DEPR')MT_AMO_DEPR_EXT(`T_AMO_DEPR_EXT')MT_SYNC_DEPR(`T_WAIT_DEPR')m4_dnl
T_SIZED(8, 1)T_SIZED(16, 2)T_SIZED(32, 4)T_SIZED(64, 8)T_SIZED(128, 16)T_SIZED(mem, 1)m4_dnl
T_ISIZED(8, 1)T_ISIZED(16, 2)T_ISIZED(32, 4)T_ISIZED(64, 8)T_ISIZED(128, 16)

m4_define(`CALL', `    $1_$2();
')m4_dnl
int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
m4_define(`C_RMA', `CALL(test_rma, $1)')MT_RMA(`C_RMA')m4_dnl
m4_define(`C_AS', `CALL(test_amo_std, $1)')MT_AMO_STD(`C_AS')m4_dnl
m4_define(`C_AE', `CALL(test_amo_ext, $1)')MT_AMO_EXT(`C_AE')m4_dnl
m4_define(`C_AB', `CALL(test_amo_bit, $1)')MT_AMO_BIT(`C_AB')m4_dnl
m4_define(`C_D', `CALL(test_amo_depr, $1)')MT_AMO_DEPR(`C_D')m4_dnl
m4_define(`C_DX', `CALL(test_amo_deprx, $1)')MT_AMO_DEPR_EXT(`C_DX')m4_dnl
m4_define(`C_WD', `CALL(test_wait_depr, $1)')MT_SYNC_DEPR(`C_WD')m4_dnl
m4_define(`C_S', `CALL(test_sync, $1)')MT_SYNC(`C_S')m4_dnl
m4_define(`C_W', `CALL(test_wait, $1)')MT_SYNC_SHORT(`C_W')m4_dnl
m4_define(`C_Z', `CALL(test_sized, $1)')MT_SIZED_MEM(`C_Z')m4_dnl
m4_define(`C_I', `CALL(test_isized, $1)')MT_SIZED(`C_I')m4_dnl
    {   /* 1.6 signal_set/add */
        static uint64_t s16;
        s16 = 0;
        shmem_barrier_all();
        shmem_signal_set(&s16, 5, right);
        shmem_fence();
        shmem_signal_add(&s16, 2, right);
        shmem_signal_wait_until(&s16, SHMEM_CMP_EQ, 7);
        CHECK(shmem_signal_fetch(&s16) == 7);
        shmem_barrier_all();
    }
    return test_finish("api_types");
}
