/*
 * ofi_ctx.h: a context's endpoint, counters, CQ, bounce buffers and operand slots,
 * and its completion engine (ofi_ctx.c): the one place that knows how an operation
 * completes.
 *
 * Every context, the default one included, owns an initiator endpoint; the target
 * endpoint (ofi_g.target.ctx) is one too.  Each has its own AV, CQ and two counters
 * (FI_WRITE: puts and non-fetching atomics; FI_READ: gets and fetching atomics), so
 * quiet is a counter wait.  A context's CQ (FI_SELECTIVE_COMPLETION) only carries
 * bounce-buffer completions and errors; the target endpoint's also the receives of
 * put-with-signal messages and their acknowledgements, and the sends of the messages
 * that leave from it (ofi_signal.c).
 */
#ifndef OFS_OFI_CTX_H
#define OFS_OFI_CTX_H

#include "ofi_internal.h"

struct ofi_bounce {
    struct fi_context2 fictx; /* op context: first, so the CQ entry finds us */
    struct ofi_bounce *next;
    char *buf;
    int pe; /* the target of the operation using it (named if it fails) */
};

/* The context of an operation that has no buffer to give back: its target PE, tagged
 * in the low bit (buffers' contexts are aligned), so that an error completion can name
 * the PE (a peer that died).  Successful completions of these are not asked for
 * (FI_SELECTIVE_COMPLETION). */
static inline void *ofi_pe_tag(int pe)
{
    return (void *)(((uintptr_t)(unsigned)pe << 1) | 1);
}
static inline int ofi_is_pe_tag(const void *op_context)
{
    return ((uintptr_t)op_context & 1) != 0;
}

/* ofi_ctx.sig_pe[pe]: what the messages sent to pe since the last flush carried */
enum { OFI_SIG_SENT_NONE, OFI_SIG_SENT_SIGNAL, OFI_SIG_SENT_DATA };

struct ofi_ctx {
    pthread_mutex_t lock; /* taken when the context is shared under THREAD_MULTIPLE */
    const long *options;  /* the comm context's options (NULL: none; read at each lock, as
                          * a pooled team context gets its options when handed out) */
    struct fid_ep *ep;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_cntr *put_cntr, *get_cntr;
    fi_addr_t *addr; /* n_pes */
    uint64_t put_issued, get_issued;
    uint64_t put_done, get_done; /* counter values last read (counters only grow) */
    int wr_pe; /* the puts issued since they last all completed went to PE wr_pe - 1
                * only (0: none yet, -1: to several PEs) */
    uint64_t put_err_seen, get_err_seen;
    /* bounce buffers */
    char *bounce_mem;
    struct fid_mr *bounce_mr;
    void *bounce_desc;
    struct ofi_bounce *bounces, *bounce_free;
    size_t bounce_busy;
    /* without delivery completion: PEs written since the last quiet, flushed by a read */
    unsigned char *dirty; /* n_pes */
    int *dirty_list;
    int ndirty;
    uint64_t flush_buf;
    /* operands that must outlive their call (nbi and non-fetching atomics) */
    unsigned nbi_used;
    uint64_t nbi_slot[OFI_NBI_SLOTS][2];
    /* put-with-signal messages (ofi_signal.c): PEs sent to since the last flush,
     * FLUSHes sent, ACKs received (by whichever thread reads the target CQ) */
    unsigned char *sig_pe; /* n_pes: OFI_SIG_SENT_* */
    int *sig_list;
    int sig_n;
    /* on the list of contexts whose own endpoint is driven (ofi_sig_drive): 0 not yet,
     * OFI_DRIVE_RMA while writes are in flight, OFI_DRIVE_MSG always (it sent messages);
     * OFI_DRIVE_NEVER: the default context (ofi_progress drives it) */
    int on_drive;
    struct ofi_ctx *drive_next, *drive_prev;
    struct ofi_ctx *spare_next; /* destroyed, kept for the next context */
    int users;                  /* contexts using it (several: ofi_ctx_attach shares it) */
    int pooled;                 /* in the THREAD_MULTIPLE pool of shared endpoints */
    uint64_t sig_flushes;
    uint64_t sig_acked;
    /* FI_MR_LOCAL: this struct registered once (slots and flush word get descriptors);
     * with FI_MR_ENDPOINT too, the segments registered again bound to this endpoint */
    struct fid_mr *self_mr;
    void *self_desc;
    struct fid_mr *seg_mr[HEAP_NSEGS];
    void *seg_desc[HEAP_NSEGS];
};

