/*
 * ofi_internal.h: the OFI (libfabric) transport's private state.  Nothing outside
 * src/transport/ofi includes this file: libfabric types stay below the comm layer.
 *
 * Shape: one "target" endpoint per PE receives every RMA/AMO aimed at this PE (its
 * address, the MR keys and segment bases are published at init); every context,
 * the default one included, owns an initiator endpoint.  Each has its own AV, CQ
 * and two counters (FI_WRITE: puts and
 * non-fetching atomics; FI_READ: gets and fetching atomics), so quiet is a counter
 * wait.  A context's CQ (FI_SELECTIVE_COMPLETION) only carries bounce-buffer
 * completions and errors; the target endpoint's also the receives of put-with-signal
 * messages and their acknowledgements, and the sends of the messages that leave from
 * it (ofi_am.c).  A progress thread drives the target endpoint for manual-progress
 * providers.
 */
#ifndef OFS_OFI_INTERNAL_H
#define OFS_OFI_INTERNAL_H

#include "transport.h"
#include "heap.h"

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

/* ---- protocol selection (ofi_proto.c: pure functions, unit-tested) ---- */
enum ofi_put_proto { OFI_PUT_INJECT, OFI_PUT_BOUNCE, OFI_PUT_LARGE };

struct ofi_thresh {
    size_t inject_max;   /* largest fi_inject_write (0: never inject) */
    size_t bounce_max;   /* largest bounce-buffer put (0: never bounce) */
    size_t bounce_count; /* bounce buffers per context */
    size_t chunk;        /* largest single fi_write/fi_read */
};

/* prov_*: what the provider offers; env_*: the SHMEM_* parameters as parsed
 * (-1 inject: provider default; 0 chunk: provider max). */
void ofi_thresh_compute(size_t prov_inject, size_t prov_max_msg, long env_inject, long env_bounce,
                        long env_bounce_bufs, long env_chunk, struct ofi_thresh *t_p) OFS_HIDDEN;
enum ofi_put_proto ofi_put_proto_select(size_t len, const struct ofi_thresh *t) OFS_HIDDEN;
const char *ofi_put_proto_name(enum ofi_put_proto p) OFS_HIDDEN;
/* Number of fi_write/fi_read calls a transfer of len bytes takes. */
size_t ofi_chunk_count(size_t len, const struct ofi_thresh *t) OFS_HIDDEN;

/* ---- state ---- */
#define OFI_NAME_MAX 256
#define OFI_NBI_SLOTS 256

/* What each PE publishes ("ofi.peer"). */
struct ofi_peer_info {
    uint64_t key[HEAP_NSEGS];
    uint64_t base[HEAP_NSEGS];
    uint32_t addrlen;
    unsigned char addr[OFI_NAME_MAX];
    /* settings every PE must share (checked by ofi_connect) */
    char prov[32];      /* provider name (truncated) */
    uint64_t am_part;   /* put-with-signal messages: data per message; 0: none */
    uint64_t rxm_eager; /* ofi_rxm: FI_OFI_RXM_BUFFER_SIZE in effect; else 0 */
    /* the process, to tell whether a same-node peer has died (ofi_peer_dead) */
    uint64_t pid, pidns;
};

struct ofi_bounce {
    struct fi_context2 fictx; /* op context: first, so the CQ entry finds us */
    struct ofi_bounce *next;
    char *buf;
    int pe; /* the target of the operation using it (named if it fails) */
};

/* The context of an operation that has no buffer to give back: its target PE, tagged
 * in the low bit (buffers' contexts are aligned), so that an error completion can name
 * the PE (a peer that died: ofi_peer_gone).  Successful completions of these are not
 * asked for (FI_SELECTIVE_COMPLETION). */
static inline void *ofi_pe_tag(int pe)
{
    return (void *)(((uintptr_t)(unsigned)pe << 1) | 1);
}
static inline int ofi_is_pe_tag(const void *op_context)
{
    return ((uintptr_t)op_context & 1) != 0;
}

/* How an atomic (op, type, fetching) is executed. */
/* UNAVAIL: the provider crashes on it (udp;ofi_rxd fetching atomics): fatal if used */
enum ofi_amo_mode { OFI_AMO_NATIVE, OFI_AMO_CASLOOP, OFI_AMO_UNAVAIL };
struct ofi_amo_how {
    enum fi_op op;
    enum fi_datatype dt;
    unsigned char mode;
};

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
    /* put-with-signal messages (ofi_am.c): PEs sent to since the last flush, FLUSHes
     * sent, ACKs received (by whichever thread reads the target CQ) */
    unsigned char *am_pe; /* n_pes: 0 none, 1 signals only, 2 data too */
    int *am_list;
    int am_n;
    uint64_t am_flushes;
    uint64_t am_acked;
    /* FI_MR_LOCAL: this struct registered once (slots and flush word get descriptors);
     * with FI_MR_ENDPOINT too, the segments registered again bound to this endpoint */
    struct fid_mr *self_mr;
    void *self_desc;
    struct fid_mr *seg_mr[HEAP_NSEGS];
    void *seg_desc[HEAP_NSEGS];
};

