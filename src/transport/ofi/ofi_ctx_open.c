/*
 * Opening and closing a context's endpoint: its AV, CQ, counters, bounce buffers and
 * local registrations (ofi_ctx.h).
 */
#include "ofi_ctx.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the CQ size where SHMEM_OFI_CQ_SIZE does not set one */
#define OFI_CQ_SIZE_DEFAULT 256
/* bounce buffers are cache-line aligned, their block page-aligned */
#define OFI_CACHE_LINE 64
#define OFI_PAGE_ALIGN 4096

void ofi_close(struct fid *f, const char *what)
{
    if (!f)
        return;
    int ret = fi_close(f);
    if (ret)
        ofs_log_warn("ofi: fi_close(%s) failed: %s", what, fi_strerror(-ret));
}

void ofi_ctx_free(struct ofi_ctx *c)
{
    /* MRs first: under FI_MR_ENDPOINT they are bound to the endpoint */
    ofi_close(c->bounce_mr ? &c->bounce_mr->fid : NULL, "bounce MR");
    ofi_close(c->self_mr ? &c->self_mr->fid : NULL, "context MR");
    for (int s = 0; s < HEAP_NSEGS; s++)
        ofi_close(c->seg_mr[s] ? &c->seg_mr[s]->fid : NULL, "context segment MR");
    if (c->ep && (ofi_g.reg.forced & FI_MR_LOCAL))
        ofi_mrchk_del_ep(c->ep);
    ofi_close(c->ep ? &c->ep->fid : NULL, "context endpoint");
    ofi_close(c->put_cntr ? &c->put_cntr->fid : NULL, "put counter");
    ofi_close(c->get_cntr ? &c->get_cntr->fid : NULL, "get counter");
    ofi_close(c->cq ? &c->cq->fid : NULL, "context CQ");
    ofi_close(c->av ? &c->av->fid : NULL, "context AV");
    free(c->addr);
    free(c->dirty);
    free(c->dirty_list);
    free(c->sig_pe);
    free(c->sig_list);
    pthread_mutex_destroy(&c->lock);
    free(c->bounces);
    free(c->bounce_mem);
    free(c);
}

ofs_status_t ofi_bounce_setup(struct ofi_ctx *c)
{
    const struct ofi_thresh *t = &ofi_g.proto.thresh;
    size_t n = t->bounce_count,
           sz = (t->bounce_max + OFI_CACHE_LINE - 1) & ~(size_t)(OFI_CACHE_LINE - 1);

    if (n == 0)
        return OFS_OK;
    /* The product of two parameters: name both when it cannot be had.  More than the
     * node's memory for one context is a mistake even where overcommit would grant it. */
    double want = (double)n * (double)sz;
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if ((phys > 0 && want > phys) ||
        posix_memalign((void **)&c->bounce_mem, OFI_PAGE_ALIGN, n * sz) != 0 ||
        !(c->bounces = calloc(n, sizeof(*c->bounces)))) {
        (ofs_g.initialized ? ofs_log_warn : ofs_log_error)(
            "ofi: cannot allocate the bounce buffers of a context: SHMEM_OFI_BOUNCE_BUFFERS=%zu x "
            "SHMEM_OFI_BOUNCE_SIZE=%zu bytes = %.1f GiB%s: lower either",
            n, t->bounce_max, want / (1024.0 * 1024 * 1024),
            phys > 0 && want > phys ? ", more than the node's memory" : "");
        return OFS_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        c->bounces[i].buf = c->bounce_mem + i * sz;
        c->bounces[i].next = c->bounce_free;
        c->bounce_free = &c->bounces[i];
    }
    if (ofi_g.reg.mode & FI_MR_LOCAL) {
        ofs_status_t st = ofi_mr_reg_local(c->ep, c->bounce_mem, n * sz, FI_WRITE, &c->bounce_mr);
        if (st != OFS_OK)
            return st;
        c->bounce_desc = fi_mr_desc(c->bounce_mr);
    }
    return OFS_OK;
}

/* Every peer's address in one fi_av_insert per run of PEs on this route (all of them
 * when every PE is: one call, not one per PE).  The addresses sit in ofi_g.peers at a
 * fixed stride (struct ofi_peer_info); fi_av_insert reads them packed, each as long as
 * the AV's address, so a run of that length is packed into buf first.  String
 * addresses (shm) are packed differently from provider to provider, and an address of
 * another length is the AV's to judge: those one by one, as before. */
