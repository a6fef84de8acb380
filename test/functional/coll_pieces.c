/* Back-to-back broadcast, fcollect, collect, alltoall and alltoalls on SHMEM_TEAM_WORLD
 * with blocks of one to several pieces (run it with a small SHMEM_COLL_SEGMENT), no
 * user synchronisation between calls: one source serves every call and is rewritten
 * right after each call returns, two dests take turns (a dest must be ready when a
 * collective that writes it is called: it is only written again two calls later) and
 * are poisoned right after their check, so a PE still reading a source or writing a
 * dest of an earlier call shows as a wrong element.  Usage: coll_pieces [iterations] (default 24). */
#include "tests.h"
#include <stdlib.h>
#include <string.h>

#define MAXC 2600 /* bytes per member's block at most: 3 pieces of 1 KiB */
#define NSIZES 5

static unsigned char val(int it, int pe, size_t i)
{
    return (unsigned char)(it * 37 + pe * 131 + i * 7 + 1);
}

static int bad(const char *what, int it, size_t c, int p, size_t i, unsigned char got,
               unsigned char want)
{
    fprintf(stderr, "coll_pieces: PE %d it %d %s c=%zu block %d byte %zu: %u, not %u\n",
            shmem_my_pe(), it, what, c, p, i, got, want);
    return 1;
}

int main(int argc, char **argv)
{
    static const size_t sizes[NSIZES] = { 1, 24, 1000, 1025, MAXC };
    int iters = argc > 1 ? atoi(argv[1]) : 24, me, n, fails = 0;
    unsigned char *src, *dst, *dsts[2];
    size_t cap;
    unsigned k = 0;

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    cap = (size_t)MAXC * (size_t)n * 3 + 1;
    src = shmem_malloc(cap);
    dsts[0] = shmem_malloc(cap);
    dsts[1] = shmem_malloc(cap);
    CHECK(src && dsts[0] && dsts[1]);
    memset(dsts[0], 0xee, cap);
    memset(dsts[1], 0xee, cap);
    shmem_barrier_all();
    for (int it = 0; it < iters && !fails; it++) {
        size_t c = sizes[it % NSIZES];
        int root = it % n;
        /* broadcast */
        for (size_t i = 0; i < c; i++)
            src[i] = val(it, me, i);
        dst = dsts[k++ & 1];
        CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, c, root) == 0);
        memset(src, 0x55, c);
        for (size_t i = 0; i < c && !fails; i++)
            if (dst[i] != val(it, root, i))
                fails = bad("bcast", it, c, root, i, dst[i], val(it, root, i));
        if (dst[c] != 0xee)
            fails = bad("bcast past the end", it, c, root, c, dst[c], 0xee);
        memset(dst, 0xee, c + 1);
        /* fcollect */
        for (size_t i = 0; i < c; i++)
            src[i] = val(it, me, i);
        dst = dsts[k++ & 1];
        CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, c) == 0);
        memset(src, 0x55, c);
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < c && !fails; i++)
                if (dst[p * c + i] != val(it, p, i))
                    fails = bad("fcollect", it, c, p, i, dst[p * c + i], val(it, p, i));
        if (dst[n * c] != 0xee)
            fails = bad("fcollect past the end", it, c, n, 0, dst[n * c], 0xee);
        memset(dst, 0xee, n * c + 1);
        /* collect: member p gives c * (p % 3 + 1) / 2 + p bytes */
        {
            size_t my = c * (size_t)(me % 3 + 1) / 2 + (size_t)me, off = 0;
            for (size_t i = 0; i < my; i++)
                src[i] = val(it, me, i);
            dst = dsts[k++ & 1];
            CHECK(shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, my) == 0);
            memset(src, 0x55, my);
            for (int p = 0; p < n; p++) {
                size_t l = c * (size_t)(p % 3 + 1) / 2 + (size_t)p;
                for (size_t i = 0; i < l && !fails; i++)
                    if (dst[off + i] != val(it, p, i))
                        fails = bad("collect", it, c, p, i, dst[off + i], val(it, p, i));
                off += l;
            }
            if (dst[off] != 0xee)
                fails = bad("collect past the end", it, c, n, 0, dst[off], 0xee);
            memset(dst, 0xee, off + 1);
        }
        /* alltoall: my block for p is val(it, me * n + p, .) */
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < c; i++)
                src[p * c + i] = val(it, me * n + p, i);
        dst = dsts[k++ & 1];
        CHECK(shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, c) == 0);
        memset(src, 0x55, n * c);
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < c && !fails; i++)
                if (dst[p * c + i] != val(it, p * n + me, i))
                    fails = bad("alltoall", it, c, p, i, dst[p * c + i], val(it, p * n + me, i));
        if (dst[n * c] != 0xee)
            fails = bad("alltoall past the end", it, c, n, 0, dst[n * c], 0xee);
        memset(dst, 0xee, n * c + 1);
        /* alltoalls: dest stride 3, source stride 2, c / 8 + 1 elements of 2 bytes */
        {
            size_t ne = c / 8 + 1;
            uint16_t *s16 = (uint16_t *)src, *d16;
            for (int p = 0; p < n; p++)
                for (size_t i = 0; i < ne; i++)
                    s16[(p * ne + i) * 2] = (uint16_t)(val(it, me * n + p, i) * 257u + 3u);
            dst = dsts[k++ & 1];
            d16 = (uint16_t *)dst;
            CHECK(shmem_uint16_alltoalls(SHMEM_TEAM_WORLD, d16, s16, 3, 2, ne) == 0);
            memset(src, 0x55, n * ne * 4);
            for (int p = 0; p < n; p++)
                for (size_t i = 0; i < ne && !fails; i++) {
                    uint16_t want = (uint16_t)(val(it, p * n + me, i) * 257u + 3u);
                    if (d16[(p * ne + i) * 3] != want)
                        fails = bad("alltoalls", it, ne, p, i, (unsigned char)d16[(p * ne + i) * 3],
                                    (unsigned char)want);
                    else if (d16[(p * ne + i) * 3 + 1] != 0xeeee)
                        fails = bad("alltoalls gap", it, ne, p, i, 0, 0xee);
                }
            memset(dst, 0xee, n * ne * 6 + 2);
        }
    }
    CHECK(!fails);
    shmem_barrier_all();
    shmem_free(dsts[1]);
    shmem_free(dsts[0]);
    shmem_free(src);
    return test_finish("coll_pieces");
}
