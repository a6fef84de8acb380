/*
 * Put-with-signal as one message (the "AM" path).  Written as an RMA write and an
 * atomic, a put-with-signal over tcp;ofi_rxm is four messages (the write, its
 * delivery acknowledgement, the atomic, its response), and a put_signal/wait_until
 * ping-pong took 3.4x fi_pingpong's time per transfer.  Here a small one is a single
 * send to the target endpoint carrying a header, the data and the signal; the target
 * copies the data and updates the signal (a CPU atomic, released after the data) when
 * it reads its completion queue, which its wait loops and its progress thread do.
 * Data longer than the provider sends by its fastest protocol (shm: its inject size,
 * tcp;ofi_rxm: its eager size) goes in several messages, the signal with the last
 * (perf_pingpong over tcp;ofi_rxm, 16 KiB: 18.4-22.5 us per transfer that way,
 * 24.2-30.1 us written and then signalled).
 *
 * Every signal update over the OFI route then has one executor, the target's CPU
 * (a put-with-signal too large for a message writes its data, then sends a message
 * with no data for the signal), so signal updates are atomic with respect to each
 * other and to wait_until/signal_fetch, as the specification asks (it asks nothing
 * about signals against the AMO routines on the same word: those stay with the
 * provider).  On one node reached over shm the signals are CPU atomics already.
 *
 * Completion: a send completes when the target has the message, not when it has
 * applied it.  So quiet, fence, and any other operation of the same context to a PE
 * with messages outstanding first send that PE a FLUSH, which the target answers with
 * an ACK once it has applied everything before it (the provider delivers the sends of
 * one endpoint to another in order: FI_ORDER_SAS is required), and waits for the ACKs.
 * ACKs arrive at the initiator's target endpoint and are counted in the context.
 * Messages leave from the PE's target endpoint too (see ofi_am_ep_of), so that between
 * two PEs they all share one connection; the target endpoint's bounce buffers carry
 * those too long to inject, and return when whoever reads the target CQ finds their
 * send completions.
 *
 * The target's receive side (buffers posted on the target endpoint, handled under
 * one lock so that a FLUSH is never answered before an earlier message is applied)
 * is in this file too.  Only with manual-progress providers, whose target endpoint
 * somebody polls anyway (the progress thread): elsewhere a message would wait for the
 * target PE to call the library.
 */
#include "ofi_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* PUT: a part of a put-with-signal's data, the rest (and the signal) follows */
enum { OFI_AM_PUTSIG = 1, OFI_AM_FLUSH = 2, OFI_AM_ACK = 3, OFI_AM_PUT = 4 };

struct ofi_am_hdr {
    uint8_t kind, sig_op, seg, sig_seg;
    uint32_t src;     /* the sending PE */
    uint64_t off;     /* PUTSIG: the data's offset; FLUSH/ACK: the initiator's context */
    uint64_t sig_off; /* PUTSIG: the signal's offset */
    uint64_t signal;  /* PUTSIG: the operand */
};
_Static_assert(sizeof(struct ofi_am_hdr) == OFI_AM_HDR, "AM header size");

#define OFI_AM_RX_BUFS 64

struct ofi_am_rx {
    struct fi_context2 fictx;
    char *buf;
};

static struct {
    pthread_mutex_t lock;        /* receive side: reading the target CQ and applying */
    pthread_mutex_t bounce_lock; /* the target endpoint's bounce buffers (a leaf lock) */
    unsigned long received;      /* messages applied (ofi_traffic watches it) */
    struct ofi_am_hdr *acks;     /* acknowledgements the provider pushed back */
    int n_acks, cap_acks;
    struct ofi_am_rx *repost[OFI_AM_RX_BUFS]; /* buffers the provider did not take back */
    int n_repost;
    struct ofi_am_rx *rx;
    char *mem;
    size_t buf_size;
    struct fid_mr *mr;
    void *desc;
} am_g = { .lock = PTHREAD_MUTEX_INITIALIZER, .bounce_lock = PTHREAD_MUTEX_INITIALIZER };

