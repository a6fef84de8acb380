/*
 * The message engine (docs/messages.md; this file: start-up, handles, receiving,
 * matching, waiting; msg_send.c: sending): rings of records in symmetric memory,
 * credits, rendezvous, matching.  One lock guards all of it; a waiting thread drops it
 * between looks (COMM_WAIT_UNTIL).
 *
 * Symmetric memory of each PE (allocated in the same order everywhere):
 *   ring   [src] a byte ring of records (64 B header + inline bytes, 64-byte aligned)
 *          that src fills, each with one put-with-signal whose signal is the record's
 *          seq word (k + 1 for its k-th record); a wrap record skips the ring's tail
 *   credit [dest]  ring bytes dest has consumed of the ones this PE sent it (dest writes)
 *   fin    [id]    generation of a finished rendezvous id of this PE (receivers write)
 *   stage  where private send buffers are copied for the receiver's get
 * A message is one eager record, or one or more rendezvous records (pieces) sent back
 * to back: pieces of a symmetric buffer name it (no copy), a private buffer goes
 * through the stage.  A receiver drains every record as soon as it sees it (credits go
 * back in batches of half a ring), into a posted receive or the unexpected list; the
 * data of an unexpected rendezvous stays at the sender until a receive takes it, or
 * until this PE waits in a message routine: then it is pulled into private memory so
 * that its sender can go on (both sides sending large messages at once).
 */
#include "msg_internal.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

struct msg_state msg_g = { .lock = PTHREAD_MUTEX_INITIALIZER, .reqs = OFS_HTAB_INITIALIZER };

/* ---- start-up ---- */

/* SHMEM_MSG_RING_SIZE and SHMEM_MSG_EAGER_SIZE; auto ones keep the rings of all sources
 * within MSG_RING_BUDGET (the same on every PE: they depend on n only).  A record is at
 * most a quarter of a ring, so that a sender never waits for credits the receiver holds
 * back (they return in batches of half a ring).  0: messages off. */
static ofs_status_t msg_sizes(size_t *rbytes_p, size_t *eager_p, int quiet)
{
    long rp = ofs_g.params.MSG_RING_SIZE, ep = ofs_g.params.MSG_EAGER_SIZE;
    size_t n = (size_t)ofs_g.n_pes, r, e;

    if (rp == OFS_PARAM_AUTO) {
        r = MSG_RING_BUDGET / n;
        r = r > MSG_RING_AUTO_MAX ? MSG_RING_AUTO_MAX : r < MSG_RING_MIN ? MSG_RING_MIN : r;
    } else {
        r = (size_t)rp;
    }
    /* an eager size set by hand grows an automatic ring to hold it */
    if (rp == OFS_PARAM_AUTO && ep != OFS_PARAM_AUTO && r < 4 * msg_rec_bytes((size_t)ep))
        r = 4 * msg_rec_bytes((size_t)ep);
    r &= ~(size_t)63;
    if (r == 0) {
        *rbytes_p = *eager_p = 0;
        return OFS_OK;
    }
    if (r < MSG_RING_MIN) {
        if (quiet)
            return OFS_ERR_INVAL;
        ofs_log_error("messages: SHMEM_MSG_RING_SIZE=%ld is below the %d bytes a ring needs "
                      "(0 turns messages off)",
                      rp, MSG_RING_MIN);
        return OFS_ERR_INVAL;
    }
    if (ep == OFS_PARAM_AUTO) {
        e = (r / 4 - MSG_HDR) & ~(size_t)63;
        e = e > MSG_EAGER_AUTO ? MSG_EAGER_AUTO : e;
    } else {
        e = (size_t)ep;
        if (msg_rec_bytes(e) > r / 4) {
            if (quiet)
                return OFS_ERR_INVAL;
            ofs_log_error("messages: SHMEM_MSG_EAGER_SIZE=%zu needs SHMEM_MSG_RING_SIZE of at "
                          "least %zu (a message is at most a quarter of a ring); it is %zu",
                          e, 4 * msg_rec_bytes(e), r);
            return OFS_ERR_INVAL;
        }
    }
    if (!quiet) {
        ofs_param_resolved(OFS_PARAM_MSG_RING_SIZE, (long)r);
        ofs_param_resolved(OFS_PARAM_MSG_EAGER_SIZE, (long)e);
    }
    *rbytes_p = r;
    *eager_p = e;
    return OFS_OK;
}