struct ofi_state {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    /* the target endpoint: remote operations aimed at this PE land here (only its
     * ep, av, cq are used) */
    struct ofi_ctx *main;
    struct ofi_ctx *dflt; /* the default context's endpoint */
    int tcq_fd;           /* wait fd of main's CQ, -1 if none */
    /* the soft open-file limit before and after ofi_nofile_raise (0: unknown) */
    unsigned long long nofile_was, nofile;
    struct fid_cntr *tcntr; /* RMA/atomics aimed at us (FI_RMA_EVENT), NULL if none */
    int rma_event;
    int loopback;    /* every PE on this node: FI_TCP_IFACE/FI_SOCKETS_IFACE set to lo */
    int put_visible; /* a completed put is in the target's memory (shm by CMA) */
    struct fid_mr *mr[HEAP_NSEGS];
    void *mr_desc[HEAP_NSEGS];
    uint64_t requested_key; /* next key for FI_MR_PROV_KEY-less registrations */
    uint64_t mr_mode;       /* effective: FI_MR_BASIC/SCALABLE expanded, forced bits added */
    uint64_t mr_granted;    /* as the provider returned it */
    uint64_t mr_hints;      /* asked for (SHMEM_OFI_MR_MODE) */
    uint64_t mr_forced;     /* FI_MR_LOCAL/FI_MR_ENDPOINT forced though not required */
    int mr_bind_ret;        /* forced FI_MR_ENDPOINT: what fi_mr_bind said (0: bound) */
    uint64_t op_flags;      /* FI_DELIVERY_COMPLETE when granted */
    int delivery_complete;
    int ordered_waw; /* generic FI_ORDER_WAW: fence needs no wait */
    /* delivery completion and RMA reads ordered after RMA writes: a blocking zero-copy
     * put asks only for FI_INJECT_COMPLETE (source reusable) and marks its PE for
     * quiet's flushing read */
    int put_local;
    int manual_progress;
    struct ofi_thresh thresh;
    struct ofi_peer_info *peers; /* n_pes (only entries we carry traffic to are filled) */
    unsigned char *active;       /* n_pes */
    struct ofi_amo_how amo[COMM_AMO_COUNT][COMM_DT_COUNT][2];
    int amo_fallbacks;
    /* put-with-signal as one message (ofi_am.c) */
    int am_on;                    /* signals go by message */
    int am_from_target;           /* ... sent from the target endpoint (SHMEM_OFI_AM_EP) */
    size_t am_max;                /* largest data sent by message(s) */
    size_t am_part;               /* largest data in one message (more: several) */
    const char *am_why;           /* why not, when not */
    const char *amo_fetch_broken; /* why fetching atomics are unavailable, or NULL */
    /* progress thread */
    pthread_t thread;
    int thread_running;
    volatile int thread_stop;
    int attending;          /* application threads waiting in the library (ofi_attend) */
    unsigned attends;       /* waits for other PEs started so far */
    int64_t wait_end_ns;    /* when the last of them ended */
    int64_t outside_avg_ns; /* running average of the time between them */
    int parked;             /* the progress thread stands by on the attending count */
    int serve_now;          /* the last waiter left and woke it */
};
extern struct ofi_state ofi_g OFS_HIDDEN;

static inline struct ofi_ctx *ofi_ctx_of(struct comm_ctx *ctx)
{
    return (struct ofi_ctx *)ctx->tp[COMM_TP_OFI];
}

/* Created with SHMEM_CTX_PRIVATE (1): used by one thread only */
static inline int ofi_ctx_private(const struct ofi_ctx *c)
{
    return c->options && (*c->options & 1);
}

