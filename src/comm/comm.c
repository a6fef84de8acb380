/*
 * The comm layer: one route per PE decided at init, contexts, and the fan-out of
 * ordering/completion to every active transport.
 *
 * Routes: a same-node PE goes over shm unless SHMEM_LOCAL_TRANSPORT=ofi; every other
 * PE over ofi.  Atomics have ONE executor per job (DESIGN rule 1): CPU atomics when
 * every PE is reached over shm, the fabric for every atomic otherwise (self included),
 * so CPU and provider atomics never mix on one word.
 */
#include "comm.h"
#include "rt.h"
#include "ofs_stats.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct comm_state comm_g = { .ctx_list_lock = PTHREAD_MUTEX_INITIALIZER,
                             .ctxs = OFS_HTAB_INITIALIZER };
struct comm_ctx shmem_internal_ctx_default;

_Static_assert(sizeof(struct comm_ctx) <= COMM_CTX_SLOT &&
                   (COMM_CTX_SLOT & (COMM_CTX_SLOT - 1)) == 0,
               "a context fits a power-of-two slot of comm_g.ctxs");

static const struct transport_ops *const comm_tps[COMM_NTP] = {
    [COMM_TP_SHM] = &shm_transport_ops,
    [COMM_TP_OFI] = &ofi_transport_ops,
};

static ofs_status_t comm_routes(unsigned char *peers[COMM_NTP])
{
    int local_shm = ofs_g.params.LOCAL_TRANSPORT == OFS_LOCAL_TRANSPORT_SHM, all_shm = 1;
    int n = ofs_g.n_pes;

    comm_g.rma = calloc(n, sizeof(*comm_g.rma));
    comm_g.amo = calloc(n, sizeof(*comm_g.amo));
    for (int t = 0; t < COMM_NTP; t++)
        peers[t] = calloc(n, 1);
    if (!comm_g.rma || !comm_g.amo || !peers[0] || !peers[1])
        return OFS_ERR_NOMEM;
    for (int pe = 0; pe < n; pe++) {
        int t = (local_shm && ofs_g.node_of[pe] == ofs_g.node_of[ofs_g.my_pe]) ? COMM_TP_SHM
                                                                               : COMM_TP_OFI;
        comm_g.rma[pe] = comm_tps[t];
        peers[t][pe] = 1;
    }
    /* one executor for atomics: is the whole job on one node, reached over shm? */
    for (int pe = 0; pe < n; pe++)
        if (!local_shm || ofs_g.node_of[pe] != ofs_g.node_of[0])
            all_shm = 0;
    comm_g.amo_cpu = all_shm;
    for (int pe = 0; pe < n; pe++) {
        comm_g.amo[pe] = comm_tps[all_shm ? COMM_TP_SHM : COMM_TP_OFI];
        if (!all_shm)
            peers[COMM_TP_OFI][pe] = 1;
    }
    for (int t = 0; t < COMM_NTP; t++)
        for (int pe = 0; pe < n; pe++)
            if (peers[t][pe])
                comm_g.tp_active[t] = 1;
    return OFS_OK;
}

static ofs_status_t comm_ctx_init(struct comm_ctx *ctx, long options, struct coll_team *team)
{
    memset(ctx, 0, sizeof(*ctx));
    ctx->options = options;
    ctx->team = team;
    for (int t = 0; t < COMM_NTP; t++) {
        if (!comm_g.tp_active[t])
            continue;
        ofs_status_t st = comm_tps[t]->ctx_create(ctx);
        if (st != OFS_OK) {
            for (int u = 0; u < t; u++)
                if (comm_g.tp_active[u])
                    comm_tps[u]->ctx_destroy(ctx);
            return st;
        }
    }
    pthread_mutex_lock(&comm_g.ctx_list_lock);
    ctx->next = comm_g.ctx_list;
    comm_g.ctx_list = ctx;
    pthread_mutex_unlock(&comm_g.ctx_list_lock);
    return OFS_OK;
}

static void comm_ctx_fini(struct comm_ctx *ctx)
{
    pthread_mutex_lock(&comm_g.ctx_list_lock);
    for (struct comm_ctx **pp = &comm_g.ctx_list; *pp; pp = &(*pp)->next) {
        if (*pp == ctx) {
            *pp = ctx->next;
            break;
        }
    }
    pthread_mutex_unlock(&comm_g.ctx_list_lock);
    for (int t = 0; t < COMM_NTP; t++)
        if (comm_g.tp_active[t])
            comm_tps[t]->ctx_destroy(ctx);
}

