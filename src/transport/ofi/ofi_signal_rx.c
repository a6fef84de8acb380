/*
 * The receive side of put-with-signal messages (ofi_signal.c describes the protocol):
 * buffers posted on the target endpoint, handled under one lock so that a FLUSH is
 * never answered before an earlier message is applied, and the acknowledgements.
 */
#include "ofi_signal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define OFI_SIG_RX_BUFS 64

struct ofi_sig_rx {
    struct fi_context2 fictx;
    char *buf;
};

static struct {
    pthread_mutex_t lock;     /* receive side: reading the target CQ and applying */
    unsigned long received;   /* messages applied (ofi_traffic watches it) */
    struct ofi_sig_hdr *acks; /* acknowledgements the provider pushed back */
    int n_acks, cap_acks;
    struct ofi_sig_rx *repost[OFI_SIG_RX_BUFS]; /* buffers the provider did not take back */
    int n_repost;
    struct ofi_sig_rx *rx;
    char *mem;
    size_t buf_size;
    struct fid_mr *mr;
    void *desc;
} sig_g = { .lock = PTHREAD_MUTEX_INITIALIZER };
/* Post r.  A full receive queue (-FI_EAGAIN; at start-up also -FI_ENOMEM, setup
 * set) is returned, not waited for: at start-up the queue's size is what it holds;
 * later the caller holds sig_g.lock and the completion queue, which may have to be
 * read first (with FI_SHM_RX_SIZE=8 and 4 PEs flooding one, shm refused a repost for
 * as long as its poller, retrying, did not read the queue: the job hung). */
static ssize_t ofi_sig_post_try(struct ofi_sig_rx *r, int setup)
{
    struct iovec iov = { .iov_base = r->buf, .iov_len = sig_g.buf_size };
    void *desc = sig_g.desc;
    struct fi_msg msg = { .msg_iov = &iov,
                          .desc = desc ? &desc : NULL,
                          .iov_count = 1,
                          .addr = FI_ADDR_UNSPEC,
                          .context = &r->fictx };
    ssize_t ret = fi_recvmsg(ofi_g.target.ctx->ep, &msg, FI_COMPLETION);

    if (ret == -FI_EAGAIN || (setup && ret == -FI_ENOMEM))
        return ret;
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_recvmsg", ret, "message buffer %p, %zu bytes", r->buf, sig_g.buf_size);
    return 0;
}

/* Repost a buffer whose message was applied (under sig_g.lock); one the provider does
 * not take now waits for a later poll, after the completion queue has been read. */
static void ofi_sig_post(struct ofi_sig_rx *r)
{
    if (sig_g.n_repost == 0 && ofi_sig_post_try(r, 0) == 0)
        return;
    sig_g.repost[sig_g.n_repost++] = r;
}

static void ofi_sig_repost(void)
{
    int k = 0;

    while (k < sig_g.n_repost && ofi_sig_post_try(sig_g.repost[k], 0) == 0)
        k++;
    if (k > 0) {
        memmove(sig_g.repost, sig_g.repost + k,
                (size_t)(sig_g.n_repost - k) * sizeof(*sig_g.repost));
        sig_g.n_repost -= k;
    }
}

/* Post the target endpoint's receive buffers (before the address is published). */
ofs_status_t ofi_sig_rx_setup(void)
{
    if (!ofi_g.sig.by_msg)
        return OFS_OK;
    sig_g.buf_size = (OFI_SIG_HDR + ofi_g.sig.part + 63) & ~(size_t)63;
    sig_g.rx = calloc(OFI_SIG_RX_BUFS, sizeof(*sig_g.rx));
    sig_g.mem = aligned_alloc(64, OFI_SIG_RX_BUFS * sig_g.buf_size);
    if (!sig_g.rx || !sig_g.mem)
        return OFS_ERR_NOMEM;
    if (ofi_g.reg.mode & FI_MR_LOCAL) {
        ofs_status_t st = ofi_mr_reg_local(ofi_g.target.ctx->ep, sig_g.mem,
                                           OFI_SIG_RX_BUFS * sig_g.buf_size, FI_RECV, &sig_g.mr);
        if (st != OFS_OK)
            return st;
        sig_g.desc = fi_mr_desc(sig_g.mr);
    }
    /* as many as the receive queue holds (FI_*_RX_SIZE), up to OFI_SIG_RX_BUFS; a
     * message that finds none posted waits in the provider */
    int posted = 0;
    size_t qsize = ofi_g.caps.rx_size ? ofi_g.caps.rx_size : OFI_SIG_RX_BUFS;
    for (int k = 0; k < OFI_SIG_RX_BUFS && (size_t)k < qsize; k++) {
        sig_g.rx[k].buf = sig_g.mem + (size_t)k * sig_g.buf_size;
        if (ofi_sig_post_try(&sig_g.rx[k], 1) != 0)
            break;
        posted++;
    }
    if (posted == 0) {
        ofs_log_error("ofi: the target endpoint's receive queue takes no buffer for "
                      "put-with-signal messages (rx size %zu): set SHMEM_OFI_AM_SIZE=0 on every PE",
                      ofi_g.caps.rx_size);
        return OFS_ERR_FABRIC;
    }
    return OFS_OK;
}

