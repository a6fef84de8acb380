/*
 * OFI puts and gets, fence and quiet.  Puts pick INJECT, BOUNCE or LARGE by
 * ofi_put_proto_select(); gets and large puts are chunked at the threshold's chunk
 * size.  Every operation is counted on its context and completes through the context's
 * engine (ofi_ctx.c); -FI_EAGAIN drives progress and retries.
 */
#include "ofi_ctx.h"

#include <string.h>
#include <sys/uio.h>

/* One fi_writemsg of len bytes at src (desc: its descriptor, NULL if none needed) to
 * raddr on pe, retried with progress while the provider pushes back.  what names the
 * path in the error message. */
static void ofi_writemsg(struct ofi_ctx *c, const void *src, void *desc, size_t len, int pe,
                         uint64_t raddr, uint64_t key, void *context, uint64_t flags,
                         const char *what)
{
    struct iovec iov = { .iov_base = (void *)src, .iov_len = len };
    struct fi_rma_iov riov = { .addr = raddr, .len = len, .key = key };
    struct fi_msg_rma msg = { .msg_iov = &iov,
                              .desc = desc ? &desc : NULL,
                              .iov_count = 1,
                              .addr = c->addr[pe],
                              .rma_iov = &riov,
                              .rma_iov_count = 1,
                              .context = context ? context : ofi_pe_tag(pe) };
    unsigned iter = 0;
    ssize_t ret;

    while ((ret = fi_writemsg(c->ep, &msg, flags)) == -FI_EAGAIN)
        ofi_ctx_progress(c, &iter);
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_writemsg", ret, "%s, %p, len %zu, PE %d, raddr 0x%llx, key 0x%llx", what,
                       src, len, pe, (unsigned long long)raddr, (unsigned long long)key);
    ofi_ctx_put_issued(c, pe);
}

/* fi_inject_write takes the provider's inject completion (shm completes it when
 * queued, before the target applies it); with delivery completion granted we ask for
 * it explicitly so that quiet means "in the target's memory". */
static void ofi_put_inject(struct ofi_ctx *c, const void *src, size_t len, int pe, uint64_t raddr,
                           uint64_t key)
{
    unsigned iter = 0;
    ssize_t ret;

    if (ofi_g.caps.delivery_complete) {
        ofi_writemsg(c, src, NULL, len, pe, raddr, key, NULL, FI_INJECT | FI_DELIVERY_COMPLETE,
                     "inject");
        return;
    }
    while ((ret = fi_inject_write(c->ep, src, len, c->addr[pe], raddr, key)) == -FI_EAGAIN)
        ofi_ctx_progress(c, &iter);
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_inject_write", ret, "len %zu, PE %d, raddr 0x%llx, key 0x%llx", len, pe,
                       (unsigned long long)raddr, (unsigned long long)key);
    ofi_ctx_put_issued(c, pe);
}

static void ofi_put_bounce(struct ofi_ctx *c, const void *src, size_t len, int pe, uint64_t raddr,
                           uint64_t key)
{
    struct ofi_bounce *b = ofi_bounce_take(c);

    memcpy(b->buf, src, len);
    b->pe = pe;
    ofi_writemsg(c, b->buf, c->bounce_desc, len, pe, raddr, key, b,
                 FI_COMPLETION | ofi_g.proto.op_flags, "bounce");
}

static void ofi_put_large(struct ofi_ctx *c, const char *src, size_t len, int pe, uint64_t raddr,
                          uint64_t key, int blocking)
{
    struct fid_mr *tmp;
    void *desc = ofi_local_desc(c, src, len, FI_WRITE, &tmp);
    size_t chunk = ofi_g.proto.thresh.chunk;
    /* a put that waits here waits only for its source to be reusable (tcp;ofi_rxm:
     * 64-128 KiB put streams 1.4x faster); quiet then flushes the PE (a put+quiet
     * pays ~5% for the second message).  Non-blocking puts keep delivery completion:
     * nothing waits for it before quiet, and quiet needs no flush for them. */
    int local = ofi_g.proto.put_local && (blocking || tmp);

    if (local)
        ofi_ctx_mark(c, pe);
    for (size_t done = 0; done < len;) {
        size_t n = len - done < chunk ? len - done : chunk;
        unsigned iter = 0;
        ssize_t ret;

        if (local) {
            ofi_writemsg(c, src + done, desc, n, pe, raddr + done, key, NULL, FI_INJECT_COMPLETE,
                         "zero-copy, locally complete");
            done += n;
            continue;
        }
        while ((ret = fi_write(c->ep, src + done, n, desc, c->addr[pe], raddr + done, key,
                               ofi_pe_tag(pe))) == -FI_EAGAIN)
            ofi_ctx_progress(c, &iter);
        if (OFS_UNLIKELY(ret))
            ofi_fatal_call("fi_write", ret, "%p, len %zu, PE %d, raddr 0x%llx, key 0x%llx",
                           (void *)(src + done), n, pe, (unsigned long long)(raddr + done),
                           (unsigned long long)key);
        ofi_ctx_put_issued(c, pe);
        done += n;
    }
    if (blocking || tmp)
        ofi_ctx_wait(c, 1, 0);
    if (tmp)
        fi_close(&tmp->fid);
}

