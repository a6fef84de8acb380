/*
 * The message engine (docs/messages.md): rings of records in symmetric memory,
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
#include "ofs.h"
#include "heap.h"
#include "comm.h"
#include "ofs_handle.h"
#include "ofs_stats.h"
#include "msg.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MSG_HDR 64
#define MSG_RDV_MAX 64       /* rendezvous pieces in flight per PE */
#define MSG_STAGE_PIECES 4   /* a staged piece is at most this part of the stage region */
#define MSG_REQ_SLOT 256     /* bytes per handle-table slot */
#define MSG_REQ_MAX 65536    /* non-blocking requests alive at once */
#define MSG_EAGER_AUTO 32768 /* docs/messages.md: the eager cut-off measured */
#define MSG_RING_AUTO_MAX (4 * (MSG_EAGER_AUTO + MSG_HDR)) /* auto ring per source: most */
#define MSG_RING_MIN 256

#define MSG_RING_BUDGET (2UL << 20) /* auto sizes: rings of all sources, bytes per PE */

enum { MSG_FRAG_EAGER = 1, MSG_FRAG_RDV = 2, MSG_FRAG_WRAP = 3 };

struct msg_hdr {
    uint64_t seq; /* the signal: k + 1 for the k-th record from this source */
    int32_t tag;
    uint32_t kind;
    uint64_t len;                /* the whole message */
    uint64_t frag_off, frag_len; /* this piece */
    uint64_t rseg_off;           /* rendezvous: the sender's (segment << 56) | offset */
    uint32_t rdv_id, rdv_gen;
    uint64_t pad;
};
_Static_assert(sizeof(struct msg_hdr) == MSG_HDR, "slot header is 64 bytes");

/* A message that has arrived (at least its first piece). */
struct msg_in {
    struct msg_in *next; /* unexpected list */
    int src, tag;
    size_t len;
    size_t landed; /* bytes of its pieces landed (in buf, or cut off) */
    int bound;     /* buf is where its data goes (or the message is empty) */
    int owned;     /* buf is ours (unexpected data pulled or copied) */
    int complete;  /* every piece landed (unexpected list) */
    char *buf;
    size_t cap;           /* bytes of buf */
    struct msg_req *req;  /* the receive that took it */
    struct msg_hdr *pend; /* rendezvous pieces waiting for a buffer */
    int npend, pcap;
};

struct msg_rdv {
    int used;
    uint32_t gen;
    struct msg_req *req; /* a send from a symmetric buffer: it waits for this piece */
    void *stage;         /* a staged piece: its place in the stage region */
};

static struct {
    pthread_mutex_t lock;
    int on, n, me;
    size_t rbytes, eager, rec_max, chunk, batch, stage_len;
    char *ring;
    uint64_t *credit, *fin;
    char *stage;
    struct heap_allocator *stage_a;
    int stage_seg;
    size_t stage_off;
    uint64_t *head, *cred_sent, *sent;   /* [pe] byte positions: read, credited, written */
    uint64_t *nrd, *nwr;                 /* [pe] records read from, written to */
    struct msg_in **cur;                 /* [src] message whose pieces are arriving */
    char **pring;                        /* [pe] this PE's ring at pe where mapped, else NULL */
    struct msg_req **sq_head, **sq_tail; /* [dest] sends with pieces left to post */
    int sq_active;
    struct msg_in *unx_head, *unx_tail;
    int n_unbound;
    struct msg_req *post_head, *post_tail;
    struct msg_rdv rdv[MSG_RDV_MAX];
    int rdv_used;
    uint32_t rdv_gen;

    char *scratch;
    struct ofs_htab reqs;
} mg = { .lock = PTHREAD_MUTEX_INITIALIZER, .reqs = OFS_HTAB_INITIALIZER };

/* The ring of records from src, at byte position pos. */
static inline struct msg_hdr *msg_rec(int src, uint64_t pos)
{
    return (struct msg_hdr *)(mg.ring + (size_t)src * mg.rbytes + (size_t)(pos % mg.rbytes));
}

/* Bytes of the record of a piece with plen bytes inline. */
static inline size_t msg_rec_bytes(size_t plen)
{
    return (MSG_HDR + plen + 63) & ~(size_t)63;
}

/* A word only one PE writes and its owner reads: a store where it is mapped, else a
 * fabric atomic. */
