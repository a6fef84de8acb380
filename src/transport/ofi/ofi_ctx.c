/*
 * The completion engine of a context: how every operation completes.  Each operation
 * is counted on its context (put_issued/get_issued) and completes through the
 * context's counters; a wait drives the provider until the counters catch up, reading
 * the context's CQ (bounce buffers come back, errors are fatal) and the target
 * endpoint's on the way.  Without delivery completion, quiet also flushes every
 * written PE with a read (ofi_ctx_complete_rma).  docs/ofi-internals.md, "Completion".
 */
#define _GNU_SOURCE
#include "ofi_ctx.h"
#include "ofs_backoff.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* completions read from a CQ at once */
#define OFI_CQ_BATCH 16
/* an error completion without its context: how long to look for the dead peer whose
 * operation it was (a dying process fails CMA before it becomes a zombie) */
#define OFI_DEAD_PEER_TRIES 50
#define OFI_DEAD_PEER_PAUSE_NS 2000000
/* reads of the CQ looking for the details of a counter error */
#define OFI_ERR_DETAIL_TRIES 1000
/* a long wait looks at the clock every this many rounds past the yields, and for dead
 * peers once OFI_WATCH_NS have passed since it last did: by time, because a round's
 * length (a sleep plus provider polls) grows with the node's load and under sanitizers */
#define OFI_WATCH_EVERY 0x100
#define OFI_WATCH_NS 500000000ULL