/* Map the pages of the rings now, not one fault per page during the first messages
 * (0.2 against 0.12 us a message while the first lap of a ring went by): this PE's
 * rings, and its ring at every peer whose memory it reaches by load/store.  Reads only:
 * the peers may be sending already. */
static void msg_prefault(void)
{
    const size_t pg = 4096;

    for (size_t off = 0; off < (size_t)msg_g.n * msg_g.rbytes; off += pg)
        (void)*(volatile char *)(msg_g.ring + off);
    for (int pe = 0; pe < msg_g.n; pe++) {
        char *p = msg_g.pring[pe];
        for (size_t off = 0; p && pe != msg_g.me && off < msg_g.rbytes; off += pg)
            (void)*(volatile char *)(p + off);
    }
}

int msg_enabled(void)
{
    return msg_g.on;
}

static size_t msg_stage_len(void)
{
    return ((size_t)ofs_g.params.MSG_STAGE_SIZE + 63) & ~(size_t)63;
}

/* the blocks msg_init allocates, block by block */
size_t msg_heap_need(void)
{
    size_t rbytes, eager, n = (size_t)ofs_g.n_pes;

    if (msg_sizes(&rbytes, &eager, 1) != OFS_OK || rbytes == 0)
        return 0; /* msg_init fails, or allocates nothing */
    return heap_block_len(n * rbytes) + heap_block_len(n * sizeof(uint64_t)) +
           heap_block_len(MSG_RDV_MAX * sizeof(uint64_t)) + heap_block_len(msg_stage_len()) +
           heap_block_len((2 + n) * sizeof(uint64_t)) + heap_block_len(sizeof(uint64_t));
}

