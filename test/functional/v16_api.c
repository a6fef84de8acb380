/*
 * OpenSHMEM 1.6 additions: blocked strided put/get (ibput/ibget, typed, sized, ctx and
 * C11 generic forms, heap and static targets), prefix sums (sum_inscan/exscan on world
 * and a strided team, in place and out of place, several types, counts 0/1/odd/large),
 * and communication sessions (hints around a batch of AMOs).  Every byte is checked.
 */
#include "tests.h"
#include <complex.h>
#include <stdint.h>
#include <string.h>

#define NB 7       /* blocks */
#define BS 3       /* elements per block */
#define DST 5      /* destination block stride (elements) */
#define SST 4      /* source block stride */
#define BIGN 20011 /* large scan: crosses the 64 KiB slices for 8-byte types */

static long sdest[NB * DST];   /* static target */
static int64_t ssrc[NB * SST]; /* static source for ibget */

static long expect_put(int from, size_t i)
{
    /* element i of the destination after ibput from PE from, 0 where no block lands */
    size_t b = i / DST, e = i % DST;
    if (b >= NB || e >= BS)
        return -1;
    return from * 1000 + (long)(b * SST + e);
}

static void check_ib(int me, int npes)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long src[NB * SST];
    long *hdest = shmem_malloc(sizeof(long) * NB * DST);
    int64_t *hsrc = shmem_malloc(sizeof(int64_t) * NB * SST);
    int64_t got[NB * DST];
    uint32_t *h32 = shmem_malloc(sizeof(uint32_t) * NB * DST);
    uint32_t s32[NB * SST];

    for (size_t i = 0; i < NB * SST; i++) {
        src[i] = me * 1000 + (long)i;
        hsrc[i] = ssrc[i] = (int64_t)me * 1000000 + (int64_t)i;
        s32[i] = (uint32_t)(me * 1000 + (long)i);
    }
    for (size_t i = 0; i < NB * DST; i++) {
        hdest[i] = sdest[i] = -1;
        h32[i] = 0xffffffffu;
    }
    shmem_barrier_all();

    /* typed put to the heap, C11 generic put to static data, sized put with a ctx */
    shmem_long_ibput(hdest, src, DST, SST, BS, NB, right);
    shmem_ibput(sdest, src, DST, SST, BS, NB, right);
    shmem_ctx_ibput32(SHMEM_CTX_DEFAULT, h32, s32, DST, SST, BS, NB, right);
    shmem_barrier_all();
    for (size_t i = 0; i < NB * DST; i++) {
        long want = expect_put(left, i);
        CHECK(hdest[i] == want);
        CHECK(sdest[i] == want);
        CHECK(h32[i] == (want < 0 ? 0xffffffffu : (uint32_t)want));
    }

    /* get: blocks of the right neighbour's source (heap and static) into a local array */
    for (int from_static = 0; from_static < 2; from_static++) {
        memset(got, 0x5a, sizeof(got));
        if (from_static)
            shmem_ctx_int64_ibget(SHMEM_CTX_DEFAULT, got, ssrc, DST, SST, BS, NB, right);
        else
            shmem_ibget64(got, hsrc, DST, SST, BS, NB, right);
        for (size_t i = 0; i < NB * DST; i++) {
            size_t b = i / DST, e = i % DST;
            if (b < NB && e < BS)
                CHECK(got[i] == (int64_t)right * 1000000 + (int64_t)(b * SST + e));
            else
                CHECK(got[i] == (int64_t)0x5a5a5a5a5a5a5a5aLL);
        }
    }
    /* contiguous case (strides == bsize) and zero blocks */
    memset(got, 0, sizeof(got));
    shmem_ibget(got, hsrc, SST, SST, SST, NB, right);
    for (size_t i = 0; i < NB * SST; i++)
        CHECK(got[i] == (int64_t)right * 1000000 + (int64_t)i);
    shmem_ibput(hdest, src, DST, SST, BS, 0, right);
    shmem_barrier_all();
    shmem_free(h32);
    shmem_free(hsrc);
    shmem_free(hdest);
}

