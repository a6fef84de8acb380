/*
 * OFI puts and gets, fence and quiet.  Puts pick INJECT, BOUNCE or LARGE by
 * ofi_put_proto_select(); gets and large puts are chunked at the threshold's chunk
 * size.  Every operation is counted on its context and completes through the context's
 * engine (ofi_ctx.c); -FI_EAGAIN drives progress and retries.
 */
#include "ofi_ctx.h"
#include "ofs_stats.h"

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
 * it explicitly (ofi_put_inject_dc) so that quiet means "in the target's memory". */
static void ofi_put_inject(struct ofi_ctx *c, const void *src, size_t len, int pe, uint64_t raddr,
                           uint64_t key)
{
    unsigned iter = 0;
    ssize_t ret;

    while ((ret = fi_inject_write(c->ep, src, len, c->addr[pe], raddr, key)) == -FI_EAGAIN)
        ofi_ctx_progress(c, &iter);
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_inject_write", ret, "len %zu, PE %d, raddr 0x%llx, key 0x%llx", len, pe,
                       (unsigned long long)raddr, (unsigned long long)key);
    ofi_ctx_put_issued(c, pe);
}

static void ofi_put_inject_dc(struct ofi_ctx *c, const void *src, size_t len, int pe,
                              uint64_t raddr, uint64_t key)
{
    ofi_writemsg(c, src, NULL, len, pe, raddr, key, NULL, FI_INJECT | FI_DELIVERY_COMPLETE,
                 "inject");
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
    /* a put that waits here waits only for its source to be reusable (faster streams;
     * docs/ofi-internals.md, "Put protocols"); quiet then flushes the PE.  Non-blocking
     * puts keep delivery completion: nothing waits for it before quiet, and quiet
     * needs no flush for them. */
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

/* How a put completes, chosen for the job at connect (ofi_rma_ops_choose): */
enum ofi_put_completion {
    OFI_PUTC_FLUSH,    /* transmit completion: quiet flushes the PE with a read */
    OFI_PUTC_IN_PLACE, /* transmit completion, but the provider writes in place */
    OFI_PUTC_DELIVERY, /* delivery completion */
};

/* The locked part of a put; pc is a constant in each of its instances below, so that
 * no put tests the job's settings. */
static inline void ofi_put_body(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len,
                                int pe, int blocking, const enum ofi_put_completion pc)
{
    uint64_t raddr = ofi_raddr(seg, off, pe), key = ofi_g.peers[pe].key[seg];

    if (OFS_UNLIKELY(len == 0))
        return;
    if (pc == OFI_PUTC_FLUSH)
        ofi_ctx_mark(c, pe);
    switch (ofi_put_proto_select(len, &ofi_g.proto.thresh)) {
    case OFI_PUT_INJECT:
        OFS_STATS_PROTO(OFS_STATS_INJECT, len);
        if (pc == OFI_PUTC_DELIVERY)
            ofi_put_inject_dc(c, src, len, pe, raddr, key);
        else
            ofi_put_inject(c, src, len, pe, raddr, key);
        break;
    case OFI_PUT_BOUNCE:
        OFS_STATS_PROTO(OFS_STATS_BOUNCE, len);
        ofi_put_bounce(c, src, len, pe, raddr, key);
        break;
    default:
        OFS_STATS_PROTO(OFS_STATS_ZCOPY, len);
        ofi_put_large(c, src, len, pe, raddr, key, blocking);
        break;
    }
}

/* An entry of the transport table: mt (SHMEM_THREAD_MULTIPLE: shared contexts lock)
 * and pc are constants in each instance. */
static inline void ofi_put_entry(struct comm_ctx *ctx, int seg, size_t off, const void *src,
                                 size_t len, int pe, int blocking, const int mt,
                                 const enum ofi_put_completion pc)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = mt ? ofi_ctx_lock_mt(c) : 0;

    ofi_sig_order(c, pe);
    ofi_put_body(c, seg, off, src, len, pe, blocking, pc);
    ofi_ctx_unlock(c, l);
}

/* put, put_nbi and the locked part (ofi_g.ops.put) of one completion; and the entries
 * of both thread levels */