static void msg_word_set(uint64_t *word, uint64_t v, int pe)
{
    uint64_t *p = comm_ptr(word, pe);

    if (p)
        __atomic_store_n(p, v, __ATOMIC_RELEASE);
    else
        comm_amo(COMM_CTX_DEFAULT, COMM_AMO_SET, COMM_DT_U64, word, &v, NULL, NULL, pe, 0);
}

static void *msg_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p)
        ofs_fatal(1, "messages: out of memory (%zu bytes for an unexpected message)", n);
    return p;
}

/* ---- start-up ---- */

/* SHMEM_MSG_RING_SIZE and SHMEM_MSG_EAGER_SIZE; auto ones keep the rings of all sources
 * within MSG_RING_BUDGET (the same on every PE: they depend on n only).  A record is at
 * most a quarter of a ring, so that a sender never waits for credits the receiver holds
 * back (they return in batches of half a ring).  0: messages off. */
static ofs_status_t msg_sizes(size_t *rbytes_p, size_t *eager_p)
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
            ofs_log_error("messages: SHMEM_MSG_EAGER_SIZE=%zu needs SHMEM_MSG_RING_SIZE of at "
                          "least %zu (a message is at most a quarter of a ring); it is %zu",
                          e, 4 * msg_rec_bytes(e), r);
            return OFS_ERR_INVAL;
        }
    }
    ofs_param_resolved(OFS_PARAM_MSG_RING_SIZE, (long)r);
    ofs_param_resolved(OFS_PARAM_MSG_EAGER_SIZE, (long)e);
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

    for (size_t off = 0; off < (size_t)mg.n * mg.rbytes; off += pg)
        (void)*(volatile char *)(mg.ring + off);
    for (int pe = 0; pe < mg.n; pe++) {
        char *p = mg.pring[pe];
        for (size_t off = 0; p && pe != mg.me && off < mg.rbytes; off += pg)
            (void)*(volatile char *)(p + off);
    }
}

int msg_enabled(void)
{
    return mg.on;
}

ofs_status_t msg_init(void)
{
    size_t ring, n;
    ofs_status_t st;

    mg.n = ofs_g.n_pes;
    mg.me = ofs_g.my_pe;
    st = msg_sizes(&mg.rbytes, &mg.eager);
    if (st != OFS_OK || mg.rbytes == 0)
        return st;
    mg.rec_max = msg_rec_bytes(mg.eager);
    mg.batch = mg.rbytes / 2;
    mg.stage_len = ((size_t)ofs_g.params.MSG_STAGE_SIZE + 63) & ~(size_t)63;
    mg.chunk = (size_t)ofs_g.params.MSG_PIECE_SIZE;
    if (mg.chunk > mg.stage_len / MSG_STAGE_PIECES)
        mg.chunk = mg.stage_len / MSG_STAGE_PIECES;
    mg.chunk &= ~(size_t)63;
    n = (size_t)mg.n;
    ring = n * mg.rbytes;
    /* fresh heap blocks are zero (no block was freed before): every seq reads 0 */
    mg.ring = heap_alloc(ring, 64);
    mg.credit = heap_alloc(n * sizeof(uint64_t), 64);
    mg.fin = heap_alloc(MSG_RDV_MAX * sizeof(uint64_t), 64);
    mg.stage = heap_alloc(mg.stage_len, 64);
    if (!mg.ring || !mg.credit || !mg.fin || !mg.stage) {
        ofs_log_error("messages: %zu bytes of symmetric memory for %d PEs x "
                      "SHMEM_MSG_RING_SIZE=%zu and SHMEM_MSG_STAGE_SIZE=%zu do not fit in the "
                      "heap: lower them (SHMEM_MSG_RING_SIZE=0 turns messages off)",
                      ring + mg.stage_len, mg.n, mg.rbytes, mg.stage_len);
        return OFS_ERR_NOMEM;
    }
    mg.stage_seg = heap_seg_of(mg.stage, mg.stage_len, &mg.stage_off);
    mg.stage_a = heap_allocator_create(mg.stage, mg.stage_len);
    mg.head = calloc(n * 5, sizeof(uint64_t));
    mg.cur = calloc(n, sizeof(*mg.cur));
    mg.pring = calloc(n, sizeof(*mg.pring));
    mg.sq_head = calloc(n * 2, sizeof(*mg.sq_head));
    mg.scratch = malloc(mg.rec_max);
    if (!mg.head || !mg.cur || !mg.pring || !mg.sq_head || !mg.scratch || !mg.stage_a ||
        ofs_htab_init(&mg.reqs, MSG_REQ_SLOT, MSG_REQ_MAX) != OFS_OK) {
        ofs_log_error("messages: out of memory for the state of %d PEs", mg.n);
        return OFS_ERR_NOMEM;
    }
    mg.cred_sent = mg.head + n;
    mg.sent = mg.head + 2 * n;
    mg.nrd = mg.head + 3 * n;
    mg.nwr = mg.head + 4 * n;
    mg.sq_tail = mg.sq_head + n;
    /* the route is fixed at init: look the mapped rings up once, not per message */
    for (int pe = 0; pe < mg.n; pe++)
        mg.pring[pe] = comm_ptr(msg_rec(mg.me, 0), pe);
    msg_prefault();
    mg.on = 1;
    return OFS_OK;
}