ofs_status_t msg_init(void)
{
    size_t ring, n;
    ofs_status_t st;

    msg_g.n = ofs_g.n_pes;
    msg_g.me = ofs_g.my_pe;
    st = msg_sizes(&msg_g.rbytes, &msg_g.eager, 0);
    if (st != OFS_OK || msg_g.rbytes == 0)
        return st;
    msg_g.rec_max = msg_rec_bytes(msg_g.eager);
    msg_g.batch = msg_g.rbytes / 2;
    msg_g.stage_len = msg_stage_len();
    msg_g.chunk = (size_t)ofs_g.params.MSG_PIECE_SIZE;
    if (msg_g.chunk > msg_g.stage_len / MSG_STAGE_PIECES)
        msg_g.chunk = msg_g.stage_len / MSG_STAGE_PIECES;
    msg_g.chunk &= ~(size_t)63;
    n = (size_t)msg_g.n;
    ring = n * msg_g.rbytes;
    /* fresh heap blocks are zero (no block was freed before): every seq reads 0 */
    msg_g.ring = heap_alloc(ring, 64);
    msg_g.credit = heap_alloc(n * sizeof(uint64_t), 64);
    msg_g.fin = heap_alloc(MSG_RDV_MAX * sizeof(uint64_t), 64);
    msg_g.stage = heap_alloc(msg_g.stage_len, 64);
    /* allocated whatever SHMEM_MSG_CMA says: the order of blocks is the same everywhere */
    msg_g.cma_word = heap_alloc((2 + n) * sizeof(uint64_t), 64);
    msg_g.bye = heap_alloc(sizeof(uint64_t), 64);
    if (!msg_g.ring || !msg_g.credit || !msg_g.fin || !msg_g.stage || !msg_g.cma_word ||
        !msg_g.bye) {
        ofs_log_error("messages: %zu bytes of symmetric memory for %d PEs x "
                      "SHMEM_MSG_RING_SIZE=%zu and SHMEM_MSG_STAGE_SIZE=%zu do not fit in the "
                      "heap: lower them (SHMEM_MSG_RING_SIZE=0 turns messages off)",
                      ring + msg_g.stage_len, msg_g.n, msg_g.rbytes, msg_g.stage_len);
        return OFS_ERR_NOMEM;
    }
    msg_g.stage_seg = heap_seg_of(msg_g.stage, msg_g.stage_len, &msg_g.stage_off);
    msg_g.stage_a = heap_allocator_create(msg_g.stage, msg_g.stage_len);
    msg_g.head = calloc(n * 7, sizeof(uint64_t));
    msg_g.cur = calloc(n, sizeof(*msg_g.cur));
    msg_g.pring = calloc(n, sizeof(*msg_g.pring));
    msg_g.sq_head = calloc(n * 2, sizeof(*msg_g.sq_head));
    msg_g.scratch = malloc(msg_g.rec_max);
    msg_g.cma_to = calloc(n * 3, 1);
    msg_g.full_since = calloc(n, sizeof(*msg_g.full_since));
    if (!msg_g.head || !msg_g.cur || !msg_g.pring || !msg_g.sq_head || !msg_g.scratch ||
        !msg_g.cma_to || !msg_g.full_since || !msg_g.stage_a ||
        ofs_htab_init(&msg_g.reqs, MSG_REQ_SLOT, MSG_REQ_MAX) != OFS_OK) {
        ofs_log_error("messages: out of memory for the state of %d PEs", msg_g.n);
        return OFS_ERR_NOMEM;
    }
    msg_g.cred_sent = msg_g.head + n;
    msg_g.sent = msg_g.head + 2 * n;
    msg_g.nrd = msg_g.head + 3 * n;
    msg_g.nwr = msg_g.head + 4 * n;
    msg_g.hoff = msg_g.head + 5 * n;
    msg_g.clean = msg_g.head + 6 * n;
    msg_g.sq_tail = msg_g.sq_head + n;
    msg_g.cma_probed = (uint8_t *)msg_g.cma_to + n;
    msg_g.gone = (uint8_t *)msg_g.cma_to + 2 * n;
    msg_g.cma_min = MSG_CMA_MIN;
    /* one copy by CMA ties Open MPI's bandwidth; the staged path's two copies run on two
     * cores at once and beat it while every PE has a CPU, and lose when they must take
     * turns (docs/performance.md, "Private buffers: staged against CMA"): with a CPU per
     * PE, stage while the stage has room and send the rest by CMA once the receiver lags
     * ("rest"; "Staged, then CMA once the stage is full") */
    msg_g.cma_use = ofs_g.params.MSG_CMA != OFS_MSG_CMA_OFF;
    msg_g.cma_whole = ofs_g.params.MSG_CMA == OFS_MSG_CMA_ON ||
                      (ofs_g.params.MSG_CMA == OFS_MSG_CMA_AUTO && ofs_g.oversubscribed);
    if (msg_g.cma_min <= msg_g.eager)
        msg_g.cma_min = msg_g.eager + 1;
    /* before any record of ours: a receiver reads them once it has seen one */
    msg_g.cma_word[0] = (uint64_t)getpid();
    msg_g.cma_word[1] = (uint64_t)(uintptr_t)msg_g.cma_word;
    /* the route is fixed at init: look the mapped rings up once, not per message */
    for (int pe = 0; pe < msg_g.n; pe++) {
        msg_g.pring[pe] = comm_ptr(msg_rec(msg_g.me, 0), pe);
        msg_g.clean[pe] = msg_g.rbytes; /* the first lap is zero */
    }
    msg_prefault();
    msg_g.on = 1;
    return OFS_OK;
}

void msg_bye(void)
{
    if (msg_g.on)
        __atomic_store_n(msg_g.bye, 1, __ATOMIC_RELEASE);
}

