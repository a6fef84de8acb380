/*
 * ofi_internal.h: the OFI (libfabric) transport's private state.  Nothing outside
 * src/transport/ofi includes this file: libfabric types stay below the comm layer.
 * docs/ofi-internals.md describes the transport as a whole.
 *
 * Files: ofi_info.c chooses the provider and fills ofi_g.caps once; ofi_ctx.c is
 * the one place that knows how an operation completes (ofi_ctx.h); ofi_rma.c,
 * ofi_amo.c, ofi_signal.c and ofi_progress.c call ofi_ctx and read ofi_g.caps,
 * never each other (put-with-signal reaches puts and atomics through ofi_g.ops);
 * ofi_mr.c registers memory, ofi_limits.c watches the open-file limit, ofi_print.c
 * prints the SHMEM_INFO lines, ofi_kallsyms.c keeps libfabric's providers from
 * scanning /proc/kallsyms as they load (its fopen is libsma.so's only), ofi_setup.c
 * loads libfabric (include/ofs_fabric.h: libsma does not link it) and opens and
 * closes the rest.
 */
#ifndef OFS_OFI_INTERNAL_H
#define OFS_OFI_INTERNAL_H

#include "transport.h"
#include "heap.h"
/* first: renames libfabric's few non-inline entry points to the ones that call into
 * the libfabric ofi_init loads with dlopen */
#include "ofs_fabric.h"

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

/* ---- constants ---- */
#define OFI_NAME_MAX 256
#define OFI_NBI_SLOTS 256
/* SHMEM_THREAD_MULTIPLE and SHMEM_CTX_PRIVATE (shmem.h belongs to the api layer) */
#define OFI_THREAD_MULTIPLE 3
#define OFI_CTX_PRIVATE 1L
#define OFI_MR_MODES \
    (FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_LOCAL | FI_MR_ENDPOINT)
/* put-with-signal messages (ofi_signal.c) */
#define OFI_SIG_HDR 32
#define OFI_SIG_INJECT_MAX 4096 /* largest data injected from the stack */
#define OFI_SIG_SIZE_DEFAULT 4096
#define OFI_SIG_SIZE_DEFAULT_RXM 16384
#define OFI_RXM_EAGER_DEFAULT 16384 /* FI_OFI_RXM_BUFFER_SIZE's default */
/* what ofishmem sets it to when the user has not: 16 KiB of data and the header */
#define OFI_RXM_EAGER_SET 16416
_Static_assert(OFI_RXM_EAGER_SET == OFI_RXM_EAGER_DEFAULT + OFI_SIG_HDR, "rxm eager size");
/* ... and on a crowded node (every PE on it, more than OFI_RXM_CROWDED_PER_CPU per
 * CPU): 1 KiB of data and the header (ofi_info.c) */
#define OFI_RXM_EAGER_SET_CROWDED 1056
#define OFI_RXM_CROWDED_PER_CPU 4
/* FI_OFI_RXM_MSG_RX_SIZE ofishmem sets when the user has set neither it nor
 * FI_OFI_RXM_USE_SRX (see ofi_info.c) */
#define OFI_RXM_MSG_RX_SET 1024
/* FI_OFI_RXM_CM_PROGRESS_INTERVAL set before the provider loads (us; rxm's default 10000) */
#define OFI_RXM_CM_PROGRESS_SET 100
/* SHMEM_OFI_BOUNCE_SIZE's default: see docs/ofi-internals.md, "Put protocols" */
#define OFI_BOUNCE_SIZE_DEFAULT 32768
#define OFI_BOUNCE_SIZE_DEFAULT_SHM 8192