ofs_status_t ofi_ctx_av_fill(struct ofi_ctx *c)
{
    size_t alen = 0;
    char *buf = NULL;
    int pe = 0;

    for (int i = 0; i < ofs_g.n_pes; i++) {
        c->addr[i] = FI_ADDR_NOTAVAIL;
        if (!alen && ofi_g.active[i])
            alen = ofi_g.peers[i].addrlen;
    }
    /* packed only at the length the provider's own address has (the AV's) */
    if (ofi_g.info->addr_format != FI_ADDR_STR && alen && alen == ofi_g.info->src_addrlen &&
        alen <= sizeof(ofi_g.peers[0].addr))
        buf = malloc((size_t)ofs_g.n_pes * alen);
    while (pe < ofs_g.n_pes) {
        int first = pe, n = 1, ret;

        if (!ofi_g.active[pe]) {
            pe++;
            continue;
        }
        if (buf) {
            for (n = 0; pe < ofs_g.n_pes && ofi_g.active[pe] && ofi_g.peers[pe].addrlen == alen;
                 n++, pe++)
                memcpy(buf + (size_t)n * alen, ofi_g.peers[pe].addr, alen);
            if (n == 0) /* an address of another length: on its own */
                n = 1;
        }
        pe = first + n;
        ret = fi_av_insert(c->av, n > 1 ? (const void *)buf : ofi_g.peers[first].addr, (size_t)n,
                           &c->addr[first], 0, NULL);
        if (ret != n) {
            free(buf);
            return ofi_err("fi_av_insert", ret < 0 ? ret : -FI_EINVAL);
        }
    }
    free(buf);
    return OFS_OK;
}

/* An endpoint with its AV, CQ, counters and bounce buffers.  The target one (made at
 * init, its address published) receives, and sends only put-with-signal messages and
 * their acknowledgements (ofi_signal.c); its CQ gets a wait fd for the progress thread
 * when the provider has one.  Every context, the default one included, has its
 * own initiator endpoint (shm 1.17 mishandles an endpoint writing to itself while
 * others write to it too, so self-targeted traffic goes initiator -> target). */
ofs_status_t ofi_ctx_open(int target, struct ofi_ctx **c_p)
{
    struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .count = (size_t)ofs_g.n_pes };
    struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT,
                                  .size = ofs_g.params.OFI_CQ_SIZE > 0
                                              ? (size_t)ofs_g.params.OFI_CQ_SIZE
                                              : OFI_CQ_SIZE_DEFAULT,
                                  .wait_obj = FI_WAIT_NONE };
    struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE };
    struct fi_info *info = ofi_g.info;
    struct ofi_ctx *c = calloc(1, sizeof(*c));
    ofs_status_t st = OFS_ERR_FABRIC;
    int ret;

    if (!c)
        return OFS_ERR_NOMEM;
    pthread_mutex_init(&c->lock, NULL);
    c->addr = calloc(ofs_g.n_pes, sizeof(*c->addr));
    c->dirty = calloc(ofs_g.n_pes, 1);
    c->dirty_list = calloc(ofs_g.n_pes, sizeof(int));
    c->sig_pe = calloc(ofs_g.n_pes, 1);
    c->sig_list = calloc(ofs_g.n_pes, sizeof(int));
    if (!c->addr || !c->dirty || !c->dirty_list || !c->sig_pe || !c->sig_list) {
        st = OFS_ERR_NOMEM;
        goto err_free;
    }
    /* endpoint names: see ofi_names.c */
    {
        static unsigned ctx_serial;
        char name[OFI_NAME_MAX];
        const char *n = ofi_ep_name(
            target ? 0 : __atomic_add_fetch(&ctx_serial, 1, __ATOMIC_RELAXED), name, sizeof(name));
        if (n && (st = ofi_name_check(n)) != OFS_OK)
            goto err_free;
        if (n) {
            info = fi_dupinfo(ofi_g.info);
            if (!info) {
                st = OFS_ERR_NOMEM;
                goto err_free;
            }
            free(info->src_addr);
            info->src_addr = strdup(n);
            info->src_addrlen = info->src_addr ? strlen(n) + 1 : 0;
        }
    }
    ret = fi_endpoint(ofi_g.domain, info, &c->ep, NULL);
    if (info != ofi_g.info)
        fi_freeinfo(info);
    if (ret) {
        st = ofi_err("fi_endpoint", ret);
        goto err_free;
    }
    ret = fi_av_open(ofi_g.domain, &av_attr, &c->av, NULL);
    if (ret) {
        st = ofi_err("fi_av_open", ret);
        goto err_free;
    }
    if (target)
        cq_attr.format = FI_CQ_FORMAT_MSG; /* put-with-signal messages: their length */
    if (target && ofi_g.caps.manual_progress) {
        /* a wait fd lets the progress thread sleep; not every provider has one */
        cq_attr.wait_obj = FI_WAIT_FD;
        if (fi_cq_open(ofi_g.domain, &cq_attr, &c->cq, NULL) != 0) {
            c->cq = NULL;
            cq_attr.wait_obj = FI_WAIT_NONE;
        }
    }
    ret = c->cq ? 0 : fi_cq_open(ofi_g.domain, &cq_attr, &c->cq, NULL);
    if (!ret)
        ret = fi_cntr_open(ofi_g.domain, &cntr_attr, &c->put_cntr, NULL);
    if (!ret)
        ret = fi_cntr_open(ofi_g.domain, &cntr_attr, &c->get_cntr, NULL);
    if (ret) {
        st = ofi_err("fi_cq_open/fi_cntr_open", ret);
        goto err_free;
    }
    ret = fi_ep_bind(c->ep, &c->av->fid, 0);
    if (!ret)
        ret = fi_ep_bind(c->ep, &c->cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION);
    if (!ret)
        ret = fi_ep_bind(c->ep, &c->put_cntr->fid, FI_WRITE);
    if (!ret)
        ret = fi_ep_bind(c->ep, &c->get_cntr->fid, FI_READ);
    if (!ret && target && ofi_g.caps.rma_event) {
        struct fi_cntr_attr ta = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE };
        ret = fi_cntr_open(ofi_g.domain, &ta, &ofi_g.target.cntr, NULL);
        if (!ret)
            ret = fi_ep_bind(c->ep, &ofi_g.target.cntr->fid, FI_REMOTE_WRITE | FI_REMOTE_READ);
    }
    if (!ret)
        ret = fi_enable(c->ep);
    if (ret) {
        st = ofi_err("fi_ep_bind/fi_enable", ret);
        goto err_free;
    }
    if (ofi_g.reg.forced & FI_MR_LOCAL)
        ofi_mrchk_add_ep(c->ep);
    if (cq_attr.wait_obj == FI_WAIT_FD) {
        int fd = -1;
        if (fi_control(&c->cq->fid, FI_GETWAIT, &fd) == 0)
            ofi_g.target.cq_fd = fd;
    }
    if (!target) {
        st = ofi_ctx_av_fill(c);
        if (st != OFS_OK)
            goto err_free;
    }
    st = ofi_bounce_setup(c);
    if (st == OFS_OK)
        st = ofi_ctx_mr_setup(c, target);
    if (st != OFS_OK)
        goto err_free;
    *c_p = c;
    return OFS_OK;