void msg_fini(void)
{
    struct msg_in *m, *nx;

    if (!msg_g.on)
        return;
    msg_g.on = 0;
    /* a message still arriving in pieces: freed here if bound to a receive and not on
     * the resend list, else by the loops below (the unexpected list's frees it: before) */
    for (int s = 0; s < msg_g.n; s++) {
        struct msg_in *c = msg_g.cur[s];

        msg_g.cur[s] = NULL;
        for (m = msg_g.resend; c && m; m = m->rnext)
            if (m == c)
                c = NULL;
        if (c && c->req) {
            free(c->pend);
            free(c);
        }
    }
    /* what nobody received is dropped (the symmetric blocks go with the heap); a
     * message waiting to be sent again is on the unexpected list unless a receive took
     * it (first: the unexpected ones are freed below) */
    for (m = msg_g.resend; m; m = nx) {
        nx = m->rnext;
        if (m->req) {
            free(m->pend);
            free(m);
        }
    }
    msg_g.resend = NULL;
    for (m = msg_g.unx_head; m; m = nx) {
        nx = m->next;
        if (m->owned)
            free(m->buf);
        free(m->pend);
        free(m);
    }
    ofs_htab_fini(&msg_g.reqs);
    heap_allocator_destroy(msg_g.stage_a);
    msg_g.stage_a = NULL;
    free(msg_g.head);
    free(msg_g.cur);
    free(msg_g.pring);
    free(msg_g.sq_head);
    free(msg_g.scratch);
    free(msg_g.cma_to);
    free(msg_g.full_since);
    msg_g.full_since = NULL;
    msg_g.unx_head = msg_g.unx_tail = NULL;
    msg_g.post_head = msg_g.post_tail = NULL;
}

/* ---- handles ---- */

struct msg_req *msg_req_new(void)
{
    return ofs_htab_alloc(&msg_g.reqs);
}

void msg_req_free(struct msg_req *r)
{
    ofs_htab_free(&msg_g.reqs, r);
}

int msg_req_valid(const void *h)
{
    return msg_g.on && ofs_htab_holds(&msg_g.reqs, h, MSG_REQ_SLOT, MSG_REQ_MAGIC);
}

/* ---- receiving ---- */

static int msg_match(int want_src, int want_tag, int src, int tag)
{
    return (want_src == MSG_ANY || want_src == src) && (want_tag == MSG_ANY || want_tag == tag);
}

static void msg_req_finish(struct msg_req *r, int src, int tag, size_t len)
{
    r->st_source = src;
    r->st_tag = tag;
    r->st_len = len;
    r->err = len > r->len ? MSG_ERR_TRUNCATE : 0;
    OFS_STATS_MSG(OFS_STATS_RECV, len);
    r->done = 1;
}

/* Every piece of m has landed. */
static void msg_in_complete(struct msg_in *m)
{
    struct msg_req *r = m->req;

    if (msg_g.cur[m->src] == m)
        msg_g.cur[m->src] = NULL;
    if (!r) {
        m->complete = 1;
        return;
    }
    if (m->owned) {
        size_t n = m->len < r->len ? m->len : r->len;
        if (n)
            memcpy(r->buf, m->buf, n);
        free(m->buf);
    }
    msg_req_finish(r, m->src, m->tag, m->len);
    free(m->pend);
    free(m);
}

/* The kernel refused to read m's data from its sender by CMA although the probe had
 * passed (the buffer unmapped or protected, a ptrace policy changed, ...): no more CMA
 * from that PE, and the sender stages the message instead: m waits on the resend list
 * for pieces that name this record (msg_piece_arrive). */
static void msg_cma_failed(struct msg_in *m, const struct msg_hdr *h)
{
    ofs_log_debug("messages: CMA read of %llu bytes from PE %d (pid %llu) failed: %s; the "
                  "message comes staged",
                  (unsigned long long)h->frag_len, m->src, (unsigned long long)h->pid,
                  strerror(errno));
    __atomic_store_n(&msg_g.cma_word[2 + m->src], 2, __ATOMIC_RELEASE);
    m->rkey = ((uint64_t)h->rdv_id << 32) | h->rdv_gen;
    m->rnext = msg_g.resend;
    msg_g.resend = m;
    msg_word_set(&msg_g.fin[h->rdv_id], h->rdv_gen | MSG_FIN_NACK, m->src);
}

/* The message of a staged piece sent again after a failed CMA read (taken off the
 * resend list with its last piece). */
static struct msg_in *msg_resend_find(int src, const struct msg_hdr *h)
{
    struct msg_in **pp, *m;

