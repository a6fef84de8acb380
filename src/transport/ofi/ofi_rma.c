/*
 * OFI put/get paths, put-with-signal, fence and quiet.  Puts pick INJECT, BOUNCE or
 * LARGE by ofi_put_proto_select(); gets and large puts are chunked at the threshold's
 * chunk size.  Every operation is counted on the context (put_issued/get_issued) and
 * completes through the context's counters; quiet waits for the counters to catch up.
 * -FI_EAGAIN drives progress and retries.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"
#include "ofs_backoff.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

/* The back-off of the context engine's waits: the library's one schedule, sleeping
 * with nanosleep (the engine drives the provider itself between looks). */
static void ofi_backoff(unsigned *iter)
{
    long step = ofs_backoff_step((*iter)++);

    if (step == OFS_BACKOFF_SPIN)
        return;
    if (step == OFS_BACKOFF_YIELD) {
        sched_yield();
        return;
    }
    struct timespec ts = { 0, step };
    nanosleep(&ts, NULL);
}

/* The PE an operation was aimed at, from its completion's context: a tag
 * (ofi_pe_tag) or a bounce buffer of c or of the target endpoint; else -1. */
static int ofi_err_pe(const struct ofi_ctx *c, void *op_context)
{
    const struct ofi_ctx *owners[2] = { c, ofi_g.main };
    const struct ofi_bounce *b = op_context;

    if (ofi_is_pe_tag(op_context)) {
        uintptr_t pe = (uintptr_t)op_context >> 1;
        return pe < (uintptr_t)ofs_g.n_pes ? (int)pe : -1;
    }
    for (int i = 0; b && i < 2; i++)
        if (owners[i] && owners[i]->bounces && b >= owners[i]->bounces &&
            b < owners[i]->bounces + ofi_g.thresh.bounce_count)
            return b->pe >= 0 && b->pe < ofs_g.n_pes ? b->pe : -1;
    return -1;
}

/* Errors with which providers fail the operations aimed at a peer that went away:
 * rxm cancels them when the tcp connection closes; shm's CMA finds no process */
static int ofi_err_peer_lost(int err)
{
    switch (err < 0 ? -err : err) { /* shm reports negative values */
    case FI_ECANCELED:
    case FI_ECONNRESET:
    case FI_ECONNABORTED:
    case FI_ECONNREFUSED:
    case FI_ENOTCONN:
    case EPIPE:
    case FI_EHOSTUNREACH:
    case FI_ENETUNREACH:
    case ESRCH: return 1;
    }
    return 0;
}

/* Has the process of PE pe, on this node, ended?  (Known for the PEs of this node
 * only: the pid and pid namespace each published.) */
static int ofi_peer_dead(int pe)
{
    const struct ofi_peer_info *p = &ofi_g.peers[pe];

    return pe != ofs_g.my_pe && ofi_g.active[pe] && ofs_g.node_of &&
           ofs_g.node_of[pe] == ofs_g.node_of[ofs_g.my_pe] && ofs_pid_gone(p->pid, p->pidns);
}

/* The first PE of this node whose process has ended, or -1 */
static int ofi_dead_local_peer(void)
{
    for (int i = 0; ofs_g.local_pes && i < ofs_g.local_size; i++)
        if (ofi_peer_dead(ofs_g.local_pes[i]))
            return ofs_g.local_pes[i];
    return -1;
}

/* A wait that has lasted (it sleeps between polls): some providers never complete,
 * nor fail, an operation aimed at a peer that died (a fetching atomic over
 * tcp;ofi_rxm 1.17), and a launcher slow to end the job would leave this PE waiting. */
static __attribute__((noinline, cold)) void ofi_wait_watch(void)
{
    int pe;

    /* past shmem_finalize's final barrier, peers may have exited normally */
    if (ofs_g.finalizing || (pe = ofi_dead_local_peer()) < 0)
        return;
    ofs_fatal(1,
              "ofi: peer PE %d is gone (its process ended or the connection to it was "
              "lost) while this PE waited for operations to complete",
              pe);
}

