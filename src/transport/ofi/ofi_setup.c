/*
 * OFI transport setup: provider choice (fi_getinfo), fabric, domain, the target
 * endpoint with its MRs and AV, the address/key exchange, per-context initiator
 * endpoints with their counters and bounce buffers, and teardown.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"
#include "rt.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

struct ofi_state ofi_g = { .tcq_fd = -1 };

#define OFI_API_VERSION FI_VERSION(1, 5)
/* RMA read after RMA write: libfabric 1.17 reports its own bits, older ones the generic */
#ifdef FI_ORDER_RMA_RAW
#define OFI_ORDER_RMA_RAW (FI_ORDER_RAW | FI_ORDER_RMA_RAW)
#else
#define OFI_ORDER_RMA_RAW FI_ORDER_RAW
#endif
/* FI_MSG: put-with-signal messages and their acknowledgements (ofi_am.c) */
#define OFI_CAPS                                                                           \
    (FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_MSG | \
     FI_SEND | FI_RECV)
#define OFI_MR_MODES \
    (FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_LOCAL | FI_MR_ENDPOINT)

/* ---- the open-file limit ---- */

static unsigned long long ofi_rlim(rlim_t v)
{
    return v == RLIM_INFINITY ? 0 : (unsigned long long)v;
}

/* Over tcp;ofi_rxm each context's endpoint holds about 8 descriptors (libfabric 1.17:
 * rxm's listening socket, tcp's epoll fd and three socket pairs for its signals) and
 * a socket per PE it has reached, so the usual soft limit of 1024 ends a job of 64
 * PEs with 16 contexts each.  At init the soft limit goes up to the hard one, as
 * Go's runtime does for every program, unless SHMEM_OFI_RAISE_NOFILE=0 (the
 * descriptors are polled, never select()ed, so numbers above 1024 are fine). */
static void ofi_nofile_raise(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    ofi_g.nofile_was = ofi_g.nofile = ofi_rlim(rl.rlim_cur);
    if (!ofs_g.params.OFI_RAISE_NOFILE || rl.rlim_cur >= rl.rlim_max)
        return;
    rl.rlim_cur = rl.rlim_max;
    /* an unlimited hard limit: the kernel takes at most fs.nr_open (1048576 by default) */
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0 && rl.rlim_max == RLIM_INFINITY) {
        rl.rlim_cur = 1048576;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        ofi_g.nofile = ofi_rlim(rl.rlim_cur);
}

/* Whether this process has (nearly) all the files open it may: a provider that runs
 * out of descriptors does not always say so (rxm's listening socket failing: EIO). */
static int ofi_nofile_exhausted(rlim_t limit)
{
    DIR *d = opendir("/proc/self/fd");
    unsigned long long n = 0;

    if (!d)
        return errno == EMFILE || errno == ENFILE;
    while (readdir(d))
        n++;
    closedir(d);
    return limit != RLIM_INFINITY && n + 16 >= (unsigned long long)limit;
}

/* What to do about a provider error that a limit of the process caused ("" for the
 * others): one line with the limit's value and name. */
static const char *ofi_limit_hint(ssize_t ret)
{
    static __thread char buf[400];
    char hard[32] = "unlimited";
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
        (ret != -FI_EMFILE && !ofi_nofile_exhausted(rl.rlim_cur)))
        return "";
    if (rl.rlim_max != RLIM_INFINITY)
        snprintf(hard, sizeof(hard), "%llu", ofi_rlim(rl.rlim_max));
    snprintf(buf, sizeof(buf),
             "; this process may have at most %llu files open (ulimit -n; hard limit %s%s): each "
             "OFI context's endpoint holds several descriptors, and over tcp;ofi_rxm a socket "
             "to each PE it reaches: raise the limit, or create fewer contexts",
             ofi_rlim(rl.rlim_cur), hard,
             !ofs_g.params.OFI_RAISE_NOFILE && rl.rlim_cur < rl.rlim_max
                 ? ", which SHMEM_OFI_RAISE_NOFILE=0 kept the soft limit below"
                 : "");
    return buf;
}

void ofi_fatal_call(const char *call, ssize_t ret, const char *fmt, ...)
{
    char args[384];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    ofs_fatal(1, "ofi: %s(%s) failed: %s (%zd)%s", call, args, fi_strerror((int)-ret), ret,
              ofi_limit_hint(ret));
}

static ofs_status_t ofi_err(const char *call, int ret)
{
    ofs_log_error("ofi: %s failed: %s (%d)%s", call, fi_strerror(-ret), ret, ofi_limit_hint(ret));
    return ret == -FI_ENOMEM ? OFS_ERR_NOMEM : OFS_ERR_FABRIC;
}

/* ---- memory-registration modes ---- */

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

static struct fi_info *ofi_hints(const char *prov, int delivery)
{
    struct fi_info *h = fi_allocinfo();

    if (!h)
        return NULL;
    h->caps = OFI_CAPS;
    h->mode = 0;
    h->ep_attr->type = FI_EP_RDM;
    h->domain_attr->mr_mode = ofi_g.mr_hints ? ofi_g.mr_hints : OFI_MR_MODES;
    h->domain_attr->threading = FI_THREAD_SAFE;
    h->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
    h->domain_attr->control_progress = FI_PROGRESS_UNSPEC;
    if (delivery)
        h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    if (prov && *prov)
        h->fabric_attr->prov_name = strdup(prov);
    if (*ofs_g.params.OFI_FABRIC)
        h->fabric_attr->name = strdup(ofs_g.params.OFI_FABRIC);
    if (*ofs_g.params.OFI_DOMAIN)
        h->domain_attr->name = strdup(ofs_g.params.OFI_DOMAIN);
    return h;
}

