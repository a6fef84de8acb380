/*
 * comm.h: the comm layer, src/comm/.  Everything above it (src/api, src/coll)
 * speaks in local symmetric addresses, byte lengths and world PE numbers; the comm
 * layer picks the route chosen for that PE at init (shm or ofi) and makes one call.
 * Arguments are assumed valid: the API layer checks them (ofs_check.h).
 */
#ifndef OFS_COMM_H
#define OFS_COMM_H

#include "comm_types.h"
#include "transport.h"
#include "heap.h"
#include "ofs_handle.h"

struct comm_state {
    const struct transport_ops **rma; /* n_pes: route for put/get/signal */
    const struct transport_ops **amo; /* n_pes: route for atomics (one executor per job) */
    int tp_active[COMM_NTP];          /* transport initialised */
    int amo_cpu;                      /* 1: all AMOs are CPU atomics (job on one node, shm) */
    struct comm_ctx *ctx_list;        /* every open context (for quiet-all at finalize) */
    pthread_mutex_t ctx_list_lock;
    struct ofs_htab ctxs; /* where every context but the default one lives */
};
extern struct comm_state comm_g OFS_HIDDEN;
/* SHMEM_CTX_DEFAULT points here (exported: shmem.h names it). */
extern struct comm_ctx shmem_internal_ctx_default OFS_API;
#define COMM_CTX_DEFAULT (&shmem_internal_ctx_default)

/* struct comm_ctx magic: the program may use it (created and not destroyed), or it is
 * open but kept by the library (a team's SHMEM_TEAM_NUM_CONTEXTS pool) */
#define COMM_CTX_LIVE 0x6f637478u   /* "octx" */
#define COMM_CTX_POOLED 0x6f637470u /* "octp" */
#define COMM_CTX_SLOT 128           /* bytes per slot of comm_g.ctxs */
#define COMM_CTX_MAX 16384          /* contexts open at once (slots of comm_g.ctxs) */

/* Nonzero if ctx is a context the program may use: never dereferences a pointer that
 * is not one of ours (a garbage or destroyed handle just reads as invalid). */
static OFS_ALWAYS_INLINE int comm_ctx_valid(const struct comm_ctx *ctx)
{
    return ctx == COMM_CTX_DEFAULT ||
           ofs_htab_holds(&comm_g.ctxs, ctx, COMM_CTX_SLOT, COMM_CTX_LIVE);
}

/* Collective: decide routes, init transports, connect, create the default ctx.  Ends
 * without a fence: the heap objects stay named until the caller's next one. */
ofs_status_t comm_init(void) OFS_HIDDEN;
void comm_fini(void) OFS_HIDDEN;

/* SHMEM_STATS: point every route at a counting copy of its transport's table
 * (comm_stats.c; after the transports connected). */
void comm_stats_routes(const struct transport_ops *const tps[COMM_NTP]) OFS_HIDDEN;

/* Nonzero when every atomic of the job is a CPU atomic (the job is on one node, reached
 * over shm): a same-node word may then be updated through comm_ptr. */
static inline int comm_amo_by_cpu(void)
{
    return comm_g.amo_cpu;
}

/* Nonzero when the job's atomic executor for this PE's own words runs fetching atomics
 * (every transport but OFI over a provider that crashes on them: transport no_fetch). */
static inline int comm_amo_fetch_ok(void)
{
    return comm_g.amo[ofs_g.my_pe]->no_fetch == NULL;
}

/* A new context (magic COMM_CTX_LIVE); OFS_ERR_AGAIN when COMM_CTX_MAX are open. */
ofs_status_t comm_ctx_create(long options, struct coll_team *team, struct comm_ctx **ctx_p)
    OFS_HIDDEN;
/* Quiet, close and free it: its handle reads as invalid from then on. */
void comm_ctx_destroy(struct comm_ctx *ctx) OFS_HIDDEN;

