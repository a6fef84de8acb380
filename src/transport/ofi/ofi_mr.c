/*
 * Memory registration: the registration mode (SHMEM_OFI_MR_MODE and what the provider
 * grants), the heap segments registered for remote access, local descriptors
 * (FI_MR_LOCAL), and the check of every local descriptor when FI_MR_LOCAL is forced.
 */
#include "ofi_ctx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- registration modes ---- */

int ofi_mr_mode_parse(const char *s, uint64_t *hints_p, uint64_t *forced_p)
{
    uint64_t hints = OFI_MR_MODES, forced = 0;
    int have_base = 0;

    if (!s)
        s = "";
    while (*s) {
        size_t n = strcspn(s, "+,");
        if (n == 0) {
            s++;
            continue;
        }
        if (n == 4 && strncasecmp(s, "auto", n) == 0 && !have_base)
            hints = OFI_MR_MODES, have_base = 1;
        else if (n == 5 && strncasecmp(s, "basic", n) == 0 && !have_base)
            hints = FI_MR_BASIC, have_base = 1;
        else if (n == 8 && strncasecmp(s, "scalable", n) == 0 && !have_base)
            hints = FI_MR_SCALABLE, have_base = 1;
        else if (n == 5 && strncasecmp(s, "local", n) == 0)
            forced |= FI_MR_LOCAL;
        else if (n == 8 && strncasecmp(s, "endpoint", n) == 0)
            forced |= FI_MR_ENDPOINT;
        else
            return -1;
        s += n;
    }
    *hints_p = hints;
    *forced_p = forced;
    return 0;
}

uint64_t ofi_mr_mode_effective(uint64_t granted, uint64_t forced)
{
    uint64_t m = granted;

    /* legacy modes (libfabric < 1.5 names, still accepted in hints) */
    if (m & FI_MR_BASIC)
        m = (m & ~(uint64_t)FI_MR_BASIC) | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
    m &= ~(uint64_t)FI_MR_SCALABLE;
    return m | forced;
}

/* FI_MR_ENDPOINT: bind a new MR to the endpoint that uses it and enable it.  When the
 * mode is only forced (SHMEM_OFI_MR_MODE=...+endpoint) on a provider without
 * endpoint-bound MRs, its refusal (-FI_ENOSYS/-FI_EINVAL) is recorded and ignored. */
static int ofi_mr_bind_ep(struct fid_mr *mr, struct fid_ep *ep)
{
    int ret;

    if (!(ofi_g.reg.mode & FI_MR_ENDPOINT))
        return 0;
    ret = fi_mr_bind(mr, &ep->fid, 0);
    if (!ret)
        ret = fi_mr_enable(mr);
    if (ret && (ofi_g.reg.forced & FI_MR_ENDPOINT) && (ret == -FI_ENOSYS || ret == -FI_EINVAL)) {
        ofi_g.reg.bind_ret = ret;
        ret = 0;
    }
    return ret;
}

ofs_status_t ofi_mr_reg_local(struct fid_ep *ep, const void *buf, size_t len, uint64_t access,
                              struct fid_mr **mr_p)
{
    struct fid_mr *mr;
    uint64_t key = __atomic_fetch_add(&ofi_g.reg.next_key, 1, __ATOMIC_RELAXED);
    int ret;

    ret = fi_mr_reg(ofi_g.domain, buf, len, access, 0, key, 0, &mr, NULL);
    if (ret) {
        ofs_log_error("ofi: fi_mr_reg(%p, %zu, access 0x%llx, key %llu) failed: %s", buf, len,
                      (unsigned long long)access, (unsigned long long)key, fi_strerror(-ret));
        return OFS_ERR_FABRIC;
    }
    ret = ofi_mr_bind_ep(mr, ep);
    if (ret) {
        fi_close(&mr->fid);
        return ofi_err("fi_mr_bind/fi_mr_enable", ret);
    }
    if (ofi_g.reg.forced & FI_MR_LOCAL)
        ofi_mrchk_add_mr(mr, buf, len);
    *mr_p = mr;
    return OFS_OK;
}