/* ---- what the chosen provider can and cannot do (ofi_info.c, filled once) ---- */
struct ofi_caps {
    const char *prov_name;
    /* FI_DELIVERY_COMPLETE granted (and trusted): a completed write is at the target */
    int delivery_complete;
    int ordered_waw; /* writes ordered after writes: a fence needs no wait */
    int ordered_saw; /* sends ordered after writes: a signal message may follow data */
    int ordered_sas; /* sends ordered after sends (signal messages need it) */
    int rma_raw;     /* RMA reads ordered after RMA writes (asked for and granted) */
    int rma_event;   /* a counter of the RMA/atomics aimed at us (FI_RMA_EVENT) */
    int manual_progress;
    int msg; /* FI_MSG: sends and receives */
    size_t inject_size, max_msg_size, rx_size;
    /* The provider writes puts in place (shm by CMA): decided per job once the peers
     * are known (ofi_caps_peers_check); quiet then flushes no put */
    int put_in_place;
    int put_in_place_possible; /* the provider and its version can (before the peers) */
    /* Messages up to this many bytes (header included) go by the provider's fastest
     * protocol: 0 when the provider gives no such limit (then: what a bounce buffer or
     * an inject carries) */
    int msg_fast_is_inject;  /* shm: its inject size */
    size_t eager_size;       /* rxm: FI_OFI_RXM_BUFFER_SIZE in effect; else 0 */
    size_t sig_size_default; /* SHMEM_OFI_AM_SIZE's default */
    size_t bounce_size_default;
    /* asked for delivery completion, shm corrupts atomics: never ask for it there */
    int no_delivery_complete;
    /* RMA ordering asked for, shm stops writing puts in place */
    int no_rma_order;
    /* shm endpoints get names of ours (their regions can then be swept and checked) */
    int named_regions;
    /* why fetching atomics are unavailable (a provider that crashes on them), or NULL */
    const char *fetch_atomics_broken;
    /* a context's endpoint is never closed before finalize, but kept for the next
     * context: the provider mistakes a new endpoint at a closed one's address for it */
    int keep_endpoints;
};

/* ---- state ---- */

/* What each PE publishes ("ofi.peer"). */
struct ofi_peer_info {
    uint64_t key[HEAP_NSEGS];
    uint64_t base[HEAP_NSEGS];
    uint32_t addrlen;
    unsigned char addr[OFI_NAME_MAX];
    /* settings every PE must share (checked by ofi_peer_check) */
    char prov[32];      /* provider name (truncated) */
    uint64_t sig_part;  /* put-with-signal messages: data per message; 0: none */
    uint64_t rxm_eager; /* ofi_rxm: FI_OFI_RXM_BUFFER_SIZE in effect; else 0 */
    /* the process, to tell whether a same-node peer has died (ofi_peer_dead) */
    uint64_t pid, pidns;
};

/* How an atomic (op, type, fetching) is executed. */
/* UNAVAIL: the provider crashes on it (caps.fetch_atomics_broken): fatal if used */
enum ofi_amo_mode { OFI_AMO_NATIVE, OFI_AMO_CASLOOP, OFI_AMO_UNAVAIL };
struct ofi_amo_how {
    enum fi_op op;
    enum fi_datatype dt;
    unsigned char mode;
};

struct ofi_ctx;

/* The data-path functions chosen at init (ofi_setup.c) from the caps and the
 * parameters: the files of the data path reach each other only through these. */
struct ofi_ops {
    /* the locked part of a put (blocking: returns when src is reusable) */
    void (*put)(struct ofi_ctx *c, int seg, size_t off, const void *src, size_t len, int pe,
                int blocking);
    /* the locked part of an atomic */
    void (*amo)(struct ofi_ctx *c, enum comm_amo_op op, enum comm_dtype dt, int seg, size_t off,
                const void *operand, const void *cmp, void *result, int pe, int nbi);
    /* wait until c's put-with-signal messages are applied (NULL: none are sent) */
    void (*sig_flush)(struct ofi_ctx *c);
    /* read the target endpoint's CQ, applying what arrived */
    ssize_t (*target_cq_read)(struct fid_cq *cq);
};