/* One line naming every provider that offers what we need. */
static void ofi_list_providers(const char *wanted)
{
    struct fi_info *h = ofi_hints(NULL, 0), *all = NULL;
    char list[1024] = "";
    size_t used = 0;

    const char *fi_provider = getenv("FI_PROVIDER");
    char where[512] = "", filter[256] = "";

    /* every provider, fabric and domain: the list says what the user could choose */
    if (h) {
        free(h->fabric_attr->name);
        h->fabric_attr->name = NULL;
        free(h->domain_attr->name);
        h->domain_attr->name = NULL;
    }
    if (h && fi_getinfo(OFI_API_VERSION, NULL, NULL, 0, h, &all) == 0) {
        for (struct fi_info *i = all; i; i = i->next) {
            const char *p = i->fabric_attr->prov_name;
            int seen = 0;
            for (struct fi_info *j = all; j != i; j = j->next)
                if (strcmp(j->fabric_attr->prov_name, p) == 0 &&
                    strcmp(j->domain_attr->name, i->domain_attr->name) == 0)
                    seen = 1;
            if (!seen && used < sizeof(list))
                used += snprintf(list + used, sizeof(list) - used, "%s'%s' (domain %s, fabric %s)",
                                 used ? ", " : "", p, i->domain_attr->name, i->fabric_attr->name);
        }
    }
    if (*ofs_g.params.OFI_FABRIC || *ofs_g.params.OFI_DOMAIN)
        snprintf(where, sizeof(where), " in%s%s%s%s", *ofs_g.params.OFI_DOMAIN ? " domain " : "",
                 ofs_g.params.OFI_DOMAIN, *ofs_g.params.OFI_FABRIC ? " fabric " : "",
                 ofs_g.params.OFI_FABRIC);
    /* libfabric itself hides every provider that FI_PROVIDER does not name */
    if (fi_provider && *fi_provider)
        snprintf(filter, sizeof(filter),
                 "; FI_PROVIDER=%s hides every other provider from libfabric", fi_provider);
    ofs_log_error("ofi: provider '%s' offers no RDM endpoint with FI_RMA|FI_ATOMIC%s%s%s here; "
                  "providers found: %s%s (set SHMEM_OFI_PROVIDER, SHMEM_OFI_DOMAIN, "
                  "SHMEM_OFI_FABRIC to one of them)",
                  wanted, ofi_g.mr_hints & (FI_MR_BASIC | FI_MR_SCALABLE) ? " and MR mode " : "",
                  ofi_g.mr_hints & FI_MR_BASIC      ? "FI_MR_BASIC"
                  : ofi_g.mr_hints & FI_MR_SCALABLE ? "FI_MR_SCALABLE"
                                                    : "",
                  where, used ? list : "none", filter);
    if (all)
        fi_freeinfo(all);
    fi_freeinfo(h);
}

/* The first answer of list (freed) in the fabric and domain SHMEM_OFI_FABRIC and
 * SHMEM_OFI_DOMAIN name, or NULL: utility providers (rxm 1.17) ignore those hints. */
static struct fi_info *ofi_pick_domain(struct fi_info *list)
{
    const char *fabric = ofs_g.params.OFI_FABRIC, *domain = ofs_g.params.OFI_DOMAIN;
    struct fi_info *pick = NULL;

    if (!*fabric && !*domain)
        return list;
    for (struct fi_info *i = list; i && !pick; i = i->next)
        if ((!*fabric || strcmp(i->fabric_attr->name, fabric) == 0) &&
            (!*domain || strcmp(i->domain_attr->name, domain) == 0))
            pick = fi_dupinfo(i);
    fi_freeinfo(list);
    return pick;
}

/* fi_getinfo for hints h (freed): a copy of the first answer on the same provider and
 * domain as res, or NULL.  For a second question about the provider already chosen. */
static struct fi_info *ofi_getinfo_same(struct fi_info *h, const struct fi_info *res)
{
    struct fi_info *all = NULL, *same = NULL;

    if (fi_getinfo(OFI_API_VERSION, NULL, NULL, 0, h, &all) == 0) {
        for (struct fi_info *i = all; i && !same; i = i->next)
            if (strcmp(i->fabric_attr->prov_name, res->fabric_attr->prov_name) == 0 &&
                strcmp(i->domain_attr->name, res->domain_attr->name) == 0)
                same = fi_dupinfo(i);
        fi_freeinfo(all);
    }
    fi_freeinfo(h);
    return same;
}

/* Set a libfabric variable to v unless the user set it (read when the provider loads,
 * so before the first fi_getinfo). */
static void ofi_env_default(const char *name, long v)
{
    char buf[24];

    snprintf(buf, sizeof(buf), "%ld", v);
    setenv(name, buf, 0);
}

/* Could libfabric choose rxm over verbs: asked for it, or nothing asked for and an
 * RDMA device present (verbs needs one under /sys/class/infiniband)? */
static int ofi_verbs_possible(const char *prov)
{
    if (prov && *prov)
        return strstr(prov, "verbs") != NULL;
    DIR *d = opendir("/sys/class/infiniband");
    struct dirent *e;
    int found = 0;

    if (!d)
        return 0;
    while (!found && (e = readdir(d)))
        found = e->d_name[0] != '.';
    closedir(d);
    return found;
}