/* inclusive/exclusive sums of source_k = k + 1 + j (per element j) over ranks 0..r */
#define SCAN_CHECK(T, NAME, TEAM, R, N)                                                         \
    do {                                                                                        \
        T *s = shmem_malloc(sizeof(T) * ((N) + 1)), *d = shmem_malloc(sizeof(T) * ((N) + 1));   \
        for (size_t j = 0; j < (N); j++)                                                        \
            s[j] = (T)((R) + 1 + (long)(j % 50));                                               \
        if ((TEAM) != SHMEM_TEAM_INVALID) {                                                     \
            shmem_##NAME##_sum_inscan(TEAM, d, s, N);                                           \
            for (size_t j = 0; j < (N); j++)                                                    \
                CHECK(d[j] ==                                                                   \
                      (T)(((long)(R) + 1) * ((R) + 2) / 2 + ((long)(R) + 1) * (long)(j % 50))); \
            shmem_##NAME##_sum_exscan(TEAM, d, s, N);                                           \
            for (size_t j = 0; j < (N); j++)                                                    \
                CHECK(d[j] == (T)((long)(R) * ((R) + 1) / 2 + (long)(R) * (long)(j % 50)));     \
            shmem_##NAME##_sum_inscan(TEAM, s, s, N); /* in place */                            \
            for (size_t j = 0; j < (N); j++)                                                    \
                CHECK(s[j] ==                                                                   \
                      (T)(((long)(R) + 1) * ((R) + 2) / 2 + ((long)(R) + 1) * (long)(j % 50))); \
            /* at once a broadcast into the scan's dest: none of the scan lands on it */        \
            for (size_t j = 0; j < (N); j++)                                                    \
                d[j] = (T)((long)(j % 7) + 3 * (long)(R));                                      \
            shmem_broadcastmem(TEAM, s, d, sizeof(T) * (N), 0);                                 \
            for (size_t j = 0; j < (N); j++)                                                    \
                CHECK(s[j] == (T)(j % 7));                                                      \
        }                                                                                       \
        shmem_free(d);                                                                          \
        shmem_free(s);                                                                          \
    } while (0)

/* called by every PE (shmem_malloc is collective over the world); PEs outside team skip
 * the scans */
static void check_scan(shmem_team_t team)
{
    int r = team == SHMEM_TEAM_INVALID ? 0 : shmem_team_my_pe(team);
    static const size_t counts[] = { 0, 1, 13, BIGN };
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t n = counts[c];
        SCAN_CHECK(long, long, team, r, n);
        SCAN_CHECK(double, double, team, r, n);
        SCAN_CHECK(uint8_t, uint8, team, r, n);
        SCAN_CHECK(int, int, team, r, n);
    }
    {
        /* complex and the C11 generic */
        double _Complex *s = shmem_malloc(sizeof(*s) * 4), *d = shmem_malloc(sizeof(*d) * 4);
        for (int j = 0; j < 4; j++)
            s[j] = (double)(r + 1) + (double)j * I;
        if (team != SHMEM_TEAM_INVALID) {
            shmem_sum_exscan(team, d, s, 4);
            for (int j = 0; j < 4; j++)
                CHECK(d[j] == (double)r * (r + 1) / 2 + (double)r * j * I);
        }
        shmem_free(d);
        shmem_free(s);
    }
}

static void check_session(int me, int npes)
{
    static unsigned long table[16];
    shmem_ctx_t ctx;
    shmem_ctx_session_config_t cfg = { .total_ops = 64 };

    shmem_barrier_all();
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx))
        ctx = SHMEM_CTX_DEFAULT;
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_start(ctx, 0, NULL, 0); /* combining a second start is allowed */
    for (int i = 0; i < 64; i++)
        shmem_ctx_ulong_atomic_xor(ctx, &table[i % 16], 1UL << (me % 60), (me + i) % npes);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_session_stop(ctx); /* a second stop has no effect */
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, 0); /* no-op */
    shmem_ctx_quiet(ctx);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    /* PE p's 64 updates land on PE (p+i)%n, word i%16: 4 updates per word group of 16 */
    for (int w = 0; w < 16; w++) {
        unsigned long want = 0;
        for (int p = 0; p < npes; p++)
            for (int i = w; i < 64; i += 16)
                if ((p + i) % npes == me)
                    want ^= 1UL << (p % 60);
        CHECK(table[w] == want);
    }
}

int main(void)
{
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    check_ib(me, npes);
    check_scan(SHMEM_TEAM_WORLD);
    /* PEs 1, 3, ...: ranks differ from world PE numbers */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    check_scan(odd);
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    check_session(me, npes);
    return test_finish("v16_api");
}