struct ofi_state {
    struct ofi_caps caps;
    struct ofi_ops ops;
    /* the provider */
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    /* the target endpoint: remote operations aimed at this PE land here (only its
     * ep, av, cq are used) */
    struct {
        struct ofi_ctx *ctx;
        int cq_fd;             /* wait fd of its CQ, -1 if none */
        struct fid_cntr *cntr; /* RMA/atomics aimed at us (FI_RMA_EVENT), NULL if none */
    } target;
    struct ofi_ctx *dflt; /* the default context's endpoint */
    /* thresholds and protocol choices */
    struct {
        struct ofi_thresh thresh;
        uint64_t op_flags; /* FI_DELIVERY_COMPLETE when granted */
        /* delivery completion and RMA reads ordered after RMA writes: a blocking
         * zero-copy put asks only for FI_INJECT_COMPLETE (source reusable) and marks its
         * PE for quiet's flushing read */
        int put_local;
        struct ofi_amo_how amo[COMM_AMO_COUNT][COMM_DT_COUNT][2];
        int amo_fallbacks;
    } proto;
    /* put-with-signal as messages (ofi_signal.c) */
    struct {
        int by_msg;          /* signals go by message */
        int from_target;     /* ... sent from the target endpoint (SHMEM_OFI_AM_EP) */
        size_t msg_max;      /* largest data sent by message(s) */
        size_t part;         /* largest data in one message (more: several) */
        const char *why_not; /* why not, when not */
    } sig;
    /* peers */
    struct ofi_peer_info *peers; /* n_pes (only entries we carry traffic to are filled) */
    unsigned char *active;       /* n_pes */
    int loopback; /* every PE on this node: FI_TCP_IFACE/FI_SOCKETS_IFACE set to lo */
    /* memory registration (ofi_mr.c) */
    struct {
        struct fid_mr *mr[HEAP_NSEGS];
        void *desc[HEAP_NSEGS];
        uint64_t next_key; /* next key for FI_MR_PROV_KEY-less registrations */
        uint64_t mode;     /* effective: FI_MR_BASIC/SCALABLE expanded, forced bits added */
        uint64_t granted;  /* as the provider returned it */
        uint64_t hints;    /* asked for (SHMEM_OFI_MR_MODE) */
        uint64_t forced;   /* FI_MR_LOCAL/FI_MR_ENDPOINT forced though not required */
        int bind_ret;      /* forced FI_MR_ENDPOINT: what fi_mr_bind said (0: bound) */
    } reg;
    /* the soft open-file limit before and after ofi_nofile_raise (0: unknown) */
    struct {
        unsigned long long nofile_was, nofile;
    } limits;
    /* progress thread (ofi_progress.c) */
    struct {
        pthread_t thread;
        int running;
        volatile int stop;
        int attending;           /* application threads waiting in the library (ofi_attend) */
        unsigned attends;        /* waits for other PEs started so far */
        int64_t wait_end_ns;     /* when the last of them ended */
        int64_t outside_avg_ns;  /* running average of the time between them */
        int parked;              /* the progress thread stands by on the attending count */
        int serve_now;           /* the last waiter left and woke it */
        unsigned long app_polls; /* polls by the application's threads (a hint) */
    } progress;
};
extern struct ofi_state ofi_g OFS_HIDDEN;

static inline uint64_t ofi_raddr(int seg, size_t off, int pe)
{
    return ((ofi_g.reg.mode & FI_MR_VIRT_ADDR) ? ofi_g.peers[pe].base[seg] : 0) + off;
}

/* ---- ofi_limits.c: errors, with what a limit of the process had to do with them ---- */
/* Raise the soft open-file limit to the hard one (unless SHMEM_OFI_RAISE_NOFILE=0). */
void ofi_nofile_raise(void) OFS_HIDDEN;
/* Fatal data-path error: the call, its arguments and fi_strerror. */
void ofi_fatal_call(const char *call, ssize_t ret, const char *fmt, ...) OFS_PRINTF(3, 4)
    OFS_NORETURN OFS_HIDDEN;
/* Setup error: one line naming the call; the status it maps to. */
ofs_status_t ofi_err(const char *call, int ret) OFS_HIDDEN;

/* ---- ofi_kallsyms.c's fopen, switched by ofi_info.c ---- */
/* While on, this thread's fopen of /proc/kallsyms fails (ENOENT): around the first
 * fi_getinfo, where libfabric's providers load (unless SHMEM_OFI_KERNEL_SYMBOLS=1). */
void ofi_kallsyms_hide(int on) OFS_HIDDEN;
extern _Thread_local int ofi_kallsyms_hidden OFS_HIDDEN;

/* ---- ofi_info.c: the provider and its caps ---- */
ofs_status_t ofi_info_choose(void) OFS_HIDDEN;
/* The caps that depend on the peers (in-place puts), once they are known. */
void ofi_caps_peers_check(void) OFS_HIDDEN;
/* Settings that PEs must share (the provider, rxm's eager size, the message size):
 * one line and an error if p's differ from me's. */
ofs_status_t ofi_peer_check(int pe, const struct ofi_peer_info *p, const struct ofi_peer_info *me)
    OFS_HIDDEN;

/* ---- ofi_mr.c ---- */
/* SHMEM_OFI_MR_MODE: "auto", "basic" or "scalable", then optionally "+local" and/or
 * "+endpoint".  Sets the hints' mr_mode and the bits to force; -1 on a bad value. */
