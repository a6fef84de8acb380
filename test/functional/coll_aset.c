/* Deprecated active-set collectives with user pSync (reused back to back, restored to
 * SHMEM_SYNC_VALUE), on the whole job, a strided set and a shifted set; plus the
 * typed team reductions through the public API. */
#include "tests.h"
#include <string.h>

static long pSync[SHMEM_COLLECT_SYNC_SIZE];
static long pSync2[SHMEM_BARRIER_SYNC_SIZE];
static int64_t s64[64], d64[64 * 8];
static int32_t s32[64], d32[64 * 8];
static int isrc[16], idst[16], pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 16];
static double dsrc[16], ddst[16], dWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 16];

static void run_set(int start, int logs, int size)
{
    int me = shmem_my_pe(), stride = 1 << logs, r;

    if (me < start || (me - start) % stride || (me - start) / stride >= size)
        return;
    r = (me - start) / stride;
    for (int rep = 0; rep < 3; rep++) {
        shmem_barrier(start, logs, size, pSync2);
        shmem_sync(start, logs, size, pSync2);
        /* broadcast: root's dest untouched */
        for (int root = 0; root < size; root++) {
            for (int i = 0; i < 5; i++) {
                s64[i] = 100 * r + i;
                s32[i] = 100 * r + i + 1;
            }
            memset(d64, 0x77, sizeof(d64));
            memset(d32, 0x77, sizeof(d32));
            shmem_barrier(start, logs, size, pSync2); /* dest ready everywhere */
            shmem_broadcast64(d64, s64, 5, root, start, logs, size, pSync);
            shmem_broadcast32(d32, s32, 5, root, start, logs, size, pSync);
            for (int i = 0; i < 5; i++) {
                if (r == root) {
                    CHECK(d64[i] == 0x7777777777777777LL && d32[i] == 0x77777777);
                } else {
                    CHECK(d64[i] == 100 * root + i);
                    CHECK(d32[i] == 100 * root + i + 1);
                }
            }
        }
        /* fcollect and collect (r + 1 elements from member r) */
        for (int i = 0; i < 8; i++) {
            s64[i] = 1000 * r + i;
            s32[i] = 2000 * r + i;
        }
        shmem_barrier(start, logs, size, pSync2);
        shmem_fcollect64(d64, s64, 3, start, logs, size, pSync);
        shmem_fcollect32(d32, s32, 3, start, logs, size, pSync);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 3; i++) {
                CHECK(d64[p * 3 + i] == 1000 * p + i);
                CHECK(d32[p * 3 + i] == 2000 * p + i);
            }
        shmem_barrier(start, logs, size, pSync2);
        shmem_collect64(d64, s64, (size_t)r + 1, start, logs, size, pSync);
        shmem_collect32(d32, s32, (size_t)r + 1, start, logs, size, pSync);
        for (int p = 0, o = 0; p < size; o += p + 1, p++)
            for (int i = 0; i <= p; i++) {
                CHECK(d64[o + i] == 1000 * p + i);
                CHECK(d32[o + i] == 2000 * p + i);
            }
        /* alltoall(s) */
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 2; i++) {
                s64[p * 2 + i] = 10000 * r + 10 * p + i;
                s32[p * 2 + i] = 20000 * r + 10 * p + i;
            }
        shmem_barrier(start, logs, size, pSync2);
        shmem_alltoall64(d64, s64, 2, start, logs, size, pSync);
        shmem_alltoall32(d32, s32, 2, start, logs, size, pSync);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 2; i++) {
                CHECK(d64[p * 2 + i] == 10000 * p + 10 * r + i);
                CHECK(d32[p * 2 + i] == 20000 * p + 10 * r + i);
            }
        shmem_barrier(start, logs, size, pSync2);
        shmem_alltoalls64(d64, s64, 2, 1, 1, start, logs, size, pSync);
        shmem_alltoalls32(d32, s32, 1, 2, 1, start, logs, size, pSync);
        for (int p = 0; p < size; p++) {
            /* block j starts at element j * nelems * sst of the source and lands at
             * element i * nelems * dst of PE j's dest (i: the sender) */
            CHECK(d64[p * 2] == 10000 * p + 10 * (r / 2) + r % 2);
            CHECK(d32[p] == 20000 * p + 10 * r);
        }
        /* reductions (pWrk given as the spec asks) */
        for (int i = 0; i < 16; i++) {
            isrc[i] = r + i;
            dsrc[i] = (double)((r * 5 + i) % 7);
        }
        shmem_barrier(start, logs, size, pSync2);
        shmem_int_sum_to_all(idst, isrc, 16, start, logs, size, pWrk, pSync);
        shmem_double_max_to_all(ddst, dsrc, 16, start, logs, size, dWrk, pSync);
        for (int i = 0; i < 16; i++) {
            int e = 0;
            double m = 0;
            for (int p = 0; p < size; p++) {
                e += p + i;
                m = (double)((p * 5 + i) % 7) > m ? (double)((p * 5 + i) % 7) : m;
            }
            CHECK(idst[i] == e);
            CHECK(ddst[i] == m);
        }
        /* in place */
        shmem_int_sum_to_all(isrc, isrc, 16, start, logs, size, pWrk, pSync);
        CHECK(isrc[3] == idst[3]);
    }
}

int main(void)
{
    int me, npes;
    static int ti[8], to[8];
    static long tl[8], tlo[8];
    static double td[8], tdo[8];
    static unsigned long tu[8], tuo[8];

    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        pSync2[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    run_set(0, 0, npes);
    shmem_barrier_all();
    run_set(0, 1, (npes + 1) / 2);
    shmem_barrier_all();
    if (npes > 1)
        run_set(1, 0, npes - 1);
    shmem_barrier_all();
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        CHECK(pSync[i] == SHMEM_SYNC_VALUE);
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        CHECK(pSync2[i] == SHMEM_SYNC_VALUE);

    /* typed team reductions */
    for (int i = 0; i < 8; i++) {
        ti[i] = me * i;
        tl[i] = (me * 3 + i) % 5 - 2;
        td[i] = 0.5 * me + i;
        tu[i] = 1UL << ((me + i) % 64);
    }
    shmem_barrier_all();
    CHECK(shmem_int_sum_reduce(SHMEM_TEAM_WORLD, to, ti, 8) == 0);
    CHECK(shmem_long_max_reduce(SHMEM_TEAM_WORLD, tlo, tl, 8) == 0);
    CHECK(shmem_double_sum_reduce(SHMEM_TEAM_WORLD, tdo, td, 8) == 0);
    CHECK(shmem_ulong_xor_reduce(SHMEM_TEAM_WORLD, tuo, tu, 8) == 0);
    for (int i = 0; i < 8; i++) {
        int es = 0;
        long em = -100;
        double ed = 0;
        unsigned long ex = 0;
        for (int p = 0; p < npes; p++) {
            es += p * i;
            em = (p * 3 + i) % 5 - 2 > em ? (p * 3 + i) % 5 - 2 : em;
            ed += 0.5 * p + i;
            ex ^= 1UL << ((p + i) % 64);
        }
        CHECK(to[i] == es && tlo[i] == em && tdo[i] == ed && tuo[i] == ex);
    }
    return test_finish("coll_aset");
}
