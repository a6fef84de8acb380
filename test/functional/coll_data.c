/* Data-moving collectives (broadcastmem, collectmem, fcollectmem, alltoallmem,
 * alltoallsmem, typed broadcast/fcollect) on SHMEM_TEAM_WORLD, a strided team, the
 * 2-D teams and SHMEM_TEAM_SHARED; counts 0, 1, odd and large; every root. */
#include "tests.h"
#include <string.h>

#define MAXB (300 * 1000)

static unsigned char val(int pe, size_t i)
{
    return (unsigned char)(pe * 131 + i * 7 + 1);
}

static unsigned char *src, *dst;

static void run_team(shmem_team_t team, const char *name)
{
    static const size_t counts[] = { 0, 1, 7, 1001, 70000, MAXB / 4 };
    int n, me;

    if (team == SHMEM_TEAM_INVALID)
        return;
    n = shmem_team_n_pes(team);
    me = shmem_team_my_pe(team);
    for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
        size_t c = counts[ci];
        if (c * (size_t)n > MAXB)
            continue;
        /* broadcast from every root */
        for (int root = 0; root < n; root++) {
            for (size_t i = 0; i < c; i++)
                src[i] = val(me, i);
            memset(dst, 0xee, c + 1);
            shmem_team_sync(team); /* every dest is ready */
            CHECK(shmem_broadcastmem(team, dst, src, c, root) == 0);
            for (size_t i = 0; i < c; i++)
                if (dst[i] != val(root, i)) {
                    fprintf(stderr, "%s bcast c=%zu root=%d i=%zu\n", name, c, root, i);
                    CHECK(dst[i] == val(root, i));
                    break;
                }
            CHECK(dst[c] == 0xee);
        }
        /* fcollect */
        for (size_t i = 0; i < c; i++)
            src[i] = val(me, i);
        memset(dst, 0xee, c * n + 1);
        shmem_team_sync(team);
        CHECK(shmem_fcollectmem(team, dst, src, c) == 0);
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < c; i++)
                if (dst[p * c + i] != val(p, i)) {
                    fprintf(stderr, "%s fcollect c=%zu p=%d i=%zu\n", name, c, p, i);
                    CHECK(dst[p * c + i] == val(p, i));
                    p = n;
                    break;
                }
        CHECK(dst[c * n] == 0xee);
        /* collect: member p contributes (c + p) % 5 + p*c/4 bytes */
        {
            size_t my = (c + me) % 5 + (size_t)me * c / 4, off = 0;
            for (size_t i = 0; i < my; i++)
                src[i] = val(me, i);
            memset(dst, 0xee, MAXB);
            shmem_team_sync(team);
            CHECK(shmem_collectmem(team, dst, src, my) == 0);
            for (int p = 0; p < n; p++) {
                size_t l = (c + p) % 5 + (size_t)p * c / 4;
                for (size_t i = 0; i < l; i++)
                    if (dst[off + i] != val(p, i)) {
                        fprintf(stderr, "%s collect c=%zu p=%d i=%zu\n", name, c, p, i);
                        CHECK(dst[off + i] == val(p, i));
                        break;
                    }
                off += l;
            }
            CHECK(dst[off] == 0xee);
        }
        /* alltoall: block for member p is val(me*n + p, i) */
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < c; i++)
                src[p * c + i] = val(me * n + p, i);
        memset(dst, 0xee, c * n + 1);
        shmem_team_sync(team);
        CHECK(shmem_alltoallmem(team, dst, src, c) == 0);
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < c; i++)
                if (dst[p * c + i] != val(p * n + me, i)) {
                    fprintf(stderr, "%s alltoall c=%zu p=%d i=%zu\n", name, c, p, i);
                    CHECK(dst[p * c + i] == val(p * n + me, i));
                    p = n;
                    break;
                }
        CHECK(dst[c * n] == 0xee);
    }
    /* alltoalls: strides 3 (dest) and 2 (source), 5 elements per PE */
    {
        const ptrdiff_t dst_s = 3, sst = 2;
        const size_t ne = 5;
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < ne; i++)
                src[(p * ne + i) * sst] = val(me * n + p, i);
        memset(dst, 0xee, n * ne * dst_s);
        shmem_team_sync(team);
        CHECK(shmem_alltoallsmem(team, dst, src, dst_s, sst, ne) == 0);
        for (int p = 0; p < n; p++)
            for (size_t i = 0; i < ne; i++) {
                CHECK(dst[(p * ne + i) * dst_s] == val(p * n + me, i));
                if (dst_s > 1)
                    CHECK(dst[(p * ne + i) * dst_s + 1] == 0xee);
            }
    }
    /* typed forms */
    {
        int *is = (int *)src, *id = (int *)dst;
        long *ls = (long *)src, *ld = (long *)dst;
        shmem_team_sync(team);
        is[0] = 1000 + me;
        is[1] = -me;
        CHECK(shmem_int_broadcast(team, id, is, 2, n - 1) == 0);
        CHECK(id[0] == 1000 + n - 1 && id[1] == -(n - 1));
        shmem_team_sync(team);
        ls[0] = 7L * me;
        CHECK(shmem_long_fcollect(team, ld, ls, 1) == 0);
        for (int p = 0; p < n; p++)
            CHECK(ld[p] == 7L * p);
    }
    CHECK(shmem_team_sync(team) == 0);
}

