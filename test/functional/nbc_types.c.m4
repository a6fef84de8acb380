m4_include(`shmem_types.m4')m4_changecom()m4_dnl
/* generated -- do not edit: made by m4 from test/functional/nbc_types.c.m4 and the type
 * table mpp/shmem_types.m4.  Every typed non-blocking collective (shmemx_*_nb: broadcast,
 * collect, fcollect, alltoall, alltoalls for every RMA type; OP_reduce for every reduction
 * type and operator; the sum scans), through its C11 generic name where the type has one,
 * on SHMEM_TEAM_WORLD, against the blocking form: exactly for integers and copies, with a
 * tolerance for floating and complex reductions (the fold order may differ). */
#include <shmemx.h>
#include <complex.h>
#include <string.h>
#include "tests.h"

static int me, npes;
#define V(i) ((i) % 50 + 1)
#define NR 5    /* short reductions */
#define NRL 700 /* long ones (the reduce-scatter path from 4 KiB on 3 PEs or more) */
static char *rbuf[3];   /* symmetric: source, non-blocking result, blocking result */

static long double absl_(long double x) { return x < 0 ? -x : x; }
static int near_real(long double got, long double exp)
{
    return absl_(got - exp) <= 1e-5L * (1 + absl_(exp));
}

m4_dnl NB(generic name, typed name, g flag): the generic where the type has one
m4_define(`NB', `m4_ifelse(`$3', `g', `shmemx_$1', `shmemx_$2')')
m4_define(`T_DATA', `
static $2 s_$1[64], d_$1[5][64], r_$1[5][64];
static void data_$1(void)
{
    shmemx_req_h q[5];

    for (int i = 0; i < 64; i++)
        s_$1[i] = ($2)V(me * 8 + i);
    memset(d_$1, 0, sizeof(d_$1));
    memset(r_$1, 0, sizeof(r_$1));
    shmem_barrier_all();
    CHECK(NB(broadcast_nb, $1_broadcast_nb, $5)(SHMEM_TEAM_WORLD, d_$1[0], s_$1, 6, npes - 1, &q[0]) == 0);
    CHECK(NB(collect_nb, $1_collect_nb, $5)(SHMEM_TEAM_WORLD, d_$1[1], s_$1, (size_t)(me % 3 + 1), &q[1]) == 0);
    CHECK(NB(fcollect_nb, $1_fcollect_nb, $5)(SHMEM_TEAM_WORLD, d_$1[2], s_$1, 3, &q[2]) == 0);
    CHECK(NB(alltoall_nb, $1_alltoall_nb, $5)(SHMEM_TEAM_WORLD, d_$1[3], s_$1, 2, &q[3]) == 0);
    CHECK(NB(alltoalls_nb, $1_alltoalls_nb, $5)(SHMEM_TEAM_WORLD, d_$1[4], s_$1, 2, 3, 1, &q[4]) == 0);
    for (int k = 4; k >= 0; k--)
        CHECK(shmemx_req_wait(&q[k]) == 0);
    CHECK(shmem_$1_broadcast(SHMEM_TEAM_WORLD, r_$1[0], s_$1, 6, npes - 1) == 0);
    CHECK(shmem_$1_collect(SHMEM_TEAM_WORLD, r_$1[1], s_$1, (size_t)(me % 3 + 1)) == 0);
    CHECK(shmem_$1_fcollect(SHMEM_TEAM_WORLD, r_$1[2], s_$1, 3) == 0);
    CHECK(shmem_$1_alltoall(SHMEM_TEAM_WORLD, r_$1[3], s_$1, 2) == 0);
    CHECK(shmem_$1_alltoalls(SHMEM_TEAM_WORLD, r_$1[4], s_$1, 2, 3, 1) == 0);
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 64; i++)
            if (d_$1[k][i] != r_$1[k][i]) {
                fprintf(stderr, "PE %d: $1 collective %d element %d differs\n", me, k, i);
                test_failures++;
                break;
            }
    shmem_barrier_all();
}
')
m4_dnl $1 TYPENAME, $2 C type, $3 kind, $6 routine suffix after TYPENAME_ (max_reduce, sum_inscan)
m4_define(`T_RED1', `
static void red_$1_$6(void)
{
    $2 *s = ($2 *)rbuf[0], *d = ($2 *)rbuf[1], *r = ($2 *)rbuf[2];
    shmemx_req_h q;

    for (int n = NR; n <= NRL; n += NRL - NR) {
        for (int i = 0; i < n; i++) {
            s[i] = ($2)V(me + i);
            d[i] = r[i] = 0;
        }
        shmem_barrier_all();
        CHECK(NB($6_nb, $1_$6_nb, $5)(SHMEM_TEAM_WORLD, d, s, (size_t)n, &q) == 0);
        CHECK(shmemx_req_wait(&q) == 0);
        CHECK(shmem_$1_$6(SHMEM_TEAM_WORLD, r, s, (size_t)n) == 0);
        for (int i = 0; i < n; i++) {
m4_ifelse(`$3', `3', `            int ok = near_real(creal(d[i]), creal(r[i])) && near_real(cimag(d[i]), cimag(r[i]));',
`$3', `2', `            int ok = near_real(d[i], r[i]);', `            int ok = d[i] == r[i];')
            if (!ok) {
                fprintf(stderr, "PE %d: shmemx_$1_$6_nb, %d elements: element %d differs\n", me, n, i);
                test_failures++;
                break;
            }
        }
        shmem_barrier_all();
    }
}
')
m4_define(`T_BIT', `T_RED1(`$1', `$2', `$3', `$4', `$5', `and_reduce')T_RED1(`$1', `$2', `$3', `$4', `$5', `or_reduce')T_RED1(`$1', `$2', `$3', `$4', `$5', `xor_reduce')')
m4_define(`T_MINMAX', `T_RED1(`$1', `$2', `$3', `$4', `$5', `max_reduce')T_RED1(`$1', `$2', `$3', `$4', `$5', `min_reduce')')
m4_define(`T_ARITH', `T_RED1(`$1', `$2', `$3', `$4', `$5', `sum_reduce')T_RED1(`$1', `$2', `$3', `$4', `$5', `prod_reduce')T_RED1(`$1', `$2', `$3', `$4', `$5', `sum_inscan')T_RED1(`$1', `$2', `$3', `$4', `$5', `sum_exscan')')
MT_RMA(`T_DATA')
MT_RED_BIT(`T_BIT')
MT_RED_MINMAX(`T_MINMAX')
MT_RED_ARITH(`T_ARITH')

m4_define(`C_DATA', `    data_$1();
')
m4_define(`C_BIT', `    red_$1_and_reduce();
    red_$1_or_reduce();
    red_$1_xor_reduce();
')
m4_define(`C_MINMAX', `    red_$1_max_reduce();
    red_$1_min_reduce();
')
m4_define(`C_ARITH', `    red_$1_sum_reduce();
    red_$1_prod_reduce();
    red_$1_sum_inscan();
    red_$1_sum_exscan();
')
int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int i = 0; i < 3; i++)
        rbuf[i] = shmem_malloc(NRL * 32);
MT_RMA(`C_DATA')m4_dnl
MT_RED_BIT(`C_BIT')m4_dnl
MT_RED_MINMAX(`C_MINMAX')m4_dnl
MT_RED_ARITH(`C_ARITH')m4_dnl
    for (int i = 0; i < 3; i++)
        shmem_free(rbuf[i]);
    return test_finish("nbc_types");
}