static ofs_status_t ofi_getinfo(void)
{
    const char *prov = ofs_g.params.OFI_PROVIDER;
    struct fi_info *h, *res = NULL;
    int ret;

    if (!prov || !*prov)
        prov = getenv("FI_PROVIDER");
    /* Every PE on this node (PMIx locality; simulated nodes count as nodes): tcp and
     * sockets endpoints listen on the loopback interface, not on the first external one
     * (reachable from the network, and subject to its firewall), unless the user chose
     * an interface.  Read at provider load, so before the first fi_getinfo. */
    if (ofs_g.local_size == ofs_g.n_pes && !getenv("FI_TCP_IFACE") && !getenv("FI_SOCKETS_IFACE")) {
        setenv("FI_TCP_IFACE", "lo", 0);
        setenv("FI_SOCKETS_IFACE", "lo", 0);
        ofi_g.loopback = 1;
    }
    /* the sockets provider's progress thread spins FI_SOCKETS_PE_WAITTIME ms (default
     * 10) whenever it runs out of work: with more PEs than cores that starves the PEs
     * (ofi_rma at 2 PEs on 2 cores: 17 s instead of 2 s).  Read at provider load, so
     * set before the first fi_getinfo; a user's own setting wins. */
    ofi_env_default("FI_SOCKETS_PE_WAITTIME", 0);
    /* rxm sends up to FI_OFI_RXM_BUFFER_SIZE bytes (16 KiB by default) eagerly, longer
     * messages by rendezvous; a put-with-signal message carries a 32-byte header, so by
     * default 16 KiB of data took two messages (perf_pingpong over tcp;ofi_rxm, 16 KiB:
     * 16.9-19.6 us per transfer, 12.7-13.6 with the header's room added; fi_pingpong
     * 11.9).  Also read at provider load; a user's own setting wins. */
    if (ofs_g.params.OFI_AM_SIZE != 0)
        ofi_env_default("FI_OFI_RXM_BUFFER_SIZE", OFI_AM_RXM_EAGER_SET);
    /* rxm over tcp (1.17) receives through a shared receive context of
     * FI_OFI_RXM_MSG_RX_SIZE buffers of the eager size per endpoint, 4096 unless set:
     * most of a PE's memory (2 PEs over tcp;ofi_rxm: 149 MB resident after shmem_init,
     * 183 MB after first use, +85 MB per further context).  With 1024 (rxm allocates
     * buffers in chunks of 1024: 128 to 1024 measure the same): 48 MB, 82 MB and +35 MB,
     * and rates, latencies and ping-pongs no slower (ratios 0.91-1.04, four alternating
     * pairs; 1 MiB bandwidth, 12 pairs: put 0.95, get 1.08, in tcp's spread).  Not
     * where the user chose either variable, nor where rxm may run over verbs, whose
     * default is no shared context: the size is then per connection (128 by default),
     * and 1024 would multiply rxm's memory per peer by 8. */
    if (!getenv("FI_OFI_RXM_USE_SRX") && !ofi_verbs_possible(prov))
        ofi_env_default("FI_OFI_RXM_MSG_RX_SIZE", OFI_RXM_MSG_RX_SET);
    if (ofi_mr_mode_parse(ofs_g.params.OFI_MR_MODE, &ofi_g.mr_hints, &ofi_g.mr_forced) != 0) {
        ofs_log_error("ofi: SHMEM_OFI_MR_MODE='%s' is not a registration mode: use auto, basic "
                      "or scalable, optionally followed by +local and/or +endpoint",
                      ofs_g.params.OFI_MR_MODE);
        return OFS_ERR_INVAL;
    }
    /* ask for delivery completion (quiet means visible at the target); fall back */
    for (int delivery = 1; delivery >= 0; delivery--) {
        h = ofi_hints(prov, delivery);
        if (!h)
            return OFS_ERR_NOMEM;
        ret = fi_getinfo(OFI_API_VERSION, NULL, NULL, 0, h, &res);
        fi_freeinfo(h);
        if (ret == 0 && res)
            res = ofi_pick_domain(res);
        if (res) {
            ofi_g.delivery_complete = delivery;
            break;
        }
        res = NULL;
    }
    if (!res) {
        ofi_list_providers(prov && *prov ? prov : "(any)");
        return OFS_ERR_NOT_FOUND;
    }
    /* keep the first suitable one; with remote-access events if it has them (a
     * counter of RMA/atomics aimed at us tells the progress thread to poll fast) */
    h = ofi_hints(res->fabric_attr->prov_name, ofi_g.delivery_complete);
    if (h) {
        h->caps |= FI_RMA_EVENT;
        struct fi_info *ev = ofi_getinfo_same(h, res);
        if (ev) {
            fi_freeinfo(res);
            res = ev;
            ofi_g.rma_event = 1;
        }
    }
    /* with delivery completion and RMA reads ordered after RMA writes (tcp;ofi_rxm,
     * sockets, udp;ofi_rxd), a blocking zero-copy put may complete once its source is reusable,
     * without an acknowledgement from the target: quiet's read of each written PE makes
     * it visible.  The ordering is asked for (reported, it is not promised). */
    uint64_t order = res->tx_attr->msg_order & res->rx_attr->msg_order & OFI_ORDER_RMA_RAW;
    struct fi_info *ord = NULL;
    /* (not shm: asked for RMA ordering, shm 1.17 stops writing puts in place by CMA) */
    if (ofi_g.delivery_complete && order && strcmp(res->fabric_attr->prov_name, "shm") != 0 &&
        (h = ofi_hints(res->fabric_attr->prov_name, 1))) {
        h->caps |= res->caps & FI_RMA_EVENT;
        h->tx_attr->msg_order = h->rx_attr->msg_order = order;
        ord = ofi_getinfo_same(h, res);
    }
    if (ord) {
        fi_freeinfo(res);
        res = ord;
    } else {
        order = 0;
    }
    ofi_g.info = fi_dupinfo(res);
    fi_freeinfo(res);
    if (!ofi_g.info)
        return OFS_ERR_NOMEM;
    /* shm 1.17 corrupts and crashes on atomics asked for FI_DELIVERY_COMPLETE (and on
     * FI_INJECT with it); its transmit completion is safe for quiet because a target
     * applies every operation aimed at it from one FIFO queue, in order. */
    if (strcmp(ofi_g.info->fabric_attr->prov_name, "shm") == 0) {
        ofi_g.delivery_complete = 0;
        ofi_g.info->tx_attr->op_flags &= ~(uint64_t)FI_DELIVERY_COMPLETE;
    }
    ofi_g.mr_granted = ofi_g.info->domain_attr->mr_mode;
    /* forced bits the provider requires anyway are not "forced" */
    ofi_g.mr_forced &= ~ofi_g.mr_granted;
    ofi_g.mr_mode = ofi_mr_mode_effective(ofi_g.mr_granted, ofi_g.mr_forced);
    ofi_g.op_flags = ofi_g.delivery_complete ? FI_DELIVERY_COMPLETE : 0;
    ofi_g.ordered_waw = (ofi_g.info->tx_attr->msg_order & FI_ORDER_WAW) != 0;
    ofi_g.put_local = ofi_g.delivery_complete && order && !ofs_g.params.OFI_PUT_DELIVERY;
    ofi_g.manual_progress = ofi_g.info->domain_attr->data_progress == FI_PROGRESS_MANUAL;
    return OFS_OK;
}