    for (pp = &msg_g.resend; (m = *pp); pp = &m->rnext)
        if (m->src == src && m->rkey == h->pid) {
            if (m->landed + h->frag_len >= m->len)
                *pp = m->rnext;
            return m;
        }
    ofs_fatal(1, "messages: internal: a piece sent again by PE %d for no message", src);
    return NULL;
}

/* Put one piece where m's data goes: the part that fits in its buffer (a truncated
 * receive drops the rest), then tell a rendezvous sender its piece is free. */
static void msg_piece_land(struct msg_in *m, const struct msg_hdr *h, const void *payload)
{
    size_t off = h->frag_off, n = h->frag_len, fit = 0;

    if (off < m->cap)
        fit = n < m->cap - off ? n : m->cap - off;
    if (MSG_KIND(h->kind) == MSG_FRAG_EAGER) {
        if (fit)
            memcpy(m->buf + off, payload, fit);
    } else if (MSG_KIND(h->kind) == MSG_FRAG_CMA) {
        if (fit && msg_cma_read(m->buf + off, h->pid, h->rseg_off + off, fit) != 0) {
            msg_cma_failed(m, h);
            return;
        }
        msg_word_set(&msg_g.fin[h->rdv_id], h->rdv_gen, m->src);
    } else {
        if (fit)
            comm_get_seg(COMM_CTX_DEFAULT, m->buf + off, (int)(h->rseg_off >> 56),
                         (size_t)(h->rseg_off & ((1ULL << 56) - 1)), fit, m->src);
        msg_word_set(&msg_g.fin[h->rdv_id], h->rdv_gen, m->src);
    }
    m->landed += n;
    if (m->landed == m->len)
        msg_in_complete(m);
}

/* m now has a buffer: land what waited for one. */
static void msg_in_bind(struct msg_in *m, char *buf, size_t cap, int owned)
{
    struct msg_hdr *pend = m->pend;
    int np = m->npend;

    m->buf = buf;
    m->cap = cap;
    m->owned = owned;
    m->bound = 1;
    m->pend = NULL;
    m->npend = m->pcap = 0;
    msg_g.n_unbound--;
    for (int i = 0; i < np; i++)
        msg_piece_land(m, &pend[i], NULL); /* may free m at the last */
    free(pend);
}

static struct msg_req *msg_posted_take(int src, int tag)
{
    struct msg_req *r, *prev = NULL;

    for (r = msg_g.post_head; r; prev = r, r = r->next)
        if (msg_match(r->pe, r->tag, src, tag)) {
            if (prev)
                prev->next = r->next;
            else
                msg_g.post_head = r->next;
            if (msg_g.post_tail == r)
                msg_g.post_tail = prev;
            r->next = NULL;
            return r;
        }
    return NULL;
}

static void msg_piece_arrive(int src, const struct msg_hdr *h)
{
    const void *payload = (const char *)h + MSG_HDR;
    struct msg_in *m;

    if (OFS_UNLIKELY(h->kind & MSG_F_RESEND)) {
        msg_piece_land(msg_resend_find(src, h), h, NULL);
        return;
    }
    if (h->frag_off == 0) {
        struct msg_req *r = msg_posted_take(src, h->tag);
        if (r && MSG_KIND(h->kind) == MSG_FRAG_EAGER) {
            /* an eager message for a posted receive (a ping-pong's every message):
             * straight into its buffer, no msg_in */
            size_t fit = h->len < r->len ? h->len : r->len;
            if (fit)
                memcpy(r->buf, payload, fit);
            msg_req_finish(r, src, h->tag, h->len);
            return;
        }
        m = calloc(1, sizeof(*m));
        if (!m)
            ofs_fatal(1, "messages: out of memory");
        m->src = src;
        m->tag = h->tag;
        m->len = h->len;
        if (h->frag_len < h->len)
            msg_g.cur[src] = m;
        if (r) {
            m->req = r;
            m->buf = r->buf;
            m->cap = r->len;
            m->bound = 1;
        } else {
            if (msg_g.unx_tail)
                msg_g.unx_tail->next = m;
            else
                msg_g.unx_head = m;
            msg_g.unx_tail = m;
            if (MSG_KIND(h->kind) == MSG_FRAG_EAGER) {
                m->buf = h->len ? msg_alloc(h->len) : NULL;
                m->cap = h->len;
                m->owned = m->bound = 1;
            } else {
                msg_g.n_unbound++;
            }
        }
    } else {
        m = msg_g.cur[src];
        if (!m)
            ofs_fatal(1, "messages: internal: a piece from PE %d without its message", src);
    }
    if (m->bound) {
        msg_piece_land(m, h, payload);
        return;
    }
    if (m->npend == m->pcap) {
        m->pcap = m->pcap ? 2 * m->pcap : 4;
        m->pend = realloc(m->pend, (size_t)m->pcap * sizeof(*m->pend));
        if (!m->pend)
            ofs_fatal(1, "messages: out of memory");
    }
    m->pend[m->npend++] = *h;
}