/* A shared context under SHMEM_THREAD_MULTIPLE is serialised; private ones never lock. */
static inline int ofi_ctx_lock(struct ofi_ctx *c)
{
    if (ofs_g.thread_level == 3 && !ofi_ctx_private(c)) {
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

static inline uint64_t ofi_raddr(int seg, size_t off, int pe)
{
    return ((ofi_g.mr_mode & FI_MR_VIRT_ADDR) ? ofi_g.peers[pe].base[seg] : 0) + off;
}

/* Fatal data-path error: the call, its arguments and fi_strerror. */
/* An error completion err, read from c's CQ (c NULL: the target endpoint's), of an
 * operation of kind what: one line naming the PE it was aimed at where known (the peer
 * is gone when the provider cancelled it or lost the connection), then the job ends.
 * hint: appended to the line. */
void ofi_cq_err_fatal(const struct ofi_ctx *c, struct fid_cq *cq, const struct fi_cq_err_entry *err,
                      const char *what, const char *hint) OFS_NORETURN OFS_HIDDEN;
void ofi_fatal_call(const char *call, ssize_t ret, const char *fmt, ...) OFS_PRINTF(3, 4)
    OFS_NORETURN OFS_HIDDEN;

/* ofi_setup.c */
/* SHMEM_OFI_MR_MODE: "auto", "basic" or "scalable", then optionally "+local" and/or
 * "+endpoint".  Sets the hints' mr_mode and the bits to force; -1 on a bad value. */
int ofi_mr_mode_parse(const char *s, uint64_t *hints_p, uint64_t *forced_p) OFS_HIDDEN;
/* The mode the transport obeys: legacy FI_MR_BASIC/FI_MR_SCALABLE expanded to the
 * 1.5 bits, plus the forced ones. */
uint64_t ofi_mr_mode_effective(uint64_t granted, uint64_t forced) OFS_HIDDEN;
ofs_status_t ofi_mr_reg_local(struct fid_ep *ep, const void *buf, size_t len, uint64_t access,
                              struct fid_mr **mr_p) OFS_HIDDEN;

/* ofi_mrcheck.c: with FI_MR_LOCAL forced, every descriptor passed in a data transfer
 * is checked against the live registrations (see the file). */
void ofi_mrchk_add_mr(struct fid_mr *mr, const void *buf, size_t len) OFS_HIDDEN;
void ofi_mrchk_add_ep(struct fid_ep *ep) OFS_HIDDEN;
void ofi_mrchk_del_ep(struct fid_ep *ep) OFS_HIDDEN;
unsigned long ofi_mrchk_count(void) OFS_HIDDEN;

/* ofi_rma.c */
/* One step of waiting: drive this context, the target endpoint, back off by iter. */
void ofi_ctx_progress(struct ofi_ctx *c, unsigned *iter) OFS_HIDDEN;
/* Wait until the context's issued puts (and gets if both) have completed. */
void ofi_ctx_wait(struct ofi_ctx *c, int puts, int gets) OFS_HIDDEN;
/* Count a write or non-fetching atomic to pe (put_issued), noting where it went. */
static inline void ofi_ctx_put_issued(struct ofi_ctx *c, int pe)
{
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
    if (!ofi_g.delivery_complete)
        ofi_ctx_mark(c, pe);
}
/* A context's bounce-buffer free list (the caller serialises: the context's user, or
 * ofi_am.c's lock for the target endpoint's). */
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
/* A free bounce buffer of c (drives progress until one comes back); it returns to
 * the free list when the CQ entry of the operation that used it is read. */
struct ofi_bounce *ofi_bounce_take(struct ofi_ctx *c) OFS_HIDDEN;
/* Complete everything issued on c: writes (and put-with-signal messages) are in the
 * targets' memory on return.  _rma: the writes, atomics and reads only. */
void ofi_ctx_complete(struct ofi_ctx *c) OFS_HIDDEN;
void ofi_ctx_complete_rma(struct ofi_ctx *c) OFS_HIDDEN;
/* A 16-byte slot for an operand that must outlive the call; recycled when the
 * context's counters catch up (waits for that when all are in use). */
uint64_t *ofi_ctx_slot(struct ofi_ctx *c) OFS_HIDDEN;
/* Local descriptor for buf (FI_MR_LOCAL): NULL when not needed; *tmp_p set when a
 * temporary registration was made (the caller completes the op, then closes it). */
void *ofi_local_desc(struct ofi_ctx *c, const void *buf, size_t len, uint64_t access,
                     struct fid_mr **tmp_p) OFS_HIDDEN;
void ofi_put(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe)
    OFS_HIDDEN;
void ofi_put_nbi(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe)
    OFS_HIDDEN;
void ofi_get(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe) OFS_HIDDEN;
void ofi_get_nbi(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
    OFS_HIDDEN;
void ofi_put_signal(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len,
                    int sig_seg, size_t sig_off, uint64_t signal, int sig_op, int pe, int nbi)
    OFS_HIDDEN;
void ofi_fence(struct comm_ctx *ctx) OFS_HIDDEN;
void ofi_quiet(struct comm_ctx *ctx) OFS_HIDDEN;
/* Decide ofi_g.put_visible once the peers are known. */
void ofi_put_visible_setup(void) OFS_HIDDEN;
/* ofi_names.c: shm endpoint names, stale regions swept */
void ofi_names_init(void) OFS_HIDDEN;
const char *ofi_ep_name(unsigned serial, char *buf, size_t len) OFS_HIDDEN;
/* Is the shm provider's region for an endpoint of that name free?  Else one line
 * naming the file and its owner, and OFS_ERR_IO */
ofs_status_t ofi_name_check(const char *name) OFS_HIDDEN;
/* An active peer's address on the shm provider without "fi_shm://" (in buf), else
 * NULL */
const char *ofi_peer_shm_name(int pe, char buf[OFI_NAME_MAX + 1]) OFS_HIDDEN;
/* From the address exchange to finalize: SIGTERM/SIGINT/SIGHUP remove the regions of
 * all the job's PEs on this node */
void ofi_names_guard(void) OFS_HIDDEN;
void ofi_names_unguard(void) OFS_HIDDEN;

/* ofi_amo.c */
void ofi_amo_setup(void) OFS_HIDDEN;
void ofi_amo(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt, int seg, size_t off,
             const void *operand, const void *cmp, void *result, int pe, int nbi) OFS_HIDDEN;
/* The locked-context part of an atomic (put_signal uses it). */
void ofi_amo_locked(struct ofi_ctx *c, enum comm_amo_op op, enum comm_dtype dt, int seg, size_t off,
                    const void *operand, const void *cmp, void *result, int pe, int nbi) OFS_HIDDEN;

/* ofi_am.c: put-with-signal as one message */
#define OFI_AM_HDR 32
#define OFI_AM_INJECT_MAX 4096 /* largest data injected from the stack */
#define OFI_AM_SIZE_DEFAULT 4096
#define OFI_AM_SIZE_DEFAULT_RXM 16384
#define OFI_AM_RXM_EAGER 16384 /* FI_OFI_RXM_BUFFER_SIZE's default */
/* what ofishmem sets it to when the user has not: 16 KiB of data and the header */
#define OFI_AM_RXM_EAGER_SET 16416
_Static_assert(OFI_AM_RXM_EAGER_SET == OFI_AM_RXM_EAGER + OFI_AM_HDR, "rxm eager size");
/* FI_OFI_RXM_MSG_RX_SIZE ofishmem sets when the user has set neither it nor
 * FI_OFI_RXM_USE_SRX (see ofi_getinfo) */
#define OFI_RXM_MSG_RX_SET 1024
ofs_status_t ofi_am_setup(void) OFS_HIDDEN;
/* ofi_setup.c: the eager size rxm runs with (0: not rxm) */
size_t ofi_rxm_eager(void) OFS_HIDDEN;
ofs_status_t ofi_am_rx_setup(void) OFS_HIDDEN;
void ofi_am_rx_close(void) OFS_HIDDEN;
void ofi_am_rx_free(void) OFS_HIDDEN;
ssize_t ofi_am_poll(struct fid_cq *cq) OFS_HIDDEN;
void ofi_am_putsig(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len, int sig_seg,
                   size_t sig_off, uint64_t signal, int sig_op, int pe, int track) OFS_HIDDEN;
void ofi_am_flush(struct ofi_ctx *c) OFS_HIDDEN;
/* Messages applied so far (any thread) */
unsigned long ofi_am_received(void) OFS_HIDDEN;
/* The endpoint (as its ofi_ctx) c's messages to pe leave from: the target endpoint
 * where SHMEM_OFI_AM_EP says so (auto: while every PE of the node has a CPU), so that
 * the messages between two PEs, both ways, and their acknowledgements travel over one
 * connection (over tcp;ofi_rxm the TCP acknowledgements then ride on the answers:
 * perf_pingpong, 8 B, 7.9-8.5 us per transfer instead of 9.2-9.8, runs alternating),
 * except for a SHMEM_CTX_PRIVATE context (its thread shares no endpoint) and messages
 * to this PE (shm 1.17 mishandles an endpoint sending to itself while others send to
 * it).  The same for every message of c to pe, so they stay in order (FI_ORDER_SAS);
 * a pooled team context changes its options only when handed out, after a quiet. */
static inline struct ofi_ctx *ofi_am_ep_of(struct ofi_ctx *c, int pe)
{
    return ofi_g.am_from_target && pe != ofs_g.my_pe && !ofi_ctx_private(c) ? ofi_g.main : c;
}

/* Before another operation of c to pe: messages to pe are applied first. */
static inline void ofi_am_order(struct ofi_ctx *c, int pe)
{
    if (OFS_UNLIKELY(c->am_n) && c->am_pe[pe])
        ofi_am_flush(c);
}

/* ofi_progress.c */
ofs_status_t ofi_progress_start(void) OFS_HIDDEN;
void ofi_progress_stop(void) OFS_HIDDEN;
void ofi_progress(void) OFS_HIDDEN;
int ofi_traffic(void) OFS_HIDDEN;
int ofi_wait_sleep(long ns) OFS_HIDDEN;
void ofi_attend(int delta) OFS_HIDDEN;
void ofi_attend_ctx(int delta) OFS_HIDDEN;
/* Drive the target endpoint once (thread-safe). */
void ofi_target_poll(void) OFS_HIDDEN;

#endif