err_free:
    ofi_ctx_free(c);
    return st;
}

/* Endpoints of destroyed contexts, quiet and off the drive list, each taken again by the
 * next context created with its connections and the provider's pools (over tcp;ofi_rxm a
 * new endpoint costs two pools of 1024 eager buffers, filled by page faults, and a
 * connection to each peer on its first operation there; udp;ofi_rxd must never see one
 * closed, caps.keep_endpoints); closed by ofi_fini. */
static pthread_mutex_t ofi_spare_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ofi_ctx *ofi_spare;
/* set once an endpoint could not be opened (descriptors or memory ran out): destroyed
 * contexts' endpoints are closed from then on, giving back what the others need */
static int ofi_spare_off;

/* May ctx use the default context's endpoint?  A counter counts every operation of its
 * endpoint, so a quiet on one of the contexts sharing it waits for what all of them
 * issued before: complete, since below SHMEM_THREAD_MULTIPLE no other thread issues
 * operations on the endpoint meanwhile (the progress thread only reads its counters;
 * the library's internal contexts, which it may drive, never share).  Under
 * SHMEM_THREAD_MULTIPLE threads use their contexts at once: an endpoint each. */
static int ofi_ctx_shareable(const struct comm_ctx *ctx)
{
    return (ctx->options & COMM_CTX_USER) && ofs_g.thread_level < OFI_THREAD_MULTIPLE &&
           ofs_g.params.OFI_CTX_SHARE;
}

/* Under SHMEM_THREAD_MULTIPLE a context that is not private locks its endpoint at
 * every operation (ofi_ctx_lock), so several of them can share one as safely as one
 * context shared by several threads: past SHMEM_OFI_CTX_ENDPOINTS such endpoints (more
 * than the threads that can run at once gain nothing, and each costs its provider's
 * pools and connections), a new one takes the pooled endpoint with the fewest users.
 * A quiet holds the endpoint's lock while it completes everything issued on it, so it
 * completes at least its own context's operations, never waits for ones issued after
 * it began.  A pooled endpoint's options are never private, whoever opened it. */
static const long ofi_pool_options = 0;
static struct ofi_ctx **ofi_pool;
static int ofi_pool_n, ofi_pool_max;

static int ofi_ctx_poolable(const struct comm_ctx *ctx)
{
    return (ctx->options & COMM_CTX_USER) && !(ctx->options & OFI_CTX_PRIVATE) &&
           ofs_g.thread_level == OFI_THREAD_MULTIPLE && ofs_g.params.OFI_CTX_SHARE;
}

