/*
 * The sending half of the message engine (docs/messages.md, msg_internal.h): records
 * posted to the destinations' rings within their credits, rendezvous ids and the
 * stage that private send buffers are copied to, the receivers' FINs.
 */
#include "msg_internal.h"

#include <errno.h>
#include <sys/uio.h>

/* ---- sending ---- */

/* Zero the first word of the lines of pe's mapped ring from clean[pe] to end (absolute
 * byte positions, all within the room the receiver has given back). */
static void msg_clean_to(int pe, uint64_t end)
{
    char *base = msg_g.pring[pe];
    uint64_t c = msg_g.clean[pe];

    for (size_t off = (size_t)(c % msg_g.rbytes); c < end; c += 64) {
        __atomic_store_n((uint64_t *)(base + off), 0, __ATOMIC_RELAXED);
        off = off + 64 == msg_g.rbytes ? 0 : off + 64;
    }
    msg_g.clean[pe] = c;
}

/* Write the k-th record for pe at pos (len bytes of ring).  Where pe's ring is mapped the
 * receiver only reads it (MSG_F_NEXT0): the sender keeps the first word of every line
 * ahead of its records zero (clean[pe]), so that the seq word of the next record's place
 * is 0 when this record is published, whatever an earlier lap left there.  It zeroes
 * MSG_CLEAN_AHEAD bytes ahead after publishing, while the receiver reads (a ping-pong
 * waits then anyway), which also brings those lines to this PE's cache for the next
 * record's copy; the receiver's clearing pass it replaces was a store to every line the
 * sender then fetched back (docs/messages.md).  Through the fabric the receiver still
 * clears, as the next place is not always contiguous with the record. */
static void msg_post_rec(int pe, uint64_t pos, size_t len, struct msg_hdr *h, const void *payload,
                         size_t plen)
{
    uint64_t k = msg_g.nwr[pe]++;
    size_t off = (size_t)(pos % msg_g.rbytes);
    struct msg_hdr *dst = msg_rec(msg_g.me, pos);

    if (msg_g.pring[pe]) {
        char *base = msg_g.pring[pe];
        struct msg_hdr *p = (struct msg_hdr *)(base + off);
        uint64_t room = __atomic_load_n(&msg_g.credit[pe], __ATOMIC_ACQUIRE) + msg_g.rbytes;
        uint64_t ahead = pos + len + MSG_CLEAN_AHEAD;

        if (msg_g.clean[pe] < pos + len)
            msg_g.clean[pe] = pos + len;  /* the record covers the lines before */
        msg_clean_to(pe, pos + len + 64); /* the next seq word (room: msg_post) */
        h->kind |= MSG_F_NEXT0;
        memcpy((char *)p + 8, (char *)h + 8, MSG_HDR - 8);
        if (plen)
            memcpy((char *)p + MSG_HDR, payload, plen);
        __atomic_store_n(&p->seq, k + 1, __ATOMIC_RELEASE);
        msg_clean_to(pe, ahead < room ? ahead : room);
        return;
    }
    memcpy(msg_g.scratch, h, MSG_HDR);
    if (plen)
        memcpy(msg_g.scratch + MSG_HDR, payload, plen);
    comm_put_signal(COMM_CTX_DEFAULT, (char *)dst + 8, msg_g.scratch + 8, MSG_HDR - 8 + plen,
                    &dst->seq, k + 1, COMM_SIG_SET, pe, 0);
}

/* Post one piece to pe's ring if its room allows (a wrap record first when the piece
 * does not fit before the end of the ring); 0 when the ring is full.  The room counts
 * one line more than the records: the next record's seq word, zeroed by msg_post_rec. */
static int msg_post(int pe, struct msg_hdr *h, const void *payload, size_t plen)
{
    uint64_t pos = msg_g.sent[pe];
    size_t len = msg_rec_bytes(plen), left = msg_g.rbytes - (size_t)(pos % msg_g.rbytes);
    size_t wrap = left < len ? left : 0;

    if (pos + wrap + len + MSG_HDR - __atomic_load_n(&msg_g.credit[pe], __ATOMIC_ACQUIRE) >
        msg_g.rbytes)
        return 0;
    if (wrap) {
        struct msg_hdr w = { .kind = MSG_FRAG_WRAP };
        msg_post_rec(pe, pos, wrap, &w, NULL, 0);
        pos += wrap;
    }
    msg_post_rec(pe, pos, len, h, payload, plen);
    msg_g.sent[pe] = pos + len;
    return 1;
}

/* A rendezvous id for a piece of r: from its symmetric buffer (r waits for the
 * receiver's FIN) or staged (stage; the buffer is free once copied). */
static int msg_rdv_alloc(struct msg_req *r, void *stage)
{
    for (int i = 0; i < MSG_RDV_MAX; i++)
        if (!msg_g.rdv[i].used) {
            msg_g.rdv[i].used = 1;
            msg_g.rdv[i].pe = r->pe;
            msg_g.rdv[i].off = r->posted;
            msg_g.rdv[i].gen = ++msg_g.rdv_gen ? msg_g.rdv_gen : ++msg_g.rdv_gen;
            msg_g.rdv[i].req = stage ? NULL : r;
            msg_g.rdv[i].stage = stage;
            msg_g.rdv_used++;
            if (!stage)
                r->fins++;
            return i;
        }
    return -1;
}