/* FI_MR_ENDPOINT: bind a new MR to the endpoint that uses it and enable it.  When the
 * mode is only forced (SHMEM_OFI_MR_MODE=...+endpoint) on a provider without
 * endpoint-bound MRs, its refusal (-FI_ENOSYS/-FI_EINVAL) is recorded and ignored. */
static int ofi_mr_bind_ep(struct fid_mr *mr, struct fid_ep *ep)
{
    int ret;

    if (!(ofi_g.mr_mode & FI_MR_ENDPOINT))
        return 0;
    ret = fi_mr_bind(mr, &ep->fid, 0);
    if (!ret)
        ret = fi_mr_enable(mr);
    if (ret && (ofi_g.mr_forced & FI_MR_ENDPOINT) && (ret == -FI_ENOSYS || ret == -FI_EINVAL)) {
        ofi_g.mr_bind_ret = ret;
        ret = 0;
    }
    return ret;
}

ofs_status_t ofi_mr_reg_local(struct fid_ep *ep, const void *buf, size_t len, uint64_t access,
                              struct fid_mr **mr_p)
{
    struct fid_mr *mr;
    uint64_t key = __atomic_fetch_add(&ofi_g.requested_key, 1, __ATOMIC_RELAXED);
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
    if (ofi_g.mr_forced & FI_MR_LOCAL)
        ofi_mrchk_add_mr(mr, buf, len);
    *mr_p = mr;
    return OFS_OK;
}

static ofs_status_t ofi_fabric_open(void)
{
    int ret;

    ret = fi_fabric(ofi_g.info->fabric_attr, &ofi_g.fabric, NULL);
    if (ret)
        return ofi_err("fi_fabric", ret);
    ret = fi_domain(ofi_g.fabric, ofi_g.info, &ofi_g.domain, NULL);
    if (ret)
        return ofi_err("fi_domain", ret);
    return OFS_OK;
}

static ofs_status_t ofi_segs_register(struct ofi_peer_info *me)
{
    for (int s = 0; s < HEAP_NSEGS; s++) {
        const struct heap_seg *sg = &heap_g.seg[s];
        uint64_t access = FI_REMOTE_READ | FI_REMOTE_WRITE | FI_READ | FI_WRITE;
        int ret;

        ret = fi_mr_reg(ofi_g.domain, sg->base, sg->len, access, 0, (uint64_t)s, 0, &ofi_g.mr[s],
                        NULL);
        if (ret) {
            ofs_log_error("ofi: fi_mr_reg(segment %d at %p, %zu bytes) failed: %s", s,
                          (void *)sg->base, sg->len, fi_strerror(-ret));
            return OFS_ERR_FABRIC;
        }
        /* remote operations arrive at the target endpoint */
        ret = ofi_mr_bind_ep(ofi_g.mr[s], ofi_g.main->ep);
        if (ret)
            return ofi_err("fi_mr_bind/enable (segment)", ret);
        if (ofi_g.mr_forced & FI_MR_LOCAL)
            ofi_mrchk_add_mr(ofi_g.mr[s], sg->base, sg->len);
        ofi_g.mr_desc[s] = fi_mr_desc(ofi_g.mr[s]);
        me->key[s] = fi_mr_key(ofi_g.mr[s]);
        me->base[s] = (uint64_t)(uintptr_t)sg->base;
    }
    return OFS_OK;
}

static void ofi_ctx_free(struct ofi_ctx *c);
static ofs_status_t ofi_ctx_open(int target, struct ofi_ctx **c_p);
static ofs_status_t ofi_bounce_setup(struct ofi_ctx *c);

static struct ofi_peer_info ofi_me; /* what this PE published */