/* Largest message sent by inject: SHMEM_OFI_INJECT_SIZE (which can only lower the
 * provider's inject size) applies to messages as to puts. */
static size_t ofi_am_inject_max(void)
{
    size_t inj = ofi_g.thresh.inject_max;
    return inj < OFI_AM_HDR + OFI_AM_INJECT_MAX ? inj : OFI_AM_HDR + OFI_AM_INJECT_MAX;
}

/* The longest message (header included) the provider sends by its fastest protocol:
 * shm injects up to its inject size and takes a slower protocol above (perf_pingpong,
 * 4 KiB: 2.66-2.92 us as two injected messages, 2.84-3.41 us written and signalled;
 * one 4 KiB + 32 B message was no faster than the latter); tcp;ofi_rxm sends up to its buffer
 * size (FI_OFI_RXM_BUFFER_SIZE: 16 KiB + 32 B as ofi_getinfo sets it unless the user
 * did, 16 KiB in rxm without it) eagerly and by rendezvous above
 * (fi_pingpong 16384 B: 14 us, 16385 B: 35 us).  Elsewhere: what the bounce buffer or
 * an inject holds (carry). */
static size_t ofi_am_step(size_t carry)
{
    const char *prov = ofi_g.info->fabric_attr->prov_name;
    size_t step = carry;

    if (strcmp(prov, "shm") == 0) {
        step = ofi_am_inject_max();
    } else if (strstr(prov, "ofi_rxm")) {
        step = ofi_rxm_eager();
    }
    if (step < OFI_AM_HDR + 1 || step > carry)
        step = carry;
    return step;
}

/* Decide the path once the provider is known (before the target endpoint's buffers
 * are posted): SHMEM_OFI_AM_SIZE bytes of data at most, in messages of at most
 * ofi_am_step bytes each (header included), each of which a bounce buffer or (without
 * bounce buffers) an inject must carry. */
ofs_status_t ofi_am_setup(void)
{
    const struct fi_info *i = ofi_g.info;
    long want = ofs_g.params.OFI_AM_SIZE;
    int from = ofs_g.params.OFI_AM_EP;

    ofi_g.am_from_target = 0;
    ofi_g.am_max = 0;
    ofi_g.am_part = 0;
    ofi_g.am_why = NULL;
    if (want == 0)
        ofi_g.am_why = "SHMEM_OFI_AM_SIZE=0";
    else if (!ofi_g.manual_progress)
        ofi_g.am_why = "the provider progresses data itself (no progress thread to apply them)";
    else if (!(i->caps & FI_MSG) || !(i->tx_attr->msg_order & FI_ORDER_SAS))
        ofi_g.am_why = "the provider does not deliver messages in order";
    else if (i->tx_attr->inject_size < OFI_AM_HDR)
        ofi_g.am_why = "the provider's inject size is below the 32-byte header";
    if (ofi_g.am_why)
        return OFS_OK;
    size_t inj = ofi_am_inject_max();
    size_t carry = ofi_g.thresh.bounce_max > inj ? ofi_g.thresh.bounce_max : inj;
    if (carry < OFI_AM_HDR) {
        ofi_g.am_why = "neither inject nor bounce buffers can carry the 32-byte header";
        return OFS_OK;
    }
    size_t step = ofi_am_step(carry);
    /* a message must fit the target's receive buffer and one provider message */
    if (i->ep_attr->max_msg_size && step > i->ep_attr->max_msg_size)
        step = i->ep_attr->max_msg_size;
    if (step <= OFI_AM_HDR) {
        ofi_g.am_why = "the provider's largest message cannot carry the 32-byte header";
        return OFS_OK;
    }
    ofi_g.am_part = step - OFI_AM_HDR;
    if (ofs_g.params.OFI_AM_PART > 0 && (size_t)ofs_g.params.OFI_AM_PART < ofi_g.am_part)
        ofi_g.am_part = (size_t)ofs_g.params.OFI_AM_PART;
    if (want > 0)
        ofi_g.am_max = (size_t)want;
    else
        ofi_g.am_max = strstr(i->fabric_attr->prov_name, "ofi_rxm") ? OFI_AM_SIZE_DEFAULT_RXM
                                                                    : OFI_AM_SIZE_DEFAULT;
    if (ofi_g.am_part > ofi_g.am_max)
        ofi_g.am_part = ofi_g.am_max;
    /* even 0 bytes of data: the signal of larger puts goes by message */
    ofi_g.am_on = 1;
    /* auto: not with more PEs than CPUs, where it gained nothing (perf_barrier, 4 PEs
     * on 2 cores, alternating: tcp;ofi_rxm 51-56 us either way, shm 4.7-7.9 against
     * 5.1-6.9 us) and cost 1.3x over tcp while the progress thread, serving the target
     * endpoint through the waits there, contended for it with the senders */
    ofi_g.am_from_target =
        from == OFS_OFI_AM_EP_TARGET || (from == OFS_OFI_AM_EP_AUTO && !ofs_g.oversubscribed);
    return OFS_OK;
}

