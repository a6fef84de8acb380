/*
 * Provider choice (fi_getinfo) and what the chosen provider can and cannot do:
 * ofi_g.caps, filled once here.  This is the only file that knows providers by name
 * or version; the rest of the transport reads capabilities.  docs/ofi-internals.md,
 * "Providers", has the observations behind each quirk.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define OFI_API_VERSION FI_VERSION(1, 5)
/* RMA read after RMA write: libfabric 1.17 reports its own bits, older ones the generic */
#ifdef FI_ORDER_RMA_RAW
#define OFI_ORDER_RMA_RAW (FI_ORDER_RAW | FI_ORDER_RMA_RAW)
#else
#define OFI_ORDER_RMA_RAW FI_ORDER_RAW
#endif
/* FI_MSG: put-with-signal messages and their acknowledgements (ofi_signal.c) */
#define OFI_CAPS                                                                           \
    (FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_MSG | \
     FI_SEND | FI_RECV)

/* The sockets provider (1.17) moves data only on its own progress thread in its
 * automatic mode, and that thread polls without a pause while any operation it sent
 * waits for its acknowledgement (every atomic, every delivery-complete write), whatever
 * FI_SOCKETS_PE_WAITTIME says: with more such threads than CPUs each signal of a
 * collective waited a time slice for its target's thread to run (figures in
 * docs/ofi-internals.md).  Asked for manual progress, it has no thread: ofishmem
 * drives it as it drives tcp;ofi_rxm. */
static int ofi_prov_wants_manual(const char *prov)
{
    return prov && strcmp(prov, "sockets") == 0;
}

static struct fi_info *ofi_hints(const char *prov, int delivery)
{
    struct fi_info *h = fi_allocinfo();