static void ofi_print_info(void)
{
    const struct fi_info *i = ofi_g.info;
    const struct ofi_thresh *t = &ofi_g.thresh;
    uint64_t m = ofi_g.mr_mode, g = ofi_g.mr_granted, f = ofi_g.mr_forced;

    if (!ofs_g.params.INFO || ofs_g.my_pe != 0)
        return;
    printf("ofishmem ofi: provider %s, fabric %s, domain %s%s\n", i->fabric_attr->prov_name,
           i->fabric_attr->name, i->domain_attr->name,
           *ofs_g.params.OFI_DOMAIN || *ofs_g.params.OFI_FABRIC
               ? " (chosen by SHMEM_OFI_DOMAIN/SHMEM_OFI_FABRIC)"
               : "");
    char addr[128] = "";
    size_t alen = sizeof(addr);
    if (fi_av_straddr(ofi_g.main->av, ofi_me.addr, addr, &alen))
        printf("ofishmem ofi: endpoint %s%s\n", addr,
               ofi_g.loopback ? " (loopback: every PE on this node, FI_TCP_IFACE/FI_SOCKETS_IFACE "
                                "not set)"
                              : "");
    printf("ofishmem ofi: MR mode%s%s%s%s%s%s%s%s%s%s%s, %s completion, %s progress%s\n",
           m & FI_MR_VIRT_ADDR ? " VIRT_ADDR" : "", m & FI_MR_PROV_KEY ? " PROV_KEY" : "",
           m & FI_MR_ALLOCATED ? " ALLOCATED" : "", m & FI_MR_LOCAL ? " LOCAL" : "",
           m & FI_MR_ENDPOINT ? " ENDPOINT" : "", m & OFI_MR_MODES ? "" : " (none)",
           g & FI_MR_BASIC ? " (granted as FI_MR_BASIC)" : "",
           g & FI_MR_SCALABLE ? " (granted as FI_MR_SCALABLE)" : "", f ? " (forced:" : "",
           f & FI_MR_LOCAL ? " LOCAL" : "",
           f & FI_MR_ENDPOINT
               ? (ofi_g.mr_bind_ret ? " ENDPOINT, provider has no fi_mr_bind)" : " ENDPOINT)")
           : f ? ")"
               : "",
           ofi_g.delivery_complete ? "delivery" : "transmit",
           ofi_g.manual_progress ? "manual" : "auto",
           ofi_g.manual_progress
               ? (ofs_g.params.OFI_PROGRESS_INTERVAL > 0
                      ? (ofi_g.tcq_fd >= 0 ? " (thread sleeps on the CQ fd)" : " (thread polls)")
                      : " (no thread)")
               : "");
    uint64_t mo = ofi_g.info->tx_attr->msg_order;
    char chunk[48];
    if (t->chunk >= ((size_t)1 << 62))
        snprintf(chunk, sizeof(chunk), "the provider's maximum");
    else
        snprintf(chunk, sizeof(chunk), "%zu B", t->chunk);
    printf("ofishmem ofi: put inject <= %zu B, bounce <= %zu B x %zu buffers, large above, "
           "chunk %s; fence %s (ordered:%s%s%s%s); %d atomic op/type pairs by compare-swap "
           "loop\n",
           t->inject_max, t->bounce_max, t->bounce_count, chunk,
           ofi_g.ordered_waw ? "by ordering" : "waits for completion",
           mo & FI_ORDER_WAW ? " WAW" : "", mo & FI_ORDER_RAW ? " RAW" : "",
           mo & FI_ORDER_SAW ? " SAW" : "", mo & FI_ORDER_SAS ? " SAS" : "", ofi_g.amo_fallbacks);
    if (ofi_g.amo_fetch_broken)
        printf("ofishmem ofi: fetching atomics unavailable: %s\n", ofi_g.amo_fetch_broken);
    if (ofi_g.am_on) {
        char eager[64] = "";
        if (ofi_rxm_eager())
            snprintf(eager, sizeof(eager), ", rxm eager size %zu (FI_OFI_RXM_BUFFER_SIZE)",
                     ofi_rxm_eager());
        printf("ofishmem ofi: put-with-signal: by message up to %zu B of data (applied by the "
               "target; %zu B per message%s), larger: the data written, then the signal by "
               "message; messages leave from %s (SHMEM_OFI_AM_EP=%s%s)\n",
               ofi_g.am_max, ofi_g.am_part, eager,
               ofi_g.am_from_target ? "the target endpoint (private contexts and to this PE: "
                                      "the context's)"
                                    : "each context's endpoint",
               ofs_param_word(OFS_PARAM_OFI_AM_EP, ofs_g.params.OFI_AM_EP),
               ofs_g.params.OFI_AM_EP != OFS_OFI_AM_EP_AUTO ? ""
               : ofs_g.oversubscribed                       ? ": more PEs than CPUs on this node"
                                                            : ": a CPU per PE on this node");
    } else
        printf("ofishmem ofi: put-with-signal: a write and an atomic (not by message: %s)\n",
               ofi_g.am_why ? ofi_g.am_why : "?");
    if (ofi_rxm_eager()) {
        const char *rx = getenv("FI_OFI_RXM_MSG_RX_SIZE"), *srx = getenv("FI_OFI_RXM_USE_SRX");
        printf("ofishmem ofi: rxm: eager size %zu B (FI_OFI_RXM_BUFFER_SIZE), receive buffers "
               "FI_OFI_RXM_MSG_RX_SIZE=%s FI_OFI_RXM_USE_SRX=%s\n",
               ofi_rxm_eager(), rx ? rx : "(rxm's default)", srx ? srx : "(rxm's default)");
    }
    if (ofi_g.nofile != ofi_g.nofile_was)
        printf("ofishmem ofi: open-file limit raised from %llu to %llu (SHMEM_OFI_RAISE_NOFILE)\n",
               ofi_g.nofile_was, ofi_g.nofile);
    else if (ofi_g.nofile)
        printf("ofishmem ofi: open-file limit %llu\n", ofi_g.nofile);
    else
        printf("ofishmem ofi: open-file limit unlimited or unknown\n");
    printf("ofishmem ofi: quiet %s; progress thread %s\n",
           ofi_g.put_local ? "waits for delivery, flushes blocking zero-copy puts (locally "
                             "complete) with a read per written PE"
           : ofi_g.delivery_complete ? "waits for delivery"
           : ofi_g.put_visible       ? "waits for puts (in place by CMA), flushes atomics"
                                     : "flushes with an atomic read per written PE",
           ofi_g.tcntr         ? "polls right after remote accesses (FI_RMA_EVENT counter)"
           : ofi_g.tcq_fd >= 0 ? "polls right after wake-ups of the CQ fd"
                               : "polls at intervals");
    fflush(stdout);
}