ofs_status_t ofi_segs_register(struct ofi_peer_info *me)
{
    for (int s = 0; s < HEAP_NSEGS; s++) {
        const struct heap_seg *sg = &heap_g.seg[s];
        uint64_t access = FI_REMOTE_READ | FI_REMOTE_WRITE | FI_READ | FI_WRITE;
        int ret;

        ret = fi_mr_reg(ofi_g.domain, sg->base, sg->len, access, 0, (uint64_t)s, 0,
                        &ofi_g.reg.mr[s], NULL);
        if (ret) {
            ofs_log_error("ofi: fi_mr_reg(segment %d at %p, %zu bytes) failed: %s", s,
                          (void *)sg->base, sg->len, fi_strerror(-ret));
            return OFS_ERR_FABRIC;
        }
        /* remote operations arrive at the target endpoint */
        ret = ofi_mr_bind_ep(ofi_g.reg.mr[s], ofi_g.target.ctx->ep);
        if (ret)
            return ofi_err("fi_mr_bind/enable (segment)", ret);
        if (ofi_g.reg.forced & FI_MR_LOCAL)
            ofi_mrchk_add_mr(ofi_g.reg.mr[s], sg->base, sg->len);
        ofi_g.reg.desc[s] = fi_mr_desc(ofi_g.reg.mr[s]);
        me->key[s] = fi_mr_key(ofi_g.reg.mr[s]);
        me->base[s] = (uint64_t)(uintptr_t)sg->base;
    }
    return OFS_OK;
}

void ofi_segs_deregister(void)
{
    for (int s = 0; s < HEAP_NSEGS; s++) {
        ofi_close(ofi_g.reg.mr[s] ? &ofi_g.reg.mr[s]->fid : NULL, "segment MR");
        ofi_g.reg.mr[s] = NULL;
    }
}

/* FI_MR_LOCAL: descriptors for the context's own operand slots and flush word (one
 * registration of the struct); with FI_MR_ENDPOINT also, since the segment MRs are
 * bound to the target endpoint, the segments again for this initiator endpoint. */
ofs_status_t ofi_ctx_mr_setup(struct ofi_ctx *c, int target)
{
    ofs_status_t st;

    if (!(ofi_g.reg.mode & FI_MR_LOCAL))
        return OFS_OK;
    st = ofi_mr_reg_local(c->ep, c, sizeof(*c), FI_READ | FI_WRITE, &c->self_mr);
    if (st != OFS_OK)
        return st;
    c->self_desc = fi_mr_desc(c->self_mr);
    if (target || !(ofi_g.reg.mode & FI_MR_ENDPOINT))
        return OFS_OK;
    for (int s = 0; s < HEAP_NSEGS; s++) {
        st = ofi_mr_reg_local(c->ep, heap_g.seg[s].base, heap_g.seg[s].len, FI_READ | FI_WRITE,
                              &c->seg_mr[s]);
        if (st != OFS_OK)
            return st;
        c->seg_desc[s] = fi_mr_desc(c->seg_mr[s]);
    }
    return OFS_OK;
}

void *ofi_local_desc(struct ofi_ctx *c, const void *buf, size_t len, uint64_t access,
                     struct fid_mr **tmp_p)
{
    *tmp_p = NULL;
    if (OFS_LIKELY(!(ofi_g.reg.mode & FI_MR_LOCAL)))
        return NULL;
    /* the context's slots and flush word, then the segments (ofi_ctx_mr_setup) */
    if (c->self_mr && (const char *)buf >= (const char *)c &&
        (const char *)buf + len <= (const char *)(c + 1))
        return c->self_desc;
    size_t off;
    int s = heap_seg_of(buf, len, &off);
    if (s >= 0 && !(ofi_g.reg.mode & FI_MR_ENDPOINT))
        return ofi_g.reg.desc[s];
    if (s >= 0 && c->seg_mr[s])
        return c->seg_desc[s];
    if (ofi_mr_reg_local(c->ep, buf, len ? len : 1, access, tmp_p) != OFS_OK)
        ofs_fatal(1, "ofi: cannot register a local buffer %p of %zu bytes (FI_MR_LOCAL)", buf, len);
    return fi_mr_desc(*tmp_p);
}

/* ---- the FI_MR_LOCAL check ---- */

