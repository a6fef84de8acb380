/*
 * Same-node broadcast through the root's ring (teams and active sets whose members all
 * map each other's memory, with CPU atomics).
 *
 * Every PE owns a ring of COLL_BRING_SLOTS slots of COLL_BRING_BYTES in the symmetric
 * heap, each with a count of the members that still have to read it.  The root claims
 * as many consecutive slots as the data needs (turning each count from 0 into n - 1),
 * copies its source into them and tells the members where the data is; a member
 * copies the slots into its dest and counts itself off each slot.
 *
 * Telling the members:
 * - team: the root writes an announcement (sequence number, first slot, number of
 *   slots) into entry seq % COLL_BANN_N of its own team counters, after the members
 *   have all read what that entry said before (a count per entry).  Members of a team
 *   make the same calls in the same order, so each knows the sequence number of its
 *   call and which root to look at: a root that runs ahead into the next broadcast (of
 *   another root) cannot be mistaken for this one's.
 * - active set: the root posts the announcement into each member's pSync mailbox word,
 *   which the member empties again (pSync back at 0).  The announcement names the
 *   root; one that names another root means the program reused a pSync that was still
 *   in use, which stops the job with a message rather than returning the wrong data.
 *
 * The root waits for nobody unless its ring or an announcement is still in use, and
 * nobody writes into another PE's dest, so consecutive broadcasts need no barrier: a
 * call costs about one copy on each side.  The root may thus run ahead into the next
 * collective; coll_grp_settle makes those that write into other PEs wait for it.
 *
 * Small team broadcasts (up to COLL_BLINE_BYTES, "inline") skip the ring: the root
 * writes the data into entry seq % COLL_BLINE_N of its own team counters (two cache
 * lines: the sequence number, then the data) and publishes the sequence number; a member
 * polls that word, copies the data from the lines it just fetched and stores seq in its
 * own COLL_F_BLINE_ACK word (a local store, nobody waits on it).  The root reuses an
 * entry once every other member's ack has reached the broadcast COLL_BLINE_N before; it
 * keeps the lowest ack it saw (its seen[COLL_F_BLINE_ACK]), so it reads the members'
 * acks once every few calls.  A member's call costs one transfer of the entry's lines;
 * the ring's costs four (announcement, its count, the slot, the slot's count).
 */
#include "coll_internal.h"

#define COLL_BRING_SLOTS 64
#define COLL_BRING_BYTES 2048
#define COLL_BRING_CHUNKS 32 /* larger broadcasts: members copy from the source */

/* announcement: sequence number (24 bits) | COLL_SLEEPING | first slot << 32 | count << 40;
 * the sequence number sits in the low 32 bits, which is what a futex compares */
#define ANN_SEQ_MASK 0xffffffu
#define ANN(seq, s0, k) \
    (((uint64_t)(seq)&ANN_SEQ_MASK) | ((uint64_t)(s0) << 32) | ((uint64_t)(k) << 40))
#define ANN_SEQ(a) ((uint32_t)(a)&ANN_SEQ_MASK)
#define ANN_S0(a) ((unsigned)((a) >> 32) & 0xff)
#define ANN_K(a) ((unsigned)((a) >> 40) & 0xff)
/* team announcements carry 16 bits of the broadcast's signature (coll_check.c) */
#define ANN_SIG(sig) ((uint64_t)((sig)&0xffffu) << 48)

struct bring_hdr {
    uint64_t pending; /* members that have not read the slot yet */
    char pad[56];
};

static struct bring_hdr *bring_hdr; /* symmetric: COLL_BRING_SLOTS headers, then slots */
static char *bring_data;
static uint64_t bring_next; /* next slot to claim in my ring */

size_t coll_bring_heap_need(void)
{
    return heap_block_len(COLL_BRING_SLOTS * (sizeof(struct bring_hdr) + COLL_BRING_BYTES));
}