ofs_status_t comm_init(void)
{
    unsigned char *peers[COMM_NTP] = { NULL, NULL };
    ofs_status_t st;
    int t;

    st = comm_routes(peers);
    for (t = 0; st == OFS_OK && t < COMM_NTP; t++) {
        if (!comm_g.tp_active[t])
            continue;
        st = comm_tps[t]->init(peers[t]);
        if (st != OFS_OK)
            ofs_log_error("the %s transport failed to start: %s", comm_tps[t]->name,
                          ofs_status_string(st));
    }
    /* every PE has published its segment names and transport addresses */
    if (st == OFS_OK)
        st = rt_exchange();
    for (t = 0; st == OFS_OK && t < COMM_NTP; t++) {
        if (!comm_g.tp_active[t])
            continue;
        st = comm_tps[t]->connect();
        if (st != OFS_OK)
            ofs_log_error("the %s transport failed to connect: %s", comm_tps[t]->name,
                          ofs_status_string(st));
    }
    /* the heap objects' names go after the last start-up fence (ofs_init): when every PE
     * has passed it, every PE has mapped every PE's */
    if (st == OFS_OK)
        st = ofs_htab_init(&comm_g.ctxs, COMM_CTX_SLOT, COMM_CTX_MAX);
    if (st == OFS_OK)
        st = comm_ctx_init(COMM_CTX_DEFAULT, 0, NULL);
    if (st == OFS_OK)
        COMM_CTX_DEFAULT->magic = COMM_CTX_LIVE;
    for (t = 0; t < COMM_NTP; t++)
        free(peers[t]);
    if (st == OFS_OK && ofs_stats_enabled)
        comm_stats_routes(comm_tps);
    if (st == OFS_OK) {
        ofs_log_debug("routes: same-node PEs over %s, others over ofi; atomics by %s",
                      ofs_param_word(OFS_PARAM_LOCAL_TRANSPORT, ofs_g.params.LOCAL_TRANSPORT),
                      comm_g.amo_cpu ? "the CPU" : "the fabric");
    }
    return st;
}

void comm_fini(void)
{
    /* the transports' own threads first: a progress thread drives contexts (the default
     * one included) and must not find one freed (ofi: conf/heap/calloc-flags-4 crashed
     * in shmem_finalize that way); the non-blocking collectives' engine thread was
     * stopped by coll_fini */
    for (int t = 0; t < COMM_NTP; t++)
        if (comm_g.tp_active[t] && comm_tps[t]->quiesce)
            comm_tps[t]->quiesce();
    comm_quiet_all();
    /* contexts the program did not destroy go too (their slots with the table) */
    while (comm_g.ctx_list)
        comm_ctx_fini(comm_g.ctx_list);
    COMM_CTX_DEFAULT->magic = 0;
    ofs_htab_fini(&comm_g.ctxs);
    for (int t = COMM_NTP - 1; t >= 0; t--) {
        if (comm_g.tp_active[t])
            comm_tps[t]->fini();
        comm_g.tp_active[t] = 0;
    }
    free(comm_g.rma);
    free(comm_g.amo);
    comm_g.rma = comm_g.amo = NULL;
}

ofs_status_t comm_ctx_create(long options, struct coll_team *team, struct comm_ctx **ctx_p)
{
    struct comm_ctx *ctx = ofs_htab_alloc(&comm_g.ctxs);
    ofs_status_t st;

    if (!ctx) {
        ofs_log_warn("all %d contexts are open: destroy some", COMM_CTX_MAX);
        return OFS_ERR_AGAIN;
    }
    st = comm_ctx_init(ctx, options, team);
    if (st != OFS_OK) {
        ofs_htab_free(&comm_g.ctxs, ctx);
        return st;
    }
    ctx->magic = COMM_CTX_LIVE;
    *ctx_p = ctx;
    return OFS_OK;
}

void comm_ctx_destroy(struct comm_ctx *ctx)
{
    if (ctx == COMM_CTX_DEFAULT)
        return;
    ctx->magic = 0;
    comm_quiet(ctx);
    comm_ctx_fini(ctx);
    ofs_htab_free(&comm_g.ctxs, ctx);
}

void comm_ibput(struct comm_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                ptrdiff_t src_stride, size_t bsize, size_t nblocks, size_t elem_size, int pe)
{
    const struct transport_ops *tp = comm_g.rma[pe];
    size_t off, blen = bsize * elem_size;
    int s;

    if (nblocks == 0 || blen == 0)
        return;
    s = comm_seg(dst, 0, &off);
    if ((size_t)dst_stride == bsize && (size_t)src_stride == bsize) { /* one contiguous run */
        tp->put(ctx, s, off, src, blen * nblocks, pe);
        return;
    }
    for (size_t i = 0; i < nblocks; i++)
        tp->put(ctx, s, off + i * (size_t)dst_stride * elem_size,
                (const char *)src + i * (size_t)src_stride * elem_size, blen, pe);
}

void comm_ibget(struct comm_ctx *ctx, void *dst, const void *src, ptrdiff_t dst_stride,
                ptrdiff_t src_stride, size_t bsize, size_t nblocks, size_t elem_size, int pe)
{
    const struct transport_ops *tp = comm_g.rma[pe];
    size_t off, blen = bsize * elem_size;
    int s;

    if (nblocks == 0 || blen == 0)
        return;
    s = comm_seg(src, 0, &off);
    if ((size_t)dst_stride == bsize && (size_t)src_stride == bsize) {
        tp->get(ctx, dst, s, off, blen * nblocks, pe);
        return;
    }
    for (size_t i = 0; i < nblocks; i++)
        tp->get_nbi(ctx, (char *)dst + i * (size_t)dst_stride * elem_size, s,
                    off + i * (size_t)src_stride * elem_size, blen, pe);
    tp->quiet(ctx);
}

