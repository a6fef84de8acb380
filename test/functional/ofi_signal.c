/* Put-with-signal as a message that the target applies (ofi_am.c; man
 * ofishmem_ofi(7), PUT-WITH-SIGNAL), and what must hold around it on every route:
 *  1. adds from every PE into one signal word of PE 0, by messages and (past
 *     SHMEM_OFI_AM_SIZE) by writes followed by a message, interleaved: none lost, and
 *     every PE's data in place once PE 0 has counted its signals;
 *  2. quiet means applied: after put-with-signal and quiet, a get through another
 *     context sees data and signal, and after a barrier the target finds them
 *     without waiting;
 *  3. fence orders a put-with-signal before a later put to the same PE (the put
 *     overwrites the data and the signal word: the put's values must stay);
 *  4. a get, a fetching atomic and an add of the same context to that PE, without
 *     quiet, come after it (they see its data and signal);
 *     (skipped with OFS_TEST_NO_FETCH set, for udp;ofi_rxd);
 *  5. private contexts: put-with-signal on them, their quiet, then destroyed;
 *  6. signal adds (applied by the target's CPU where they travel by message) and
 *     atomic adds (applied by the provider) from every PE on one word of PE 0 at
 *     once: none lost (libfabric's software atomics are CPU atomics; DESIGN rule 1's
 *     mixed case).
 *  7. a signal after plain puts of the same context to that PE (8 B inject, 9000 B
 *     bounced, 20000 B and 1 MiB zero-copy; more than the specification asks, which is a fence
 *     between them): the puts are in place when the signal is seen (the signal may
 *     leave from another endpoint than the puts: SHMEM_OFI_AM_EP), also when puts to
 *     another PE came before or after them, or after a quiet that completed them
 *     (the signal waits only for puts to its own PE: ofi_ctx_writes_to);
 * Sizes cross the message limits (4 KiB by default with shm, in two messages; 16 KiB
 * with tcp;ofi_rxm; the test list also runs it with SHMEM_OFI_AM_SIZE=0 and 16 bytes,
 * with SHMEM_OFI_AM_PART=16 or 100 (data in up to 563 messages), without inject, and
 * with the user's own FI_OFI_RXM_BUFFER_SIZE=4096: 4064 bytes per message). */
#include "ofi_test.h"

#define NROUNDS 40
#define SLOT 20000 /* past the default limits (4K, 16K): the large rounds write, then signal */

static uint64_t sig;
static uint64_t sig2;
static uint64_t sig3;
static uint64_t sig4;
static unsigned char small_buf[64];

/* 16384: one message over tcp;ofi_rxm (its eager size is set to 16 KiB + the header) */
static const size_t lens[] = { 0, 1, 8, 24, 33, 100, 4096, 4097, 9000, 16384, 16385, SLOT };
#define NLENS (sizeof(lens) / sizeof(lens[0]))

static void test_many_adds(unsigned char *slots, unsigned char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes();

    sig = 0;
    shmem_barrier_all();
    for (int r = 0; r < NROUNDS; r++) {
        size_t len = lens[(size_t)(r + me) % NLENS];
        fill(src, me, len, r);
        /* rounds of one PE go to the same slot: the last round's data stays */
        comm_put_signal(COMM_CTX_DEFAULT, slots + (size_t)me * SLOT, src, len, &sig, 1,
                        COMM_SIG_ADD, 0, r & 1);
        if (r & 1)
            comm_quiet(COMM_CTX_DEFAULT); /* nbi: the source is reused next round */
    }
    if (me == 0) {
        wait_u64_ge(&sig, (uint64_t)NROUNDS * (uint64_t)n);
        CHECK(__atomic_load_n(&sig, __ATOMIC_ACQUIRE) == (uint64_t)NROUNDS * (uint64_t)n);
        for (int pe = 0; pe < n; pe++) {
            int r = NROUNDS - 1;
            size_t len = lens[(size_t)(r + pe) % NLENS];
            CHECK_BUF(slots + (size_t)pe * SLOT, pe, len, r, "adds: last round's data");
        }
    }
    comm_quiet(COMM_CTX_DEFAULT);
    shmem_barrier_all();
}