ofs_status_t coll_bring_init(void)
{
    size_t len = COLL_BRING_SLOTS * (sizeof(struct bring_hdr) + COLL_BRING_BYTES);

    bring_hdr = heap_alloc(len, 64);
    if (!bring_hdr) {
        ofs_log_error("shmem_init: no room for the broadcast ring (%zu bytes): raise "
                      "SHMEM_SYMMETRIC_SIZE",
                      len);
        return OFS_ERR_NOMEM;
    }
    memset(bring_hdr, 0, len);
    bring_data = (char *)(bring_hdr + COLL_BRING_SLOTS);
    return OFS_OK;
}

void coll_bring_fini(void)
{
    if (bring_hdr)
        heap_free(bring_hdr);
    bring_hdr = NULL;
    bring_data = NULL;
}

/* With a CPU per PE on the node, a broadcast larger than this whose members could copy
 * straight from the root's source (direct) does so: one copy and a barrier took less
 * than the ring's two copies (the second of lines another CPU just wrote) from 8 KiB
 * at 2 PEs, even with the root rewriting its source before every call.  With more PEs
 * than CPUs the barrier costs more than both copies: the ring up to COLL_BRING_CHUNKS
 * slots, half of it, so that the root can have two such broadcasts outstanding
 * (docs/collectives.md, "Measurements behind choices"). */
#define COLL_BRING_DEDICATED_MAX 4096

int coll_bring_fits(const struct coll_grp *g, size_t len, int direct)
{
    size_t max = direct && !ofs_g.oversubscribed ? COLL_BRING_DEDICATED_MAX
                                                 : COLL_BRING_CHUNKS * COLL_BRING_BYTES;

    return bring_hdr && g->all_local && (coll_cfg.fast_signal || g->cpu_sig) && len <= max;
}