/* ---- CMA ---- */

void msg_cma_probe(int src)
{
    const uint64_t *w = comm_ptr(msg_g.cma_word, src);
    uint64_t v = 0, pid = w ? __atomic_load_n(&w[0], __ATOMIC_ACQUIRE) : 0;
    uint64_t ok = 2;

    msg_g.cma_probed[src] = 1;
    if (w && pid && msg_g.cma_use) {
        struct iovec l = { &v, sizeof(v) }, r = { (void *)(uintptr_t)w[1], sizeof(v) };
        if (process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0) == (ssize_t)sizeof(v) && v == pid)
            ok = 1;
        else
            ofs_log_debug("messages: no CMA from PE %d (pid %llu): %s", src,
                          (unsigned long long)pid, strerror(errno));
    }
    __atomic_store_n(&msg_g.cma_word[2 + src], ok, __ATOMIC_RELEASE);
}

int msg_cma_read(void *dst, uint64_t pid, uint64_t addr, size_t n)
{
    while (n) {
        struct iovec l = { dst, n }, r = { (void *)(uintptr_t)addr, n };
        ssize_t got = process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0);
        if (got <= 0) {
            if (got == 0)
                errno = EFAULT;
            return -1;
        }
        dst = (char *)dst + got;
        addr += (uint64_t)got;
        n -= (size_t)got;
    }
    return 0;
}

/* Does pe read this PE's private buffers by CMA?  Its verdict on us, once it has
 * seen a record of ours (staged until then). */
static int msg_cma_to(int pe)
{
    const uint64_t *w;
    uint64_t v;

    if (OFS_LIKELY(msg_g.cma_to[pe]))
        return msg_g.cma_to[pe] > 0;
    if (!msg_g.cma_use || !(w = comm_ptr(msg_g.cma_word, pe))) {
        msg_g.cma_to[pe] = -1;
        return 0;
    }
    v = __atomic_load_n(&w[2 + msg_g.me], __ATOMIC_ACQUIRE);
    if (v)
        msg_g.cma_to[pe] = v == 1 ? 1 : -1;
    return v == 1;
}

/* The stage has no room for a piece to pe: 1 once that has lasted MSG_STAGE_LAG_NS */
static int msg_stage_lags(int pe)
{
    uint64_t now = ofs_clock_ns();

    if (!msg_g.full_since[pe]) {
        msg_g.full_since[pe] = now;
        return 0;
    }
    return now - msg_g.full_since[pe] >= MSG_STAGE_LAG_NS;
}