/*
 * Descriptor checking for a forced FI_MR_LOCAL (SHMEM_OFI_MR_MODE=...+local).
 *
 * The providers on a test machine (tcp;ofi_rxm, shm, sockets, udp;ofi_rxd) neither
 * need nor look at local descriptors: they accept NULL or garbage alike, so running
 * the transport "as if FI_MR_LOCAL" proves nothing by itself.  When the mode is
 * forced, this file therefore interposes on each endpoint's RMA, atomic and message
 * operation tables and on the close of every MR the transport registers, and checks every
 * data-transfer call the way a provider that requires FI_MR_LOCAL would rely on it:
 * each local buffer must come with the descriptor of a live registration of this
 * domain that covers it.  A violation is fatal, naming the call, buffer and
 * descriptor.  Inject calls take no descriptor and are passed through.
 * Nothing here runs unless the mode is forced.
 */

struct ofi_mrchk_rec {
    struct ofi_mrchk_rec *next;
    struct fid_mr *mr;
    void *desc;
    uintptr_t base;
    size_t len;
    struct fi_ops *orig_ops; /* the provider's ops; ours is a copy with close replaced */
    struct fi_ops ops;
};

struct ofi_mrchk_ep {
    struct ofi_mrchk_ep *next;
    struct fid_ep *ep;
    struct fi_ops_rma *orig_rma, rma;
    struct fi_ops_atomic *orig_atomic, atomic;
    struct fi_ops_msg *orig_msg, msg; /* put-with-signal messages (ofi_am.c) */
};

static pthread_mutex_t ofi_mrchk_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ofi_mrchk_rec *ofi_mrchk_mrs;
static struct ofi_mrchk_ep *ofi_mrchk_eps;
static unsigned long ofi_mrchk_checked;

static int ofi_mrchk_close(struct fid *fid)
{
    struct fi_ops *orig = NULL;

    pthread_mutex_lock(&ofi_mrchk_lock);
    for (struct ofi_mrchk_rec **p = &ofi_mrchk_mrs; *p; p = &(*p)->next) {
        if (&(*p)->mr->fid == fid) {
            struct ofi_mrchk_rec *r = *p;
            *p = r->next;
            orig = r->orig_ops;
            fid->ops = orig;
            free(r);
            break;
        }
    }
    pthread_mutex_unlock(&ofi_mrchk_lock);
    if (!orig)
        ofs_fatal(1, "ofi: FI_MR_LOCAL check: closing an MR (%p) that was never recorded",
                  (void *)fid);
    return orig->close(fid);
}

void ofi_mrchk_add_mr(struct fid_mr *mr, const void *buf, size_t len)
{
    struct ofi_mrchk_rec *r = calloc(1, sizeof(*r));

    if (!r)
        ofs_fatal(1, "ofi: FI_MR_LOCAL check: out of memory");
    r->mr = mr;
    r->desc = fi_mr_desc(mr);
    r->base = (uintptr_t)buf;
    r->len = len;
    r->orig_ops = mr->fid.ops;
    r->ops = *mr->fid.ops;
    r->ops.close = ofi_mrchk_close;
    mr->fid.ops = &r->ops;
    pthread_mutex_lock(&ofi_mrchk_lock);
    r->next = ofi_mrchk_mrs;
    ofi_mrchk_mrs = r;
    pthread_mutex_unlock(&ofi_mrchk_lock);
}

static size_t ofi_mrchk_dtsize(enum fi_datatype dt)
{
    return dt == FI_INT32 || dt == FI_UINT32 || dt == FI_FLOAT ? 4 : 8;
}

static void ofi_mrchk(const char *call, const char *what, const void *buf, size_t len, void *desc)
{
    uintptr_t b = (uintptr_t)buf;
    int ok = 0;

    if (!desc)
        ofs_fatal(1, "ofi: FI_MR_LOCAL check: %s passed no descriptor for its %s buffer %p (%zu B)",
                  call, what, buf, len);
    pthread_mutex_lock(&ofi_mrchk_lock);
    for (struct ofi_mrchk_rec *r = ofi_mrchk_mrs; r && !ok; r = r->next)
        ok = r->desc == desc && b >= r->base && b + len <= r->base + r->len;
    ofi_mrchk_checked++;
    pthread_mutex_unlock(&ofi_mrchk_lock);
    if (!ok)
        ofs_fatal(1,
                  "ofi: FI_MR_LOCAL check: %s passed descriptor %p for its %s buffer %p (%zu B), "
                  "which no live registration covering the buffer has",
                  call, desc, what, buf, len);
}

