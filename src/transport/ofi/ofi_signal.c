/*
 * Put-with-signal as messages.  Written as an RMA write and an atomic, a
 * put-with-signal over tcp;ofi_rxm is four messages (the write, its acknowledgement,
 * the atomic, its response).  Here a small one is a single send to the target
 * endpoint carrying a header, the data and the signal; the target copies the data and
 * updates the signal (a CPU atomic, released after the data) when it reads its
 * completion queue, which its wait loops and its progress thread do.  Data longer than
 * the provider sends by its fastest protocol goes in several messages, the signal with
 * the last (docs/ofi-internals.md, "Put-with-signal messages", has the measurements).
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
 * Messages leave from the PE's target endpoint too (see ofi_sig_ep_of), so that between
 * two PEs they all share one connection; the target endpoint's bounce buffers carry
 * those too long to inject, and return when whoever reads the target CQ finds their
 * send completions.
 *
 * The target's receive side is ofi_signal_rx.c.  Only with manual-progress providers,
 * whose target endpoint somebody polls anyway (the progress thread): elsewhere a
 * message would wait for the target PE to call the library.
 */
#include "ofi_signal.h"

#include <string.h>
#include <sys/uio.h>

pthread_mutex_t ofi_sig_bounce_lock = PTHREAD_MUTEX_INITIALIZER;

/* a flush that waits longer than this many rounds lets the progress thread stand by */
#define OFI_SIG_FLUSH_SPINS 64

/* Largest message sent by inject: SHMEM_OFI_INJECT_SIZE (which can only lower the
 * provider's inject size) applies to messages as to puts. */
static size_t ofi_sig_inject_max(void)
{
    size_t inj = ofi_g.proto.thresh.inject_max;
    return inj < OFI_SIG_HDR + OFI_SIG_INJECT_MAX ? inj : OFI_SIG_HDR + OFI_SIG_INJECT_MAX;
}

/* The longest message (header included) the provider sends by its fastest protocol
 * (caps: its inject size, or its eager size; docs/ofi-internals.md has the
 * measurements).  Elsewhere: what the bounce buffer or an inject holds (carry). */
static size_t ofi_sig_step(size_t carry)
{
    size_t step = carry;

    if (ofi_g.caps.msg_fast_is_inject)
        step = ofi_sig_inject_max();
    else if (ofi_g.caps.eager_size)
        step = ofi_g.caps.eager_size;
    if (step < OFI_SIG_HDR + 1 || step > carry)
        step = carry;
    return step;
}

/* Decide the path once the provider is known (before the target endpoint's buffers
 * are posted): SHMEM_OFI_AM_SIZE bytes of data at most, in messages of at most
 * ofi_sig_step bytes each (header included), each of which a bounce buffer or (without
 * bounce buffers) an inject must carry. */
ofs_status_t ofi_sig_setup(void)
{
    long want = ofs_g.params.OFI_AM_SIZE;
    int from = ofs_g.params.OFI_AM_EP;

    ofi_g.sig.from_target = 0;
    ofi_g.sig.msg_max = 0;
    ofi_g.sig.part = 0;
    ofi_g.sig.why_not = NULL;
    if (want == 0)
        ofi_g.sig.why_not = "SHMEM_OFI_AM_SIZE=0";
    else if (!ofi_g.caps.manual_progress)
        ofi_g.sig.why_not =
            "the provider progresses data itself (no progress thread to apply them)";
    else if (!ofi_g.caps.msg || !ofi_g.caps.ordered_sas)
        ofi_g.sig.why_not = "the provider does not deliver messages in order";
    else if (ofi_g.caps.inject_size < OFI_SIG_HDR)
        ofi_g.sig.why_not = "the provider's inject size is below the 32-byte header";
    if (ofi_g.sig.why_not)
        return OFS_OK;
    size_t inj = ofi_sig_inject_max();
    size_t carry = ofi_g.proto.thresh.bounce_max > inj ? ofi_g.proto.thresh.bounce_max : inj;
    if (carry < OFI_SIG_HDR) {
        ofi_g.sig.why_not = "neither inject nor bounce buffers can carry the 32-byte header";
        return OFS_OK;
    }
    size_t step = ofi_sig_step(carry);
    /* a message must fit the target's receive buffer and one provider message */
    if (ofi_g.caps.max_msg_size && step > ofi_g.caps.max_msg_size)
        step = ofi_g.caps.max_msg_size;
    if (step <= OFI_SIG_HDR) {
        ofi_g.sig.why_not = "the provider's largest message cannot carry the 32-byte header";
        return OFS_OK;
    }
    ofi_g.sig.part = step - OFI_SIG_HDR;
    if (ofs_g.params.OFI_AM_PART > 0 && (size_t)ofs_g.params.OFI_AM_PART < ofi_g.sig.part)
        ofi_g.sig.part = (size_t)ofs_g.params.OFI_AM_PART;
    if (want > 0)
        ofi_g.sig.msg_max = (size_t)want;
    else
        ofi_g.sig.msg_max = ofi_g.caps.sig_size_default;
    if (ofi_g.sig.part > ofi_g.sig.msg_max)
        ofi_g.sig.part = ofi_g.sig.msg_max;
    /* even 0 bytes of data: the signal of larger puts goes by message */
    ofi_g.sig.by_msg = 1;
    /* auto: not with more PEs than CPUs, where it gained nothing and the progress
     * thread contended for the target endpoint with the senders (docs/ofi-internals.md) */
    ofi_g.sig.from_target =
        from == OFS_OFI_AM_EP_TARGET || (from == OFS_OFI_AM_EP_AUTO && !ofs_g.oversubscribed);
    ofi_g.ops.target_cq_read = ofi_sig_poll;
    return OFS_OK;
}