#define OFI_PUT_INSTANCES(name, pc)                                                               \
    static void ofi_put_locked_##name(struct ofi_ctx *c, int seg, size_t off, const void *src,    \
                                      size_t len, int pe, int blocking)                           \
    {                                                                                             \
        ofi_put_body(c, seg, off, src, len, pe, blocking, pc);                                    \
    }                                                                                             \
    static void ofi_put_st_##name(struct comm_ctx *ctx, int seg, size_t off, const void *src,     \
                                  size_t len, int pe)                                             \
    {                                                                                             \
        ofi_put_entry(ctx, seg, off, src, len, pe, 1, 0, pc);                                     \
    }                                                                                             \
    static void ofi_put_nbi_st_##name(struct comm_ctx *ctx, int seg, size_t off, const void *src, \
                                      size_t len, int pe)                                         \
    {                                                                                             \
        ofi_put_entry(ctx, seg, off, src, len, pe, 0, 0, pc);                                     \
    }                                                                                             \
    static void ofi_put_mt_##name(struct comm_ctx *ctx, int seg, size_t off, const void *src,     \
                                  size_t len, int pe)                                             \
    {                                                                                             \
        ofi_put_entry(ctx, seg, off, src, len, pe, 1, 1, pc);                                     \
    }                                                                                             \
    static void ofi_put_nbi_mt_##name(struct comm_ctx *ctx, int seg, size_t off, const void *src, \
                                      size_t len, int pe)                                         \
    {                                                                                             \
        ofi_put_entry(ctx, seg, off, src, len, pe, 0, 1, pc);                                     \
    }

OFI_PUT_INSTANCES(flush, OFI_PUTC_FLUSH)
OFI_PUT_INSTANCES(in_place, OFI_PUTC_IN_PLACE)
OFI_PUT_INSTANCES(delivery, OFI_PUTC_DELIVERY)

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

static inline void ofi_get_entry(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len,
                                 int pe, int blocking, const int mt)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = mt ? ofi_ctx_lock_mt(c) : 0;

    ofi_sig_order(c, pe);
    ofi_get_locked(c, dst, seg, off, len, pe, blocking);
    ofi_ctx_unlock(c, l);
}

static void ofi_get_st(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    ofi_get_entry(ctx, dst, seg, off, len, pe, 1, 0);
}
static void ofi_get_nbi_st(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    ofi_get_entry(ctx, dst, seg, off, len, pe, 0, 0);
}
static void ofi_get_mt(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    ofi_get_entry(ctx, dst, seg, off, len, pe, 1, 1);
}
static void ofi_get_nbi_mt(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    ofi_get_entry(ctx, dst, seg, off, len, pe, 0, 1);
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

int ofi_gets_test(struct comm_ctx *ctx)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int done;

    if (!c)
        return 1;
    int l = ofi_ctx_lock(c);
    /* reading the counter drives the endpoint's progress */
    done =
        c->get_done >= c->get_issued || (c->get_done = fi_cntr_read(c->get_cntr)) >= c->get_issued;
    if (!done)
        ofi_ctx_check_errors(c);
    ofi_ctx_unlock(c, l);
    return done;
}

void ofi_rma_ops_choose(struct transport_ops *t)
{
    int mt = ofs_g.thread_level == OFI_THREAD_MULTIPLE;

    ofi_g.proto.op_flags = ofi_g.caps.delivery_complete ? FI_DELIVERY_COMPLETE : 0;
    ofi_g.proto.put_local =
        ofi_g.caps.delivery_complete && ofi_g.caps.rma_raw && !ofs_g.params.OFI_PUT_DELIVERY;
    if (ofi_g.caps.delivery_complete) {
        t->put = mt ? ofi_put_mt_delivery : ofi_put_st_delivery;
        t->put_nbi = mt ? ofi_put_nbi_mt_delivery : ofi_put_nbi_st_delivery;
        ofi_g.ops.put = ofi_put_locked_delivery;
    } else if (ofi_g.caps.put_in_place) {
        t->put = mt ? ofi_put_mt_in_place : ofi_put_st_in_place;
        t->put_nbi = mt ? ofi_put_nbi_mt_in_place : ofi_put_nbi_st_in_place;
        ofi_g.ops.put = ofi_put_locked_in_place;
    } else {
        t->put = mt ? ofi_put_mt_flush : ofi_put_st_flush;
        t->put_nbi = mt ? ofi_put_nbi_mt_flush : ofi_put_nbi_st_flush;
        ofi_g.ops.put = ofi_put_locked_flush;
    }
    t->get = mt ? ofi_get_mt : ofi_get_st;
    t->get_nbi = mt ? ofi_get_nbi_mt : ofi_get_nbi_st;
    t->fence = ofi_fence;
}