static struct ofi_mrchk_ep *ofi_mrchk_ep_of(struct fid_ep *ep)
{
    struct ofi_mrchk_ep *e;

    pthread_mutex_lock(&ofi_mrchk_lock);
    for (e = ofi_mrchk_eps; e && e->ep != ep; e = e->next)
        ;
    pthread_mutex_unlock(&ofi_mrchk_lock);
    if (!e)
        ofs_fatal(1, "ofi: FI_MR_LOCAL check: endpoint %p not recorded", (void *)ep);
    return e;
}

static ssize_t ofi_mrchk_read(struct fid_ep *ep, void *buf, size_t len, void *desc, fi_addr_t src,
                              uint64_t addr, uint64_t key, void *context)
{
    ofi_mrchk("fi_read", "destination", buf, len, desc);
    return ofi_mrchk_ep_of(ep)->orig_rma->read(ep, buf, len, desc, src, addr, key, context);
}

/* Every buffer of an iovec list (the *msg calls) */
static void ofi_mrchk_iov(const char *call, const char *what, const struct iovec *iov, void **desc,
                          size_t count)
{
    for (size_t i = 0; i < count; i++)
        ofi_mrchk(call, what, iov[i].iov_base, iov[i].iov_len, desc ? desc[i] : NULL);
}

static ssize_t ofi_mrchk_write(struct fid_ep *ep, const void *buf, size_t len, void *desc,
                               fi_addr_t dest, uint64_t addr, uint64_t key, void *context)
{
    ofi_mrchk("fi_write", "source", buf, len, desc);
    return ofi_mrchk_ep_of(ep)->orig_rma->write(ep, buf, len, desc, dest, addr, key, context);
}

static ssize_t ofi_mrchk_writemsg(struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags)
{
    if (!(flags & FI_INJECT))
        ofi_mrchk_iov("fi_writemsg", "source", msg->msg_iov, msg->desc, msg->iov_count);
    return ofi_mrchk_ep_of(ep)->orig_rma->writemsg(ep, msg, flags);
}

static ssize_t ofi_mrchk_readmsg(struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags)
{
    ofi_mrchk_iov("fi_readmsg", "destination", msg->msg_iov, msg->desc, msg->iov_count);
    return ofi_mrchk_ep_of(ep)->orig_rma->readmsg(ep, msg, flags);
}

static ssize_t ofi_mrchk_atomic(struct fid_ep *ep, const void *buf, size_t count, void *desc,
                                fi_addr_t dest, uint64_t addr, uint64_t key, enum fi_datatype dt,
                                enum fi_op op, void *context)
{
    ofi_mrchk("fi_atomic", "operand", buf, count * ofi_mrchk_dtsize(dt), desc);
    return ofi_mrchk_ep_of(ep)->orig_atomic->write(ep, buf, count, desc, dest, addr, key, dt, op,
                                                   context);
}

static ssize_t ofi_mrchk_atomicmsg(struct fid_ep *ep, const struct fi_msg_atomic *msg,
                                   uint64_t flags)
{
    if (!(flags & FI_INJECT))
        for (size_t i = 0; i < msg->iov_count; i++)
            ofi_mrchk("fi_atomicmsg", "operand", msg->msg_iov[i].addr,
                      msg->msg_iov[i].count * ofi_mrchk_dtsize(msg->datatype),
                      msg->desc ? msg->desc[i] : NULL);
    return ofi_mrchk_ep_of(ep)->orig_atomic->writemsg(ep, msg, flags);
}

static ssize_t ofi_mrchk_fetch(struct fid_ep *ep, const void *buf, size_t count, void *desc,
                               void *result, void *result_desc, fi_addr_t dest, uint64_t addr,
                               uint64_t key, enum fi_datatype dt, enum fi_op op, void *context)
{
    size_t len = count * ofi_mrchk_dtsize(dt);

    if (op != FI_ATOMIC_READ || buf)
        ofi_mrchk("fi_fetch_atomic", "operand", buf, len, desc);
    ofi_mrchk("fi_fetch_atomic", "result", result, len, result_desc);
    return ofi_mrchk_ep_of(ep)->orig_atomic->readwrite(ep, buf, count, desc, result, result_desc,
                                                       dest, addr, key, dt, op, context);
}

