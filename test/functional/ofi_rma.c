/* Every OFI put/get path: blocking and nbi puts and gets, p/g-sized transfers,
 * put-with-signal (blocking and nbi, set and add), fence ordering, and contexts
 * (shared and private), over sizes crossing every threshold (inject, bounce, chunk)
 * up to 8 MiB + odd, to heap and static targets, verified byte for byte; one quiet
 * completing puts to every PE. */
#include "ofi_test.h"

#define BIG ((size_t)8 * 1024 * 1024 + 5)
static unsigned char static_buf[256 * 1024 + 64];
static uint64_t sig;
static uint64_t flag;

static const size_t sizes[] = { 1,    2,     4,     7,     8,      63,      64,   65,
                                255,  256,   1023,  4095,  4096,   4097,    8191, 8192,
                                8193, 16385, 65536, 65537, 262147, 1048579, BIG };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void round_put(struct comm_ctx *ctx, unsigned char *heap, unsigned char *src,
                      unsigned char *dst, int salt, int nbi)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;

    for (size_t k = 0; k < NSIZES; k++) {
        size_t len = sizes[k];
        int to_static = len <= sizeof(static_buf);
        unsigned char *target = to_static && (k & 1) ? static_buf : heap;

        fill(src, me, len, salt);
        shmem_barrier_all();
        if (nbi) {
            comm_put_nbi(ctx, target, src, len, right);
            comm_quiet(ctx);
        } else {
            comm_put(ctx, target, src, len, right);
            memset(src, 0xee, len); /* the source is reusable on return */
            comm_quiet(ctx);
        }
        shmem_barrier_all();
        CHECK_BUF(target, left, len, salt, nbi ? "put_nbi" : "put");
        /* read back what the right neighbour received from us */
        memset(dst, 0, len);
        if (nbi) {
            comm_get_nbi(ctx, dst, target, len, right);
            comm_quiet(ctx);
        } else {
            comm_get(ctx, dst, target, len, right);
        }
        CHECK_BUF(dst, me, len, salt, nbi ? "get_nbi" : "get");
    }
}

static void test_small_pg(void)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    static int32_t w32;
    static int64_t w64;
    static int16_t w16;
    static char w8;
    int32_t v32 = 1000 + me, r32;
    int64_t v64 = ((int64_t)me << 40) | 77;
    int16_t v16 = (int16_t)(300 + me);
    char v8 = (char)('a' + me);

    shmem_barrier_all();
    comm_put(COMM_CTX_DEFAULT, &w32, &v32, 4, right);
    comm_put(COMM_CTX_DEFAULT, &w64, &v64, 8, right);
    comm_put(COMM_CTX_DEFAULT, &w16, &v16, 2, right);
    comm_put(COMM_CTX_DEFAULT, &w8, &v8, 1, right);
    shmem_barrier_all();
    CHECK(w32 == 1000 + left);
    CHECK(w64 == (((int64_t)left << 40) | 77));
    CHECK(w16 == 300 + left);
    CHECK(w8 == (char)('a' + left));
    comm_get(COMM_CTX_DEFAULT, &r32, &w32, 4, right);
    CHECK(r32 == 1000 + me);
    shmem_barrier_all();
}

/* The signal is visible only after the data: the receiver checks the data as soon
 * as it sees the signal. */
static void test_put_signal(unsigned char *heap, unsigned char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    uint64_t expect = 0;

    sig = 0;
    shmem_barrier_all();
    for (size_t k = 0; k < NSIZES; k++) {
        size_t len = sizes[k];
        for (int mode = 0; mode < 4; mode++) { /* bit 0: nbi, bit 1: add (else set) */
            int salt = 100 + mode;
            fill(src, me, len, salt);
            expect++;
            if (mode & 2)
                comm_put_signal(COMM_CTX_DEFAULT, heap, src, len, &sig, 1, COMM_SIG_ADD, right,
                                mode & 1);
            else
                comm_put_signal(COMM_CTX_DEFAULT, heap, src, len, &sig, expect, COMM_SIG_SET, right,
                                mode & 1);
            wait_u64_ge(&sig, expect);
            CHECK(__atomic_load_n(&sig, __ATOMIC_ACQUIRE) == expect);
            CHECK_BUF(heap, left, len, salt, "put_signal");
            comm_quiet(COMM_CTX_DEFAULT);
            /* nobody writes heap again before everybody has checked it */
            shmem_barrier_all();
        }
    }
}