/* Before the target endpoint is closed (its MR first, as under FI_MR_ENDPOINT it is
 * bound to the endpoint). */
void ofi_sig_rx_close(void)
{
    if (sig_g.mr)
        fi_close(&sig_g.mr->fid);
    sig_g.mr = NULL;
    sig_g.desc = NULL;
}

/* After it is closed: nothing refers to the buffers any more. */
void ofi_sig_rx_free(void)
{
    free(sig_g.rx);
    free(sig_g.mem);
    free(sig_g.acks);
    sig_g.rx = NULL;
    sig_g.mem = NULL;
    sig_g.acks = NULL;
    sig_g.n_acks = sig_g.cap_acks = 0;
    sig_g.n_repost = 0;
    ofi_g.sig.by_msg = 0;
    ofi_g.sig.msg_max = 0;
}

/* Acknowledgements go out from the target endpoint, under sig_g.lock.  One that the
 * provider pushes back (-FI_EAGAIN) waits in sig_g.acks and is sent by a later poll:
 * retrying on the spot would deadlock when the destination's queue is full of
 * messages that it cannot take while it, too, waits to send (two PEs flushing each
 * other, or a PE flushing itself while others fill its queue: seen with
 * FI_SHM_RX_SIZE=8 and 16-byte parts, 4 PEs). */
static int ofi_sig_ack_try(const struct ofi_sig_hdr *h)
{
    ssize_t ret = fi_inject(ofi_g.target.ctx->ep, h, sizeof(*h), ofi_g.target.ctx->addr[h->src]);

    if (ret == -FI_EAGAIN)
        return 0;
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_inject", ret, "acknowledgement to PE %u", (unsigned)h->src);
    return 1;
}

static void ofi_sig_ack(const struct ofi_sig_hdr *h)
{
    if (sig_g.n_acks == 0 && ofi_sig_ack_try(h))
        return;
    if (sig_g.n_acks == sig_g.cap_acks) {
        int cap = sig_g.cap_acks ? 2 * sig_g.cap_acks : 16;
        struct ofi_sig_hdr *a = realloc(sig_g.acks, (size_t)cap * sizeof(*a));
        if (!a)
            ofs_fatal(1, "ofi: out of memory for %d pending put-with-signal acknowledgements", cap);
        sig_g.acks = a;
        sig_g.cap_acks = cap;
    }
    sig_g.acks[sig_g.n_acks++] = *h;
}

/* Send what waits, in order, as far as the provider takes it. */
static void ofi_sig_acks_send(void)
{
    int k = 0;

    while (k < sig_g.n_acks && ofi_sig_ack_try(&sig_g.acks[k]))
        k++;
    if (k > 0) {
        memmove(sig_g.acks, sig_g.acks + k, (size_t)(sig_g.n_acks - k) * sizeof(*sig_g.acks));
        sig_g.n_acks -= k;
    }
}

static OFS_NORETURN void ofi_sig_bad(const struct ofi_sig_hdr *h, size_t len)
{
    ofs_fatal(1,
              "ofi: a put-with-signal message from PE %u does not fit this PE's memory (kind %u, "
              "segment %u+%llu, %zu bytes, signal %u+%llu): are SHMEM_SYMMETRIC_SIZE and "
              "SHMEM_OFI_AM_SIZE the same on every PE?",
              (unsigned)h->src, (unsigned)h->kind, (unsigned)h->seg, (unsigned long long)h->off,
              len, (unsigned)h->sig_seg, (unsigned long long)h->sig_off);
}

