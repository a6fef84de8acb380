/*
 * transport.h: the contract between the comm layer and a transport.  A transport
 * implements this table; transports never include each other; only src/comm knows
 * both.  Remote locations are (segment, offset) pairs from heap.h.
 *
 * Data-path calls return nothing: a transport that fails on the data path logs
 * the failing call with its arguments and takes the job down (ofs_fatal).
 * Blocking calls (put, get, fetching amo) return when the local buffer may be
 * reused / the result is in place.  _nbi calls complete at quiet.
 */
#ifndef OFS_TRANSPORT_H
#define OFS_TRANSPORT_H

#include "comm_types.h"

struct transport_ops {
    const char *name;

    /* Collective setup after heap_init(): may rt_kv_put and rt_exchange.  'peers' is
     * an n_pes array: nonzero where this transport will carry traffic to that PE. */
    ofs_status_t (*init)(const unsigned char *peers);
    /* Called after every PE's init: e.g. map peers' objects published at init. */
    ofs_status_t (*connect)(void);
    /* Stop every thread of the transport that touches contexts on its own (a progress
     * thread): comm_fini calls it before it destroys any context, fini after; may be
     * NULL. */
    void (*quiesce)(void);
    void (*fini)(void);

    ofs_status_t (*ctx_create)(struct comm_ctx *ctx);
    void (*ctx_destroy)(struct comm_ctx *ctx);

    void (*put)(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe);
    void (*put_nbi)(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe);
    void (*get)(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe);
    void (*get_nbi)(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe);
    /* Data then signal; the signal is visible only after the data is. */
    void (*put_signal)(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len,
                       int sig_seg, size_t sig_off, uint64_t signal, int sig_op, int pe, int nbi);
    /* operand/cmp point to one element of dt; result (may be NULL unless op needs it)
     * receives the old value.  nbi: result is written by quiet. */
    void (*amo)(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt, int seg, size_t off,
                const void *operand, const void *cmp, void *result, int pe, int nbi);
    void (*fence)(struct comm_ctx *ctx);
    void (*quiet)(struct comm_ctx *ctx);
    /* Nonzero when every get issued on ctx (get_nbi too) has completed, after driving
     * the context's progress once; never blocks.  NULL: a get completes when issued. */
    int (*gets_test)(struct comm_ctx *ctx);
    /* A local pointer to pe's (seg, off), or NULL if not load/store accessible. */
    void *(*ptr)(int seg, size_t off, int pe);
    /* Drive progress once (called from wait loops); may be NULL. */
    void (*progress)(void);
    /* Nonzero when operations aimed at this PE arrived since the last call (where the
     * provider tells; 0 when it cannot); may be NULL. */
    int (*traffic)(void);
    /* Sleep at most ns nanoseconds on the transport's wait object, waking early when
     * something aimed at this PE arrives; returns nonzero when woken (or kept awake)
     * by such traffic.  NULL: the transport has no wait object (a plain sleep). */
    int (*wait_sleep)(long ns);
    /* The same for a thread of the library that polls for itself (the engine thread of
     * the non-blocking collectives), not for an application thread: a progress thread's
     * stand-by rule, which trusts application threads that poll, does not count it. */
    int (*wait_sleep_lib)(long ns);
    /* An application thread starts (TP_ATTEND_START) or stops (TP_ATTEND_END)
     * waiting in a wait loop of the library, polling as it goes (a progress thread
     * may stand by meanwhile), or stops to sleep without polling (TP_ATTEND_PAUSE:
     * a progress thread must take over at once); may be NULL. */
    void (*attend)(int delta);
    /* NULL, or why this transport cannot run fetching and compare atomics (its
     * provider crashes on them); set by init. */
    const char *no_fetch;
};

/* transport_ops.attend's argument */
#define TP_ATTEND_START 1
#define TP_ATTEND_END (-1)
#define TP_ATTEND_PAUSE (-2)
/* The same for a whole routine that waits many times (comm_attend_hold): its start,
 * its end, and a pause of it to nap.  A transport may ignore the three together. */
#define TP_ATTEND_HOLD 2
#define TP_ATTEND_RELEASE (-3)
#define TP_ATTEND_HOLD_PAUSE (-4)

extern const struct transport_ops shm_transport_ops OFS_HIDDEN;
/* its data-path entries are chosen at init, for the job (src/transport/ofi/ofi_setup.c) */
extern struct transport_ops ofi_transport_ops OFS_HIDDEN;

#endif