static void ofi_put_locked(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len,
                           int pe, int blocking)
{
    uint64_t raddr = ofi_raddr(seg, off, pe), key = ofi_g.peers[pe].key[seg];

    if (OFS_UNLIKELY(len == 0))
        return;
    if (!ofi_g.caps.put_in_place)
        ofi_ctx_dirty(c, pe);
    switch (ofi_put_proto_select(len, &ofi_g.proto.thresh)) {
    case OFI_PUT_INJECT: ofi_put_inject(c, src, len, pe, raddr, key); break;
    case OFI_PUT_BOUNCE: ofi_put_bounce(c, src, len, pe, raddr, key); break;
    default: ofi_put_large(c, src, len, pe, raddr, key, blocking); break;
    }
}

static void ofi_put(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_sig_order(c, pe);
    ofi_put_locked(c, seg, off, src, len, pe, 1);
    ofi_ctx_unlock(c, l);
}

static void ofi_put_nbi(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len,
                        int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_sig_order(c, pe);
    ofi_put_locked(c, seg, off, src, len, pe, 0);
    ofi_ctx_unlock(c, l);
}

static void ofi_get_locked(struct ofi_ctx *c, char *dst, int seg, size_t off, size_t len, int pe,
                           int blocking)
{
    uint64_t raddr = ofi_raddr(seg, off, pe), key = ofi_g.peers[pe].key[seg];
    size_t chunk = ofi_g.proto.thresh.chunk;
    struct fid_mr *tmp;
    void *desc;

    if (OFS_UNLIKELY(len == 0))
        return;
    desc = ofi_local_desc(c, dst, len, FI_READ, &tmp);
    for (size_t done = 0; done < len;) {
        size_t n = len - done < chunk ? len - done : chunk;
        unsigned iter = 0;
        ssize_t ret;

        while ((ret = fi_read(c->ep, dst + done, n, desc, c->addr[pe], raddr + done, key,
                              ofi_pe_tag(pe))) == -FI_EAGAIN)
            ofi_ctx_progress(c, &iter);
        if (OFS_UNLIKELY(ret))
            ofi_fatal_call("fi_read", ret, "%p, len %zu, PE %d, raddr 0x%llx, key 0x%llx",
                           (void *)(dst + done), n, pe, (unsigned long long)(raddr + done),
                           (unsigned long long)key);
        c->get_issued++;
        done += n;
    }
    if (blocking || tmp)
        ofi_ctx_wait(c, 0, 1);
    if (tmp)
        fi_close(&tmp->fid);
}

static void ofi_get(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_sig_order(c, pe);
    ofi_get_locked(c, dst, seg, off, len, pe, 1);
    ofi_ctx_unlock(c, l);
}

static void ofi_get_nbi(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_sig_order(c, pe);
    ofi_get_locked(c, dst, seg, off, len, pe, 0);
    ofi_ctx_unlock(c, l);
}

static void ofi_fence(struct comm_ctx *ctx)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);

    if (ofi_g.caps.ordered_waw) {
        /* messages are applied when the target reads them: after the writes that
         * follow them, unless flushed */
        if (c && c->sig_n) {
            int l = ofi_ctx_lock(c);
            ofi_g.ops.sig_flush(c);
            ofi_ctx_unlock(c, l);
        }
        return;
    }
    int l = ofi_ctx_lock(c);
    ofi_ctx_complete(c);
    ofi_ctx_unlock(c, l);
}

void ofi_quiet(struct comm_ctx *ctx)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);

    if (!c)
        return;
    int l = ofi_ctx_lock(c);
    ofi_ctx_complete(c);
    ofi_ctx_unlock(c, l);
}

void ofi_rma_ops_choose(struct transport_ops *t)
{
    ofi_g.proto.op_flags = ofi_g.caps.delivery_complete ? FI_DELIVERY_COMPLETE : 0;
    ofi_g.proto.put_local =
        ofi_g.caps.delivery_complete && ofi_g.caps.rma_raw && !ofs_g.params.OFI_PUT_DELIVERY;
    ofi_g.proto.put_flush = !ofi_g.caps.delivery_complete && !ofi_g.caps.put_in_place;
    t->put = ofi_put;
    t->put_nbi = ofi_put_nbi;
    t->get = ofi_get;
    t->get_nbi = ofi_get_nbi;
    t->fence = ofi_fence;
    ofi_g.ops.put = ofi_put_locked;
}