static ssize_t ofi_mrchk_compare(struct fid_ep *ep, const void *buf, size_t count, void *desc,
                                 const void *compare, void *compare_desc, void *result,
                                 void *result_desc, fi_addr_t dest, uint64_t addr, uint64_t key,
                                 enum fi_datatype dt, enum fi_op op, void *context)
{
    size_t len = count * ofi_mrchk_dtsize(dt);

    ofi_mrchk("fi_compare_atomic", "operand", buf, len, desc);
    ofi_mrchk("fi_compare_atomic", "compare", compare, len, compare_desc);
    ofi_mrchk("fi_compare_atomic", "result", result, len, result_desc);
    return ofi_mrchk_ep_of(ep)->orig_atomic->compwrite(ep, buf, count, desc, compare, compare_desc,
                                                       result, result_desc, dest, addr, key, dt, op,
                                                       context);
}

static ssize_t ofi_mrchk_sendmsg(struct fid_ep *ep, const struct fi_msg *msg, uint64_t flags)
{
    if (!(flags & FI_INJECT))
        ofi_mrchk_iov("fi_sendmsg", "source", msg->msg_iov, msg->desc, msg->iov_count);
    return ofi_mrchk_ep_of(ep)->orig_msg->sendmsg(ep, msg, flags);
}

static ssize_t ofi_mrchk_recvmsg(struct fid_ep *ep, const struct fi_msg *msg, uint64_t flags)
{
    ofi_mrchk_iov("fi_recvmsg", "destination", msg->msg_iov, msg->desc, msg->iov_count);
    return ofi_mrchk_ep_of(ep)->orig_msg->recvmsg(ep, msg, flags);
}

void ofi_mrchk_add_ep(struct fid_ep *ep)
{
    struct ofi_mrchk_ep *e = calloc(1, sizeof(*e));

    if (!e)
        ofs_fatal(1, "ofi: FI_MR_LOCAL check: out of memory");
    e->ep = ep;
    e->orig_rma = ep->rma;
    e->orig_atomic = ep->atomic;
    e->rma = *ep->rma;
    e->rma.read = ofi_mrchk_read;
    e->rma.readmsg = ofi_mrchk_readmsg;
    e->rma.write = ofi_mrchk_write;
    e->rma.writemsg = ofi_mrchk_writemsg;
    e->atomic = *ep->atomic;
    e->atomic.write = ofi_mrchk_atomic;
    e->atomic.writemsg = ofi_mrchk_atomicmsg;
    e->atomic.readwrite = ofi_mrchk_fetch;
    e->atomic.compwrite = ofi_mrchk_compare;
    e->orig_msg = ep->msg;
    e->msg = *ep->msg;
    e->msg.sendmsg = ofi_mrchk_sendmsg;
    e->msg.recvmsg = ofi_mrchk_recvmsg;
    pthread_mutex_lock(&ofi_mrchk_lock);
    e->next = ofi_mrchk_eps;
    ofi_mrchk_eps = e;
    pthread_mutex_unlock(&ofi_mrchk_lock);
    ep->rma = &e->rma;
    ep->atomic = &e->atomic;
    ep->msg = &e->msg;
}

void ofi_mrchk_del_ep(struct fid_ep *ep)
{
    pthread_mutex_lock(&ofi_mrchk_lock);
    for (struct ofi_mrchk_ep **p = &ofi_mrchk_eps; *p; p = &(*p)->next) {
        if ((*p)->ep == ep) {
            struct ofi_mrchk_ep *e = *p;
            *p = e->next;
            ep->rma = e->orig_rma;
            ep->atomic = e->orig_atomic;
            ep->msg = e->orig_msg;
            free(e);
            break;
        }
    }
    pthread_mutex_unlock(&ofi_mrchk_lock);
}

unsigned long ofi_mrchk_count(void)
{
    pthread_mutex_lock(&ofi_mrchk_lock);
    unsigned long n = ofi_mrchk_checked;
    pthread_mutex_unlock(&ofi_mrchk_lock);
    return n;
}