/* fence: data then flag to the same PE; the flag never overtakes the data. */
static void test_fence(unsigned char *heap, unsigned char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;

    flag = 0;
    shmem_barrier_all();
    for (uint64_t r = 1; r <= 6; r++) {
        size_t len = sizes[(r * 5) % NSIZES];
        fill(src, me, len, (int)r);
        comm_put_nbi(COMM_CTX_DEFAULT, heap, src, len, right);
        comm_fence(COMM_CTX_DEFAULT);
        comm_put(COMM_CTX_DEFAULT, &flag, &r, sizeof(r), right);
        wait_u64_ge(&flag, r);
        CHECK_BUF(heap, left, len, (int)r, "fence");
        comm_quiet(COMM_CTX_DEFAULT);
        shmem_barrier_all();
    }
}

/* One quiet completes blocking zero-copy puts to every other PE (over tcp;ofi_rxm
 * they complete locally and quiet flushes each written PE): each PE writes its slot
 * on every other PE, quiets, then raises a flag there; a PE that sees all flags
 * checks all slots, with no barrier in between. */
#define QSLOT ((size_t)256 * 1024 + 3)
static uint64_t qflag[64];

static void test_quiet_all(unsigned char *heap, unsigned char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t one = 1;

    if (n > 64 || (size_t)n * QSLOT > BIG)
        return;
    memset(qflag, 0, sizeof(qflag));
    fill(src, me, QSLOT, 7);
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        if (pe != me)
            comm_put(COMM_CTX_DEFAULT, heap + (size_t)me * QSLOT, src, QSLOT, pe);
    comm_quiet(COMM_CTX_DEFAULT);
    for (int pe = 0; pe < n; pe++)
        if (pe != me)
            comm_put(COMM_CTX_DEFAULT, &qflag[me], &one, sizeof(one), pe);
    for (int pe = 0; pe < n; pe++) {
        if (pe == me)
            continue;
        wait_u64_ge(&qflag[pe], 1);
        CHECK_BUF(heap + (size_t)pe * QSLOT, pe, QSLOT, 7, "quiet after puts to all PEs");
    }
    comm_quiet(COMM_CTX_DEFAULT);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    unsigned char *heap = shmem_malloc(BIG + 64);
    unsigned char *src = malloc(BIG + 64), *dst = malloc(BIG + 64);
    struct comm_ctx *shared_ctx = NULL, *private_ctx = NULL;

    CHECK(heap && src && dst);
    if (!heap || !src || !dst)
        return test_finish("ofi_rma");
    round_put(COMM_CTX_DEFAULT, heap, src, dst, 1, 0);
    round_put(COMM_CTX_DEFAULT, heap, src, dst, 2, 1);
    CHECK(comm_ctx_create(0, NULL, &shared_ctx) == OFS_OK);
    CHECK(comm_ctx_create(1 /* SHMEM_CTX_PRIVATE */, NULL, &private_ctx) == OFS_OK);
    if (shared_ctx && private_ctx) {
        round_put(shared_ctx, heap, src, dst, 3, 1);
        round_put(private_ctx, heap, src, dst, 4, 0);
        comm_ctx_destroy(shared_ctx);
        comm_ctx_destroy(private_ctx);
    }
    test_small_pg();
    test_put_signal(heap, src);
    test_fence(heap, src);
    test_quiet_all(heap, src);
    shmem_free(heap);
    free(src);
    free(dst);
    return test_finish("ofi_rma");
}