static void ofi_sig_apply(const char *buf, size_t len)
{
    struct ofi_sig_hdr h;

    if (OFS_UNLIKELY(len < sizeof(h)))
        ofs_fatal(1, "ofi: a %zu-byte message arrived at the target endpoint (not ofishmem's)",
                  len);
    memcpy(&h, buf, sizeof(h));
    len -= sizeof(h);
    switch (h.kind) {
    case OFI_SIG_PUT:
    case OFI_SIG_PUTSIG: {
        if (OFS_UNLIKELY(h.seg >= HEAP_NSEGS || h.sig_seg >= HEAP_NSEGS ||
                         h.off > heap_g.seg[h.seg].len || len > heap_g.seg[h.seg].len - h.off ||
                         h.sig_off > heap_g.seg[h.sig_seg].len - sizeof(uint64_t) ||
                         h.sig_off % sizeof(uint64_t) != 0))
            ofi_sig_bad(&h, len);
        if (len)
            memcpy(heap_g.seg[h.seg].base + h.off, buf + sizeof(h), len);
        if (h.kind == OFI_SIG_PUT)
            break;
        uint64_t *sig = (uint64_t *)(void *)(heap_g.seg[h.sig_seg].base + h.sig_off);
        if (h.sig_op == COMM_SIG_ADD)
            __atomic_fetch_add(sig, h.signal, __ATOMIC_RELEASE);
        else
            __atomic_store_n(sig, h.signal, __ATOMIC_RELEASE);
        break;
    }
    case OFI_SIG_FLUSH:
        if (OFS_UNLIKELY(h.src >= (uint32_t)ofs_g.n_pes || !ofi_g.active[h.src]))
            ofi_sig_bad(&h, len);
        h.kind = OFI_SIG_ACK;
        ofi_sig_ack(&h);
        break;
    case OFI_SIG_ACK: {
        struct ofi_ctx *c = (struct ofi_ctx *)(uintptr_t)h.off;
        __atomic_add_fetch(&c->sig_acked, 1, __ATOMIC_RELEASE);
        break;
    }
    default: ofi_sig_bad(&h, len);
    }
}
/* A completion's context that is one of those buffers goes back (nonzero); any other
 * is a receive buffer's. */
static int ofi_sig_bounce_give(void *op_context)
{
    struct ofi_ctx *m = ofi_g.target.ctx;
    struct ofi_bounce *b = op_context;

    if (!m->bounces || b < m->bounces || b >= m->bounces + ofi_g.proto.thresh.bounce_count)
        return 0;
    pthread_mutex_lock(&ofi_sig_bounce_lock);
    ofi_bounce_push(m, b);
    pthread_mutex_unlock(&ofi_sig_bounce_lock);
    return 1;
}

/* Read the target CQ and apply what arrived (thread-safe: one reader at a time; a
 * caller that finds another reading leaves it the work).  Returns the provider's
 * answer to the read, as ofi_target_poll_cq handles it. */
ssize_t ofi_sig_poll(struct fid_cq *cq)
{
    struct fi_cq_msg_entry e[8];
    ssize_t n;

    if (pthread_mutex_trylock(&sig_g.lock) != 0) {
        /* still drive the provider (RMA and atomics aimed at us are served there);
         * reading a counter takes no completion from the holder */
        (void)fi_cntr_read(ofi_g.target.ctx->put_cntr);
        return -FI_EAGAIN;
    }
    if (sig_g.n_acks)
        ofi_sig_acks_send();
    if (sig_g.n_repost)
        ofi_sig_repost();
    n = fi_cq_read(cq, e, 8);
    unsigned long applied = 0;
    for (ssize_t k = 0; k < n; k++) {
        struct ofi_sig_rx *r = e[k].op_context;
        if (OFS_UNLIKELY(!r || ofi_is_pe_tag(r)))
            continue;
        if (ofi_sig_bounce_give(e[k].op_context))
            continue; /* a message sent from here went out */
        ofi_sig_apply(r->buf, e[k].len);
        ofi_sig_post(r);
        applied++;
    }
    if (applied)
        __atomic_add_fetch(&sig_g.received, applied, __ATOMIC_RELAXED);
    if (sig_g.n_acks)
        ofi_sig_acks_send();
    pthread_mutex_unlock(&sig_g.lock);
    return n;
}

unsigned long ofi_sig_received(void)
{
    return __atomic_load_n(&sig_g.received, __ATOMIC_RELAXED);
}