void ofi_cq_err_fatal(const struct ofi_ctx *c, struct fid_cq *cq, const struct fi_cq_err_entry *err,
                      const char *what, const char *hint)
{
    char buf[256] = "";
    int pe = ofi_err_pe(c, err->op_context), known = pe >= 0;
    int e = err->err < 0 ? -err->err : err->err;

    fi_cq_strerror(cq, err->prov_errno, err->err_data, buf, sizeof(buf));
    /* shm loses the context of a failed operation (1.17) and reports EIO when the
     * peer's process is gone: whose it was, the pids tell, once the dying process has
     * become a zombie (CMA fails while it exits: a few ms are allowed for that) */
    for (int i = 0; !known && i < 50 && (pe = ofi_dead_local_peer()) < 0; i++) {
        struct timespec ts = { 0, 2000000 };
        nanosleep(&ts, NULL);
    }
    if (pe >= 0 && (!known || ofi_err_peer_lost(err->err) || ofi_peer_dead(pe)))
        ofs_fatal(1,
                  "ofi: peer PE %d is gone (its process ended or the connection to it was "
                  "lost): a %s operation%s failed: %s (%d); provider: %s%s",
                  pe, what, known ? " to it" : "", fi_strerror(e), err->err, buf, hint);
    if (ofi_err_peer_lost(err->err))
        ofs_fatal(1,
                  "ofi: a peer PE is gone (its process ended or the connection to it was "
                  "lost): a %s operation failed: %s (%d); provider: %s%s",
                  what, fi_strerror(e), err->err, buf, hint);
    if (pe >= 0)
        ofs_fatal(1, "ofi: a %s operation to PE %d failed: %s (%d); provider: %s%s", what, pe,
                  fi_strerror(e), err->err, buf, hint);
    ofs_fatal(1, "ofi: a %s operation failed: %s (%d); provider: %s%s", what, fi_strerror(e),
              err->err, buf, hint);
}

static OFS_NORETURN void ofi_cq_fail(struct ofi_ctx *c, const char *what)
{
    struct fi_cq_err_entry err;

    memset(&err, 0, sizeof(err));
    if (fi_cq_readerr(c->cq, &err, 0) < 0)
        ofs_fatal(1, "ofi: %s completion queue reported an error that could not be read", what);
    ofi_cq_err_fatal(c, c->cq, &err, what, "");
}

/* Harvest the context's CQ: bounce buffers come back, errors are fatal. */
static void ofi_cq_drain(struct ofi_ctx *c)
{
    struct fi_cq_entry e[16];
    ssize_t n = fi_cq_read(c->cq, e, 16);

    if (n > 0) {
        for (ssize_t i = 0; i < n; i++) {
            if (e[i].op_context && !ofi_is_pe_tag(e[i].op_context))
                ofi_bounce_push(c, e[i].op_context);
        }
    } else if (n == -FI_EAVAIL) {
        ofi_cq_fail(c, "put, get or atomic");
    } else if (n != -FI_EAGAIN) {
        ofi_fatal_call("fi_cq_read", n, "context CQ");
    }
}

void ofi_ctx_progress(struct ofi_ctx *c, unsigned *iter)
{
    ofi_cq_drain(c);
    ofi_target_poll();
    ofi_backoff(iter);
}

static void ofi_check_cntr_err(struct ofi_ctx *c)
{
    uint64_t pe_ = fi_cntr_readerr(c->put_cntr), ge = fi_cntr_readerr(c->get_cntr);

    if (OFS_LIKELY(pe_ == c->put_err_seen && ge == c->get_err_seen))
        return;
    /* the CQ carries the details of the failed operation */
    for (int i = 0; i < 1000; i++) {
        ssize_t n = fi_cq_read(c->cq, NULL, 0);
        if (n == -FI_EAVAIL)
            ofi_cq_fail(c, pe_ != c->put_err_seen ? "put/atomic" : "get/fetching atomic");
    }
    ofs_fatal(1,
              "ofi: %llu put/atomic and %llu get/fetching-atomic operations failed "
              "(counter errors, no CQ details)",
              (unsigned long long)(pe_ - c->put_err_seen),
              (unsigned long long)(ge - c->get_err_seen));
}

/* Reading a counter drives the provider's progress on the context's endpoint, and
 * that is all a wait needs most of the time: the other calls of a full round (error
 * counters, the context's CQ, the target endpoint) cost a provider poll each (an
 * epoll_wait with tcp;ofi_rxm): making every round do them put an 8-byte get over
 * tcp;ofi_rxm at 1.6x raw libfabric instead of 1.06x (both with the target PE
 * spinning in a barrier and no progress thread, runs alternating with ofi_raw).  So
 * they run every OFI_WAIT_FULL-th round while spinning, and on every round once the
 * backoff yields or sleeps. */
#define OFI_WAIT_FULL 16