    if (!h)
        return NULL;
    h->caps = OFI_CAPS;
    h->mode = 0;
    h->ep_attr->type = FI_EP_RDM;
    h->domain_attr->mr_mode = ofi_g.reg.hints ? ofi_g.reg.hints : OFI_MR_MODES;
    h->domain_attr->threading = FI_THREAD_SAFE;
    h->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
    h->domain_attr->control_progress = FI_PROGRESS_UNSPEC;
    if (ofi_prov_wants_manual(prov))
        h->domain_attr->data_progress = FI_PROGRESS_MANUAL;
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
                  wanted, ofi_g.reg.hints & (FI_MR_BASIC | FI_MR_SCALABLE) ? " and MR mode " : "",
                  ofi_g.reg.hints & FI_MR_BASIC      ? "FI_MR_BASIC"
                  : ofi_g.reg.hints & FI_MR_SCALABLE ? "FI_MR_SCALABLE"
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

_Thread_local int ofi_kallsyms_hidden;

void ofi_kallsyms_hide(int on)
{
    ofi_kallsyms_hidden = on && !ofs_g.params.OFI_KERNEL_SYMBOLS;
}

/* Set a libfabric variable to v unless the user set it (read when the provider loads,
 * so before the first fi_getinfo). */
static void ofi_env_default(const char *name, long v)
{
    char buf[24];

    snprintf(buf, sizeof(buf), "%ld", v);
    setenv(name, buf, 0);
}

/* The eager size ofishmem gives rxm where the user has not (0: none).  Each rxm
 * endpoint creates pools of 1024 eager-size buffers and clears them at once (the
 * receive pool at fi_enable, the others at first use): 17 MB each at 16 KiB, most of the
 * CPU a job spends starting when its PEs share few CPUs (docs/performance.md,
 * "Start-up").  So where every PE is on this node and they outnumber its CPUs more
 * than OFI_RXM_CROWDED_PER_CPU times, 1 KiB of data (a 16 KiB put-with-signal takes
 * sixteen messages): a sixteenth of that, where the fixed part of a buffer and the
 * pools of other sizes start to count.  Every PE sees the same node and decides the same
 * (rxm connects only endpoints of one eager size; ofi_peer_check says so otherwise). */
static long ofi_rxm_eager_choose(void)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    if (ofs_g.local_size == ofs_g.n_pes && ncpu > 0 &&
        ofs_g.local_size > OFI_RXM_CROWDED_PER_CPU * ncpu)
        return OFI_RXM_EAGER_SET_CROWDED;
    return ofs_g.params.OFI_AM_SIZE != 0 ? OFI_RXM_EAGER_SET : 0;
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

/* Providers known by name: their quirks, and the sizes their protocols change at.
 * Observations and versions: docs/ofi-internals.md, "Providers". */
static void ofi_prov_quirks(const char *prov, struct ofi_caps *caps)
{
    int shm = strcmp(prov, "shm") == 0;
    int rxm = strstr(prov, "ofi_rxm") != NULL;
    int rxd = strstr(prov, "ofi_rxd") != NULL;
    uint32_t v = fi_version();

    caps->prov_name = prov;
    /* shm 1.17 corrupts and crashes on atomics asked for FI_DELIVERY_COMPLETE (and on
     * FI_INJECT with it); its transmit completion is safe for quiet: a target applies
     * every operation aimed at it from one FIFO queue, in order */
    caps->no_delivery_complete = shm;
    /* asked for RMA ordering, shm 1.17 stops writing puts in place by CMA */
    caps->no_rma_order = shm;
    /* shm writes in place by CMA when it can (seen in 1.15 to 1.17) */
    caps->put_in_place_possible = shm && FI_MAJOR(v) == 1 && FI_MINOR(v) >= 15 && FI_MINOR(v) <= 17;
    caps->named_regions = shm;
    /* the fastest protocol for messages: shm injects up to its inject size, rxm sends
     * up to its eager size eagerly */
    caps->msg_fast_is_inject = shm;
    caps->eager_size = 0;
    if (rxm) {
        const char *e = getenv("FI_OFI_RXM_BUFFER_SIZE");
        char *end;
        unsigned long long n = e ? strtoull(e, &end, 10) : 0;
        /* as rxm read it at load (set by ofi_getinfo unless the user did) */
        caps->eager_size = e && *e && *end == '\0' ? (size_t)n : OFI_RXM_EAGER_DEFAULT;
    }
    caps->sig_size_default = rxm ? OFI_SIG_SIZE_DEFAULT_RXM : OFI_SIG_SIZE_DEFAULT;
    caps->bounce_size_default = shm ? OFI_BOUNCE_SIZE_DEFAULT_SHM : OFI_BOUNCE_SIZE_DEFAULT;
    /* udp;ofi_rxd (1.17) keys a peer's sequence numbers by its UDP address: an endpoint
     * opened on the port of one closed during the job (the kernel hands ports out again
     * at once) starts its sequence afresh, and the target drops its writes as
     * duplicates while acknowledging them, so they complete without landing
     * (conf/handles/reuse-4 read stale values); endpoints are kept, never closed */
    caps->keep_endpoints = rxd;
    /* udp;ofi_rxd before 2.5 crashes on every fetching or compare atomic it receives
     * (libfabric issue 11814) */
    caps->fetch_atomics_broken =
        rxd && FI_VERSION_LT(v, FI_VERSION(2, 5))
            ? "udp;ofi_rxd before libfabric 2.5 crashes on fetching and compare atomics "
              "(libfabric issue 11814)"
            : NULL;
}

/* The rest of the caps, from the chosen fi_info (rma_raw: RMA reads ordered after
 * writes, asked for and granted). */
static void ofi_caps_fill(const struct fi_info *i, int rma_raw, struct ofi_caps *caps)
{
    uint64_t mo = i->tx_attr->msg_order;

    ofi_prov_quirks(i->fabric_attr->prov_name, caps);
    if (caps->no_delivery_complete)
        caps->delivery_complete = 0;
    caps->rma_raw = rma_raw;
    caps->ordered_waw = (mo & FI_ORDER_WAW) != 0;
    caps->ordered_saw = (mo & FI_ORDER_SAW) != 0;
    caps->ordered_sas = (mo & FI_ORDER_SAS) != 0;
    caps->msg = (i->caps & FI_MSG) != 0;
    caps->manual_progress = i->domain_attr->data_progress == FI_PROGRESS_MANUAL;
    caps->inject_size = i->tx_attr->inject_size;
    caps->max_msg_size = i->ep_attr->max_msg_size;
    caps->rx_size = i->rx_attr->size;
    caps->put_in_place = 0;
}

ofs_status_t ofi_info_choose(void)
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
     * (ofi_rma at 2 PEs on 2 cores: 17 s instead of 2 s).  Manual progress (asked for,
     * ofi_prov_wants_manual) has no such thread; this is for a provider that refuses it.
     * Read at provider load, so set before the first fi_getinfo; a user's own setting
     * wins. */
    ofi_env_default("FI_SOCKETS_PE_WAITTIME", 0);
    /* rxm sends up to FI_OFI_RXM_BUFFER_SIZE bytes (16 KiB by default) eagerly; a
     * put-with-signal message carries a 32-byte header: room for it, so that 16 KiB of
     * data is one message (1 KiB on a crowded node, ofi_rxm_eager_choose).  Also read
     * at provider load; a user's own setting wins. */
    long eager = ofi_rxm_eager_choose();
    if (eager)
        ofi_env_default("FI_OFI_RXM_BUFFER_SIZE", eager);
    /* rxm over tcp receives through a shared receive context of FI_OFI_RXM_MSG_RX_SIZE
     * buffers per endpoint, 4096 unless set: most of a PE's memory; 1024 takes a third
     * of it and is no slower (docs/ofi-internals.md).  Not where the user chose either
     * variable, nor where rxm may run over verbs (the size is per connection there). */
    if (!getenv("FI_OFI_RXM_USE_SRX") && !ofi_verbs_possible(prov))
        ofi_env_default("FI_OFI_RXM_MSG_RX_SIZE", OFI_RXM_MSG_RX_SET);
    /* rxm reads its connection events (a peer asks to connect, the answer) only once per
     * FI_OFI_RXM_CM_PROGRESS_INTERVAL us of CQ polls, 10000 unless set.  Connections open
     * at first use, so a first message to a peer waited up to that at each end, and while
     * an event waited the target CQ's fi_trywait failed (its event queue is in the wait
     * set): the progress thread polled without sleeping.  100 us: a 64-PE job's first
     * barrier 1.3 s -> 0.05 s, latencies no different (docs/ofi-internals.md).  A user's
     * own setting wins. */
    ofi_env_default("FI_OFI_RXM_CM_PROGRESS_INTERVAL", OFI_RXM_CM_PROGRESS_SET);
    if (ofi_mr_mode_parse(ofs_g.params.OFI_MR_MODE, &ofi_g.reg.hints, &ofi_g.reg.forced) != 0) {
        ofs_log_error("ofi: SHMEM_OFI_MR_MODE='%s' is not a registration mode: use auto, basic "
                      "or scalable, optionally followed by +local and/or +endpoint",
                      ofs_g.params.OFI_MR_MODE);
        return OFS_ERR_INVAL;
    }
    /* ask for delivery completion (quiet means visible at the target); fall back.  The
     * first fi_getinfo loads the providers: without their scan of /proc/kallsyms */
    ofi_kallsyms_hide(1);
    for (int delivery = 1; delivery >= 0; delivery--) {
        h = ofi_hints(prov, delivery);
        if (!h)
            return OFS_ERR_NOMEM;
        ret = fi_getinfo(OFI_API_VERSION, NULL, NULL, 0, h, &res);
        fi_freeinfo(h);
        if (ret == 0 && res)
            res = ofi_pick_domain(res);
        if (res) {
            ofi_g.caps.delivery_complete = delivery;
            break;
        }
        res = NULL;
    }
    ofi_kallsyms_hide(0);
    if (!res) {
        ofi_list_providers(prov && *prov ? prov : "(any)");
        return OFS_ERR_NOT_FOUND;
    }
    /* chosen without being named: ask again for the progress it should run with */
    if (ofi_prov_wants_manual(res->fabric_attr->prov_name) &&
        res->domain_attr->data_progress != FI_PROGRESS_MANUAL &&
        (h = ofi_hints(res->fabric_attr->prov_name, ofi_g.caps.delivery_complete))) {
        struct fi_info *m = ofi_getinfo_same(h, res);
        if (m) {
            fi_freeinfo(res);
            res = m;
        }
    }
    /* keep the first suitable one; with remote-access events if it has them (a
     * counter of RMA/atomics aimed at us tells the progress thread to poll fast) */
    h = ofi_hints(res->fabric_attr->prov_name, ofi_g.caps.delivery_complete);
    if (h) {
        h->caps |= FI_RMA_EVENT;
        struct fi_info *ev = ofi_getinfo_same(h, res);
        if (ev) {
            fi_freeinfo(res);
            res = ev;
            ofi_g.caps.rma_event = 1;
        }
    }
    /* with delivery completion and RMA reads ordered after RMA writes (tcp;ofi_rxm,
     * sockets, udp;ofi_rxd), a blocking zero-copy put may complete once its source is
     * reusable: quiet's read of each written PE makes it visible.  The ordering is
     * asked for (reported, it is not promised). */
    uint64_t order = res->tx_attr->msg_order & res->rx_attr->msg_order & OFI_ORDER_RMA_RAW;
    struct fi_info *ord = NULL;
    ofi_prov_quirks(res->fabric_attr->prov_name, &ofi_g.caps);
    if (ofi_g.caps.delivery_complete && order && !ofi_g.caps.no_rma_order &&
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
    ofi_caps_fill(ofi_g.info, order != 0, &ofi_g.caps);
    if (!ofi_g.caps.delivery_complete)
        ofi_g.info->tx_attr->op_flags &= ~(uint64_t)FI_DELIVERY_COMPLETE;
    ofi_g.reg.granted = ofi_g.info->domain_attr->mr_mode;
    /* forced bits the provider requires anyway are not "forced" */
    ofi_g.reg.forced &= ~ofi_g.reg.granted;
    ofi_g.reg.mode = ofi_mr_mode_effective(ofi_g.reg.granted, ofi_g.reg.forced);
    return OFS_OK;
}

/* Settings that PEs must share, or they cannot talk: rxm connects only endpoints with
 * the same eager size (a PE with FI_OFI_RXM_BUFFER_SIZE=16384, the others without it,
 * hung in its first put-with-signal, every send refused), and a message longer than
 * the target's receive buffers is truncated.  Checked against every peer this PE
 * talks to, before any traffic: each PE of such a pair stops with this line. */
ofs_status_t ofi_peer_check(int pe, const struct ofi_peer_info *p, const struct ofi_peer_info *me)
{
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
            OFI_RXM_EAGER_SET);
        return OFS_ERR_INVAL;
    }
    if (p->sig_part != me->sig_part) {
        ofs_log_error(
            "ofi: PE %d sends put-with-signal messages of %llu bytes of data, this PE "
            "(%d) of %llu (0: none): SHMEM_OFI_AM_SIZE, SHMEM_OFI_AM_PART, "
            "SHMEM_OFI_BOUNCE_SIZE and SHMEM_OFI_INJECT_SIZE must be the same on every PE",
            pe, (unsigned long long)p->sig_part, ofs_g.my_pe, (unsigned long long)me->sig_part);
        return OFS_ERR_INVAL;
    }
    return OFS_OK;
}