/* The eager size rxm runs with: FI_OFI_RXM_BUFFER_SIZE as rxm read it at load (set by
 * ofi_getinfo unless the user did), else rxm's default; 0 for other providers. */
size_t ofi_rxm_eager(void)
{
    const char *e = getenv("FI_OFI_RXM_BUFFER_SIZE");
    char *end;

    if (!strstr(ofi_g.info->fabric_attr->prov_name, "ofi_rxm"))
        return 0;
    unsigned long long v = e ? strtoull(e, &end, 10) : 0;
    return e && *e && *end == '\0' ? (size_t)v : OFI_AM_RXM_EAGER;
}

static ofs_status_t ofi_init(const unsigned char *peers)
{
    struct ofi_peer_info me;
    size_t addrlen = sizeof(me.addr);
    ofs_status_t st;
    int ret;

    ofi_g.requested_key = HEAP_NSEGS;
    ofi_g.active = calloc(ofs_g.n_pes, 1);
    ofi_g.peers = calloc(ofs_g.n_pes, sizeof(*ofi_g.peers));
    if (!ofi_g.active || !ofi_g.peers)
        return OFS_ERR_NOMEM;
    memcpy(ofi_g.active, peers, ofs_g.n_pes);
    ofi_nofile_raise();
    st = ofi_getinfo();
    if (st != OFS_OK)
        return st;
    st = ofi_fabric_open();
    if (st == OFS_OK) {
        ofi_names_init();
        st = ofi_ctx_open(1, &ofi_g.main);
    }
    if (st != OFS_OK)
        return st;
    memset(&me, 0, sizeof(me));
    st = ofi_segs_register(&me);
    if (st != OFS_OK)
        return st;
    ret = fi_getname(&ofi_g.main->ep->fid, me.addr, &addrlen);
    if (ret)
        return ofi_err("fi_getname", ret);
    me.addrlen = (uint32_t)addrlen;
    snprintf(me.prov, sizeof(me.prov), "%s", ofi_g.info->fabric_attr->prov_name);
    /* Bounce or zero-copy: over tcp;ofi_rxm a blocking zero-copy put waits for a
     * round trip to the target, a bounced one only for a copy (16-32 KiB puts: 1.5x
     * raw libfabric zero-copy, 0.9x bounced); shm writes zero-copy by CMA at once, and
     * a bounce there only adds the copy (16 KiB: 1.4x) */
    long bounce = ofs_g.params.OFI_BOUNCE_SIZE;
    if (bounce < 0)
        bounce = strcmp(ofi_g.info->fabric_attr->prov_name, "shm") == 0 ? 8192 : 32768;
    ofi_thresh_compute(ofi_g.info->tx_attr->inject_size, ofi_g.info->ep_attr->max_msg_size,
                       ofs_g.params.OFI_INJECT_SIZE, bounce, ofs_g.params.OFI_BOUNCE_BUFFERS,
                       ofs_g.params.OFI_MAX_CHUNK, &ofi_g.thresh);
    ofs_param_resolved(OFS_PARAM_OFI_INJECT_SIZE, (long)ofi_g.thresh.inject_max);
    ofs_param_resolved(OFS_PARAM_OFI_BOUNCE_SIZE, (long)ofi_g.thresh.bounce_max);
    ofi_amo_setup();
    st = ofi_am_setup();
    ofs_param_resolved(OFS_PARAM_OFI_AM_SIZE, (long)ofi_g.am_max);
    ofs_param_resolved(OFS_PARAM_OFI_AM_PART, (long)ofi_g.am_part);
    /* the target endpoint, opened before the thresholds were known, gets bounce
     * buffers only now, and only for the messages that leave from it */
    if (st == OFS_OK && ofi_g.am_from_target)
        st = ofi_bounce_setup(ofi_g.main);
    if (st == OFS_OK)
        st = ofi_am_rx_setup();
    if (st != OFS_OK)
        return st;
    me.am_part = ofi_g.am_on ? ofi_g.am_part : 0;
    me.rxm_eager = ofi_rxm_eager();
    me.pid = (uint64_t)getpid();
    me.pidns = ofs_pidns();
    ofi_me = me;
    return rt_kv_put("ofi.peer", &me, sizeof(me));
}

/* Settings that PEs must share, or they cannot talk: rxm connects only endpoints with
 * the same eager size (a PE with FI_OFI_RXM_BUFFER_SIZE=16384, the others without it,
 * hung in its first put-with-signal, every send refused), and a message longer than
 * the target's receive buffers is truncated.  Checked against every peer this PE
 * talks to, before any traffic: each PE of such a pair stops with this line. */