static inline struct ofi_ctx *ofi_ctx_of(struct comm_ctx *ctx)
{
    return (struct ofi_ctx *)ctx->tp[COMM_TP_OFI];
}

/* Created with SHMEM_CTX_PRIVATE: used by one thread only */
static inline int ofi_ctx_private(const struct ofi_ctx *c)
{
    return c->options && (*c->options & OFI_CTX_PRIVATE);
}

/* A shared context under SHMEM_THREAD_MULTIPLE is serialised; private ones never lock.
 * The data path's entries lock only in a job of that level (ofi_rma_ops_choose). */
static inline int ofi_ctx_lock(struct ofi_ctx *c)
{
    if (ofs_g.thread_level == OFI_THREAD_MULTIPLE && !ofi_ctx_private(c)) {
        pthread_mutex_lock(&c->lock);
        return 1;
    }
    return 0;
}
static inline int ofi_ctx_lock_mt(struct ofi_ctx *c)
{
    if (!ofi_ctx_private(c)) {
        pthread_mutex_lock(&c->lock);
        return 1;
    }
    return 0;
}
static inline void ofi_ctx_unlock(struct ofi_ctx *c, int locked)
{
    if (locked)
        pthread_mutex_unlock(&c->lock);
}

/* ---- open and close (ofi_ctx.c) ---- */
/* An endpoint with its AV, CQ, counters and bounce buffers (target: the target
 * endpoint, whose bounce buffers come later, ofi_bounce_setup). */
ofs_status_t ofi_ctx_open(int target, struct ofi_ctx **c_p) OFS_HIDDEN;
void ofi_ctx_free(struct ofi_ctx *c) OFS_HIDDEN;
ofs_status_t ofi_ctx_av_fill(struct ofi_ctx *c) OFS_HIDDEN;
/* A comm context's endpoint: the default context's for the contexts of
 * shmem_ctx_create below SHMEM_THREAD_MULTIPLE, else a destroyed context's kept one or
 * a new one; given back
 * (completed first) by ofi_ctx_detach; the kept ones closed by ofi_ctx_spares_free. */
ofs_status_t ofi_ctx_attach(struct comm_ctx *ctx) OFS_HIDDEN;
void ofi_ctx_detach(struct comm_ctx *ctx) OFS_HIDDEN;
void ofi_ctx_spares_free(void) OFS_HIDDEN;
ofs_status_t ofi_bounce_setup(struct ofi_ctx *c) OFS_HIDDEN;
/* ofi_mr.c: FI_MR_LOCAL descriptors of the context's own slots (and segments) */
ofs_status_t ofi_ctx_mr_setup(struct ofi_ctx *c, int target) OFS_HIDDEN;
void ofi_close(struct fid *f, const char *what) OFS_HIDDEN;

/* ---- the completion engine (ofi_ctx.c) ---- */
/* One step of waiting: drive this context, the target endpoint, back off by iter. */
void ofi_ctx_progress(struct ofi_ctx *c, unsigned *iter) OFS_HIDDEN;
/* Wait until the context's issued puts (and gets if both) have completed. */
void ofi_ctx_wait(struct ofi_ctx *c, int puts, int gets) OFS_HIDDEN;
/* Complete everything issued on c: writes (and put-with-signal messages) are in the
 * targets' memory on return.  _rma: the writes, atomics and reads only. */
void ofi_ctx_complete(struct ofi_ctx *c) OFS_HIDDEN;
void ofi_ctx_complete_rma(struct ofi_ctx *c) OFS_HIDDEN;
/* Drive the target endpoint once (thread-safe), from an application thread... */
void ofi_target_poll(void) OFS_HIDDEN;
/* ... or from the progress thread: nonzero when it read something. */
int ofi_target_poll_cq(void) OFS_HIDDEN;
/* ofi_g.ops.target_cq_read without put-with-signal messages */
ssize_t ofi_target_cq_read(struct fid_cq *cq) OFS_HIDDEN;
/* An error completion err, read from c's CQ (c NULL: the target endpoint's), of an
 * operation of kind what: one line naming the PE it was aimed at where known (the peer
 * is gone when the provider cancelled it or lost the connection), then the job ends.
 * hint: appended to the line. */
void ofi_cq_err_fatal(const struct ofi_ctx *c, struct fid_cq *cq, const struct fi_cq_err_entry *err,
                      const char *what, const char *hint) OFS_NORETURN OFS_HIDDEN;