/* ---- a team's contexts (SHMEM_TEAM_NUM_CONTEXTS pool; comm_ctx_pool.c) ---- */
/* Open n contexts (magic COMM_CTX_POOLED) for a team about to be created; *pool_p is
 * NULL when n is 0.  On failure nothing is left open. */
ofs_status_t comm_ctx_pool_open(int n, struct comm_ctx_pool **pool_p) OFS_HIDDEN;
/* The team exists: the pooled contexts belong to it from now on. */
void comm_ctx_pool_bind(struct comm_ctx_pool *pool, struct coll_team *team) OFS_HIDDEN;
/* Close the contexts in the pool and free it (a split that failed; teams at finalize,
 * whose contexts in use comm_fini closes). */
void comm_ctx_pool_close(struct comm_ctx_pool *pool) OFS_HIDDEN;
/* shmem_team_create_ctx: a context of team, from its pool (may be NULL) first. */
ofs_status_t comm_ctx_team_create(struct coll_team *team, struct comm_ctx_pool *pool, long options,
                                  struct comm_ctx **ctx_p) OFS_HIDDEN;
/* shmem_ctx_destroy: back into its team's pool while that holds fewer than its N, else
 * destroyed; either way the program's handle reads as invalid from then on. */
void comm_ctx_release(struct comm_ctx *ctx) OFS_HIDDEN;
/* Team destroy: destroy every context of team, pooled or in use, and free its pool. */
void comm_ctx_team_close(struct coll_team *team, struct comm_ctx_pool *pool) OFS_HIDDEN;

/* Translate or die: the address must be symmetric (checked by the caller). */
static inline int comm_seg(const void *addr, size_t len, size_t *off_p)
{
    int s = heap_seg_of(addr, len, off_p);
    if (OFS_UNLIKELY(s < 0))
        ofs_fatal(1, "internal: address %p (+%zu) is not symmetric", addr, len);
    return s;
}

/* The same with the segment already looked up (seg, off from comm_seg, or from the
 * API check ofs_check_sym_seg, so that a checked call translates its address once). */
static inline void comm_put_seg(struct comm_ctx *ctx, int seg, size_t off, const void *src,
                                size_t len, int pe)
{
    comm_g.rma[pe]->put(ctx, seg, off, src, len, pe);
}

static inline void comm_put_nbi_seg(struct comm_ctx *ctx, int seg, size_t off, const void *src,
                                    size_t len, int pe)
{
    comm_g.rma[pe]->put_nbi(ctx, seg, off, src, len, pe);
}

static inline void comm_get_seg(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len,
                                int pe)
{
    comm_g.rma[pe]->get(ctx, dst, seg, off, len, pe);
}

static inline void comm_get_nbi_seg(struct comm_ctx *ctx, void *dst, int seg, size_t off,
                                    size_t len, int pe)
{
    comm_g.rma[pe]->get_nbi(ctx, dst, seg, off, len, pe);
}

static inline void comm_put(struct comm_ctx *ctx, void *dst, const void *src, size_t len, int pe)
{
    size_t off;
    int s = comm_seg(dst, len, &off);
    comm_put_seg(ctx, s, off, src, len, pe);
}

static inline void comm_put_nbi(struct comm_ctx *ctx, void *dst, const void *src, size_t len,
                                int pe)
{
    size_t off;
    int s = comm_seg(dst, len, &off);
    comm_put_nbi_seg(ctx, s, off, src, len, pe);
}

static inline void comm_get(struct comm_ctx *ctx, void *dst, const void *src, size_t len, int pe)
{
    size_t off;
    int s = comm_seg(src, len, &off);
    comm_get_seg(ctx, dst, s, off, len, pe);
}

static inline void comm_get_nbi(struct comm_ctx *ctx, void *dst, const void *src, size_t len,
                                int pe)
{
    size_t off;
    int s = comm_seg(src, len, &off);
    comm_get_nbi_seg(ctx, dst, s, off, len, pe);
}

