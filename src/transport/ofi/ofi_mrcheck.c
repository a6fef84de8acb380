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
#include "ofi_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