int ofi_mr_mode_parse(const char *s, uint64_t *hints_p, uint64_t *forced_p) OFS_HIDDEN;
/* The mode the transport obeys: legacy FI_MR_BASIC/FI_MR_SCALABLE expanded to the
 * 1.5 bits, plus the forced ones. */
uint64_t ofi_mr_mode_effective(uint64_t granted, uint64_t forced) OFS_HIDDEN;
ofs_status_t ofi_mr_reg_local(struct fid_ep *ep, const void *buf, size_t len, uint64_t access,
                              struct fid_mr **mr_p) OFS_HIDDEN;
/* Register the heap segments for remote access at the target endpoint; their keys and
 * bases into me. */
ofs_status_t ofi_segs_register(struct ofi_peer_info *me) OFS_HIDDEN;
void ofi_segs_deregister(void) OFS_HIDDEN;
/* With FI_MR_LOCAL forced, every descriptor passed in a data transfer is checked
 * against the live registrations (see ofi_mr.c). */
void ofi_mrchk_add_mr(struct fid_mr *mr, const void *buf, size_t len) OFS_HIDDEN;
void ofi_mrchk_add_ep(struct fid_ep *ep) OFS_HIDDEN;
void ofi_mrchk_del_ep(struct fid_ep *ep) OFS_HIDDEN;
unsigned long ofi_mrchk_count(void) OFS_HIDDEN;

/* ---- ofi_print.c: the SHMEM_INFO lines ---- */
void ofi_print_info(const struct ofi_peer_info *me) OFS_HIDDEN;
void ofi_print_fini(void) OFS_HIDDEN;

/* ---- ofi_names.c: shm endpoint names, stale regions swept ---- */
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

/* ---- the data path: transport_ops entries ---- */
/* ofi_rma.c; *_st: no context ever locks (below SHMEM_THREAD_MULTIPLE) */
void ofi_rma_ops_choose(struct transport_ops *t) OFS_HIDDEN;
void ofi_quiet(struct comm_ctx *ctx) OFS_HIDDEN;
int ofi_gets_test(struct comm_ctx *ctx) OFS_HIDDEN;
/* ofi_amo.c */
void ofi_amo_setup(void) OFS_HIDDEN;
void ofi_amo_ops_choose(struct transport_ops *t) OFS_HIDDEN;
/* ofi_signal.c */
ofs_status_t ofi_sig_setup(void) OFS_HIDDEN;
void ofi_sig_ops_choose(struct transport_ops *t) OFS_HIDDEN;
ofs_status_t ofi_sig_rx_setup(void) OFS_HIDDEN;
void ofi_sig_rx_close(void) OFS_HIDDEN;
void ofi_sig_rx_free(void) OFS_HIDDEN;
/* Messages applied so far (any thread) */
unsigned long ofi_sig_received(void) OFS_HIDDEN;
/* Drive the endpoints of the contexts that sent messages from their own endpoint, and
 * of those that wrote or ran atomics from it while these are in flight (every
 * OFI_SIG_DRIVE_EVERY-th call; from the wait loops and the progress thread); a context
 * joins that list at its first (ofi_drive_add: OFI_DRIVE_MSG, OFI_DRIVE_RMA) and leaves
 * it when it is destroyed (ofi_sig_drive_remove). */
#define OFI_DRIVE_RMA 1
#define OFI_DRIVE_MSG 2
#define OFI_DRIVE_NEVER (-1)
void ofi_sig_drive(void) OFS_HIDDEN;
void ofi_drive_add(struct ofi_ctx *c, int why) OFS_HIDDEN;
void ofi_sig_drive_remove(struct ofi_ctx *c) OFS_HIDDEN;

/* ---- ofi_progress.c ---- */
ofs_status_t ofi_progress_start(void) OFS_HIDDEN;
void ofi_progress_stop(void) OFS_HIDDEN;
void ofi_progress(void) OFS_HIDDEN;
int ofi_traffic(void) OFS_HIDDEN;
int ofi_wait_sleep(long ns) OFS_HIDDEN;
int ofi_wait_sleep_lib(long ns) OFS_HIDDEN;
void ofi_attend(int delta) OFS_HIDDEN;
void ofi_attend_ctx(int delta) OFS_HIDDEN;

#endif