/* Blocked strided (1.6 ibput/ibget): nblocks blocks of bsize contiguous elements of
 * elem_size bytes; block b starts at element b*dst_stride of dst and b*src_stride of src. */
void comm_ibput(struct comm_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                ptrdiff_t src_stride, size_t bsize, size_t nblocks, size_t elem_size, int pe)
    OFS_HIDDEN;
void comm_ibget(struct comm_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                ptrdiff_t src_stride, size_t bsize, size_t nblocks, size_t elem_size, int pe)
    OFS_HIDDEN;

/* Strided: nelems elements of elem_size bytes, strides in elements (blocks of one). */
static inline void comm_iput(struct comm_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                             ptrdiff_t src_stride, size_t nelems, size_t elem_size, int pe)
{
    comm_ibput(ctx, dst, src, dst_stride, src_stride, 1, nelems, elem_size, pe);
}
static inline void comm_iget(struct comm_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                             ptrdiff_t src_stride, size_t nelems, size_t elem_size, int pe)
{
    comm_ibget(ctx, dst, src, dst_stride, src_stride, 1, nelems, elem_size, pe);
}

void comm_put_signal(struct comm_ctx *ctx, void *dst, const void *src, size_t len,
                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, int nbi) OFS_HIDDEN;

/* Atomics on pe's copy of target (a symmetric address of one dt element); the _seg
 * form takes target already looked up (seg, off). */
static inline void comm_amo_seg(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt,
                                int seg, size_t off, const void *operand, const void *cmp,
                                void *result, int pe, int nbi)
{
    comm_g.amo[pe]->amo(ctx, op, dt, seg, off, operand, cmp, result, pe, nbi);
}

static inline void comm_amo(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt,
                            void *target, const void *operand, const void *cmp, void *result,
                            int pe, int nbi)
{
    size_t off;
    int s = comm_seg(target, comm_dtype_size(dt), &off);
    comm_amo_seg(ctx, op, dt, s, off, operand, cmp, result, pe, nbi);
}

/* Ordering and completion on one context: fan out to every active transport. */
void comm_fence(struct comm_ctx *ctx) OFS_HIDDEN;
void comm_quiet(struct comm_ctx *ctx) OFS_HIDDEN;
/* Nonzero when every get issued on ctx has completed (comm_get_nbi's too), after
 * driving its progress once; never blocks. */
int comm_gets_test(struct comm_ctx *ctx) OFS_HIDDEN;
/* quiet on every live context (barrier_all, finalize) */
void comm_quiet_all(void) OFS_HIDDEN;

/* shmem_ptr: NULL when pe's copy is not load/store accessible. */
void *comm_ptr(const void *addr, int pe) OFS_HIDDEN;

/* Drive every transport's progress once, then the hook if one is set. */
void comm_progress(void) OFS_HIDDEN;
/* The hook: progress of a higher layer (coll's non-blocking collectives), set while it has
 * work outstanding and cleared (NULL) when it has none, so that the test costs one load. */
void comm_progress_hook_set(void (*fn)(void)) OFS_HIDDEN;

/* Nonzero when a transport saw operations aimed at this PE arrive since the last call. */
int comm_traffic(void) OFS_HIDDEN;

/* This thread starts (TP_ATTEND_START) or stops (TP_ATTEND_END, TP_ATTEND_PAUSE)
 * waiting in the library (COMM_WAIT_UNTIL does it). */
void comm_attend(int delta) OFS_HIDDEN;
/* This thread enters (hold) or leaves (release) a routine that waits for other PEs
 * again and again and polls as it waits (a blocking collective): it attends from
 * hold to release, between its waits too (folding, copying, sending), so that a
 * progress thread stands by for the whole routine, not only for each wait.  A wait
 * of it that goes to sleep without polling (TP_ATTEND_PAUSE) releases the hold.
 * Not nested; release without a hold does nothing. */
void comm_attend_hold(void) OFS_HIDDEN;
void comm_attend_release(void) OFS_HIDDEN;