/* The endpoint (as its ofi_ctx) c's messages to pe leave from: the target endpoint
 * where SHMEM_OFI_AM_EP says so, so that the messages between two PEs, both ways, and
 * their acknowledgements travel over one connection (docs/ofi-internals.md); not for
 * a SHMEM_CTX_PRIVATE context (its thread shares no endpoint) nor to this PE (shm
 * mishandles an endpoint sending to itself while others send to it).  The same for
 * every message of c to pe, so they stay in order (FI_ORDER_SAS); a pooled team
 * context changes its options only when handed out, after a quiet. */
static inline struct ofi_ctx *ofi_sig_ep_of(struct ofi_ctx *c, int pe)
{
    return ofi_g.sig.from_target && pe != ofs_g.my_pe && !ofi_ctx_private(c) ? ofi_g.target.ctx : c;
}
/* Contexts whose own endpoint sent messages or writes (not the target endpoint's, not
 * the default context's, which ofi_progress drives already): a provider that sends only
 * while the sending endpoint is driven (udp;ofi_rxd; sockets, asked for manual
 * progress) kept a message of such a context until its next quiet, while its PE waited
 * for the answer elsewhere (a non-blocking collective's signal at 3 PEs, whose engine
 * never quiets its context, hung), and so a team context's injected write or atomic.
 * The wait loops and the progress thread drive them: a counter read each, every 8th
 * call; one that only wrote, while its writes are in flight as it last looked. */
#define OFI_SIG_DRIVE_EVERY 8
static pthread_mutex_t ofi_sig_drive_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ofi_ctx *ofi_sig_drive_head;

void ofi_drive_add(struct ofi_ctx *c, int why)
{
    int was = __atomic_load_n(&c->on_drive, __ATOMIC_RELAXED);

    if (was == OFI_DRIVE_NEVER || was >= why || c == ofi_g.target.ctx || c == ofi_g.dflt)
        return;
    pthread_mutex_lock(&ofi_sig_drive_lock);
    if (!c->on_drive) {
        c->drive_prev = NULL;
        c->drive_next = ofi_sig_drive_head;
        if (c->drive_next)
            c->drive_next->drive_prev = c;
        __atomic_store_n(&ofi_sig_drive_head, c, __ATOMIC_RELEASE);
    }
    if (c->on_drive < why)
        __atomic_store_n(&c->on_drive, why, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ofi_sig_drive_lock);
}

void ofi_sig_drive_remove(struct ofi_ctx *c)
{
    if (__atomic_load_n(&c->on_drive, __ATOMIC_RELAXED) <= 0)
        return;
    pthread_mutex_lock(&ofi_sig_drive_lock);
    if (c->drive_prev)
        c->drive_prev->drive_next = c->drive_next;
    else
        __atomic_store_n(&ofi_sig_drive_head, c->drive_next, __ATOMIC_RELEASE);
    if (c->drive_next)
        c->drive_next->drive_prev = c->drive_prev;
    c->on_drive = 0;
    pthread_mutex_unlock(&ofi_sig_drive_lock);
}

void ofi_sig_drive(void)
{
    static unsigned calls;

    if (!__atomic_load_n(&ofi_sig_drive_head, __ATOMIC_ACQUIRE) ||
        __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) % OFI_SIG_DRIVE_EVERY != 0 ||
        pthread_mutex_trylock(&ofi_sig_drive_lock) != 0)
        return;
    /* reading a counter drives the endpoint without taking its completions */
    for (struct ofi_ctx *c = ofi_sig_drive_head; c; c = c->drive_next)
        if (c->on_drive == OFI_DRIVE_MSG || __atomic_load_n(&c->put_issued, __ATOMIC_RELAXED) !=
                                                __atomic_load_n(&c->put_done, __ATOMIC_RELAXED))
            (void)fi_cntr_read(c->put_cntr);
    pthread_mutex_unlock(&ofi_sig_drive_lock);
}