/* Is it time for the next look for dead peers (*at: when it is due; 0 before the first)? */
static int ofi_watch_due(uint64_t *at)
{
    uint64_t now = ofs_clock_ns();
    int due;

    if (*at != 0 && now < *at)
        return 0;
    due = *at != 0;
    *at = now + OFI_WATCH_NS;
    return due;
}

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
    const struct ofi_ctx *owners[2] = { c, ofi_g.target.ctx };
    const struct ofi_bounce *b = op_context;

    if (ofi_is_pe_tag(op_context)) {
        uintptr_t pe = (uintptr_t)op_context >> 1;
        return pe < (uintptr_t)ofs_g.n_pes ? (int)pe : -1;
    }
    for (int i = 0; b && i < 2; i++)
        if (owners[i] && owners[i]->bounces && b >= owners[i]->bounces &&
            b < owners[i]->bounces + ofi_g.proto.thresh.bounce_count)
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

    /* past shmem_finalize's final quiet, peers may have exited normally */
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
    for (int i = 0; !known && i < OFI_DEAD_PEER_TRIES && (pe = ofi_dead_local_peer()) < 0; i++) {
        struct timespec ts = { 0, OFI_DEAD_PEER_PAUSE_NS };
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
    struct fi_cq_entry e[OFI_CQ_BATCH];
    ssize_t n = fi_cq_read(c->cq, e, OFI_CQ_BATCH);

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

/* When this thread's next look for dead peers is due (see ofi_watch_due) */
static __thread uint64_t ofi_watch_at;

/* One round of a wait or of a retry after -FI_EAGAIN.  Both can last forever when the
 * peer is gone: a wait for the completion of an operation some providers never fail,
 * and a retry on shm, whose queue to a dead peer stays full. */
void ofi_ctx_progress(struct ofi_ctx *c, unsigned *iter)
{
    ofi_cq_drain(c);
    ofi_target_poll();
    ofi_backoff(iter);
    /* every OFI_WATCH_NS once sleeping */
    if (OFS_UNLIKELY(*iter > ofs_backoff_spins() + OFS_BACKOFF_YIELDS &&
                     (*iter % OFI_WATCH_EVERY) == 0 && ofi_watch_due(&ofi_watch_at)))
        ofi_wait_watch();
}

void ofi_ctx_check_errors(struct ofi_ctx *c)
{
    uint64_t pe_ = fi_cntr_readerr(c->put_cntr), ge = fi_cntr_readerr(c->get_cntr);

    if (OFS_LIKELY(pe_ == c->put_err_seen && ge == c->get_err_seen))
        return;
    /* the CQ carries the details of the failed operation */
    for (int i = 0; i < OFI_ERR_DETAIL_TRIES; i++) {
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
 * counters, the context's CQ, the target endpoint) cost a provider poll each, so they
 * run every OFI_WAIT_FULL-th round while spinning, and on every round once the backoff
 * yields or sleeps (docs/ofi-internals.md, "Completion"). */
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
         * end, would be woken once per operation */
        if (!attending && iter >= ofs_backoff_spins()) {
            attending = 1;
            ofi_attend_ctx(1);
        }
        if (++round % OFI_WAIT_FULL != 0 && iter < ofs_backoff_spins()) {
            iter++;
            continue;
        }
        ofi_ctx_check_errors(c);
        ofi_ctx_progress(c, &iter);
    }
}

/* Issue the flushing read of pe (see ofi_ctx_complete); counted as a get. */
static void ofi_ctx_flush(struct ofi_ctx *c, int pe)
{
    const struct ofi_amo_how *rd = &ofi_g.proto.amo[COMM_AMO_FETCH][COMM_DT_U64][1];
    uint64_t raddr = ofi_raddr(HEAP_SEG_DATA, 0, pe), key = ofi_g.peers[pe].key[HEAP_SEG_DATA];
    struct fid_mr *tmp;
    void *desc = ofi_local_desc(c, &c->flush_buf, sizeof(c->flush_buf), FI_READ, &tmp);
    unsigned iter = 0;
    ssize_t ret;

    if (rd->mode == OFI_AMO_NATIVE && !ofi_g.proto.put_local) {
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
 * (ofi_g.proto.put_local: the only writes marked then) are flushed by an RMA read, which the
 * provider orders after them (FI_ORDER_RMA_RAW, asked for). */
void ofi_ctx_complete_rma(struct ofi_ctx *c)
{
    /* Past shmem_finalize's final quiet of every context (then it waits in the PMIx
     * fence) nothing is left to flush, and a PE that left may have closed its
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

/* Everything: the put-with-signal messages applied too (ofi_signal.c). */
void ofi_ctx_complete(struct ofi_ctx *c)
{
    if (c->sig_n)
        ofi_g.ops.sig_flush(c);
    ofi_ctx_complete_rma(c);
}

uint64_t *ofi_ctx_slot(struct ofi_ctx *c)
{
    if (OFS_UNLIKELY(c->nbi_used == OFI_NBI_SLOTS))
        ofi_ctx_wait(c, 1, 1);
    return c->nbi_slot[c->nbi_used++];
}

struct ofi_bounce *ofi_bounce_take(struct ofi_ctx *c)
{
    struct ofi_bounce *b;
    unsigned iter = 0;

    while (!(b = ofi_bounce_pop(c))) {
        ofi_ctx_check_errors(c);
        ofi_ctx_progress(c, &iter);
    }
    return b;
}

/* The target endpoint's CQ without put-with-signal messages: errors only (the
 * read drives the provider's progress on the target endpoint). */
ssize_t ofi_target_cq_read(struct fid_cq *cq)
{
    struct fi_cq_msg_entry e[8];

    return fi_cq_read(cq, e, 8);
}

void ofi_target_poll(void)
{
    /* a hint for the progress thread (ofi_progress.c): the application polls */
    __atomic_store_n(&ofi_g.progress.app_polls,
                     __atomic_load_n(&ofi_g.progress.app_polls, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
    ofi_target_poll_cq();
}

int ofi_target_poll_cq(void)
{
    struct ofi_ctx *m = ofi_g.target.ctx;
    ssize_t n;

    if (!m)
        return 0;
    n = ofi_g.ops.target_cq_read(m->cq);
    if (OFS_LIKELY(n == -FI_EAGAIN || n >= 0))
        return n > 0;
    if (n == -FI_EAVAIL) {
        struct fi_cq_err_entry err;
        memset(&err, 0, sizeof(err));
        if (fi_cq_readerr(m->cq, &err, 0) > 0)
            ofi_cq_err_fatal(NULL, m->cq, &err, "target endpoint",
                             (err.err == FI_ETRUNC || err.err == -FI_ETRUNC) /* shm: negative */
                                 ? " (a put-with-signal message larger than this PE's receive "
                                   "buffers: SHMEM_OFI_AM_SIZE, SHMEM_OFI_AM_PART, "
                                   "SHMEM_OFI_BOUNCE_SIZE, SHMEM_OFI_INJECT_SIZE and "
                                   "FI_OFI_RXM_BUFFER_SIZE must be the same on every PE)"
                                 : "");
        return 1;
    }
    ofi_fatal_call("fi_cq_read", n, "target CQ");
    return 0;
}