/* Post r.  A full receive queue (-FI_EAGAIN; at start-up also -FI_ENOMEM, setup
 * set) is returned, not waited for: at start-up the queue's size is what it holds;
 * later the caller holds am_g.lock and the completion queue, which may have to be
 * read first (with FI_SHM_RX_SIZE=8 and 4 PEs flooding one, shm refused a repost for
 * as long as its poller, retrying, did not read the queue: the job hung). */
static ssize_t ofi_am_post_try(struct ofi_am_rx *r, int setup)
{
    struct iovec iov = { .iov_base = r->buf, .iov_len = am_g.buf_size };
    void *desc = am_g.desc;
    struct fi_msg msg = { .msg_iov = &iov,
                          .desc = desc ? &desc : NULL,
                          .iov_count = 1,
                          .addr = FI_ADDR_UNSPEC,
                          .context = &r->fictx };
    ssize_t ret = fi_recvmsg(ofi_g.main->ep, &msg, FI_COMPLETION);

    if (ret == -FI_EAGAIN || (setup && ret == -FI_ENOMEM))
        return ret;
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_recvmsg", ret, "message buffer %p, %zu bytes", r->buf, am_g.buf_size);
    return 0;
}

/* Repost a buffer whose message was applied (under am_g.lock); one the provider does
 * not take now waits for a later poll, after the completion queue has been read. */
static void ofi_am_post(struct ofi_am_rx *r)
{
    if (am_g.n_repost == 0 && ofi_am_post_try(r, 0) == 0)
        return;
    am_g.repost[am_g.n_repost++] = r;
}

static void ofi_am_repost(void)
{
    int k = 0;

    while (k < am_g.n_repost && ofi_am_post_try(am_g.repost[k], 0) == 0)
        k++;
    if (k > 0) {
        memmove(am_g.repost, am_g.repost + k, (size_t)(am_g.n_repost - k) * sizeof(*am_g.repost));
        am_g.n_repost -= k;
    }
}