static ofs_status_t ofi_peer_check(int pe, const struct ofi_peer_info *p)
{
    const struct ofi_peer_info *me = &ofi_me;
    char prov[sizeof(p->prov) + 1];

    snprintf(prov, sizeof(prov), "%.*s", (int)sizeof(p->prov), p->prov);
    if (strncmp(prov, me->prov, sizeof(me->prov)) != 0) {
        ofs_log_error("ofi: PE %d uses provider '%s', this PE (%d) '%.*s': set "
                      "SHMEM_OFI_PROVIDER (or FI_PROVIDER) alike on every PE",
                      pe, prov, ofs_g.my_pe, (int)sizeof(me->prov), me->prov);
        return OFS_ERR_INVAL;
    }
    if (p->rxm_eager != me->rxm_eager) {
        ofs_log_error(
            "ofi: PE %d runs rxm with FI_OFI_RXM_BUFFER_SIZE=%llu, this PE (%d) with "
            "%llu: rxm connects only endpoints with the same eager size; set it alike "
            "on every PE, or on none (ofishmem then sets %d where SHMEM_OFI_AM_SIZE is not 0)",
            pe, (unsigned long long)p->rxm_eager, ofs_g.my_pe, (unsigned long long)me->rxm_eager,
            OFI_AM_RXM_EAGER_SET);
        return OFS_ERR_INVAL;
    }
    if (p->am_part != me->am_part) {
        ofs_log_error(
            "ofi: PE %d sends put-with-signal messages of %llu bytes of data, this PE "
            "(%d) of %llu (0: none): SHMEM_OFI_AM_SIZE, SHMEM_OFI_AM_PART, "
            "SHMEM_OFI_BOUNCE_SIZE and SHMEM_OFI_INJECT_SIZE must be the same on every PE",
            pe, (unsigned long long)p->am_part, ofs_g.my_pe, (unsigned long long)me->am_part);
        return OFS_ERR_INVAL;
    }
    return OFS_OK;
}

static ofs_status_t ofi_ctx_av_fill(struct ofi_ctx *c);

static ofs_status_t ofi_connect(void)
{
    ofs_status_t st;

    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        if (!ofi_g.active[pe])
            continue;
        st = rt_kv_get(pe, "ofi.peer", &ofi_g.peers[pe], sizeof(ofi_g.peers[pe]));
        if (st != OFS_OK) {
            ofs_log_error("ofi: PE %d published no endpoint address: %s", pe,
                          ofs_status_string(st));
            return st;
        }
    }
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        if (ofi_g.active[pe] && pe != ofs_g.my_pe) {
            st = ofi_peer_check(pe, &ofi_g.peers[pe]);
            if (st != OFS_OK)
                return st;
        }
    }
    st = ofi_ctx_av_fill(ofi_g.main);
    if (st != OFS_OK)
        return st;
    ofi_put_visible_setup();
    ofi_names_guard();
    ofi_print_info();
    return ofi_progress_start();
}

static void ofi_close(struct fid *f, const char *what)
{
    if (!f)
        return;
    int ret = fi_close(f);
    if (ret)
        ofs_log_warn("ofi: fi_close(%s) failed: %s", what, fi_strerror(-ret));
}

static void ofi_fini(void)
{
    ofi_names_unguard();
    ofi_progress_stop();
    if ((ofi_g.mr_forced & FI_MR_LOCAL) && ofs_g.params.INFO && ofs_g.my_pe == 0) {
        printf("ofishmem ofi: FI_MR_LOCAL check: %lu local descriptors verified\n",
               ofi_mrchk_count());
        fflush(stdout);
    }
    for (int s = 0; s < HEAP_NSEGS; s++) {
        ofi_close(ofi_g.mr[s] ? &ofi_g.mr[s]->fid : NULL, "segment MR");
        ofi_g.mr[s] = NULL;
    }
    ofi_am_rx_close();
    if (ofi_g.main)
        ofi_ctx_free(ofi_g.main);
    ofi_g.main = NULL;
    ofi_am_rx_free();
    ofi_close(ofi_g.tcntr ? &ofi_g.tcntr->fid : NULL, "target counter");
    ofi_g.tcntr = NULL;
    ofi_g.rma_event = 0;
    ofi_close(ofi_g.domain ? &ofi_g.domain->fid : NULL, "domain");
    ofi_close(ofi_g.fabric ? &ofi_g.fabric->fid : NULL, "fabric");
    ofi_g.domain = NULL;
    ofi_g.fabric = NULL;
    ofi_g.tcq_fd = -1;
    if (ofi_g.info)
        fi_freeinfo(ofi_g.info);
    ofi_g.info = NULL;
    free(ofi_g.peers);
    free(ofi_g.active);

    ofi_g.peers = NULL;
    ofi_g.active = NULL;
}

static void ofi_ctx_free(struct ofi_ctx *c)
{
    /* MRs first: under FI_MR_ENDPOINT they are bound to the endpoint */
    ofi_close(c->bounce_mr ? &c->bounce_mr->fid : NULL, "bounce MR");
    ofi_close(c->self_mr ? &c->self_mr->fid : NULL, "context MR");
    for (int s = 0; s < HEAP_NSEGS; s++)
        ofi_close(c->seg_mr[s] ? &c->seg_mr[s]->fid : NULL, "context segment MR");
    if (c->ep && (ofi_g.mr_forced & FI_MR_LOCAL))
        ofi_mrchk_del_ep(c->ep);
    ofi_close(c->ep ? &c->ep->fid : NULL, "context endpoint");
    ofi_close(c->put_cntr ? &c->put_cntr->fid : NULL, "put counter");
    ofi_close(c->get_cntr ? &c->get_cntr->fid : NULL, "get counter");
    ofi_close(c->cq ? &c->cq->fid : NULL, "context CQ");
    ofi_close(c->av ? &c->av->fid : NULL, "context AV");
    free(c->addr);
    free(c->dirty);
    free(c->dirty_list);
    free(c->am_pe);
    free(c->am_list);
    pthread_mutex_destroy(&c->lock);
    free(c->bounces);
    free(c->bounce_mem);
    free(c);
}

