m4_include(`shmem_types.m4')m4_changecom()m4_dnl
/* generated -- do not edit: made by m4 from test/functional/api_coll_types.c.m4 and the
 * type table mpp/shmem_types.m4.  Calls every typed collective (broadcast, collect,
 * fcollect, alltoall, alltoalls for every RMA type; OP_reduce for every reduction type
 * and operator; the deprecated OP_to_all) and, for the types that take part in them, the
 * C11 generic names too, on SHMEM_TEAM_WORLD, and checks every element: exactly for
 * integers and for copies, with a tolerance for floating and complex reductions. */
#include <shmem.h>
#include <complex.h>
#include <string.h>
#include "tests.h"

static int me, npes;
#define V(i) ((i) % 50 + 1)
#define NR 5     /* short reductions */
#define NRL 700  /* long ones: other algorithms (sizes from 700 B to 11 KiB) */
static long psync[2][SHMEM_REDUCE_SYNC_SIZE];
static int psync_i;

static long double absl_(long double x) { return x < 0 ? -x : x; }
static int near_real(long double got, long double exp)
{
    return absl_(got - exp) <= 1e-5L * (1 + absl_(exp));
}
static int near_cplx(double _Complex got, double _Complex exp)
{
    return near_real(creal(got), creal(exp)) && near_real(cimag(got), cimag(exp));
}

m4_dnl generic-or-typed call: G(generic name, typed name, g flag) is "(gen ? g(...) : t(...))"
m4_define(`GCALL', `m4_ifelse(`$3', `g', `(gen ? shmem_$1(__VA_ARGS__) : shmem_$2(__VA_ARGS__))', `shmem_$2(__VA_ARGS__)')')
m4_define(`T_DATA', `
static $2 cs_$1[32], cd_$1[32];
#define BCAST(...) GCALL(broadcast, $1_broadcast, $5)
#define COLLECT(...) GCALL(collect, $1_collect, $5)
#define FCOLLECT(...) GCALL(fcollect, $1_fcollect, $5)
#define ALLTOALL(...) GCALL(alltoall, $1_alltoall, $5)
#define ALLTOALLS(...) GCALL(alltoalls, $1_alltoalls, $5)
static void test_data_$1(int gen)
{
    int off;
m4_ifelse(`$5', `g', `', `    if (gen)
        return; /* no generic for this type */
')m4_dnl
    for (int root = 0; root < npes; root += (npes > 1 ? npes - 1 : 1)) {
        for (int i = 0; i < 32; i++) {
            cs_$1[i] = ($2)V(me * 8 + i + root);
            cd_$1[i] = 0;
        }
        shmem_barrier_all();
        CHECK(BCAST(SHMEM_TEAM_WORLD, cd_$1, cs_$1, 6, root) == 0);
        for (int i = 0; i < 6; i++)
            CHECK(cd_$1[i] == ($2)V(root * 8 + i + root));
        CHECK(cd_$1[6] == 0);
        shmem_barrier_all();
    }
    /* collect: PE p contributes p % 3 + 1 elements */
    for (int i = 0; i < 32; i++) {
        cs_$1[i] = ($2)V(me * 8 + i);
        cd_$1[i] = 0;
    }
    shmem_barrier_all();
    CHECK(COLLECT(SHMEM_TEAM_WORLD, cd_$1, cs_$1, (size_t)(me % 3 + 1)) == 0);
    off = 0;
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < p % 3 + 1; i++, off++)
            CHECK(cd_$1[off] == ($2)V(p * 8 + i));
    CHECK(cd_$1[off] == 0);
    shmem_barrier_all();
    memset(cd_$1, 0, sizeof(cd_$1));
    shmem_barrier_all();
    CHECK(FCOLLECT(SHMEM_TEAM_WORLD, cd_$1, cs_$1, 3) == 0);
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < 3; i++)
            CHECK(cd_$1[p * 3 + i] == ($2)V(p * 8 + i));
    CHECK(cd_$1[npes * 3] == 0);
    shmem_barrier_all();
    /* alltoall, 2 elements per PE: dest[j * 2 + k] on me = source[me * 2 + k] on j */
    memset(cd_$1, 0, sizeof(cd_$1));
    shmem_barrier_all();
    CHECK(ALLTOALL(SHMEM_TEAM_WORLD, cd_$1, cs_$1, 2) == 0);
    for (int j = 0; j < npes; j++)
        for (int k = 0; k < 2; k++)
            CHECK(cd_$1[j * 2 + k] == ($2)V(j * 8 + me * 2 + k));
    CHECK(cd_$1[npes * 2] == 0);
    shmem_barrier_all();
    /* alltoalls, 2 elements per PE, dst 2, sst 3:
     * dest[(j * 2 + k) * 2] on me = source[(me * 2 + k) * 3] on j */
    for (int i = 0; i < 32; i++) {
        cs_$1[i] = ($2)V(me * 8 + i + 1);
        cd_$1[i] = 0;
    }
    shmem_barrier_all();
    CHECK(ALLTOALLS(SHMEM_TEAM_WORLD, cd_$1, cs_$1, 2, 3, 2) == 0);
    for (int i = 0; i < 32; i++) {
        int j = i / 4, k = (i / 2) % 2;
        if (i % 2 == 0 && j < npes)
            CHECK(cd_$1[i] == ($2)V(j * 8 + (me * 2 + k) * 3 + 1));
        else
            CHECK(cd_$1[i] == 0);
    }
    shmem_barrier_all();
}
#undef BCAST
#undef COLLECT
#undef FCOLLECT
#undef ALLTOALL
#undef ALLTOALLS
')

m4_dnl T_RED1(TYPENAME, C type, kind, enum, g, op, input expression of p and i, combine(acc, x)
m4_dnl        [, noreduce: inputs and expected values only, for a _to_all without _reduce])
m4_define(`T_RED1', `
static $2 rs_$1_$6[NRL], rd_$1_$6[NRL];
static $2 in_$1_$6(int p, int i) { return ($2)($7); }
static $2 exp_$1_$6(int i)
{
    $2 acc = in_$1_$6(0, i);
    for (int p = 1; p < npes; p++) {
        $2 x = in_$1_$6(p, i);
        acc = ($2)($8);
    }
    return acc;
}
#define OK_$1_$6(got, exp) m4_ifelse(`$3', `2', `near_real(got, exp)', `$3', `3', `near_cplx(got, exp)', `((got) == (exp))')
m4_ifelse(`$9', `noreduce', `', `#define RED_$1_$6(...) GCALL($6_reduce, $1_$6_reduce, $5)
static void test_red_$1_$6(int gen)
{
m4_ifelse(`$5', `g', `', `    if (gen)
        return;
')m4_dnl
    static const int ns[2] = {NR, NRL};
    for (int c = 0; c < 2; c++) {
        int n = ns[c];
        for (int i = 0; i < NRL; i++) {
            rs_$1_$6[i] = in_$1_$6(me, i);
            rd_$1_$6[i] = 0;
        }
        shmem_barrier_all();
        CHECK(RED_$1_$6(SHMEM_TEAM_WORLD, rd_$1_$6, rs_$1_$6, (size_t)n) == 0);
        for (int i = 0; i < n; i++)
            CHECK(OK_$1_$6(rd_$1_$6[i], exp_$1_$6(i)));
        if (n < NRL)
            CHECK(rd_$1_$6[n] == 0);
        shmem_barrier_all();
        /* in place */
        CHECK(RED_$1_$6(SHMEM_TEAM_WORLD, rs_$1_$6, rs_$1_$6, (size_t)n) == 0);
        for (int i = 0; i < n; i++)
            CHECK(OK_$1_$6(rs_$1_$6[i], exp_$1_$6(i)));
        shmem_barrier_all();
    }
}
')')
m4_define(`T_TOALL1', `
static $2 rw_$1_$6[NRL / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static void test_toall_$1_$6(void)
{
    long *ps = psync[psync_i ^= 1];
    for (int i = 0; i < NRL; i++) {
        rs_$1_$6[i] = in_$1_$6(me, i);
        rd_$1_$6[i] = 0;
    }
    shmem_barrier_all();
    shmem_$1_$6_to_all(rd_$1_$6, rs_$1_$6, NR, 0, 0, npes, rw_$1_$6, ps);
    for (int i = 0; i < NR; i++)
        CHECK(OK_$1_$6(rd_$1_$6[i], exp_$1_$6(i)));
    CHECK(rd_$1_$6[NR] == 0);
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        CHECK(ps[i] == SHMEM_SYNC_VALUE);
    shmem_barrier_all();
    /* active set of the odd PEs (stride 2), the others do not take part */
    if (npes >= 2) {
        int size = npes / 2;
        ps = psync[psync_i ^= 1];
        if (me % 2 == 1) {
            shmem_$1_$6_to_all(rd_$1_$6, rs_$1_$6, NRL, 1, 1, size, rw_$1_$6, ps);
            for (int i = 0; i < NRL; i++) {
                $2 acc = in_$1_$6(1, i);
                for (int p = 3; p < npes; p += 2) {
                    $2 x = in_$1_$6(p, i);
                    acc = ($2)($8);
                }
                CHECK(OK_$1_$6(rd_$1_$6[i], acc));
            }
        }
        shmem_barrier_all();
    }
}
')
m4_dnl inputs: bitwise patterns; min/max with negatives for the signed types (not plain char);
m4_dnl small sums and products that cannot overflow the narrowest type at 4 PEs
m4_define(`NEG', `m4_ifelse(`$1', `char', `0', `$2', `0', `0', `11')')
m4_define(`IN_BIT', `((p + 1) * 5 + (i % 7) * 3) & 0x7F')
m4_define(`IN_MM', `(p * 7 + i * 5) % 23 - NEG(`$1', `$2')')
m4_define(`IN_SUM', `m4_ifelse(`$2', `3', `(p * 3 + i % 7 + 1) + (p - i % 3) * I', `p * 3 + i % 7 + 1')')
m4_define(`IN_PROD', `m4_ifelse(`$2', `3', `((p + i) % 2 + 1) + ((p + i) % 3 - 1) * I', `(p + i) % 3 + 1')')
m4_define(`T_RED_BIT', `T_RED1(`$1', `$2', `$3', `$4', `$5', `and', `IN_BIT', `acc & x')T_RED1(`$1', `$2', `$3', `$4', `$5', `or', `IN_BIT', `acc | x')T_RED1(`$1', `$2', `$3', `$4', `$5', `xor', `IN_BIT', `acc ^ x')')
m4_define(`T_RED_MM', `T_RED1(`$1', `$2', `$3', `$4', `$5', `max', `IN_MM(`$1', `$3')', `x > acc ? x : acc')T_RED1(`$1', `$2', `$3', `$4', `$5', `min', `IN_MM(`$1', `$3')', `x < acc ? x : acc')')
m4_define(`T_RED_AR', `T_RED1(`$1', `$2', `$3', `$4', `$5', `sum', `IN_SUM(`$1', `$3')', `acc + x')T_RED1(`$1', `$2', `$3', `$4', `$5', `prod', `IN_PROD(`$1', `$3')', `acc * x')')
m4_define(`T_TA_BIT', `T_TOALL1(`$1', `$2', `$3', `$4', `$5', `and', `', `acc & x')T_TOALL1(`$1', `$2', `$3', `$4', `$5', `or', `', `acc | x')T_TOALL1(`$1', `$2', `$3', `$4', `$5', `xor', `', `acc ^ x')')
m4_define(`T_TA_MM', `T_TOALL1(`$1', `$2', `$3', `$4', `$5', `max', `', `x > acc ? x : acc')T_TOALL1(`$1', `$2', `$3', `$4', `$5', `min', `', `x < acc ? x : acc')')
m4_define(`T_TA_AR', `T_TOALL1(`$1', `$2', `$3', `$4', `$5', `sum', `', `acc + x')T_TOALL1(`$1', `$2', `$3', `$4', `$5', `prod', `', `acc * x')')
m4_dnl the to_all types are reduction types too: their rs/rd/in/exp come from T_RED1
MT_RMA(`T_DATA')MT_RED_BIT(`T_RED_BIT')MT_RED_MINMAX(`T_RED_MM')MT_RED_ARITH(`T_RED_AR')m4_dnl
m4_define(`T_TA_SHORT', `T_RED1(`$1', `$2', `$3', `$4', `$5', `and', `IN_BIT', `acc & x', `noreduce')T_RED1(`$1', `$2', `$3', `$4', `$5', `or', `IN_BIT', `acc | x', `noreduce')T_RED1(`$1', `$2', `$3', `$4', `$5', `xor', `IN_BIT', `acc ^ x', `noreduce')')
m4_dnl (short, int, long, long long have no bitwise _reduce in 1.5, only _to_all)
m4_define(`T_TA_BITX', `m4_ifelse(`$1', `short', `T_TA_SHORT($@)', `$1', `int', `T_TA_SHORT($@)', `$1', `long', `T_TA_SHORT($@)', `$1', `longlong', `T_TA_SHORT($@)')T_TA_BIT($@)')
MT_TOALL_BIT(`T_TA_BITX')MT_TOALL_MINMAX(`T_TA_MM')MT_TOALL_ARITH(`T_TA_AR')

m4_define(`CALL', `    $1;
')m4_dnl
m4_define(`C_DATA', `CALL(test_data_$1(gen))')m4_dnl
m4_define(`C_RB', `CALL(test_red_$1_and(gen))CALL(test_red_$1_or(gen))CALL(test_red_$1_xor(gen))')m4_dnl
m4_define(`C_RM', `CALL(test_red_$1_max(gen))CALL(test_red_$1_min(gen))')m4_dnl
m4_define(`C_RA', `CALL(test_red_$1_sum(gen))CALL(test_red_$1_prod(gen))')m4_dnl
m4_define(`C_TB', `CALL(test_toall_$1_and())CALL(test_toall_$1_or())CALL(test_toall_$1_xor())')m4_dnl
m4_define(`C_TM', `CALL(test_toall_$1_max())CALL(test_toall_$1_min())')m4_dnl
m4_define(`C_TA', `CALL(test_toall_$1_sum())CALL(test_toall_$1_prod())')m4_dnl
int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[0][i] = psync[1][i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (int gen = 0; gen < 2; gen++) { /* typed names, then the C11 generics */
MT_RMA(`C_DATA')MT_RED_BIT(`C_RB')MT_RED_MINMAX(`C_RM')MT_RED_ARITH(`C_RA')m4_dnl
    }
MT_TOALL_BIT(`C_TB')MT_TOALL_MINMAX(`C_TM')MT_TOALL_ARITH(`C_TA')m4_dnl
    return test_finish("api_coll_types");
}