/* the slot's last readers are done: claim it for n - 1 new ones */
static int bring_claim(struct bring_hdr *h, int n)
{
    uint64_t zero = 0;

    return __atomic_compare_exchange_n(&h->pending, &zero, (uint64_t)(n - 1), 0, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
}

/* claim k consecutive slots for n - 1 readers and fill them; returns the first */
static unsigned bring_fill(int n, const char *src, size_t len, unsigned k)
{
    unsigned s0 =
        (unsigned)(__atomic_fetch_add(&bring_next, k, __ATOMIC_RELAXED) % COLL_BRING_SLOTS);

    for (unsigned j = 0; j < k; j++) {
        unsigned s = (s0 + j) % COLL_BRING_SLOTS;
        size_t off = (size_t)j * COLL_BRING_BYTES;
        COMM_WAIT_UNTIL(bring_claim(&bring_hdr[s], n));
        memcpy(bring_data + (size_t)s * COLL_BRING_BYTES, src + off,
               len - off < COLL_BRING_BYTES ? len - off : COLL_BRING_BYTES);
    }
    return s0;
}

/* copy the k slots from s0 of the root's ring into dest and count myself off them */
static void bring_drain(int rpe, char *dest, size_t len, unsigned s0, unsigned k)
{
    const char *data = comm_ptr(bring_data, rpe);
    struct bring_hdr *hdr = comm_ptr(bring_hdr, rpe);

    for (unsigned j = 0; j < k; j++) {
        unsigned s = (s0 + j) % COLL_BRING_SLOTS;
        size_t off = (size_t)j * COLL_BRING_BYTES;
        memcpy(dest + off, data + (size_t)s * COLL_BRING_BYTES,
               len - off < COLL_BRING_BYTES ? len - off : COLL_BRING_BYTES);
        __atomic_fetch_sub(&hdr[s].pending, 1, __ATOMIC_RELEASE);
    }
}

/* team: announcement seq in entry seq % COLL_BANN_N of the root's counters */
static void bring_team(struct coll_grp *g, void *dest, const void *src, size_t len, int root,
                       unsigned k)
{
    uint64_t seq = ++g->seen[COLL_F_BANN];
    unsigned e = (unsigned)(seq % COLL_BANN_N);

    if (g->me == root) {
        uint64_t *ack = &g->flags[COLL_F_BACK + e];
        unsigned s0 = bring_fill(g->size, src, len, k);
        /* every member read what the entry said last time */
        COMM_WAIT_UNTIL(__atomic_load_n(ack, __ATOMIC_ACQUIRE) == 0);
        __atomic_store_n(ack, (uint64_t)(g->size - 1), __ATOMIC_RELAXED);
        if (__atomic_exchange_n(&g->flags[COLL_F_BANN + e], ANN(seq, s0, k) | ANN_SIG(g->sig),
                                __ATOMIC_SEQ_CST) &
            COLL_SLEEPING)
            coll_futex_wake(&g->flags[COLL_F_BANN + e]);
        return;
    }
    int rpe = coll_grp_pe(g, root);
    uint64_t *ann = comm_ptr(&g->flags[COLL_F_BANN + e], rpe), a;
    uint32_t want = (uint32_t)(seq & ANN_SEQ_MASK);

    COMM_WAIT_UNTIL_NAP(ANN_SEQ(a = __atomic_load_n(ann, __ATOMIC_ACQUIRE)) == want,
                        (coll_sig_look(g), coll_nap(ann, a)));
    if (OFS_UNLIKELY((a & ANN_SIG(~0u)) != ANN_SIG(g->sig)))
        coll_sig_fail(g, rpe, (uint32_t)(a >> 48), 1);
    __atomic_fetch_sub((uint64_t *)comm_ptr(&g->flags[COLL_F_BACK + e], rpe), 1, __ATOMIC_RELEASE);
    bring_drain(rpe, dest, len, ANN_S0(a), ANN_K(a));
}

/* active set: no state survives a call, so the root puts announcements into a queue of
 * COLL_ASET_BQN entries in each member's pSync, numbered by a sequence of its own; a
 * member takes the oldest (they all come from one root while the program keeps the
 * pSync rules) and empties that entry.  An entry is two words: the announcement and,
 * for up to 8 bytes (k = 0), the data itself, so the smallest broadcasts need no slot.
 * The root reserves an entry (COLL_SLEEPING, which has no sequence number) before it
 * writes the data.  A member that sleeps says so in the bell word. */
#define AQ(seq, s0, k, root) (ANN(seq, s0, k) | ((uint64_t)(root) << 48))
#define AQ_ROOT(a) ((int)((a) >> 48))
#define AQ_INLINE 8 /* bytes carried in the entry */

static uint32_t bring_aset_seq; /* announcements I posted as a root */

/* 0 when the member has COLL_ASET_BQN to read already */
static int aset_try_post(uint64_t *q, uint64_t *bell, uint64_t a, uint64_t data)
{
    for (int j = 0; j < COLL_ASET_BQN; j++) { /* from seq's own entry: usually free */
        uint64_t *e = &q[2 * ((a + (uint64_t)j) % COLL_ASET_BQN)], zero = 0;
        if (__atomic_load_n(e, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(e, &zero, COLL_SLEEPING, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            __atomic_store_n(&e[1], data, __ATOMIC_RELAXED);
            __atomic_store_n(e, a, __ATOMIC_SEQ_CST);
            if (__atomic_load_n(bell, __ATOMIC_SEQ_CST) &&
                __atomic_exchange_n(bell, 0, __ATOMIC_SEQ_CST))
                coll_futex_wake(bell);
            return 1;
        }
    }
    return 0;
}

/* the entry of the oldest announcement in my queue, or NULL: a is older than b when
 * seq(b) - seq(a) is small and positive modulo 2^24 (at most COLL_ASET_BQN are queued) */
static uint64_t *aset_oldest(uint64_t *q, uint64_t *a_out)
{
    uint64_t *best = NULL, ba = 0;

    for (int i = 0; i < COLL_ASET_BQN; i++) {
        uint64_t a = __atomic_load_n(&q[2 * i], __ATOMIC_ACQUIRE);
        if ((a & ANN_SEQ_MASK) && /* not empty, not reserved */
            (!best || ((uint32_t)(ba - a) & ANN_SEQ_MASK) < ANN_SEQ_MASK / 2)) {
            best = &q[2 * i];
            ba = a;
        }
    }
    *a_out = ba;
    return best;
}

/* ring my bell (COLL_SLEEPING) and sleep on it unless an announcement came meanwhile */
static void aset_nap(uint64_t *q, uint64_t *bell)
{
    uint64_t zero = 0, a;

    if (!__atomic_compare_exchange_n(bell, &zero, COLL_SLEEPING, 0, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST) &&
        zero != COLL_SLEEPING)
        return;
    if (!aset_oldest(q, &a)) /* posted before the bell rang: do not sleep */
        coll_futex_wait(bell, COLL_SLEEPING);
}

static void bring_aset(struct coll_grp *g, void *dest, const void *src, size_t len, int root,
                       unsigned k)
{
    int n = g->size;

    if (len <= AQ_INLINE)
        k = 0;
    if (g->me == root) {
        unsigned s0 = 0;
        uint64_t data = 0;
        if (k)
            s0 = bring_fill(n, src, len, k);
        else
            memcpy(&data, src, len);
        uint32_t seq = __atomic_add_fetch(&bring_aset_seq, 1, __ATOMIC_RELAXED) & ANN_SEQ_MASK;
        if (seq == 0) /* an announcement's sequence number is never 0 */
            seq = __atomic_add_fetch(&bring_aset_seq, 1, __ATOMIC_RELAXED) & ANN_SEQ_MASK;
        for (int i = 1; i < n; i++) {
            int pe = coll_grp_pe(g, (g->me + i) % n);
            uint64_t *q = comm_ptr(&g->flags[COLL_ASET_BQ], pe);
            uint64_t *bell = comm_ptr(&g->flags[COLL_ASET_BBELL], pe);
            COMM_WAIT_UNTIL(aset_try_post(q, bell, AQ(seq, s0, k, root), data));
        }
        return;
    }
    uint64_t *q = &g->flags[COLL_ASET_BQ], *bell = &g->flags[COLL_ASET_BBELL], *e, a;

    COMM_WAIT_UNTIL_NAP((e = aset_oldest(q, &a)) != NULL, aset_nap(q, bell));
    /* Once more: a scan reads the entries one at a time, so it can pass an entry before
     * the root's announcement lands there and find the root's next one in a later entry
     * (a broadcast64 then a broadcast32 on one pSync: each would take the other's data).
     * The root posts in order, so the announcement this scan found was posted after
     * every older one: now they are all visible. */
    e = aset_oldest(q, &a);
    if (__atomic_load_n(bell, __ATOMIC_RELAXED)) /* pSync reads 0 again on return */
        __atomic_store_n(bell, 0, __ATOMIC_RELAXED);
    if (AQ_ROOT(a) != root || ANN_K(a) != k)
        ofs_bad_input("shmem_broadcast",
                      "the pSync passed is still in use by another broadcast (from member "
                      "%d of the active set, this one is from %d): use a barrier or another "
                      "pSync between the calls",
                      AQ_ROOT(a), root);
    if (k == 0) {
        uint64_t data = __atomic_load_n(&e[1], __ATOMIC_RELAXED);
        memcpy(dest, &data, len);
        __atomic_store_n(&e[1], 0, __ATOMIC_RELAXED);
        __atomic_store_n(e, 0, __ATOMIC_RELEASE);
        return;
    }
    __atomic_store_n(e, 0, __ATOMIC_RELEASE);
    bring_drain(coll_grp_pe(g, root), dest, len, ANN_S0(a), ANN_K(a));
}

void coll_bring_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root)
{
    unsigned k = (unsigned)((len + COLL_BRING_BYTES - 1) / COLL_BRING_BYTES);

    if (g->seen)
        bring_team(g, dest, src, len, root, k);
    else
        bring_aset(g, dest, src, len, root, k);
    g->unsynced |= COLL_UNSYNC_RING;
}

/* ---- small team collectives carried in the members' counters ---- */

#define BLINE_SEQ(s) ((uint32_t)(s) & ~COLL_SLEEPING) /* the word a member polls */

int coll_bline_fits(const struct coll_grp *g, size_t len)
{
    return g->seen && g->all_local && (coll_cfg.fast_signal || g->cpu_sig) &&
           len <= COLL_BLINE_BYTES;
}

/* my entry or member i's of call seq */
static uint64_t *bline_entry(struct coll_grp *g, uint64_t seq, int i)
{
    uint64_t *e = &g->flags[COLL_F_BLINE + COLL_BLINE_WORDS * (int)(seq % COLL_BLINE_N)];

    return i == g->me ? e : comm_ptr(e, coll_grp_pe(g, i));
}

/* write len bytes of src into my entry of call seq and publish it, once the entry's last
 * readers are done: every other member completed call seq - COLL_BLINE_N */
static void bline_post(struct coll_grp *g, uint64_t seq, const void *src, size_t len)
{
    uint64_t *e = bline_entry(g, seq, g->me);
    uint64_t need = seq > COLL_BLINE_N ? seq - COLL_BLINE_N : 0;

    if (g->seen[COLL_F_BLINE_ACK] < need) {
        uint64_t low = UINT64_MAX;
        for (int i = 0; i < g->size; i++) {
            if (i == g->me)
                continue;
            uint64_t *ack = comm_ptr(&g->flags[COLL_F_BLINE_ACK], coll_grp_pe(g, i)), a;
            COMM_WAIT_UNTIL((a = __atomic_load_n(ack, __ATOMIC_ACQUIRE)) >= need);
            low = a < low ? a : low;
        }
        g->seen[COLL_F_BLINE_ACK] = low;
    }
    memcpy(e + 1, src, len);
    /* the signature in the high word of the one a member polls (coll_check.c) */
    if (__atomic_exchange_n(e, (uint64_t)BLINE_SEQ(seq) | (uint64_t)g->sig << 32,
                            __ATOMIC_SEQ_CST) &
        COLL_SLEEPING)
        coll_futex_wake(e);
}

/* member i's data of call seq, once it is there */
static const void *bline_wait(struct coll_grp *g, uint64_t seq, int i)
{
    uint64_t *re = bline_entry(g, seq, i), a;

    COMM_WAIT_UNTIL_NAP(((uint32_t)(a = __atomic_load_n(re, __ATOMIC_ACQUIRE)) & ~COLL_SLEEPING) ==
                            BLINE_SEQ(seq),
                        (coll_sig_look(g), coll_nap(re, a)));
    if (OFS_UNLIKELY((uint32_t)(a >> 32) != g->sig))
        coll_sig_fail(g, coll_grp_pe(g, i), (uint32_t)(a >> 32), 1);
    return re + 1;
}

/* after every copy out of the others' entries: they may refill them once they see this */
static void bline_end(struct coll_grp *g, uint64_t seq)
{
    __atomic_store_n(&g->flags[COLL_F_BLINE_ACK], seq, __ATOMIC_RELEASE);
    g->unsynced |= COLL_UNSYNC_RING;
}

void coll_bline_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root)
{
    uint64_t seq = ++g->seen[COLL_F_BLINE];

    if (g->me == root)
        bline_post(g, seq, src, len);
    else
        memcpy(dest, bline_wait(g, seq, root), len);
    bline_end(g, seq);
}

void coll_bline_collectv(struct coll_grp *g, char *dest, const void *src, const size_t *offs,
                         const size_t *lens)
{
    uint64_t seq = ++g->seen[COLL_F_BLINE];

    bline_post(g, seq, src, lens[g->me]);
    for (int j = 1; j < g->size; j++) {
        int i = (g->me + j) % g->size;
        memcpy(dest + offs[i], bline_wait(g, seq, i), lens[i]);
    }
    bline_end(g, seq);
}

void coll_bline_reduce(struct coll_grp *g, void *dest, const void *src, size_t nreduce,
                       enum coll_op op, enum coll_type type)
{
    uint64_t seq = ++g->seen[COLL_F_BLINE], acc[COLL_BLINE_BYTES / 8];
    size_t len = nreduce * coll_type_size(type);

    bline_post(g, seq, src, len);
    /* every member folds in member order: the same result everywhere, bit for bit */
    memcpy(acc, g->me == 0 ? src : bline_wait(g, seq, 0), len);
    for (int i = 1; i < g->size; i++)
        coll_op_apply(op, type, acc, i == g->me ? src : bline_wait(g, seq, i), nreduce);
    bline_end(g, seq);
    memcpy(dest, acc, len);
}