/* Post the target endpoint's receive buffers (before the address is published). */
ofs_status_t ofi_am_rx_setup(void)
{
    if (!ofi_g.am_on)
        return OFS_OK;
    am_g.buf_size = (OFI_AM_HDR + ofi_g.am_part + 63) & ~(size_t)63;
    am_g.rx = calloc(OFI_AM_RX_BUFS, sizeof(*am_g.rx));
    am_g.mem = aligned_alloc(64, OFI_AM_RX_BUFS * am_g.buf_size);
    if (!am_g.rx || !am_g.mem)
        return OFS_ERR_NOMEM;
    if (ofi_g.mr_mode & FI_MR_LOCAL) {
        ofs_status_t st = ofi_mr_reg_local(ofi_g.main->ep, am_g.mem, OFI_AM_RX_BUFS * am_g.buf_size,
                                           FI_RECV, &am_g.mr);
        if (st != OFS_OK)
            return st;
        am_g.desc = fi_mr_desc(am_g.mr);
    }
    /* as many as the receive queue holds (FI_*_RX_SIZE), up to OFI_AM_RX_BUFS; a
     * message that finds none posted waits in the provider */
    int posted = 0;
    size_t qsize = ofi_g.info->rx_attr->size ? ofi_g.info->rx_attr->size : OFI_AM_RX_BUFS;
    for (int k = 0; k < OFI_AM_RX_BUFS && (size_t)k < qsize; k++) {
        am_g.rx[k].buf = am_g.mem + (size_t)k * am_g.buf_size;
        if (ofi_am_post_try(&am_g.rx[k], 1) != 0)
            break;
        posted++;
    }
    if (posted == 0) {
        ofs_log_error("ofi: the target endpoint's receive queue takes no buffer for "
                      "put-with-signal messages (rx size %zu): set SHMEM_OFI_AM_SIZE=0 on every PE",
                      ofi_g.info->rx_attr->size);
        return OFS_ERR_FABRIC;
    }
    return OFS_OK;
}

/* Before the target endpoint is closed (its MR first, as under FI_MR_ENDPOINT it is
 * bound to the endpoint). */
void ofi_am_rx_close(void)
{
    if (am_g.mr)
        fi_close(&am_g.mr->fid);
    am_g.mr = NULL;
    am_g.desc = NULL;
}

/* After it is closed: nothing refers to the buffers any more. */
void ofi_am_rx_free(void)
{
    free(am_g.rx);
    free(am_g.mem);
    free(am_g.acks);
    am_g.rx = NULL;
    am_g.mem = NULL;
    am_g.acks = NULL;
    am_g.n_acks = am_g.cap_acks = 0;
    am_g.n_repost = 0;
    ofi_g.am_on = 0;
    ofi_g.am_max = 0;
}

/* Acknowledgements go out from the target endpoint, under am_g.lock.  One that the
 * provider pushes back (-FI_EAGAIN) waits in am_g.acks and is sent by a later poll:
 * retrying on the spot would deadlock when the destination's queue is full of
 * messages that it cannot take while it, too, waits to send (two PEs flushing each
 * other, or a PE flushing itself while others fill its queue: seen with
 * FI_SHM_RX_SIZE=8 and 16-byte parts, 4 PEs). */
static int ofi_am_ack_try(const struct ofi_am_hdr *h)
{
    ssize_t ret = fi_inject(ofi_g.main->ep, h, sizeof(*h), ofi_g.main->addr[h->src]);

    if (ret == -FI_EAGAIN)
        return 0;
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_inject", ret, "acknowledgement to PE %u", (unsigned)h->src);
    return 1;
}

static void ofi_am_ack(const struct ofi_am_hdr *h)
{
    if (am_g.n_acks == 0 && ofi_am_ack_try(h))
        return;
    if (am_g.n_acks == am_g.cap_acks) {
        int cap = am_g.cap_acks ? 2 * am_g.cap_acks : 16;
        struct ofi_am_hdr *a = realloc(am_g.acks, (size_t)cap * sizeof(*a));
        if (!a)
            ofs_fatal(1, "ofi: out of memory for %d pending put-with-signal acknowledgements", cap);
        am_g.acks = a;
        am_g.cap_acks = cap;
    }
    am_g.acks[am_g.n_acks++] = *h;
}

/* Send what waits, in order, as far as the provider takes it. */
static void ofi_am_acks_send(void)
{
    int k = 0;

    while (k < am_g.n_acks && ofi_am_ack_try(&am_g.acks[k]))
        k++;
    if (k > 0) {
        memmove(am_g.acks, am_g.acks + k, (size_t)(am_g.n_acks - k) * sizeof(*am_g.acks));
        am_g.n_acks -= k;
    }
}