/* The target endpoint's bounce buffers, for the messages too long to inject that
 * leave from it: taken by the contexts that send from it, given back by whichever
 * thread reads the target CQ (ofi_sig_poll) when it finds their send completions. */
static struct ofi_bounce *ofi_sig_bounce_take(struct ofi_ctx *c)
{
    unsigned iter = 0;

    for (;;) {
        pthread_mutex_lock(&ofi_sig_bounce_lock);
        struct ofi_bounce *b = ofi_bounce_pop(ofi_g.target.ctx);
        pthread_mutex_unlock(&ofi_sig_bounce_lock);
        if (b)
            return b;
        ofi_ctx_progress(c, &iter); /* reads the target CQ, unless another thread does */
    }
}
/* Send header (+ data) for context c to pe's target endpoint, from endpoint s (what
 * ofi_sig_ep_of chose for them): inject when it fits, else through a bounce buffer of
 * that endpoint (recycled on completion, as a bounced put). */
static void ofi_sig_send(struct ofi_ctx *c, struct ofi_ctx *s, const struct ofi_sig_hdr *h,
                         const void *data, size_t len, int pe)
{
    size_t n = sizeof(*h) + len;
    unsigned iter = 0;
    ssize_t ret;

    if (s != ofi_g.target.ctx && s != ofi_g.dflt)
        ofi_drive_add(s, OFI_DRIVE_MSG);
    if (n <= ofi_sig_inject_max()) {
        char buf[OFI_SIG_HDR + OFI_SIG_INJECT_MAX];
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
    struct ofi_bounce *b = s == c ? ofi_bounce_take(c) : ofi_sig_bounce_take(c);
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

static void ofi_sig_putsig(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len,
                           int sig_seg, size_t sig_off, uint64_t signal, int sig_op, int pe,
                           int track)
{
    struct ofi_sig_hdr h = { .kind = OFI_SIG_PUTSIG,
                             .sig_op = (uint8_t)sig_op,
                             .seg = (uint8_t)seg,
                             .sig_seg = (uint8_t)sig_seg,
                             .src = (uint32_t)ofs_g.my_pe,
                             .off = off,
                             .sig_off = sig_off,
                             .signal = signal };
    unsigned char kind = len > 0 ? OFI_SIG_SENT_DATA : OFI_SIG_SENT_SIGNAL;

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
    struct ofi_ctx *s = ofi_sig_ep_of(c, pe);
    if (s != c && ofi_ctx_writes_to(c, pe))
        ofi_ctx_complete_rma(c);

    /* data longer than one message: parts in order (FI_ORDER_SAS), the signal with the
     * last */
    while (len > ofi_g.sig.part) {
        h.kind = OFI_SIG_PUT;
        ofi_sig_send(c, s, &h, src, ofi_g.sig.part, pe);
        src = (const char *)src + ofi_g.sig.part;
        h.off += ofi_g.sig.part;
        len -= ofi_g.sig.part;
        h.kind = OFI_SIG_PUTSIG;
    }
    ofi_sig_send(c, s, &h, src, len, pe);
    if (!track) /* a collective's signal: its target waits for it */
        return;
    if (!c->sig_pe[pe])
        c->sig_list[c->sig_n++] = pe;
    if (c->sig_pe[pe] < kind)
        c->sig_pe[pe] = kind;
}

/* Wait until every message this context sent has been applied by its target. */
static void ofi_sig_flush(struct ofi_ctx *c)
{
    struct ofi_sig_hdr h = { .kind = OFI_SIG_FLUSH,
                             .src = (uint32_t)ofs_g.my_pe,
                             .off = (uint64_t)(uintptr_t)c };
    unsigned iter = 0;

    if (c->sig_n == 0)
        return;
    /* Past shmem_finalize's final quiet every message is known to be applied, and a
     * PE that left its PMIx fence may have stopped answering (as for
     * ofi_ctx_complete's flush) */
    if (ofs_g.finalizing) {
        for (int k = 0; k < c->sig_n; k++)
            c->sig_pe[c->sig_list[k]] = 0;
        c->sig_n = 0;
        return;
    }
    for (int k = 0; k < c->sig_n; k++) {
        ofi_sig_send(c, ofi_sig_ep_of(c, c->sig_list[k]), &h, NULL, 0, c->sig_list[k]);
        c->sig_pe[c->sig_list[k]] = 0;
    }
    c->sig_flushes += (uint64_t)c->sig_n;
    c->sig_n = 0;
    int attending = 0;
    while (__atomic_load_n(&c->sig_acked, __ATOMIC_ACQUIRE) < c->sig_flushes) {
        if (!attending && iter >= OFI_SIG_FLUSH_SPINS) {
            attending = 1;
            ofi_attend_ctx(1);
        }
        ofi_ctx_progress(c, &iter);
    }
    if (attending)
        ofi_attend_ctx(-1);
}

/* Put-with-signal by message: up to SHMEM_OFI_AM_SIZE bytes of data, one message
 * (ofi_sig_putsig).  Larger: the data written, then the signal by message; the signal
 * must not overtake the data: unless the provider orders sends after writes, the data
 * completes first (with delivery completion that means it is in the target's memory;
 * a message leaving from another endpoint than the write waits for it in
 * ofi_sig_putsig). */
static void ofi_put_signal_msg(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len,
                               int sig_seg, size_t sig_off, uint64_t signal, int sig_op, int pe,
                               int nbi)
{
    int coll = sig_op & COMM_SIG_COLL;

    sig_op &= COMM_SIG_ADD;
    if (len > ofi_g.sig.msg_max) {
        /* data sent by message and not yet applied could land after this write */
        if (c->sig_n && c->sig_pe[pe] == OFI_SIG_SENT_DATA)
            ofi_sig_flush(c);
        ofi_g.ops.put(c, seg, off, src, len, pe, !nbi);
        if (!ofi_g.caps.ordered_saw)
            ofi_ctx_complete_rma(c); /* earlier messages need not be applied */
        /* from another endpoint, ofi_sig_putsig completes it too */
        len = 0;
    }
    ofi_sig_putsig(c, seg, off, src, len, sig_seg, sig_off, signal, sig_op, pe, !coll);
}

/* Put-with-signal as a write and an atomic, where signals do not go by message.
 * Without write-after-write ordering the data completes before the signal is issued.
 * With delivery completion a signal alone waits only for earlier writes to its PE (as
 * one by message does): in a barrier, which signals after comm_quiet_all, nothing is
 * left to complete, and its rounds no longer wait for each other's signals; a
 * collective's signal is not counted as a write to its PE (wr_pe): its target waits
 * for it.  With transmit completion (shm) the context still completes before every
 * signal: skipping that measured slower there (docs/ofi-internals.md, "Barrier"). */
static void ofi_put_signal_amo(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len,
                               int sig_seg, size_t sig_off, uint64_t signal, int sig_op, int pe,
                               int nbi)
{
    int coll = sig_op & COMM_SIG_COLL;
    int wr_pe;

    sig_op &= COMM_SIG_ADD;
    if (len > 0 || !ofi_g.caps.delivery_complete) {
        ofi_g.ops.put(c, seg, off, src, len, pe, !nbi);
        if (!ofi_g.caps.ordered_waw)
            ofi_ctx_complete(c);
    } else if (!ofi_g.caps.ordered_waw && ofi_ctx_writes_to(c, pe)) {
        ofi_ctx_complete_rma(c);
    }
    wr_pe = c->wr_pe;
    ofi_g.ops.amo(c, sig_op == COMM_SIG_ADD ? COMM_AMO_ADD : COMM_AMO_SET, COMM_DT_U64, sig_seg,
                  sig_off, &signal, NULL, NULL, pe, nbi);
    if (coll && ofi_g.caps.delivery_complete)
        c->wr_pe = wr_pe;
}

/* the entries of both thread levels, for both ways */
#define OFI_PUT_SIGNAL_INSTANCE(name, mt, way)                                                    \
    static void ofi_put_signal_##name(struct comm_ctx *ctx, int seg, size_t off, const void *src, \
                                      size_t len, int sig_seg, size_t sig_off, uint64_t signal,   \
                                      int sig_op, int pe, int nbi)                                \
    {                                                                                             \
        struct ofi_ctx *c = ofi_ctx_of(ctx);                                                      \
        int l = (mt) ? ofi_ctx_lock_mt(c) : 0;                                                    \
                                                                                                  \
        way(c, seg, off, src, len, sig_seg, sig_off, signal, sig_op, pe, nbi);                    \
        ofi_ctx_unlock(c, l);                                                                     \
    }

OFI_PUT_SIGNAL_INSTANCE(msg_st, 0, ofi_put_signal_msg)
OFI_PUT_SIGNAL_INSTANCE(msg_mt, 1, ofi_put_signal_msg)
OFI_PUT_SIGNAL_INSTANCE(amo_st, 0, ofi_put_signal_amo)
OFI_PUT_SIGNAL_INSTANCE(amo_mt, 1, ofi_put_signal_amo)

void ofi_sig_ops_choose(struct transport_ops *t)
{
    int mt = ofs_g.thread_level == OFI_THREAD_MULTIPLE;

    if (ofi_g.sig.by_msg)
        t->put_signal = mt ? ofi_put_signal_msg_mt : ofi_put_signal_msg_st;
    else
        t->put_signal = mt ? ofi_put_signal_amo_mt : ofi_put_signal_amo_st;
    ofi_g.ops.sig_flush = ofi_sig_flush;
}