static void test_quiet_applies(unsigned char *heap, unsigned char *src, unsigned char *dst)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    struct comm_ctx *other;

    CHECK(comm_ctx_create(1 /* SHMEM_CTX_PRIVATE */, NULL, &other) == OFS_OK);
    for (size_t k = 0; k < NLENS * 4; k++) {
        size_t len = lens[k % NLENS];
        uint64_t v = 0;
        sig = 0;
        memset(heap, 0, SLOT);
        shmem_barrier_all();
        fill(src, me, len, 50 + (int)k);
        comm_put_signal(COMM_CTX_DEFAULT, heap, src, len, &sig, 1000 + k, COMM_SIG_SET, right,
                        k & 1);
        comm_quiet(COMM_CTX_DEFAULT);
        /* read back through another context: nothing orders it after the message but
         * quiet */
        comm_get(other, &v, &sig, sizeof(v), right);
        CHECK(v == 1000 + k);
        memset(dst, 0, len);
        comm_get(other, dst, heap, len, right);
        CHECK_BUF(dst, me, len, 50 + (int)k, "quiet: data read back");
        shmem_barrier_all();
        CHECK(__atomic_load_n(&sig, __ATOMIC_ACQUIRE) == 1000 + k);
        CHECK_BUF(heap, left, len, 50 + (int)k, "quiet: data in place");
        shmem_barrier_all();
    }
    comm_ctx_destroy(other);
}

static void test_fence(unsigned char *heap, unsigned char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;

    for (size_t k = 0; k < NLENS; k++) {
        size_t len = lens[k] ? lens[k] : 1;
        uint64_t later = 77 + k;
        sig = 0;
        shmem_barrier_all();
        fill(src, me, len, 60 + (int)k);
        fill(small_buf, me, 1, 90 + (int)k);
        comm_put_signal(COMM_CTX_DEFAULT, heap, src, len, &sig, 5, COMM_SIG_SET, right, 0);
        comm_fence(COMM_CTX_DEFAULT);
        comm_put(COMM_CTX_DEFAULT, heap, small_buf, 1, right); /* overwrites byte 0 */
        comm_put(COMM_CTX_DEFAULT, &sig, &later, sizeof(later), right);
        comm_quiet(COMM_CTX_DEFAULT);
        shmem_barrier_all();
        CHECK(__atomic_load_n(&sig, __ATOMIC_ACQUIRE) == later);
        CHECK(heap[0] == pat(left, 1, 0, 90 + (int)k));
        for (size_t i = 1; i < len; i++)
            if (heap[i] != pat(left, len, i, 60 + (int)k)) {
                CHECK(!"fence: the put-with-signal's data after the overwritten byte");
                break;
            }
        shmem_barrier_all();
    }
}

static void test_same_ctx_after(unsigned char *heap, unsigned char *src, unsigned char *dst)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n;

    for (size_t k = 1; k < NLENS; k++) {
        size_t len = lens[k];
        uint64_t v = 0, one = 1, old = 0;
        sig2 = 0;
        shmem_barrier_all();
        fill(src, me, len, 70 + (int)k);
        comm_put_signal(COMM_CTX_DEFAULT, heap, src, len, &sig2, 10, COMM_SIG_ADD, right, 0);
        memset(dst, 0, len);
        comm_get(COMM_CTX_DEFAULT, dst, heap, len, right);
        CHECK_BUF(dst, me, len, 70 + (int)k, "get after put-with-signal");
        comm_amo(COMM_CTX_DEFAULT, COMM_AMO_FETCH, COMM_DT_U64, &sig2, NULL, NULL, &v, right, 0);
        CHECK(v == 10);
        comm_put_signal(COMM_CTX_DEFAULT, heap, src, len, &sig2, 10, COMM_SIG_ADD, right, 0);
        comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_U64, &sig2, &one, NULL, &old, right, 0);
        CHECK(old == 20);
        comm_quiet(COMM_CTX_DEFAULT);
        shmem_barrier_all();
        CHECK(__atomic_load_n(&sig2, __ATOMIC_ACQUIRE) == 21);
        shmem_barrier_all();
    }
}

static void test_private_ctx(unsigned char *heap, unsigned char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    struct comm_ctx *ctx[3];

    for (int i = 0; i < 3; i++)
        CHECK(comm_ctx_create(1 /* SHMEM_CTX_PRIVATE */, NULL, &ctx[i]) == OFS_OK);
    sig = 0;
    shmem_barrier_all();
    for (int i = 0; i < 3; i++) {
        size_t len = lens[3 + 2 * i];
        fill(src, me, len, 80 + i);
        comm_put_signal(ctx[i], heap + (size_t)i * SLOT, src, len, &sig, 1, COMM_SIG_ADD, right, 0);
    }
    for (int i = 0; i < 3; i++) {
        comm_quiet(ctx[i]);
        comm_ctx_destroy(ctx[i]);
    }
    shmem_barrier_all();
    CHECK(__atomic_load_n(&sig, __ATOMIC_ACQUIRE) == 3);
    for (int i = 0; i < 3; i++)
        CHECK_BUF(heap + (size_t)i * SLOT, left, lens[3 + 2 * i], 80 + i, "private context");
    shmem_barrier_all();
}