/* Take every record that has arrived; give credits back in batches.  A record the
 * sender wrote through the fabric (no MSG_F_NEXT0) leaves its lines to the receiver to
 * clear: the first word of each, before its bytes go back, so that a later record's
 * sequence word never reads as stale payload; where the ring is mapped the sender
 * zeroes that word itself (msg_post_rec). */
static void msg_drain(void)
{
    for (int s = 0; s < msg_g.n; s++) {
        char *ring = msg_g.ring + (size_t)s * msg_g.rbytes;
        uint64_t pos = msg_g.head[s], k = msg_g.nrd[s], off = msg_g.hoff[s];
        struct msg_hdr *h;

        while (__atomic_load_n(&(h = (struct msg_hdr *)(ring + off))->seq, __ATOMIC_ACQUIRE) ==
               k + 1) {
            uint32_t kind = h->kind;
            size_t len = MSG_KIND(kind) == MSG_FRAG_WRAP    ? msg_g.rbytes - (size_t)off
                         : MSG_KIND(kind) == MSG_FRAG_EAGER ? msg_rec_bytes(h->frag_len)
                                                            : MSG_HDR;
            if (OFS_UNLIKELY(!msg_g.cma_probed[s]))
                msg_cma_probe(s);
            if (MSG_KIND(kind) != MSG_FRAG_WRAP)
                msg_piece_arrive(s, h);
            if (!(kind & MSG_F_NEXT0))
                for (size_t o = 0; o < len; o += 64)
                    *(uint64_t *)((char *)h + o) = 0;
            pos += len;
            off = off + len == msg_g.rbytes ? 0 : off + len;
            k++;
        }
        msg_g.head[s] = pos;
        msg_g.hoff[s] = off;
        msg_g.nrd[s] = k;
        if (pos - msg_g.cred_sent[s] >= msg_g.batch) {
            msg_g.cred_sent[s] = pos;
            msg_word_set(&msg_g.credit[msg_g.me], pos, s);
        }
    }
}

/* Pull the data of unexpected rendezvous messages into private memory. */
static void msg_rescue(void)
{
    struct msg_in *m = msg_g.unx_head, *nx;

    for (; m && msg_g.n_unbound; m = nx) {
        nx = m->next;
        if (!m->bound)
            msg_in_bind(m, msg_alloc(m->len), m->len, 1);
    }
}

static void msg_progress(int rescue)
{
    msg_drain();
    if (msg_g.rdv_used)
        msg_fin_poll();
    if (msg_g.sq_active)
        msg_sends_advance();
    if (rescue && msg_g.n_unbound)
        msg_rescue();
}