static OFS_NORETURN void ofi_am_bad(const struct ofi_am_hdr *h, size_t len)
{
    ofs_fatal(1,
              "ofi: a put-with-signal message from PE %u does not fit this PE's memory (kind %u, "
              "segment %u+%llu, %zu bytes, signal %u+%llu): are SHMEM_SYMMETRIC_SIZE and "
              "SHMEM_OFI_AM_SIZE the same on every PE?",
              (unsigned)h->src, (unsigned)h->kind, (unsigned)h->seg, (unsigned long long)h->off,
              len, (unsigned)h->sig_seg, (unsigned long long)h->sig_off);
}

static void ofi_am_apply(const char *buf, size_t len)
{
    struct ofi_am_hdr h;

    if (OFS_UNLIKELY(len < sizeof(h)))
        ofs_fatal(1, "ofi: a %zu-byte message arrived at the target endpoint (not ofishmem's)",
                  len);
    memcpy(&h, buf, sizeof(h));
    len -= sizeof(h);
    switch (h.kind) {
    case OFI_AM_PUT:
    case OFI_AM_PUTSIG: {
        if (OFS_UNLIKELY(h.seg >= HEAP_NSEGS || h.sig_seg >= HEAP_NSEGS ||
                         h.off > heap_g.seg[h.seg].len || len > heap_g.seg[h.seg].len - h.off ||
                         h.sig_off > heap_g.seg[h.sig_seg].len - sizeof(uint64_t) ||
                         h.sig_off % sizeof(uint64_t) != 0))
            ofi_am_bad(&h, len);
        if (len)
            memcpy(heap_g.seg[h.seg].base + h.off, buf + sizeof(h), len);
        if (h.kind == OFI_AM_PUT)
            break;
        uint64_t *sig = (uint64_t *)(void *)(heap_g.seg[h.sig_seg].base + h.sig_off);
        if (h.sig_op == COMM_SIG_ADD)
            __atomic_fetch_add(sig, h.signal, __ATOMIC_RELEASE);
        else
            __atomic_store_n(sig, h.signal, __ATOMIC_RELEASE);
        break;
    }
    case OFI_AM_FLUSH:
        if (OFS_UNLIKELY(h.src >= (uint32_t)ofs_g.n_pes || !ofi_g.active[h.src]))
            ofi_am_bad(&h, len);
        h.kind = OFI_AM_ACK;
        ofi_am_ack(&h);
        break;
    case OFI_AM_ACK: {
        struct ofi_ctx *c = (struct ofi_ctx *)(uintptr_t)h.off;
        __atomic_add_fetch(&c->am_acked, 1, __ATOMIC_RELEASE);
        break;
    }
    default: ofi_am_bad(&h, len);
    }
}

/* The target endpoint's bounce buffers, for the messages too long to inject that
 * leave from it: taken by the contexts that send from it, given back by whichever
 * thread reads the target CQ (ofi_am_poll) when it finds their send completions. */
static struct ofi_bounce *ofi_am_bounce_take(struct ofi_ctx *c)
{
    unsigned iter = 0;

    for (;;) {
        pthread_mutex_lock(&am_g.bounce_lock);
        struct ofi_bounce *b = ofi_bounce_pop(ofi_g.main);
        pthread_mutex_unlock(&am_g.bounce_lock);
        if (b)
            return b;
        ofi_ctx_progress(c, &iter); /* reads the target CQ, unless another thread does */
    }
}

/* A completion's context that is one of those buffers goes back (nonzero); any other
 * is a receive buffer's. */