#define NMIXED 600

static void test_mixed_executors(unsigned char *slots, unsigned char *src)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t one = 1, old;

    sig3 = 0;
    shmem_barrier_all();
    for (int i = 0; i < NMIXED; i++) {
        size_t len = (size_t)(i % 3) * 8;
        fill(src, me, len, i);
        switch ((i + me) % 3) {
        case 0:
            comm_put_signal(COMM_CTX_DEFAULT, slots + (size_t)me * SLOT, src, len, &sig3, 1,
                            COMM_SIG_ADD, 0, 0);
            break;
        case 1:
            comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_U64, &sig3, &one, NULL, NULL, 0, 0);
            break;
        default:
            if (getenv("OFS_TEST_NO_FETCH"))
                comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_U64, &sig3, &one, NULL, NULL, 0,
                         0);
            else
                comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_U64, &sig3, &one, NULL, &old, 0,
                         0);
            break;
        }
    }
    comm_quiet(COMM_CTX_DEFAULT);
    if (me == 0) {
        wait_u64_ge(&sig3, (uint64_t)NMIXED * (uint64_t)n);
        CHECK(__atomic_load_n(&sig3, __ATOMIC_ACQUIRE) == (uint64_t)NMIXED * (uint64_t)n);
    }
    shmem_barrier_all();
}

#define NAFTER 32
#define BIG (1 << 20) /* a write long enough for a message to overtake it readily */
static void test_signal_after_puts(void)
{
    static const size_t plens[] = { 8, 9000, SLOT, BIG };
    int me = shmem_my_pe(), n = shmem_n_pes();
    int other = n > 1 ? me % (n - 1) + 1 : 0; /* a PE other than 0 (me itself at 2 PEs) */
    unsigned char *area = shmem_malloc((size_t)n * BIG), *src = malloc(BIG);

    CHECK(area && src);
    if (!area || !src)
        return;
    shmem_barrier_all();
    for (int r = 0; r < NAFTER; r++) {
        size_t len = plens[r % 4];
        unsigned char *mine = area + (size_t)me * BIG;
        if (me != 0) {
            fill(src, me, len, 300 + r);
            /* puts to another PE too: before PE 0's (pattern 1 of 4), after it (2), or
             * after a quiet that completes PE 0's (3, where the signal need not wait) */
            int pat = (r / 4) % 4;
            if (pat == 1)
                comm_put(COMM_CTX_DEFAULT, mine, src, len, other);
            comm_put(COMM_CTX_DEFAULT, mine, src, len, 0);
            if (pat == 3)
                comm_quiet(COMM_CTX_DEFAULT);
            if (pat >= 2)
                comm_put(COMM_CTX_DEFAULT, mine, src, len, other);
            comm_put_signal(COMM_CTX_DEFAULT, &sig4, &sig4, 0, &sig4, 1,
                            COMM_SIG_ADD | COMM_SIG_COLL, 0, 0);
        } else {
            wait_u64_ge(&sig4, (uint64_t)(r + 1) * (uint64_t)(n - 1));
            for (int p = 1; p < n; p++)
                CHECK_BUF(area + (size_t)p * BIG, p, len, 300 + r, "put before a signal");
        }
        shmem_barrier_all();
    }
    shmem_free(area);
    free(src);
}

int main(void)
{
    shmem_init();
    int n = shmem_n_pes();
    unsigned char *slots = shmem_malloc((size_t)n * SLOT > 3 * SLOT ? (size_t)n * SLOT : 3 * SLOT);
    unsigned char *src = malloc(SLOT), *dst = malloc(SLOT);

    CHECK(slots && src && dst);
    if (slots && src && dst) {
        test_many_adds(slots, src);
        test_quiet_applies(slots, src, dst);
        test_fence(slots, src);
        if (!getenv("OFS_TEST_NO_FETCH")) /* udp;ofi_rxd: no fetching atomics */
            test_same_ctx_after(slots, src, dst);
        test_private_ctx(slots, src);
        test_mixed_executors(slots, src);
        test_signal_after_puts();
    }
    shmem_free(slots);
    free(src);
    free(dst);
    return test_finish("ofi_signal");
}