void msg_fini(void)
{
    struct msg_in *m, *nx;

    if (!mg.on)
        return;
    mg.on = 0;
    /* what nobody received is dropped (the symmetric blocks go with the heap) */
    for (m = mg.unx_head; m; m = nx) {
        nx = m->next;
        if (m->owned)
            free(m->buf);
        free(m->pend);
        free(m);
    }
    for (int s = 0; s < mg.n; s++)
        if (mg.cur[s] && mg.cur[s]->req) {
            free(mg.cur[s]->pend);
            free(mg.cur[s]);
        }
    ofs_htab_fini(&mg.reqs);
    heap_allocator_destroy(mg.stage_a);
    mg.stage_a = NULL;
    free(mg.head);
    free(mg.cur);
    free(mg.pring);
    free(mg.sq_head);
    free(mg.scratch);
    mg.unx_head = mg.unx_tail = NULL;
    mg.post_head = mg.post_tail = NULL;
}

/* ---- handles ---- */

struct msg_req *msg_req_new(void)
{
    return ofs_htab_alloc(&mg.reqs);
}

void msg_req_free(struct msg_req *r)
{
    ofs_htab_free(&mg.reqs, r);
}

int msg_req_valid(const void *h)
{
    return mg.on && ofs_htab_holds(&mg.reqs, h, MSG_REQ_SLOT, MSG_REQ_MAGIC);
}

/* ---- receiving ---- */

static int msg_match(int want_src, int want_tag, int src, int tag)
{
    return (want_src == MSG_ANY || want_src == src) && (want_tag == MSG_ANY || want_tag == tag);
}

static void msg_req_finish(struct msg_req *r, const struct msg_in *m)
{
    r->st_source = m->src;
    r->st_tag = m->tag;
    r->st_len = m->len;
    r->err = m->len > r->len ? MSG_ERR_TRUNCATE : 0;
    OFS_STATS_MSG(OFS_STATS_RECV, m->len);
    r->done = 1;
}

/* Every piece of m has landed. */
static void msg_in_complete(struct msg_in *m)
{
    struct msg_req *r = m->req;

    if (mg.cur[m->src] == m)
        mg.cur[m->src] = NULL;
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
    msg_req_finish(r, m);
    free(m->pend);
    free(m);
}

/* Put one piece where m's data goes: the part that fits in its buffer (a truncated
 * receive drops the rest), then tell a rendezvous sender its piece is free. */