static int ofi_am_bounce_give(void *op_context)
{
    struct ofi_ctx *m = ofi_g.main;
    struct ofi_bounce *b = op_context;

    if (!m->bounces || b < m->bounces || b >= m->bounces + ofi_g.thresh.bounce_count)
        return 0;
    pthread_mutex_lock(&am_g.bounce_lock);
    ofi_bounce_push(m, b);
    pthread_mutex_unlock(&am_g.bounce_lock);
    return 1;
}

/* Read the target CQ and apply what arrived (thread-safe: one reader at a time; a
 * caller that finds another reading leaves it the work).  Returns the provider's
 * answer to the read, as ofi_target_poll_cq handles it. */
ssize_t ofi_am_poll(struct fid_cq *cq)
{
    struct fi_cq_msg_entry e[8];
    ssize_t n;

    if (pthread_mutex_trylock(&am_g.lock) != 0) {
        /* still drive the provider (RMA and atomics aimed at us are served there);
         * reading a counter takes no completion from the holder */
        (void)fi_cntr_read(ofi_g.main->put_cntr);
        return -FI_EAGAIN;
    }
    if (am_g.n_acks)
        ofi_am_acks_send();
    if (am_g.n_repost)
        ofi_am_repost();
    n = fi_cq_read(cq, e, 8);
    unsigned long applied = 0;
    for (ssize_t k = 0; k < n; k++) {
        struct ofi_am_rx *r = e[k].op_context;
        if (OFS_UNLIKELY(!r || ofi_is_pe_tag(r)))
            continue;
        if (ofi_am_bounce_give(e[k].op_context))
            continue; /* a message sent from here went out */
        ofi_am_apply(r->buf, e[k].len);
        ofi_am_post(r);
        applied++;
    }
    if (applied)
        __atomic_add_fetch(&am_g.received, applied, __ATOMIC_RELAXED);
    if (am_g.n_acks)
        ofi_am_acks_send();
    pthread_mutex_unlock(&am_g.lock);
    return n;
}

unsigned long ofi_am_received(void)
{
    return __atomic_load_n(&am_g.received, __ATOMIC_RELAXED);
}

/* Send header (+ data) for context c to pe's target endpoint, from endpoint s (what
 * ofi_am_ep_of chose for them): inject when it fits, else through a bounce buffer of
 * that endpoint (recycled on completion, as a bounced put). */
static void ofi_am_send(struct ofi_ctx *c, struct ofi_ctx *s, const struct ofi_am_hdr *h,
                        const void *data, size_t len, int pe)
{
    size_t n = sizeof(*h) + len;
    unsigned iter = 0;
    ssize_t ret;

    if (n <= ofi_am_inject_max()) {
        char buf[OFI_AM_HDR + OFI_AM_INJECT_MAX];
        const void *p = h;
        if (len) {
            memcpy(buf, h, sizeof(*h));
            memcpy(buf + sizeof(*h), data, len);
            p = buf;
        }
        while ((ret = fi_inject(s->ep, p, n, s->addr[pe])) == -FI_EAGAIN)
            ofi_ctx_progress(c, &iter);
        if (OFS_UNLIKELY(ret))
            ofi_fatal_call("fi_inject", ret, "put-with-signal message, %zu bytes, PE %d", n, pe);
        return;
    }
    struct ofi_bounce *b = s == c ? ofi_bounce_take(c) : ofi_am_bounce_take(c);
    memcpy(b->buf, h, sizeof(*h));
    if (len)
        memcpy(b->buf + sizeof(*h), data, len);
    b->pe = pe;
    struct iovec iov = { .iov_base = b->buf, .iov_len = n };
    void *desc = s->bounce_desc;
    struct fi_msg msg = { .msg_iov = &iov,
                          .desc = desc ? &desc : NULL,
                          .iov_count = 1,
                          .addr = s->addr[pe],
                          .context = b };
    while ((ret = fi_sendmsg(s->ep, &msg, FI_COMPLETION)) == -FI_EAGAIN)
        ofi_ctx_progress(c, &iter);
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_sendmsg", ret, "put-with-signal message, %zu bytes, PE %d", n, pe);
}

