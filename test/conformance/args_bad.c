/*
 * Arguments out of the spec's range, and sizes whose byte counts overflow: each must
 * end the job at once with one line naming the routine, the argument and its value
 * (test/reliability/expect_fail.sh checks the message, the time and the clean-up),
 * never a crash, a hang or a silently shortened transfer.  argv[1] selects the case.
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long dest[64], src[64], pSync[SHMEM_BCAST_SYNC_SIZE], pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static int idest[64];
static long rdest[512];

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    long priv[512] = { 0 }; /* private (the stack): not symmetric */
    int me, npes, right;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    if (!strcmp(c, "bcast_root")) /* the root is team-relative: n_pes is one too far */
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, src, 4, npes);
    else if (!strcmp(c, "bcastmem_root"))
        shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, 4, -1);
    else if (!strcmp(c, "bcast_root_huge")) /* a large count must not hang either */
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, src, 1UL << 40, npes);
    else if (!strcmp(c, "aset_start"))
        shmem_broadcast64(dest, src, 4, 0, npes, 0, 1, pSync);
    else if (!strcmp(c, "aset_stride"))
        shmem_fcollect64(dest, src, 4, 0, -1, npes, pSync);
    else if (!strcmp(c, "aset_size"))
        shmem_long_sum_to_all(dest, src, 4, 0, 0, npes + 1, pWrk, pSync);
    else if (!strcmp(c, "aset_size0"))
        shmem_barrier(0, 0, 0, pSync);
    else if (!strcmp(c, "aset_member")) /* PEs 0 and 2 only: odd PEs are not in it */
        shmem_alltoall32(dest, src, 1, 0, 1, npes / 2, pSync);
    else if (!strcmp(c, "aset_root"))
        shmem_broadcast32(dest, src, 4, npes, 0, 0, npes, pSync);
    else if (!strcmp(c, "aset_psync")) { /* pSync must be symmetric */
        long mine[SHMEM_BCAST_SYNC_SIZE] = { 0 };
        shmem_broadcast64(dest, src, 4, 0, 0, 0, npes, mine);
    } else if (!strcmp(c, "toall_pwrk")) {
        long mine[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
        shmem_long_max_to_all(dest, src, 4, 0, 0, npes, mine, pSync);
    } else if (!strcmp(c, "toall_nreduce"))
        shmem_long_sum_to_all(dest, src, -1, 0, 0, npes, pWrk, pSync);
    else if (!strcmp(c, "reduce_private")) /* other PEs read source: it must be symmetric */
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, rdest, priv, 512);
    else if (!strcmp(c, "fcollect_private"))
        shmem_long_fcollect(SHMEM_TEAM_WORLD, dest, priv, 4);
    else if (!strcmp(c, "iput_stride"))
        shmem_int_iput(idest, (int *)src, 1L << 61, 1, 3, right);
    else if (!strcmp(c, "iget_stride"))
        shmem_int_iget((int *)priv, idest, 1, 1L << 61, 3, right);
    else if (!strcmp(c, "ibput_huge"))
        shmem_long_ibput(dest, src, 1L << 60, 1, 1, 17, right);
    else if (!strcmp(c, "ibget_huge"))
        shmem_long_ibget(priv, dest, 4, 4, 2, 1UL << 62, right);
    else if (!strcmp(c, "fcollectmem_huge"))
        shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, src, 1UL << 63);
    else if (!strcmp(c, "alltoallmem_huge")) /* 2^62 bytes per member times 4 members */
        shmem_alltoallmem(SHMEM_TEAM_WORLD, dest, src, 1UL << 62);
    else if (!strcmp(c, "alltoall_huge"))
        shmem_long_alltoall(SHMEM_TEAM_WORLD, dest, src, 1UL << 61);
    else if (!strcmp(c, "alltoalls_dst0")) /* both strides must be at least 1 */
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, dest, src, 0, 1, 2);
    else if (!strcmp(c, "alltoalls_sst_neg"))
        shmem_alltoallsmem(SHMEM_TEAM_WORLD, dest, src, 1, -2, 4);
    else if (!strcmp(c, "alltoalls_dst_huge")) /* the extent wraps */
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, dest, src, 1L << 61, 1, 2);
    else if (!strcmp(c, "alltoalls_aset_sst0"))
        shmem_alltoalls64(dest, src, 1, 0, 2, 0, 0, npes, pSync);
    else if (!strcmp(c, "alltoalls_nb_dst0")) {
        shmemx_req_h r;
        shmemx_long_alltoalls_nb(SHMEM_TEAM_WORLD, dest, src, 0, 1, 2, &r);
        shmemx_req_wait(&r);
    } else if (!strcmp(c, "put_wrap")) /* (2^61 + 1) * 8 wraps to 8 bytes */
        shmem_long_put(dest, src, (1UL << 61) + 1, right);
    else if (!strcmp(c, "get_nbi_wrap"))
        shmem_long_get_nbi(priv, dest, (1UL << 61) + 1, right);
    else if (!strcmp(c, "put_signal_wrap")) {
        static uint64_t sig;
        shmem_long_put_signal(dest, src, (1UL << 61) + 1, &sig, 1, SHMEM_SIGNAL_SET, right);
    } else if (!strcmp(c, "wait_all_wrap"))
        shmem_long_wait_until_all(dest, (1UL << 61) + 1, NULL, SHMEM_CMP_EQ, 0);
    else if (!strcmp(c, "put_past_end")) /* inside the heap, but longer than what is left */
        shmem_long_put(dest, src, 1UL << 50, right);
    else if (!strcmp(c, "fcollect_overrun")) { /* SHMEM_DEBUG: dest holds one PE's block */
        long *d = shmem_malloc(8 * sizeof(long));
        shmem_long_fcollect(SHMEM_TEAM_WORLD, d, src, 8);
    } else if (!strcmp(c, "putmem_null"))
        shmem_putmem(NULL, src, 8, right);
    else if (!strcmp(c, "reduce_overlap")) /* in place or disjoint, never partly */
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest + 1, dest, 4);
    else if (!strcmp(c, "to_all_overlap"))
        shmem_long_max_to_all(dest, dest + 3, 4, 0, 0, npes, pWrk, pSync);
    else if (!strcmp(c, "lock_twice")) { /* would queue behind itself */
        static long lock;
        if (me == npes - 1) {
            shmem_set_lock(&lock);
            shmem_set_lock(&lock);
        }
    } else if (!strcmp(c, "lock_not_held")) { /* PE 0 holds it, the last PE clears it */
        static long lock;
        if (me == 0)
            shmem_set_lock(&lock);
        shmem_barrier_all();
        if (me == npes - 1)
            shmem_clear_lock(&lock);
    } else if (!strcmp(c, "put_self_overlap")) /* to itself, ranges partly overlapping */
        shmem_long_put(dest + 1, dest, 4, me);
    else if (!strcmp(c, "get_self_overlap"))
        shmem_long_get_nbi(dest, dest + 2, 4, me);
    else if (!strcmp(c, "amo_misaligned")) /* an 8-byte atomic at a 4-byte offset */
        shmem_long_atomic_add((long *)((char *)dest + 4), 1, right);
    else if (!strcmp(c, "amo_misaligned_fetch"))
        (void)shmem_int_atomic_fetch_inc((int *)((char *)idest + 2), right);
    else {
        printf("unknown case %s\n", c);
        return 2;
    }
    shmem_barrier_all();
    shmem_finalize();
    printf("PE %d: %s was not caught\n", me, c);
    return 0;
}