static ofs_status_t ofi_bounce_setup(struct ofi_ctx *c)
{
    const struct ofi_thresh *t = &ofi_g.thresh;
    size_t n = t->bounce_count, sz = (t->bounce_max + 63) & ~(size_t)63;

    if (n == 0)
        return OFS_OK;
    /* The product of two parameters: name both when it cannot be had.  More than the
     * node's memory for one context is a mistake even where overcommit would grant it. */
    double want = (double)n * (double)sz;
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if ((phys > 0 && want > phys) || posix_memalign((void **)&c->bounce_mem, 4096, n * sz) != 0 ||
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
    if (ofi_g.mr_mode & FI_MR_LOCAL) {
        ofs_status_t st = ofi_mr_reg_local(c->ep, c->bounce_mem, n * sz, FI_WRITE, &c->bounce_mr);
        if (st != OFS_OK)
            return st;
        c->bounce_desc = fi_mr_desc(c->bounce_mr);
    }
    return OFS_OK;
}

/* FI_MR_LOCAL: descriptors for the context's own operand slots and flush word (one
 * registration of the struct); with FI_MR_ENDPOINT also, since the segment MRs are
 * bound to the target endpoint, the segments again for this initiator endpoint. */
static ofs_status_t ofi_ctx_mr_setup(struct ofi_ctx *c, int target)
{
    ofs_status_t st;

    if (!(ofi_g.mr_mode & FI_MR_LOCAL))
        return OFS_OK;
    st = ofi_mr_reg_local(c->ep, c, sizeof(*c), FI_READ | FI_WRITE, &c->self_mr);
    if (st != OFS_OK)
        return st;
    c->self_desc = fi_mr_desc(c->self_mr);
    if (target || !(ofi_g.mr_mode & FI_MR_ENDPOINT))
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

static ofs_status_t ofi_ctx_av_fill(struct ofi_ctx *c)
{
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        c->addr[pe] = FI_ADDR_NOTAVAIL;
        if (!ofi_g.active[pe])
            continue;
        int ret = fi_av_insert(c->av, ofi_g.peers[pe].addr, 1, &c->addr[pe], 0, NULL);
        if (ret != 1)
            return ofi_err("fi_av_insert", ret < 0 ? ret : -FI_EINVAL);
    }
    return OFS_OK;
}

/* An endpoint with its AV, CQ, counters and bounce buffers.  The target one (made at
 * init, its address published) receives, and sends only put-with-signal messages and
 * their acknowledgements (ofi_am.c); its CQ gets a wait fd for the progress thread
 * when the provider has one.  Every context, the default one included, has its
 * own initiator endpoint (shm 1.17 mishandles an endpoint writing to itself while
 * others write to it too, so self-targeted traffic goes initiator -> target). */
static ofs_status_t ofi_ctx_open(int target, struct ofi_ctx **c_p)
{
    struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .count = (size_t)ofs_g.n_pes };
    struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT,
                                  .size = ofs_g.params.OFI_CQ_SIZE > 0
                                              ? (size_t)ofs_g.params.OFI_CQ_SIZE
                                              : 256,
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
    c->am_pe = calloc(ofs_g.n_pes, 1);
    c->am_list = calloc(ofs_g.n_pes, sizeof(int));
    if (!c->addr || !c->dirty || !c->dirty_list || !c->am_pe || !c->am_list) {
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
    if (target && ofi_g.manual_progress) {
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
    if (!ret && target && ofi_g.rma_event) {
        struct fi_cntr_attr ta = { .events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE };
        ret = fi_cntr_open(ofi_g.domain, &ta, &ofi_g.tcntr, NULL);
        if (!ret)
            ret = fi_ep_bind(c->ep, &ofi_g.tcntr->fid, FI_REMOTE_WRITE | FI_REMOTE_READ);
    }
    if (!ret)
        ret = fi_enable(c->ep);
    if (ret) {
        st = ofi_err("fi_ep_bind/fi_enable", ret);
        goto err_free;
    }
    if (ofi_g.mr_forced & FI_MR_LOCAL)
        ofi_mrchk_add_ep(c->ep);
    if (cq_attr.wait_obj == FI_WAIT_FD) {
        int fd = -1;
        if (fi_control(&c->cq->fid, FI_GETWAIT, &fd) == 0)
            ofi_g.tcq_fd = fd;
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

static ofs_status_t ofi_ctx_create(struct comm_ctx *ctx)
{
    struct ofi_ctx *c;
    ofs_status_t st;

    st = ofi_ctx_open(0, &c);
    if (st != OFS_OK)
        return st;
    c->options = &ctx->options;
    ctx->tp[COMM_TP_OFI] = c;
    /* the first context is the default one: wait loops drive it too */
    if (!ofi_g.dflt)
        __atomic_store_n(&ofi_g.dflt, c, __ATOMIC_RELEASE);
    return OFS_OK;
}

static void ofi_ctx_destroy(struct comm_ctx *ctx)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);

    if (!c)
        return;
    ofi_quiet(ctx);
    if (c == ofi_g.dflt)
        __atomic_store_n(&ofi_g.dflt, NULL, __ATOMIC_RELEASE);
    ofi_ctx_free(c);
    ctx->tp[COMM_TP_OFI] = NULL;
}

static void *ofi_ptr(int seg, size_t off, int pe)
{
    (void)seg;
    (void)off;
    (void)pe;
    return NULL;
}

const struct transport_ops ofi_transport_ops = {
    .name = "ofi",
    .init = ofi_init,
    .connect = ofi_connect,
    .fini = ofi_fini,
    .ctx_create = ofi_ctx_create,
    .ctx_destroy = ofi_ctx_destroy,
    .put = ofi_put,
    .put_nbi = ofi_put_nbi,
    .get = ofi_get,
    .get_nbi = ofi_get_nbi,
    .put_signal = ofi_put_signal,
    .amo = ofi_amo,
    .fence = ofi_fence,
    .quiet = ofi_quiet,
    .ptr = ofi_ptr,
    .progress = ofi_progress,
    .traffic = ofi_traffic,
    .wait_sleep = ofi_wait_sleep,
    .attend = ofi_attend,
};