void ofi_am_putsig(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len, int sig_seg,
                   size_t sig_off, uint64_t signal, int sig_op, int pe, int track)
{
    struct ofi_am_hdr h = { .kind = OFI_AM_PUTSIG,
                            .sig_op = (uint8_t)sig_op,
                            .seg = (uint8_t)seg,
                            .sig_seg = (uint8_t)sig_seg,
                            .src = (uint32_t)ofs_g.my_pe,
                            .off = off,
                            .sig_off = sig_off,
                            .signal = signal };
    unsigned char kind = len > 0 ? 2 : 1; /* am_pe: data sent, or only a signal */

    /* A signal is ordered after the context's earlier writes and atomics to that PE
     * (more than the specification asks, which is a fence between them).  From the
     * context's own endpoint the provider's
     * order kept it (as it keeps the data of a put-with-signal larger than
     * SHMEM_OFI_AM_SIZE, see ofi_put_signal); a message from the target endpoint is
     * ordered after nothing of another endpoint, so those writes complete first
     * (udp;ofi_rxd: a Bruck allgather found a block that its signal had overtaken);
     * only when some went to that PE (ofi_ctx_writes_to), not for large puts to others.
     * The collectives no longer put and then signal (Bruck sends its blocks as
     * put-with-signal), so only a user's put followed by a put-with-signal waits here,
     * one round trip that a fence before it would have cost anyway. */
    struct ofi_ctx *s = ofi_am_ep_of(c, pe);
    if (s != c && ofi_ctx_writes_to(c, pe))
        ofi_ctx_complete_rma(c);

    /* data longer than one message: parts in order (FI_ORDER_SAS), the signal with the
     * last */
    while (len > ofi_g.am_part) {
        h.kind = OFI_AM_PUT;
        ofi_am_send(c, s, &h, src, ofi_g.am_part, pe);
        src = (const char *)src + ofi_g.am_part;
        h.off += ofi_g.am_part;
        len -= ofi_g.am_part;
        h.kind = OFI_AM_PUTSIG;
    }
    ofi_am_send(c, s, &h, src, len, pe);
    if (!track) /* a collective's signal: its target waits for it */
        return;
    if (!c->am_pe[pe])
        c->am_list[c->am_n++] = pe;
    if (c->am_pe[pe] < kind)
        c->am_pe[pe] = kind;
}

/* Wait until every message this context sent has been applied by its target. */
void ofi_am_flush(struct ofi_ctx *c)
{
    struct ofi_am_hdr h = { .kind = OFI_AM_FLUSH,
                            .src = (uint32_t)ofs_g.my_pe,
                            .off = (uint64_t)(uintptr_t)c };
    unsigned iter = 0;

    if (c->am_n == 0)
        return;
    /* Past shmem_finalize's final barrier the only messages not known to be applied
     * are the barrier's own signals, which their targets wait for before they leave;
     * a PE that left may have stopped answering (as for ofi_ctx_complete's flush) */
    if (ofs_g.finalizing) {
        for (int k = 0; k < c->am_n; k++)
            c->am_pe[c->am_list[k]] = 0;
        c->am_n = 0;
        return;
    }
    for (int k = 0; k < c->am_n; k++) {
        ofi_am_send(c, ofi_am_ep_of(c, c->am_list[k]), &h, NULL, 0, c->am_list[k]);
        c->am_pe[c->am_list[k]] = 0;
    }
    c->am_flushes += (uint64_t)c->am_n;
    c->am_n = 0;
    int attending = 0;
    while (__atomic_load_n(&c->am_acked, __ATOMIC_ACQUIRE) < c->am_flushes) {
        if (!attending && iter >= 64) {
            attending = 1;
            ofi_attend_ctx(1);
        }
        ofi_ctx_progress(c, &iter);
    }
    if (attending)
        ofi_attend_ctx(-1);
}