/* A provider that can write puts in place (shm by CMA: virtual addresses, no RMA
 * ordering asked for, CMA allowed to the peer) completes a put once it is in the
 * target's memory, and quiet needs no flushing read for puts (atomics still go through
 * the target's queue).  shm tests CMA per peer; so do we, with a one-byte read of each
 * peer's data segment (the pid is in shm's address, "fi_shm://PID..."): any doubt
 * keeps the flush. */
void ofi_caps_peers_check(void)
{
    const struct fi_info *i = ofi_g.info;
    const uint64_t rma_order = FI_ORDER_RAR | FI_ORDER_RAW | FI_ORDER_RAS | FI_ORDER_WAR |
                               FI_ORDER_WAW | FI_ORDER_WAS | FI_ORDER_SAR | FI_ORDER_SAW;

    ofi_g.caps.put_in_place = 0;
    if (ofi_g.caps.delivery_complete || !ofi_g.caps.put_in_place_possible ||
        !(ofi_g.reg.mode & FI_MR_VIRT_ADDR) || (i->tx_attr->msg_order & rma_order) ||
        ofs_g.params.OFI_PUT_FLUSH)
        return;
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        char buf[OFI_NAME_MAX + 1], *end;
        const char *name;
        unsigned char byte;

        if (!ofi_g.active[pe])
            continue;
        if (!(name = ofi_peer_shm_name(pe, buf)))
            return;
        long pid = strtol(name, &end, 10);
        if (end == name || pid <= 0)
            return;
        struct iovec l = { &byte, 1 },
                     r = { (void *)(uintptr_t)ofi_g.peers[pe].base[HEAP_SEG_DATA], 1 };
        if (process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0) != 1)
            return;
    }
    ofi_g.caps.put_in_place = 1;
}