void msg_recv_start(struct msg_req *r, int src, int tag, void *buf, size_t len)
{
    struct msg_in **pp, *m, *prev = NULL;

    r->kind = MSG_REQ_RECV;
    r->pe = src;
    r->tag = tag;
    r->buf = buf;
    r->len = len;
    pthread_mutex_lock(&msg_g.lock);
    msg_drain();
    for (pp = &msg_g.unx_head; (m = *pp); prev = m, pp = &m->next)
        if (msg_match(src, tag, m->src, m->tag))
            break;
    if (!m) {
        if (msg_g.post_tail)
            msg_g.post_tail->next = r;
        else
            msg_g.post_head = r;
        msg_g.post_tail = r;
        pthread_mutex_unlock(&msg_g.lock);
        return;
    }
    *pp = m->next;
    if (msg_g.unx_tail == m)
        msg_g.unx_tail = prev;
    m->next = NULL;
    m->req = r;
    if (m->complete)
        msg_in_complete(m);
    else if (!m->bound)
        msg_in_bind(m, buf, len, 0);
    pthread_mutex_unlock(&msg_g.lock);
}

/* ---- peers in shmem_finalize ---- */

/* Has pe reached shmem_finalize (msg_bye)?  Read by the PE that waits, never written
 * to pe: pe cannot leave finalize's fence before this PE arrives there. */
static int msg_bye_read(int pe)
{
    const uint64_t *p = comm_ptr(msg_g.bye, pe);
    uint64_t v = 0;

    if (p)
        v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
    else
        comm_get(COMM_CTX_DEFAULT, &v, msg_g.bye, sizeof(v), pe);
    return v != 0;
}

/* Can no message from src (a PE or MSG_ANY) come any more?  A PE can send nothing more
 * once it is in shmem_finalize (its bye word is set after its quiet: every record of it
 * is in this PE's ring by then); MSG_ANY: every other PE is, and this PE cannot send
 * to itself either (no send of its own to itself queued or in flight, no other thread
 * that may call shmemx_send).  The PEs read gone are dropped as destinations.  The
 * caller drains once more and looks for a match. */
static int msg_bye_src(int src)
{
    if (src != MSG_ANY) {
        if (src == msg_g.me || !msg_bye_read(src))
            return 0;
        msg_drop_dest(src);
        return 1;
    }
    if (ofs_g.thread_level == MSG_THREAD_MULTIPLE || msg_g.sq_head[msg_g.me])
        return 0;
    for (int i = 0; i < MSG_RDV_MAX && msg_g.rdv_used; i++)
        if (msg_g.rdv[i].used && msg_g.rdv[i].pe == msg_g.me)
            return 0;
    /* in PE order from the first not read gone: usually one read that says no */
    for (int pe = 0; pe < msg_g.n; pe++) {
        if (pe == msg_g.me || msg_g.gone[pe])
            continue;
        if (!msg_bye_read(pe))
            return 0;
        msg_drop_dest(pe);
    }
    return 1;
}

/* A receive whose every possible source can send no more (msg_bye_src) and that no
 * record matches after one more drain can never complete. */
static void msg_bye_recv(struct msg_req *r, const char *routine)
{
    if (!msg_bye_src(r->pe))
        return;
    msg_progress(1);
    if (r->done)
        return;
    if (r->pe == MSG_ANY)
        ofs_bad_input(routine,
                      "a receive from SHMEMX_ANY_SOURCE (tag %d%s) can never complete: every "
                      "other PE has called shmem_finalize and no matching message is left (or "
                      "its sender did not complete it: a shmemx_isend not waited for)",
                      r->tag, r->tag == MSG_ANY ? ", SHMEMX_ANY_TAG" : "");
    ofs_bad_input(routine,
                  "a receive from PE %d (tag %d) can never complete: that PE has called "
                  "shmem_finalize and sent no matching message (or did not complete it: a "
                  "shmemx_isend not waited for)",
                  r->pe, r->tag);
}

/* Is it time to read bye words?  Every MSG_BYE_EVERY-th look, at most every MSG_BYE_NS. */
static int msg_bye_due(void)
{
    uint64_t now;

    if (++msg_g.polls % MSG_BYE_EVERY)
        return 0;
    now = ofs_clock_ns();
    if (now < msg_g.bye_next)
        return 0;
    msg_g.bye_next = now + MSG_BYE_NS;
    return 1;
}

/* When due, in a wait that is not done: the PEs this PE still has sends for (queued, or
 * rendezvous pieces not finished), and the source of a receive, that have reached
 * shmem_finalize (docs/messages.md, "Finalize").  1 when it looked. */