/* Fatal unless the context's error counters are as last seen. */
void ofi_ctx_check_errors(struct ofi_ctx *c) OFS_HIDDEN;

/* Count a write or non-fetching atomic to pe (put_issued), noting where it went.  A
 * context's own endpoint joins the drive list at its first: some providers (sockets
 * with manual progress, udp;ofi_rxd) deliver an injected write only while the sending
 * endpoint is driven, and a team context's shmem_ctx_p or atomic_set waited otherwise
 * for that context's next quiet while its target polled the flag. */
static inline void ofi_ctx_put_issued(struct ofi_ctx *c, int pe)
{
    if (OFS_UNLIKELY(__atomic_load_n(&c->on_drive, __ATOMIC_RELAXED) == 0))
        ofi_drive_add(c, OFI_DRIVE_RMA);
    c->put_issued++;
    if (c->wr_pe != pe + 1)
        c->wr_pe = c->wr_pe == 0 ? pe + 1 : -1;
}
/* May a write or atomic of c to pe not have reached it yet (so that a message to pe
 * from another endpoint could overtake it)?  Only pe's own, where the context knows:
 * put-with-signals to one PE need not wait for large puts to another. */
static inline int ofi_ctx_writes_to(const struct ofi_ctx *c, int pe)
{
    if (c->ndirty && c->dirty[pe])
        return 1;
    return c->put_issued != c->put_done && (c->wr_pe == pe + 1 || c->wr_pe < 0);
}
/* Has everything issued on c completed, as far as the context last looked? */
static inline int ofi_ctx_idle(const struct ofi_ctx *c)
{
    return c->ndirty == 0 && c->put_done == c->put_issued && c->get_done == c->get_issued;
}
/* Note a write to pe for the flush at quiet: ofi_ctx_mark always, ofi_ctx_dirty when
 * the provider gives only transmit completion. */
static inline void ofi_ctx_mark(struct ofi_ctx *c, int pe)
{
    if (!c->dirty[pe]) {
        c->dirty[pe] = 1;
        c->dirty_list[c->ndirty++] = pe;
    }
}
static inline void ofi_ctx_dirty(struct ofi_ctx *c, int pe)
{
    if (!ofi_g.caps.delivery_complete)
        ofi_ctx_mark(c, pe);
}

/* ---- bounce buffers and operand slots ---- */
/* A context's bounce-buffer free list (the caller serialises: the context's user, or
 * ofi_signal.c's lock for the target endpoint's). */
static inline struct ofi_bounce *ofi_bounce_pop(struct ofi_ctx *c)
{
    struct ofi_bounce *b = c->bounce_free;
    if (b) {
        c->bounce_free = b->next;
        c->bounce_busy++;
    }
    return b;
}
static inline void ofi_bounce_push(struct ofi_ctx *c, struct ofi_bounce *b)
{
    b->next = c->bounce_free;
    c->bounce_free = b;
    c->bounce_busy--;
}
/* Is op_context one of c's bounce buffers? */
static inline int ofi_bounce_owns(const struct ofi_ctx *c, const void *op_context)
{
    const struct ofi_bounce *b = op_context;
    return c && c->bounces && b >= c->bounces && b < c->bounces + ofi_g.proto.thresh.bounce_count;
}
/* A free bounce buffer of c (drives progress until one comes back); it returns to
 * the free list when the CQ entry of the operation that used it is read. */
struct ofi_bounce *ofi_bounce_take(struct ofi_ctx *c) OFS_HIDDEN;
/* A 16-byte slot for an operand that must outlive the call; recycled when the
 * context's counters catch up (waits for that when all are in use). */
uint64_t *ofi_ctx_slot(struct ofi_ctx *c) OFS_HIDDEN;
/* Local descriptor for buf (FI_MR_LOCAL; ofi_mr.c): NULL when not needed; *tmp_p set
 * when a temporary registration was made (the caller completes the op, then closes
 * it). */
void *ofi_local_desc(struct ofi_ctx *c, const void *buf, size_t len, uint64_t access,
                     struct fid_mr **tmp_p) OFS_HIDDEN;

/* Before another operation of c to pe: put-with-signal messages to pe are applied
 * first. */
static inline void ofi_sig_order(struct ofi_ctx *c, int pe)
{
    if (OFS_UNLIKELY(c->sig_n) && c->sig_pe[pe])
        ofi_g.ops.sig_flush(c);
}

#endif