void comm_put_signal(struct comm_ctx *ctx, void *dst, const void *src, size_t len,
                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, int nbi)
{
    size_t off, sig_off;
    int s = comm_seg(dst, len, &off);
    int ss = comm_seg(sig_addr, sizeof(uint64_t), &sig_off);

    if (OFS_UNLIKELY(comm_g.rma[pe] != comm_g.amo[pe])) {
        /* data by shm stores, atomics by the fabric (job on several nodes): the signal
         * goes the way of every other signal aimed at that PE from off-node, over the
         * fabric transport (one executor per word: an atomic of the provider, or the
         * target's CPU where signals travel by message); the shm put is in place
         * before the signal is issued */
        comm_g.rma[pe]->put(ctx, s, off, src, len, pe);
        comm_g.rma[pe]->fence(ctx);
        comm_g.amo[pe]->put_signal(ctx, s, off, src, 0, ss, sig_off, signal, sig_op, pe, nbi);
        return;
    }
    comm_g.rma[pe]->put_signal(ctx, s, off, src, len, ss, sig_off, signal, sig_op, pe, nbi);
}

void comm_fence(struct comm_ctx *ctx)
{
    /* Puts to same-node PEs by shm but atomics by the fabric (job on several nodes): an
     * atomic issued before the fence must be applied before a later shm put to that PE,
     * which lands at once; ordering the fabric is not enough, it is completed. */
    int mixed = comm_g.tp_active[COMM_TP_SHM] && !comm_g.amo_cpu;

    for (int t = 0; t < COMM_NTP; t++) {
        if (!comm_g.tp_active[t])
            continue;
        if (mixed && t == COMM_TP_OFI)
            comm_tps[t]->quiet(ctx);
        else
            comm_tps[t]->fence(ctx);
    }
}

void comm_quiet(struct comm_ctx *ctx)
{
    for (int t = 0; t < COMM_NTP; t++)
        if (comm_g.tp_active[t])
            comm_tps[t]->quiet(ctx);
}

int comm_gets_test(struct comm_ctx *ctx)
{
    int done = 1;

    for (int t = 0; t < COMM_NTP; t++)
        if (comm_g.tp_active[t] && comm_tps[t]->gets_test && !comm_tps[t]->gets_test(ctx))
            done = 0;
    return done;
}

void comm_quiet_all(void)
{
    pthread_mutex_lock(&comm_g.ctx_list_lock);
    for (struct comm_ctx *c = comm_g.ctx_list; c; c = c->next)
        comm_quiet(c);
    pthread_mutex_unlock(&comm_g.ctx_list_lock);
}

void *comm_ptr(const void *addr, int pe)
{
    size_t off;
    int s;

    if (pe == ofs_g.my_pe)
        return (void *)addr;
    if (comm_g.rma[pe]->ptr != shm_transport_ops.ptr) /* SHMEM_STATS: a counting copy */
        return NULL;
    s = heap_seg_of(addr, 1, &off);
    return s < 0 ? NULL : shm_transport_ops.ptr(s, off, pe);
}

static void (*comm_progress_hook)(void);

void comm_progress_hook_set(void (*fn)(void))
{
    __atomic_store_n(&comm_progress_hook, fn, __ATOMIC_RELEASE);
}

void comm_progress(void)
{
    void (*hook)(void) = __atomic_load_n(&comm_progress_hook, __ATOMIC_ACQUIRE);

    for (int t = 0; t < COMM_NTP; t++)
        if (comm_g.tp_active[t] && comm_tps[t]->progress)
            comm_tps[t]->progress();
    if (hook)
        hook();
}

int comm_traffic(void)
{
    int act = 0;

    for (int t = 0; t < COMM_NTP; t++)
        if (comm_g.tp_active[t] && comm_tps[t]->traffic)
            act |= comm_tps[t]->traffic();
    return act;
}

void comm_attend(int delta)
{
    for (int t = 0; t < COMM_NTP; t++)
        if (comm_g.tp_active[t] && comm_tps[t]->attend)
            comm_tps[t]->attend(delta);
}

static int comm_sleep_on(long ns, int lib)
{
    /* one transport at most has a wait object (OFI); it sleeps for all */
    for (int t = 0; t < COMM_NTP; t++) {
        int (*fn)(long) = lib ? comm_tps[t]->wait_sleep_lib : comm_tps[t]->wait_sleep;
        if (comm_g.tp_active[t] && fn)
            return fn(ns);
    }
    struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
    nanosleep(&ts, NULL);
    return 0;
}

int comm_wait_sleep(long ns)
{
    return comm_sleep_on(ns, 0);
}

int comm_wait_sleep_lib(long ns)
{
    return comm_sleep_on(ns, 1);
}