static void msg_piece_land(struct msg_in *m, const struct msg_hdr *h, const void *payload)
{
    size_t off = h->frag_off, n = h->frag_len, fit = 0;

    if (off < m->cap)
        fit = n < m->cap - off ? n : m->cap - off;
    if (h->kind == MSG_FRAG_EAGER) {
        if (fit)
            memcpy(m->buf + off, payload, fit);
    } else {
        if (fit)
            comm_get_seg(COMM_CTX_DEFAULT, m->buf + off, (int)(h->rseg_off >> 56),
                         (size_t)(h->rseg_off & ((1ULL << 56) - 1)), fit, m->src);
        msg_word_set(&mg.fin[h->rdv_id], h->rdv_gen, m->src);
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
    mg.n_unbound--;
    for (int i = 0; i < np; i++)
        msg_piece_land(m, &pend[i], NULL); /* may free m at the last */
    free(pend);
}

static struct msg_req *msg_posted_take(int src, int tag)
{
    struct msg_req *r, *prev = NULL;

    for (r = mg.post_head; r; prev = r, r = r->next)
        if (msg_match(r->pe, r->tag, src, tag)) {
            if (prev)
                prev->next = r->next;
            else
                mg.post_head = r->next;
            if (mg.post_tail == r)
                mg.post_tail = prev;
            r->next = NULL;
            return r;
        }
    return NULL;
}

static void msg_piece_arrive(int src, const struct msg_hdr *h)
{
    const void *payload = (const char *)h + MSG_HDR;
    struct msg_in *m;

    if (h->frag_off == 0) {
        struct msg_req *r = msg_posted_take(src, h->tag);
        m = calloc(1, sizeof(*m));
        if (!m)
            ofs_fatal(1, "messages: out of memory");
        m->src = src;
        m->tag = h->tag;
        m->len = h->len;
        if (h->frag_len < h->len)
            mg.cur[src] = m;
        if (r) {
            m->req = r;
            m->buf = r->buf;
            m->cap = r->len;
            m->bound = 1;
        } else {
            if (mg.unx_tail)
                mg.unx_tail->next = m;
            else
                mg.unx_head = m;
            mg.unx_tail = m;
            if (h->kind == MSG_FRAG_EAGER) {
                m->buf = h->len ? msg_alloc(h->len) : NULL;
                m->cap = h->len;
                m->owned = m->bound = 1;
            } else {
                mg.n_unbound++;
            }
        }
    } else {
        m = mg.cur[src];
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

/* Take every record that has arrived; give credits back in batches.  The receiver
 * clears the first word of every 64-byte line a record covered before it gives its
 * bytes back, so that the next record's sequence word never reads as stale payload. */
static void msg_drain(void)
{
    for (int s = 0; s < mg.n; s++) {
        uint64_t pos = mg.head[s], k = mg.nrd[s];
        struct msg_hdr *h;

        while (__atomic_load_n(&(h = msg_rec(s, pos))->seq, __ATOMIC_ACQUIRE) == k + 1) {
            size_t len = h->kind == MSG_FRAG_WRAP    ? mg.rbytes - (size_t)(pos % mg.rbytes)
                         : h->kind == MSG_FRAG_EAGER ? msg_rec_bytes(h->frag_len)
                                                     : MSG_HDR;
            if (h->kind != MSG_FRAG_WRAP)
                msg_piece_arrive(s, h);
            for (size_t off = 0; off < len; off += 64)
                *(uint64_t *)((char *)h + off) = 0;
            pos += len;
            k++;
        }
        mg.head[s] = pos;
        mg.nrd[s] = k;
        if (pos - mg.cred_sent[s] >= mg.batch) {
            mg.cred_sent[s] = pos;
            msg_word_set(&mg.credit[mg.me], pos, s);
        }
    }
}

/* Pull the data of unexpected rendezvous messages into private memory. */
static void msg_rescue(void)
{
    struct msg_in *m = mg.unx_head, *nx;

    for (; m && mg.n_unbound; m = nx) {
        nx = m->next;
        if (!m->bound)
            msg_in_bind(m, msg_alloc(m->len), m->len, 1);
    }
}

/* ---- sending ---- */

static void msg_post_rec(int pe, uint64_t pos, struct msg_hdr *h, const void *payload, size_t plen)
{
    uint64_t k = mg.nwr[pe]++;
    struct msg_hdr *dst = msg_rec(mg.me, pos);
    struct msg_hdr *p =
        mg.pring[pe] ? (struct msg_hdr *)(mg.pring[pe] + (size_t)(pos % mg.rbytes)) : NULL;

    if (p) {
        memcpy((char *)p + 8, (char *)h + 8, MSG_HDR - 8);
        if (plen)
            memcpy((char *)p + MSG_HDR, payload, plen);
        __atomic_store_n(&p->seq, k + 1, __ATOMIC_RELEASE);
        return;
    }
    memcpy(mg.scratch, h, MSG_HDR);
    if (plen)
        memcpy(mg.scratch + MSG_HDR, payload, plen);
    comm_put_signal(COMM_CTX_DEFAULT, (char *)dst + 8, mg.scratch + 8, MSG_HDR - 8 + plen,
                    &dst->seq, k + 1, COMM_SIG_SET, pe, 0);
}

/* Post one piece to pe's ring if its room allows (a wrap record first when the piece
 * does not fit before the end of the ring); 0 when the ring is full. */
static int msg_post(int pe, struct msg_hdr *h, const void *payload, size_t plen)
{
    uint64_t pos = mg.sent[pe];
    size_t len = msg_rec_bytes(plen), left = mg.rbytes - (size_t)(pos % mg.rbytes);
    size_t wrap = left < len ? left : 0;

    if (pos + wrap + len - __atomic_load_n(&mg.credit[pe], __ATOMIC_ACQUIRE) > mg.rbytes)
        return 0;
    if (wrap) {
        struct msg_hdr w = { .kind = MSG_FRAG_WRAP };
        msg_post_rec(pe, pos, &w, NULL, 0);
        pos += wrap;
    }
    msg_post_rec(pe, pos, h, payload, plen);
    mg.sent[pe] = pos + len;
    return 1;
}

/* A rendezvous id for a piece of r: from its symmetric buffer (r waits for the
 * receiver's FIN) or staged (stage; the buffer is free once copied). */
static int msg_rdv_alloc(struct msg_req *r, void *stage)
{
    for (int i = 0; i < MSG_RDV_MAX; i++)
        if (!mg.rdv[i].used) {
            mg.rdv[i].used = 1;
            mg.rdv[i].gen = ++mg.rdv_gen ? mg.rdv_gen : ++mg.rdv_gen;
            mg.rdv[i].req = stage ? NULL : r;
            mg.rdv[i].stage = stage;
            mg.rdv_used++;
            if (!stage)
                r->fins++;
            return i;
        }
    return -1;
}

/* Post what r's destination has room for; 1 when every piece of r is posted. */
static int msg_send_advance(struct msg_req *r)
{
    int pe = r->pe;

    while (!r->all_posted) {
        struct msg_hdr h = { .tag = r->tag, .len = r->len, .frag_off = r->posted };
        void *st = NULL;
        size_t n = r->len - r->posted < mg.chunk ? r->len - r->posted : mg.chunk;
        int id;

        if (r->len <= mg.eager) {
            h.kind = MSG_FRAG_EAGER;
            h.frag_len = r->len;
            if (!msg_post(pe, &h, r->buf, r->len))
                return 0;
            r->all_posted = 1;
            break;
        }
        if (mg.sent[pe] + 2 * MSG_HDR - __atomic_load_n(&mg.credit[pe], __ATOMIC_ACQUIRE) >
            mg.rbytes)
            return 0; /* room for the piece's record (and a wrap) before staging it */
        h.kind = MSG_FRAG_RDV;
        if (mg.rdv_used == MSG_RDV_MAX)
            return 0;
        if (r->seg < 0 && !(st = heap_allocator_alloc(mg.stage_a, n, 64)))
            return 0;
        id = msg_rdv_alloc(r, st);
        if (OFS_UNLIKELY(id < 0))
            ofs_fatal(1, "messages: internal: no rendezvous id free");
        h.rdv_id = (uint32_t)id;
        h.rdv_gen = mg.rdv[id].gen;
        if (!st) {
            h.frag_len = r->len;
            h.rseg_off = ((uint64_t)r->seg << 56) | r->seg_off;
        } else {
            memcpy(st, r->buf + r->posted, n);
            h.frag_len = n;
            h.rseg_off =
                ((uint64_t)mg.stage_seg << 56) | (mg.stage_off + (size_t)((char *)st - mg.stage));
        }
        (void)msg_post(pe, &h, NULL, 0); /* room checked above */
        r->posted += h.frag_len;
        if (r->posted == r->len)
            r->all_posted = 1;
    }
    if (r->fins == 0)
        r->done = 1;
    return 1;
}

static void msg_sends_advance(void)
{
    for (int pe = 0; pe < mg.n && mg.sq_active; pe++) {
        struct msg_req *r;
        while ((r = mg.sq_head[pe]) && msg_send_advance(r)) {
            mg.sq_head[pe] = r->next;
            r->next = NULL;
            if (!mg.sq_head[pe]) {
                mg.sq_tail[pe] = NULL;
                mg.sq_active--;
            }
        }
    }
}

static void msg_fin_poll(void)
{
    for (int i = 0; i < MSG_RDV_MAX && mg.rdv_used; i++) {
        struct msg_rdv *d = &mg.rdv[i];
        if (d->used && __atomic_load_n(&mg.fin[i], __ATOMIC_ACQUIRE) == d->gen) {
            struct msg_req *r = d->req;
            if (d->stage)
                heap_allocator_free(mg.stage_a, d->stage);
            d->used = 0;
            mg.rdv_used--;
            if (r && --r->fins == 0 && r->all_posted)
                r->done = 1;
        }
    }
}

static void msg_progress(int rescue)
{
    msg_drain();
    if (mg.rdv_used)
        msg_fin_poll();
    if (mg.sq_active)
        msg_sends_advance();
    if (rescue && mg.n_unbound)
        msg_rescue();
}

void msg_send_start(struct msg_req *r, int pe, int tag, const void *buf, size_t len, int zcopy)
{
    OFS_STATS_MSG(OFS_STATS_SEND, len);
    r->kind = MSG_REQ_SEND;
    r->pe = pe;
    r->tag = tag;
    r->buf = (char *)buf;
    r->len = len;
    r->seg = -1;
    if (zcopy && len > mg.eager) {
        size_t off;
        int s = heap_seg_of(buf, len, &off);
        if (s >= 0) {
            r->seg = s;
            r->seg_off = off;
        }
    }
    pthread_mutex_lock(&mg.lock);
    if (mg.sq_head[pe] || !msg_send_advance(r)) {
        if (mg.sq_tail[pe])
            mg.sq_tail[pe]->next = r;
        else {
            mg.sq_head[pe] = r;
            mg.sq_active++;
        }
        mg.sq_tail[pe] = r;
    }
    pthread_mutex_unlock(&mg.lock);
}

void msg_recv_start(struct msg_req *r, int src, int tag, void *buf, size_t len)
{
    struct msg_in **pp, *m, *prev = NULL;

    r->kind = MSG_REQ_RECV;
    r->pe = src;
    r->tag = tag;
    r->buf = buf;
    r->len = len;
    pthread_mutex_lock(&mg.lock);
    msg_drain();
    for (pp = &mg.unx_head; (m = *pp); prev = m, pp = &m->next)
        if (msg_match(src, tag, m->src, m->tag))
            break;
    if (!m) {
        if (mg.post_tail)
            mg.post_tail->next = r;
        else
            mg.post_head = r;
        mg.post_tail = r;
        pthread_mutex_unlock(&mg.lock);
        return;
    }
    *pp = m->next;
    if (mg.unx_tail == m)
        mg.unx_tail = prev;
    m->next = NULL;
    m->req = r;
    if (m->complete)
        msg_in_complete(m);
    else if (!m->bound)
        msg_in_bind(m, buf, len, 0);
    pthread_mutex_unlock(&mg.lock);
}

/* One look of a wait: progress (pulling unexpected rendezvous data: we are waiting,
 * and a sender may be waiting for us), then is r done? */
static int msg_poll(struct msg_req *r)
{
    int d;

    pthread_mutex_lock(&mg.lock);
    if (!r->done)
        msg_progress(1);
    d = r->done;
    pthread_mutex_unlock(&mg.lock);
    return d;
}

void msg_req_wait(struct msg_req *r)
{
    if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
        return;
    COMM_WAIT_UNTIL(msg_poll(r));
}

int msg_req_test(struct msg_req *r)
{
    if (msg_poll(r))
        return 1;
    comm_test_poll();
    return 0;
}

static int msg_probe_look(int src, int tag, int *src_p, int *tag_p, size_t *len_p)
{
    struct msg_in *m;

    pthread_mutex_lock(&mg.lock);
    msg_progress(1);
    for (m = mg.unx_head; m; m = m->next)
        if (msg_match(src, tag, m->src, m->tag)) {
            *src_p = m->src;
            *tag_p = m->tag;
            *len_p = m->len;
            break;
        }
    pthread_mutex_unlock(&mg.lock);
    return m != NULL;
}

int msg_probe(int src, int tag, int block, int *src_p, int *tag_p, size_t *len_p)
{
    if (!block) {
        if (msg_probe_look(src, tag, src_p, tag_p, len_p))
            return 1;
        comm_test_poll();
        return 0;
    }
    COMM_WAIT_UNTIL(msg_probe_look(src, tag, src_p, tag_p, len_p));
    return 1;
}