/* Post what r's destination has room for; 1 when every piece of r is posted. */
static int msg_send_advance(struct msg_req *r)
{
    int pe = r->pe;

    if (OFS_UNLIKELY(msg_g.gone[pe])) { /* in shmem_finalize: dropped (msg_drop_dest) */
        r->posted = r->len;
        r->all_posted = 1;
    }
    while (!r->all_posted) {
        struct msg_hdr h = { .tag = r->tag, .len = r->len, .frag_off = r->posted };
        void *st = NULL;
        size_t n = r->len - r->posted < msg_g.chunk ? r->len - r->posted : msg_g.chunk;
        int id;

        if (r->len <= msg_g.eager) {
            h.kind = MSG_FRAG_EAGER;
            h.frag_len = r->len;
            if (!msg_post(pe, &h, r->buf, r->len))
                return 0;
            r->all_posted = 1;
            break;
        }
        if (msg_g.sent[pe] + 3 * MSG_HDR - __atomic_load_n(&msg_g.credit[pe], __ATOMIC_ACQUIRE) >
            msg_g.rbytes)
            return 0; /* room for the piece's record (a wrap, the next seq) before staging */
        h.kind = MSG_FRAG_RDV;
        if (msg_g.rdv_used == MSG_RDV_MAX)
            return 0;
        /* CMA: the whole message (cma_whole), or the rest of it once the stage has been
         * full for MSG_STAGE_LAG_NS (the receiver lags, descheduled: one copy that needs
         * only the receiver scheduled; a receiver on a CPU of its own frees a piece in
         * microseconds, and two copies on two cores beat one) */
        if (r->cma && (msg_g.cma_whole ? r->posted == 0 : r->posted < r->len) && msg_cma_to(pe) &&
            (msg_g.cma_whole ||
             (!(st = heap_allocator_alloc(msg_g.stage_a, n, 64)) && msg_stage_lags(pe)))) {
            id = msg_rdv_alloc(r, NULL);
            h.kind = MSG_FRAG_CMA;
            h.rdv_id = (uint32_t)id;
            h.rdv_gen = msg_g.rdv[id].gen;
            h.frag_len = r->len - r->posted;
            h.rseg_off = (uint64_t)(uintptr_t)r->buf; /* the receiver adds frag_off */
            h.pid = msg_g.cma_word[0];
            (void)msg_post(pe, &h, NULL, 0);
            r->posted = r->len;
            r->all_posted = 1;
            break;
        }
        if (r->seg < 0 && !st && !(st = heap_allocator_alloc(msg_g.stage_a, n, 64)))
            return 0;
        if (st)
            msg_g.full_since[pe] = 0;
        id = msg_rdv_alloc(r, st);
        if (OFS_UNLIKELY(id < 0))
            ofs_fatal(1, "messages: internal: no rendezvous id free");
        h.rdv_id = (uint32_t)id;
        h.rdv_gen = msg_g.rdv[id].gen;
        if (r->resend) {
            h.kind |= MSG_F_RESEND;
            h.pid = r->resend;
        }
        if (!st) {
            h.frag_len = r->len;
            h.rseg_off = ((uint64_t)r->seg << 56) | r->seg_off;
        } else {
            memcpy(st, r->buf + r->posted, n);
            h.frag_len = n;
            h.rseg_off = ((uint64_t)msg_g.stage_seg << 56) |
                         (msg_g.stage_off + (size_t)((char *)st - msg_g.stage));
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

void msg_sends_advance(void)
{
    for (int pe = 0; pe < msg_g.n && msg_g.sq_active; pe++) {
        struct msg_req *r;
        while ((r = msg_g.sq_head[pe]) && msg_send_advance(r)) {
            msg_g.sq_head[pe] = r->next;
            r->next = NULL;
            if (!msg_g.sq_head[pe]) {
                msg_g.sq_tail[pe] = NULL;
                msg_g.sq_active--;
            }
        }
    }
}

/* Queue r behind the other sends to its destination. */
static void msg_sq_append(struct msg_req *r)
{
    int pe = r->pe;

    r->next = NULL;
    if (msg_g.sq_tail[pe])
        msg_g.sq_tail[pe]->next = r;
    else {
        msg_g.sq_head[pe] = r;
        msg_g.sq_active++;
    }
    msg_g.sq_tail[pe] = r;
}

/* The receiver could not read r's buffer from off on by CMA (id, gen): send that again,
 * staged, as pieces that name the failed record (MSG_F_RESEND), and no more CMA to that
 * PE. */
static void msg_cma_nack(struct msg_req *r, int id, uint32_t gen, size_t off)
{
    msg_g.cma_to[r->pe] = -1;
    r->cma = 0;
    r->posted = off;
    r->all_posted = 0;
    r->resend = ((uint64_t)id << 32) | gen;
    msg_sq_append(r);
}

void msg_fin_poll(void)
{
    for (int i = 0; i < MSG_RDV_MAX && msg_g.rdv_used; i++) {
        struct msg_rdv *d = &msg_g.rdv[i];
        uint64_t f;
        if (d->used && ((f = __atomic_load_n(&msg_g.fin[i], __ATOMIC_ACQUIRE)) == d->gen ||
                        f == (d->gen | MSG_FIN_NACK))) {
            struct msg_req *r = d->req;
            if (d->stage)
                heap_allocator_free(msg_g.stage_a, d->stage);
            d->used = 0;
            msg_g.rdv_used--;
            if (r)
                r->fins--;
            if (f != d->gen && r)
                msg_cma_nack(r, i, d->gen, d->off);
            else if (r && r->fins == 0 && r->all_posted)
                r->done = 1;
        }
    }
}

void msg_drop_dest(int pe)
{
    struct msg_req *r, *nx;

    ofs_log_debug("messages: PE %d is in shmem_finalize: what is left for it is dropped", pe);
    msg_g.gone[pe] = 1;
    for (int i = 0; i < MSG_RDV_MAX && msg_g.rdv_used; i++) {
        struct msg_rdv *d = &msg_g.rdv[i];
        if (!d->used || d->pe != pe)
            continue;
        if (d->stage)
            heap_allocator_free(msg_g.stage_a, d->stage);
        d->used = 0;
        msg_g.rdv_used--;
        if ((r = d->req) && --r->fins == 0 && r->all_posted)
            r->done = 1;
    }
    for (r = msg_g.sq_head[pe]; r; r = nx) {
        nx = r->next;
        r->next = NULL;
        r->posted = r->len;
        r->all_posted = 1;
        if (r->fins == 0)
            r->done = 1;
    }
    if (msg_g.sq_head[pe]) {
        msg_g.sq_head[pe] = msg_g.sq_tail[pe] = NULL;
        msg_g.sq_active--;
    }
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
    if (zcopy && len > msg_g.eager) {
        size_t off;
        int s = heap_seg_of(buf, len, &off);
        if (s >= 0) {
            r->seg = s;
            r->seg_off = off;
        }
    }
    r->cma = r->seg < 0 && zcopy && len >= msg_g.cma_min;
    pthread_mutex_lock(&msg_g.lock);
    if (msg_g.sq_head[pe] || !msg_send_advance(r))
        msg_sq_append(r);
    pthread_mutex_unlock(&msg_g.lock);
}