/* back-to-back collectives with no user synchronisation: dest buffers alternate, so
 * a dest is only rewritten two calls later, after its owner has checked it */
static void stress(void)
{
    static long bsrc[64], bdst[2][64 * 8];
    int me = shmem_my_pe(), n = shmem_n_pes();

    if (n > 8)
        return;
    shmem_barrier_all();
    for (int it = 0; it < 300; it++) {
        long *d = bdst[it % 2];
        int root = it % n, len = it % 17 + 1;
        for (int i = 0; i < len; i++)
            bsrc[i] = it * 1000 + me * 50 + i;
        switch (it % 4) {
        case 0:
            shmem_broadcastmem(SHMEM_TEAM_WORLD, d, bsrc, len * sizeof(long), root);
            for (int i = 0; i < len; i++)
                CHECK(d[i] == it * 1000 + root * 50 + i);
            break;
        case 1:
            shmem_fcollectmem(SHMEM_TEAM_WORLD, d, bsrc, len * sizeof(long));
            for (int p = 0; p < n; p++)
                for (int i = 0; i < len; i++)
                    CHECK(d[p * len + i] == it * 1000 + p * 50 + i);
            break;
        case 2:
            shmem_long_max_reduce(SHMEM_TEAM_WORLD, d, bsrc, len);
            for (int i = 0; i < len; i++)
                CHECK(d[i] == it * 1000 + (n - 1) * 50 + i);
            break;
        default:
            for (int p = 0; p < n; p++)
                bsrc[p] = it * 1000 + me * 50 + p;
            shmem_alltoallmem(SHMEM_TEAM_WORLD, d, bsrc, sizeof(long));
            for (int p = 0; p < n; p++)
                CHECK(d[p] == it * 1000 + p * 50 + me);
            break;
        }
    }
}

int main(void)
{
    shmem_team_t even = SHMEM_TEAM_INVALID, x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAXB + 64);
    dst = shmem_malloc(MAXB + 64);
    CHECK(src && dst);
    stress();
    run_team(SHMEM_TEAM_WORLD, "world");
    run_team(SHMEM_TEAM_SHARED, "shared");
    /* PEs 1, 3, ... (or PE 0 alone at 1 PE) */
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes > 1 ? 1 : 0, 2, npes > 1 ? npes / 2 : 1,
                                   NULL, 0, &even) == 0);
    CHECK((even != SHMEM_TEAM_INVALID) == (npes > 1 ? me % 2 == 1 : 1));
    run_team(even, "strided");
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y) == 0);
    run_team(x, "x");
    run_team(y, "y");
    shmem_team_destroy(even);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
    shmem_free(dst);
    shmem_free(src);
    return test_finish("coll_data");
}