void ofi_ctx_wait(struct ofi_ctx *c, int puts, int gets)
{
    unsigned iter = 0, round = 0;
    int attending = 0;

    for (;;) {
        /* a counter already seen caught up is not read again (each read is a
         * provider poll) */
        if ((!puts || c->put_done >= c->put_issued ||
             (c->put_done = fi_cntr_read(c->put_cntr)) >= c->put_issued) &&
            (!gets || c->get_done >= c->get_issued ||
             (c->get_done = fi_cntr_read(c->get_cntr)) >= c->get_issued)) {
            if (puts && gets)
                c->nbi_used = 0;
            if (puts)
                c->wr_pe = 0;
            if (attending)
                ofi_attend_ctx(-1);
            return;
        }
        /* a wait that outlasts the spin phase lets the progress thread stand by;
         * shorter ones do not count: the thread, parked during one and woken at its
         * end, would be woken once per operation (8-byte put+quiet and get over
         * tcp;ofi_rxm 1.06-1.22x raw libfabric counted from the start, 0.95-1.0x so) */
        if (!attending && iter >= ofs_backoff_spins()) {
            attending = 1;
            ofi_attend_ctx(1);
        }
        if (++round % OFI_WAIT_FULL != 0 && iter < ofs_backoff_spins()) {
            iter++;
            continue;
        }
        ofi_check_cntr_err(c);
        ofi_ctx_progress(c, &iter);
        /* about once a second once sleeping (up to OFS_BACKOFF_MAX_SLEEP_NS a round) */
        if (OFS_UNLIKELY(iter > ofs_backoff_spins() + OFS_BACKOFF_YIELDS && (iter & 0x3fff) == 0))
            ofi_wait_watch();
    }
}

/* Issue the flushing read of pe (see ofi_ctx_complete); counted as a get. */
static void ofi_ctx_flush(struct ofi_ctx *c, int pe)
{
    const struct ofi_amo_how *rd = &ofi_g.amo[COMM_AMO_FETCH][COMM_DT_U64][1];
    uint64_t raddr = ofi_raddr(HEAP_SEG_DATA, 0, pe), key = ofi_g.peers[pe].key[HEAP_SEG_DATA];
    struct fid_mr *tmp;
    void *desc = ofi_local_desc(c, &c->flush_buf, sizeof(c->flush_buf), FI_READ, &tmp);
    unsigned iter = 0;
    ssize_t ret;

    if (rd->mode == OFI_AMO_NATIVE && !ofi_g.put_local) {
        while ((ret = fi_fetch_atomic(c->ep, &c->flush_buf, 1, desc, &c->flush_buf, desc,
                                      c->addr[pe], raddr, key, FI_UINT64, FI_ATOMIC_READ,
                                      ofi_pe_tag(pe))) == -FI_EAGAIN)
            ofi_ctx_progress(c, &iter);
    } else {
        while ((ret = fi_read(c->ep, &c->flush_buf, 1, desc, c->addr[pe], raddr, key,
                              ofi_pe_tag(pe))) == -FI_EAGAIN)
            ofi_ctx_progress(c, &iter);
    }
    if (OFS_UNLIKELY(ret))
        ofi_fatal_call("fi_fetch_atomic/fi_read", ret, "flush, PE %d, raddr 0x%llx, key 0x%llx", pe,
                       (unsigned long long)raddr, (unsigned long long)key);
    c->get_issued++;
    if (tmp) {
        ofi_ctx_wait(c, 0, 1);
        fi_close(&tmp->fid);
    }
}

/* Transmit completion only says the operation left.  An atomic read of the same
 * target is executed there after every earlier operation from us (the target applies
 * them in order; shm reads may bypass that queue by CMA, atomics never do), so one
 * atomic read per written PE makes quiet mean "visible".  Locally complete puts
 * (ofi_g.put_local: the only writes marked then) are flushed by an RMA read, which the
 * provider orders after them (FI_ORDER_RMA_RAW, asked for). */
void ofi_ctx_complete_rma(struct ofi_ctx *c)
{
    /* Past shmem_finalize's final barrier (which began with a quiet of every context)
     * the only writes left unflushed are the barrier's own notifications; a PE that
     * needs one waits for it before it leaves, and a PE that left may have closed its
     * endpoint: no flush then. */
    int flush = !ofs_g.finalizing;

    for (int i = 0; i < c->ndirty; i++) {
        if (flush)
            ofi_ctx_flush(c, c->dirty_list[i]);
        c->dirty[c->dirty_list[i]] = 0;
    }
    c->ndirty = 0;
    ofi_ctx_wait(c, 1, 1);
}

