/* Broadcasts back to back with no synchronisation between them (the same-node ring
 * broadcast and the inline one let their root run ahead): rotating roots, sizes across
 * the inline limit, the ring's slot size, its largest sizes (with more PEs than CPUs and
 * without) and the size above which members with a CPU each copy from the root's source
 * instead, on SHMEM_TEAM_WORLD and
 * a strided team; small ones with the same root several times while a member sleeps;
 * small fcollects and reductions back to back; a broadcast
 * followed at once by collectives that write other PEs' memory into the same dest;
 * a burst that fills the root's ring while a member sleeps; active-set broadcasts
 * with two pSyncs taking turns.  Every byte checked. */
#include "tests.h"
#include <string.h>
#include <unistd.h>

#define MAXB 65544

static const size_t sizes[] = { 1,     8,     100,  8191, 8192, 8193,  20000,
                                32768, 32769, MAXB, 4096, 4097, 65536, 40000 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static unsigned char *src, *dst[3];
static long pSync[2][SHMEM_BCAST_SYNC_SIZE];
static int64_t s64[MAXB / 8], d64[2][MAXB / 8];

static unsigned char val(int it, int root, size_t i)
{
    return (unsigned char)(it * 13 + root * 131 + i * 7 + 1);
}

static void fill(int it, int me)
{
    for (size_t i = 0; i < MAXB; i++)
        src[i] = val(it, me, i);
}

static void check_dest(const unsigned char *d, size_t c, int it, int root, const char *what)
{
    for (size_t i = 0; i < c; i++)
        if (d[i] != val(it, root, i)) {
            fprintf(stderr, "PE %d: %s it=%d c=%zu root=%d i=%zu: %u != %u\n", shmem_my_pe(), what,
                    it, c, root, i, d[i], val(it, root, i));
            CHECK(d[i] == val(it, root, i));
            return;
        }
}

static void run_team(shmem_team_t team, const char *name)
{
    int n, me;

    if (team == SHMEM_TEAM_INVALID)
        return;
    n = shmem_team_n_pes(team);
    me = shmem_team_my_pe(team);
    shmem_team_sync(team);
    /* back to back, rotating dests, roots and sizes */
    for (int it = 0; it < 120; it++) {
        int root = (it * 7) % n;
        size_t c = sizes[it % NSIZES];
        fill(it, me);
        CHECK(shmem_broadcastmem(team, dst[it % 3], src, c, root) == 0);
        check_dest(dst[it % 3], c, it, root, name);
    }
    /* a broadcast followed at once by collectives that write into other PEs' dest (the
     * same dest): they must not run into a member still copying the broadcast */
    for (int it = 0; it < 40; it++) {
        int root = it % n;
        size_t c = sizes[it % 5];
        fill(it, me);
        CHECK(shmem_broadcastmem(team, dst[0], src, c, root) == 0);
        CHECK(shmem_fcollectmem(team, dst[0], src, 64) == 0);
        for (int p = 0; p < n; p++)
            check_dest(dst[0] + (size_t)p * 64, 64, it, p, "fcollect after broadcast");
        fill(it + 1, me);
        shmem_team_sync(team); /* everyone has checked: dest ready for pushes */
        CHECK(shmem_broadcastmem(team, dst[0], src, c, root) == 0);
        CHECK(shmem_alltoallmem(team, dst[0], src, 16) == 0);
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < 16; i++)
                CHECK(dst[0][(size_t)p * 16 + i] == val(it + 1, p, (size_t)me * 16 + i));
        shmem_team_sync(team);
    }
    /* small broadcasts (inline: carried in entries of the root's counters), one dest
     * reused, the same root ten times running; a member sleeps now and then, so that
     * the root fills all its entries and has to wait for it */
    static const size_t small[] = { 1, 8, 56, 57, 64, 119, 120, 121 };
    shmem_team_sync(team);
    for (int it = 0; it < 400; it++) {
        int root = (it / 10) % n;
        if (me == (root + 1) % n && it % 40 == 0)
            usleep(5000);
        size_t c = small[it % 8];
        fill(it, me);
        CHECK(shmem_broadcastmem(team, dst[0], src, c, root) == 0);
        check_dest(dst[0], c, it, root, "small");
    }
    /* small fcollects and sum reductions back to back (inline too: every member writes
     * its own entries), one dest reused, a member sleeping now and then */
    for (int it = 0; it < 200; it++) {
        long *v = (long *)src, *d = (long *)dst[1], sum = 0;
        *v = it * 1000 + me;
        if (me == it % n && it % 40 == 0)
            usleep(5000);
        CHECK(shmem_fcollectmem(team, d, v, sizeof(long)) == 0);
        for (int p = 0; p < n; p++)
            CHECK(d[p] == it * 1000 + p);
        CHECK(shmem_long_sum_reduce(team, d, v, 1) == 0);
        for (int p = 0; p < n; p++)
            sum += it * 1000 + p;
        CHECK(d[0] == sum);
    }
    /* fill the root's ring while member 1 sleeps */
    shmem_team_sync(team);
    if (me == 1)
        usleep(100000);
    for (int it = 0; it < 50; it++) {
        fill(it, me);
        CHECK(shmem_broadcastmem(team, dst[it % 2], src, 8192, 0) == 0);
        check_dest(dst[it % 2], 8192, it, 0, "burst");
    }
    shmem_team_sync(team);
}

/* the usual active-set idiom: two pSyncs taking turns, no barrier while the root stays */
static void run_aset(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();

    for (int it = 0; it < 60; it++) {
        int root = (it / 10) % npes;
        size_t c = (sizes[it % NSIZES] + 7) / 8;
        if (it % 10 == 0)
            shmem_barrier_all();
        for (size_t i = 0; i < c; i++)
            s64[i] = (int64_t)it * 1000000 + me * 100000 + (int64_t)i;
        shmem_broadcast64(d64[it % 2], s64, c, root, 0, 0, npes, pSync[it % 2]);
        if (me != root)
            for (size_t i = 0; i < c; i++)
                if (d64[it % 2][i] != (int64_t)it * 1000000 + root * 100000 + (int64_t)i) {
                    fprintf(stderr, "PE %d: aset it=%d c=%zu i=%zu\n", me, it, c, i);
                    CHECK(0);
                    break;
                }
    }
    shmem_barrier_all();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        CHECK(pSync[0][i] == SHMEM_SYNC_VALUE && pSync[1][i] == SHMEM_SYNC_VALUE);
}

int main(void)
{
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    int npes;

    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        pSync[0][i] = pSync[1][i] = SHMEM_SYNC_VALUE;
    shmem_init();
    npes = shmem_n_pes();
    src = shmem_malloc(MAXB);
    for (int i = 0; i < 3; i++)
        dst[i] = shmem_malloc(MAXB);
    CHECK(src && dst[0] && dst[1] && dst[2]);
    run_team(SHMEM_TEAM_WORLD, "world");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes > 1 ? 1 : 0, 2, npes > 1 ? npes / 2 : 1,
                                   NULL, 0, &odd) == 0);
    run_team(odd, "strided");
    shmem_team_destroy(odd);
    run_aset();
    for (int i = 0; i < 3; i++)
        shmem_free(dst[i]);
    shmem_free(src);
    return test_finish("coll_bcast_burst");
}