/* The least used pooled endpoint once the pool is full, else NULL (open or take a
 * spare, then ofi_pool_add).  Called with ofi_spare_lock held. */
static struct ofi_ctx *ofi_pool_pick(void)
{
    if (!ofi_pool) {
        long max = ofs_g.params.OFI_CTX_ENDPOINTS;
        if (max <= 0) {
            max = ofs_cpus_usable();
            max = max < 4 ? 4 : max;
        }
        ofi_pool = calloc((size_t)max, sizeof(*ofi_pool));
        if (!ofi_pool)
            return NULL; /* no pool: an endpoint each, as before */
        ofi_pool_max = (int)max;
    }
    if (ofi_pool_n < ofi_pool_max)
        return NULL;
    struct ofi_ctx *best = ofi_pool[0];
    for (int i = 1; i < ofi_pool_n; i++)
        if (ofi_pool[i]->users < best->users)
            best = ofi_pool[i];
    return best;
}

static void ofi_pool_add(struct ofi_ctx *c)
{
    pthread_mutex_lock(&ofi_spare_lock);
    if (ofi_pool && ofi_pool_n < ofi_pool_max) {
        c->pooled = 1;
        ofi_pool[ofi_pool_n++] = c;
    }
    pthread_mutex_unlock(&ofi_spare_lock);
}

static void ofi_pool_remove(struct ofi_ctx *c)
{
    for (int i = 0; i < ofi_pool_n; i++)
        if (ofi_pool[i] == c) {
            ofi_pool[i] = ofi_pool[--ofi_pool_n];
            break;
        }
    c->pooled = 0;
}

ofs_status_t ofi_ctx_attach(struct comm_ctx *ctx)
{
    struct ofi_ctx *c;
    ofs_status_t st;

    int pool = ofi_ctx_poolable(ctx);

    pthread_mutex_lock(&ofi_spare_lock);
    c = ofi_ctx_shareable(ctx) ? ofi_g.dflt : pool ? ofi_pool_pick() : NULL;
    if (c) {
        c->users++;
    } else if ((c = ofi_spare)) {
        ofi_spare = c->spare_next;
        c->spare_next = NULL;
    }
    pthread_mutex_unlock(&ofi_spare_lock);
    if (!c && (st = ofi_ctx_open(0, &c)) != OFS_OK) {
        __atomic_store_n(&ofi_spare_off, !ofi_g.caps.keep_endpoints, __ATOMIC_RELAXED);
        return st;
    }
    if (c->users == 0) {
        c->users = 1;
        c->options = pool ? &ofi_pool_options : &ctx->options;
        if (pool)
            ofi_pool_add(c);
    }
    ctx->tp[COMM_TP_OFI] = c;
    /* the first context is the default one: wait loops drive it too */
    if (!ofi_g.dflt) {
        __atomic_store_n(&c->on_drive, OFI_DRIVE_NEVER, __ATOMIC_RELAXED);
        __atomic_store_n(&ofi_g.dflt, c, __ATOMIC_RELEASE);
    }
    return OFS_OK;
}

void ofi_ctx_detach(struct comm_ctx *ctx)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int last;

    if (!c)
        return;
    /* shmem_ctx_destroy completes the context's operations (a shared endpoint's: all) */
    ofi_quiet(ctx);
    ctx->tp[COMM_TP_OFI] = NULL;
    pthread_mutex_lock(&ofi_spare_lock);
    last = --c->users == 0;
    if (last && c->pooled)
        ofi_pool_remove(c);
    pthread_mutex_unlock(&ofi_spare_lock);
    if (!last)
        return;
    ofi_sig_drive_remove(c);
    if (c == ofi_g.dflt) {
        __atomic_store_n(&ofi_g.dflt, NULL, __ATOMIC_RELEASE);
        c->on_drive = 0;
    }
    c->options = NULL;
    if (__atomic_load_n(&ofi_spare_off, __ATOMIC_RELAXED)) {
        ofi_ctx_free(c);
        return;
    }
    pthread_mutex_lock(&ofi_spare_lock);
    c->spare_next = ofi_spare;
    ofi_spare = c;
    pthread_mutex_unlock(&ofi_spare_lock);
}

void ofi_ctx_spares_free(void)
{
    pthread_mutex_lock(&ofi_spare_lock);
    struct ofi_ctx *c = ofi_spare;
    ofi_spare = NULL;
    pthread_mutex_unlock(&ofi_spare_lock);
    while (c) {
        struct ofi_ctx *next = c->spare_next;
        ofi_ctx_free(c);
        c = next;
    }
    pthread_mutex_lock(&ofi_spare_lock);
    free(ofi_pool);
    ofi_pool = NULL;
    ofi_pool_n = ofi_pool_max = 0;
    pthread_mutex_unlock(&ofi_spare_lock);
}