/* Everything: the messages applied too (ofi_am.c). */
void ofi_ctx_complete(struct ofi_ctx *c)
{
    ofi_am_flush(c);
    ofi_ctx_complete_rma(c);
}

uint64_t *ofi_ctx_slot(struct ofi_ctx *c)
{
    if (OFS_UNLIKELY(c->nbi_used == OFI_NBI_SLOTS))
        ofi_ctx_wait(c, 1, 1);
    return c->nbi_slot[c->nbi_used++];
}

void *ofi_local_desc(struct ofi_ctx *c, const void *buf, size_t len, uint64_t access,
                     struct fid_mr **tmp_p)
{
    *tmp_p = NULL;
    if (OFS_LIKELY(!(ofi_g.mr_mode & FI_MR_LOCAL)))
        return NULL;
    /* the context's slots and flush word, then the segments (ofi_ctx_mr_setup) */
    if (c->self_mr && (const char *)buf >= (const char *)c &&
        (const char *)buf + len <= (const char *)(c + 1))
        return c->self_desc;
    size_t off;
    int s = heap_seg_of(buf, len, &off);
    if (s >= 0 && !(ofi_g.mr_mode & FI_MR_ENDPOINT))
        return ofi_g.mr_desc[s];
    if (s >= 0 && c->seg_mr[s])
        return c->seg_desc[s];
    if (ofi_mr_reg_local(c->ep, buf, len ? len : 1, access, tmp_p) != OFS_OK)
        ofs_fatal(1, "ofi: cannot register a local buffer %p of %zu bytes (FI_MR_LOCAL)", buf, len);
    return fi_mr_desc(*tmp_p);
}

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

    if (ofi_g.delivery_complete) {
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

struct ofi_bounce *ofi_bounce_take(struct ofi_ctx *c)
{
    struct ofi_bounce *b;
    unsigned iter = 0;

    while (!(b = ofi_bounce_pop(c))) {
        ofi_check_cntr_err(c);
        ofi_ctx_progress(c, &iter);
    }
    return b;
}

static void ofi_put_bounce(struct ofi_ctx *c, const void *src, size_t len, int pe, uint64_t raddr,
                           uint64_t key)
{
    struct ofi_bounce *b = ofi_bounce_take(c);

    memcpy(b->buf, src, len);
    b->pe = pe;
    ofi_writemsg(c, b->buf, c->bounce_desc, len, pe, raddr, key, b, FI_COMPLETION | ofi_g.op_flags,
                 "bounce");
}

static void ofi_put_large(struct ofi_ctx *c, const char *src, size_t len, int pe, uint64_t raddr,
                          uint64_t key, int blocking)
{
    struct fid_mr *tmp;
    void *desc = ofi_local_desc(c, src, len, FI_WRITE, &tmp);
    size_t chunk = ofi_g.thresh.chunk;
    /* a put that waits here waits only for its source to be reusable (tcp;ofi_rxm:
     * 64-128 KiB put streams 1.4x faster); quiet then flushes the PE (a put+quiet
     * pays ~5% for the second message).  Non-blocking puts keep delivery completion:
     * nothing waits for it before quiet, and quiet needs no flush for them. */
    int local = ofi_g.put_local && (blocking || tmp);

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
    if (!ofi_g.put_visible)
        ofi_ctx_dirty(c, pe);
    switch (ofi_put_proto_select(len, &ofi_g.thresh)) {
    case OFI_PUT_INJECT: ofi_put_inject(c, src, len, pe, raddr, key); break;
    case OFI_PUT_BOUNCE: ofi_put_bounce(c, src, len, pe, raddr, key); break;
    default: ofi_put_large(c, src, len, pe, raddr, key, blocking); break;
    }
}

void ofi_put(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_am_order(c, pe);
    ofi_put_locked(c, seg, off, src, len, pe, 1);
    ofi_ctx_unlock(c, l);
}

void ofi_put_nbi(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_am_order(c, pe);
    ofi_put_locked(c, seg, off, src, len, pe, 0);
    ofi_ctx_unlock(c, l);
}

static void ofi_get_locked(struct ofi_ctx *c, char *dst, int seg, size_t off, size_t len, int pe,
                           int blocking)
{
    uint64_t raddr = ofi_raddr(seg, off, pe), key = ofi_g.peers[pe].key[seg];
    size_t chunk = ofi_g.thresh.chunk;
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

void ofi_get(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_am_order(c, pe);
    ofi_get_locked(c, dst, seg, off, len, pe, 1);
    ofi_ctx_unlock(c, l);
}

void ofi_get_nbi(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    ofi_am_order(c, pe);
    ofi_get_locked(c, dst, seg, off, len, pe, 0);
    ofi_ctx_unlock(c, l);
}

/* Up to SHMEM_OFI_AM_SIZE bytes, one message (ofi_am.c).  Otherwise the signal must
 * not overtake the data: unless the provider orders sends (writes) after writes,
 * complete the data first (with delivery completion that means it is in the target's
 * memory; a message leaving from another endpoint than the write waits for it in
 * ofi_am_putsig); then the signal goes by message where messages carry signals, else
 * as an atomic. */
void ofi_put_signal(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len,
                    int sig_seg, size_t sig_off, uint64_t signal, int sig_op, int pe, int nbi)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = ofi_ctx_lock(c);
    int coll = sig_op & COMM_SIG_COLL;

    sig_op &= COMM_SIG_ADD;
    if (ofi_g.am_on) {
        if (len > ofi_g.am_max) {
            /* data sent by message and not yet applied could land after this write */
            if (c->am_n && c->am_pe[pe] == 2)
                ofi_am_flush(c);
            ofi_put_locked(c, seg, off, src, len, pe, !nbi);
            if (!(ofi_g.info->tx_attr->msg_order & FI_ORDER_SAW))
                ofi_ctx_complete_rma(c); /* earlier messages need not be applied */
            /* from another endpoint, ofi_am_putsig completes it too */
            len = 0;
        }
        ofi_am_putsig(c, seg, off, src, len, sig_seg, sig_off, signal, sig_op, pe, !coll);
        ofi_ctx_unlock(c, l);
        return;
    }
    ofi_put_locked(c, seg, off, src, len, pe, !nbi);
    if (!ofi_g.ordered_waw)
        ofi_ctx_complete(c);
    ofi_amo_locked(c, sig_op == COMM_SIG_ADD ? COMM_AMO_ADD : COMM_AMO_SET, COMM_DT_U64, sig_seg,
                   sig_off, &signal, NULL, NULL, pe, nbi);
    ofi_ctx_unlock(c, l);
}

void ofi_fence(struct comm_ctx *ctx)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);

    if (ofi_g.ordered_waw) {
        /* messages are applied when the target reads them: after the writes that
         * follow them, unless flushed */
        if (c && c->am_n) {
            int l = ofi_ctx_lock(c);
            ofi_am_flush(c);
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

/* libfabric's shm provider (verified with 1.17) writes and reads by CMA
 * (process_vm_writev/readv) from the initiator when it can ("fast RMA": virtual
 * addresses, no RMA ordering asked for, CMA allowed to the peer); the write is then in
 * the target's memory when it completes, and quiet needs no flushing read for puts
 * (atomics still go through the target's queue).  shm tests CMA per peer; so do we,
 * with a one-byte read of each peer's data segment (the pid is in shm's address,
 * "fi_shm://PID..."): any doubt keeps the flush. */
void ofi_put_visible_setup(void)
{
    const struct fi_info *i = ofi_g.info;
    const uint64_t rma_order = FI_ORDER_RAR | FI_ORDER_RAW | FI_ORDER_RAS | FI_ORDER_WAR |
                               FI_ORDER_WAW | FI_ORDER_WAS | FI_ORDER_SAR | FI_ORDER_SAW;
    uint32_t v = fi_version();

    ofi_g.put_visible = 0;
    if (ofi_g.delivery_complete || strcmp(i->fabric_attr->prov_name, "shm") != 0 ||
        !(ofi_g.mr_mode & FI_MR_VIRT_ADDR) || (i->tx_attr->msg_order & rma_order) ||
        FI_MAJOR(v) != 1 || FI_MINOR(v) < 15 || FI_MINOR(v) > 17 || ofs_g.params.OFI_PUT_FLUSH)
        return;
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        char buf[OFI_NAME_MAX + 1], *end;
        const char *name;
        unsigned char byte;

        if (!ofi_g.active[pe])
            continue;
        if (!(name = ofi_peer_shm_name(pe, buf)))
            return;
        long pid = strtol(name, &end, 10);
        if (end == name || pid <= 0)
            return;
        struct iovec l = { &byte, 1 },
                     r = { (void *)(uintptr_t)ofi_g.peers[pe].base[HEAP_SEG_DATA], 1 };
        if (process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0) != 1)
            return;
    }
    ofi_g.put_visible = 1;
}