/* Sleep at most ns nanoseconds, on the OFI transport's wait object when it has one
 * (woken early by operations aimed at this PE: returns nonzero then). */
int comm_wait_sleep(long ns) OFS_HIDDEN;
/* The same for a thread of the library (the non-blocking collectives' engine thread):
 * not counted as an application thread polling (docs/waiting.md, the standby rule). */
int comm_wait_sleep_lib(long ns) OFS_HIDDEN;

/*
 * ---- waiting (comm_wait.c; the schedule is ofs_backoff.h; docs/waiting.md) ----
 * COMM_WAIT_UNTIL(cond): return once cond holds.  When it holds already, the cost is
 * the test and one call that returns at once.  Otherwise, between looks, the thread
 * drives progress and backs off (spin, yield, then sleep on the transport's wait
 * object), and counts as waiting in the library until cond holds: the OFI progress
 * thread's standby rule (ofi_progress.c) is kept here, by every wait, and by no caller.
 * cond may assign (it is evaluated once per look, last when it held).  The loop keeps
 * the shape of the loops it replaced, whose latency is measured (docs/waiting.md).
 */
#define COMM_WAIT_UNTIL(cond)                    \
    do {                                         \
        unsigned comm_wait_iter_ = 0;            \
        while (!(cond))                          \
            comm_wait_backoff(&comm_wait_iter_); \
        comm_wait_end();                         \
    } while (0)

/* The same for a wait that can sleep on a word of its own (a futex that whoever changes
 * the word wakes): once spinning and yielding did not suffice (ofs_backoff_nap_after),
 * each look that fails runs the statement nap instead of a back-off step, then drives
 * progress.  The thread stops counting as waiting before its first nap (it does not
 * poll while asleep: the progress thread takes over at once). */
#define COMM_WAIT_UNTIL_NAP(cond, nap)                 \
    do {                                               \
        unsigned comm_wait_iter_ = 0;                  \
        while (!(cond)) {                              \
            if (comm_wait_nap_due(&comm_wait_iter_)) { \
                nap;                                   \
                comm_progress();                       \
            }                                          \
        }                                              \
        comm_wait_end();                               \
    } while (0)

/* The steps of COMM_WAIT_UNTIL, for a wait whose loop is not ours (rt_barrier_poll's
 * callback at finalize): one look that found nothing, with a counter that starts at 0;
 * and the end of the wait (cheap and idempotent; a missing call costs latency, the
 * progress thread waiting up to 1 ms before it stops trusting a silent waiter, never
 * correctness). */
void comm_wait_backoff(unsigned *iter) OFS_HIDDEN;
void comm_wait_end(void) OFS_HIDDEN;
/* The step of COMM_WAIT_UNTIL_NAP: a back-off step (returns 0), or, once napping is
 * due, the end of polling (returns 1: the caller naps). */
int comm_wait_nap_due(unsigned *iter) OFS_HIDDEN;
/* The watch of long waits: fn runs at most every COMM_WATCH_NS per thread from a wait
 * that sleeps (past its spins and yields, or napping), never from one that does not,
 * and never from inside itself; NULL: none (coll's check for a member that finalized
 * instead of joining a collective, coll_fin.c: set at coll_init, cleared at coll_fini). */
#define COMM_WATCH_NS 250000000ULL
void comm_wait_watch_set(void (*fn)(void)) OFS_HIDDEN;
/* One look of a test routine that found nothing (see comm_wait.c). */
void comm_test_poll(void) OFS_HIDDEN;
/* Nonzero while the calling thread is counted as waiting in the library, in a wait or
 * holding (comm_attend_hold) (tests). */
int comm_wait_active(void) OFS_HIDDEN;

/* Point-to-point comparison (SHMEM_CMP_* values) of a local variable with an atomic
 * (acquire) load.  size is 1, 2, 4 or 8; is_signed/is_float select the comparison. */
int comm_test_cmp(const void *ivar, int cmp, const void *value, size_t size, int is_signed,
                  int is_float) OFS_HIDDEN;

#endif