static int msg_bye_look(struct msg_req *r, const char *routine)
{
    int seen[MSG_RDV_MAX], ns = 0, k;

    if (!msg_bye_due())
        return 0;
    /* each PE's word read once (a get over the fabric): the rendezvous ids' PEs... */
    for (int i = 0; i < MSG_RDV_MAX && msg_g.rdv_used; i++) {
        int pe = msg_g.rdv[i].pe;
        if (!msg_g.rdv[i].used || pe == msg_g.me || msg_g.gone[pe])
            continue;
        for (k = 0; k < ns && seen[k] != pe; k++)
            ;
        if (k < ns)
            continue;
        seen[ns++] = pe;
        if (msg_bye_read(pe))
            msg_drop_dest(pe);
    }
    /* ... then those of queued sends not read above */
    for (int pe = 0; pe < msg_g.n && msg_g.sq_active; pe++) {
        if (!msg_g.sq_head[pe] || pe == msg_g.me || msg_g.gone[pe])
            continue;
        for (k = 0; k < ns && seen[k] != pe; k++)
            ;
        if (k == ns && msg_bye_read(pe))
            msg_drop_dest(pe);
    }
    if (r && r->kind == MSG_REQ_RECV && !r->done)
        msg_bye_recv(r, routine);
    return 1;
}

/* One look of a wait: progress (pulling unexpected rendezvous data: we are waiting,
 * and a sender may be waiting for us), then is r done? */
static int msg_poll(struct msg_req *r, const char *routine)
{
    int d;

    pthread_mutex_lock(&msg_g.lock);
    if (!r->done) {
        msg_progress(1);
        if (!r->done)
            msg_bye_look(r, routine);
    }
    d = r->done;
    pthread_mutex_unlock(&msg_g.lock);
    return d;
}

void msg_req_wait(struct msg_req *r, const char *routine)
{
    if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
        return;
    COMM_WAIT_UNTIL(msg_poll(r, routine));
}

int msg_req_test(struct msg_req *r, const char *routine)
{
    if (msg_poll(r, routine))
        return 1;
    comm_test_poll();
    return 0;
}

static struct msg_in *msg_unx_find(int src, int tag)
{
    struct msg_in *m;

    for (m = msg_g.unx_head; m; m = m->next)
        if (msg_match(src, tag, m->src, m->tag))
            break;
    return m;
}

/* block: a look of shmemx_probe's wait, which ends the job when src has reached
 * shmem_finalize with no matching message left (as a receive's wait does). */
static int msg_probe_look(int src, int tag, int block, int *src_p, int *tag_p, size_t *len_p)
{
    struct msg_in *m;

    pthread_mutex_lock(&msg_g.lock);
    msg_progress(1);
    m = msg_unx_find(src, tag);
    if (!m && block) {
        if (msg_bye_look(NULL, NULL) && msg_bye_src(src)) {
            msg_progress(1);
            if (!(m = msg_unx_find(src, tag)) && src == MSG_ANY)
                ofs_bad_input("shmemx_probe",
                              "no message from SHMEMX_ANY_SOURCE (tag %d%s) can come: every "
                              "other PE has called shmem_finalize and sent no matching message",
                              tag, tag == MSG_ANY ? ", SHMEMX_ANY_TAG" : "");
            if (!m)
                ofs_bad_input("shmemx_probe",
                              "no message from PE %d (tag %d) can come: that PE has called "
                              "shmem_finalize and sent no matching message",
                              src, tag);
        }
    }
    if (m) {
        *src_p = m->src;
        *tag_p = m->tag;
        *len_p = m->len;
    }
    pthread_mutex_unlock(&msg_g.lock);
    return m != NULL;
}

int msg_probe(int src, int tag, int block, int *src_p, int *tag_p, size_t *len_p)
{
    if (!block) {
        if (msg_probe_look(src, tag, 0, src_p, tag_p, len_p))
            return 1;
        comm_test_poll();
        return 0;
    }
    COMM_WAIT_UNTIL(msg_probe_look(src, tag, 1, src_p, tag_p, len_p));
    return 1;
}
