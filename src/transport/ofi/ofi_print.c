/*
 * The SHMEM_INFO lines of the OFI transport (PE 0): the provider, the registration
 * mode, the protocols and thresholds chosen at init, and why.
 */
#include "ofi_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ofi_print_info(const struct ofi_peer_info *me)
{
    const struct fi_info *i = ofi_g.info;
    const struct ofi_thresh *t = &ofi_g.proto.thresh;
    uint64_t m = ofi_g.reg.mode, g = ofi_g.reg.granted, f = ofi_g.reg.forced;

    if (!ofs_g.params.INFO || ofs_g.my_pe != 0)
        return;
    printf("ofishmem ofi: provider %s, fabric %s, domain %s%s\n", i->fabric_attr->prov_name,
           i->fabric_attr->name, i->domain_attr->name,
           *ofs_g.params.OFI_DOMAIN || *ofs_g.params.OFI_FABRIC
               ? " (chosen by SHMEM_OFI_DOMAIN/SHMEM_OFI_FABRIC)"
               : "");
    char addr[128] = "";
    size_t alen = sizeof(addr);
    if (fi_av_straddr(ofi_g.target.ctx->av, me->addr, addr, &alen))
        printf("ofishmem ofi: endpoint %s%s\n", addr,
               ofi_g.loopback ? " (loopback: every PE on this node, FI_TCP_IFACE/FI_SOCKETS_IFACE "
                                "not set)"
                              : "");
    printf(
        "ofishmem ofi: MR mode%s%s%s%s%s%s%s%s%s%s%s, %s completion, %s progress%s\n",
        m & FI_MR_VIRT_ADDR ? " VIRT_ADDR" : "", m & FI_MR_PROV_KEY ? " PROV_KEY" : "",
        m & FI_MR_ALLOCATED ? " ALLOCATED" : "", m & FI_MR_LOCAL ? " LOCAL" : "",
        m & FI_MR_ENDPOINT ? " ENDPOINT" : "", m & OFI_MR_MODES ? "" : " (none)",
        g & FI_MR_BASIC ? " (granted as FI_MR_BASIC)" : "",
        g & FI_MR_SCALABLE ? " (granted as FI_MR_SCALABLE)" : "", f ? " (forced:" : "",
        f & FI_MR_LOCAL ? " LOCAL" : "",
        f & FI_MR_ENDPOINT
            ? (ofi_g.reg.bind_ret ? " ENDPOINT, provider has no fi_mr_bind)" : " ENDPOINT)")
        : f ? ")"
            : "",
        ofi_g.caps.delivery_complete ? "delivery" : "transmit",
        ofi_g.caps.manual_progress ? "manual" : "auto",
        ofi_g.caps.manual_progress
            ? (ofs_g.params.OFI_PROGRESS_INTERVAL > 0
                   ? (ofi_g.target.cq_fd >= 0 ? " (thread sleeps on the CQ fd)" : " (thread polls)")
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
           ofi_g.caps.ordered_waw ? "by ordering" : "waits for completion",
           mo & FI_ORDER_WAW ? " WAW" : "", mo & FI_ORDER_RAW ? " RAW" : "",
           mo & FI_ORDER_SAW ? " SAW" : "", mo & FI_ORDER_SAS ? " SAS" : "",
           ofi_g.proto.amo_fallbacks);
    if (ofi_g.caps.fetch_atomics_broken)
        printf("ofishmem ofi: fetching atomics unavailable: %s\n", ofi_g.caps.fetch_atomics_broken);
    if (ofi_g.sig.by_msg) {
        char eager[64] = "";
        if (ofi_g.caps.eager_size)
            snprintf(eager, sizeof(eager), ", rxm eager size %zu (FI_OFI_RXM_BUFFER_SIZE)",
                     ofi_g.caps.eager_size);
        printf("ofishmem ofi: put-with-signal: by message up to %zu B of data (applied by the "
               "target; %zu B per message%s), larger: the data written, then the signal by "
               "message; messages leave from %s (SHMEM_OFI_AM_EP=%s%s)\n",
               ofi_g.sig.msg_max, ofi_g.sig.part, eager,
               ofi_g.sig.from_target ? "the target endpoint (private contexts and to this PE: "
                                       "the context's)"
                                     : "each context's endpoint",
               ofs_param_word(OFS_PARAM_OFI_AM_EP, ofs_g.params.OFI_AM_EP),
               ofs_g.params.OFI_AM_EP != OFS_OFI_AM_EP_AUTO ? ""
               : ofs_g.oversubscribed                       ? ": more PEs than CPUs on this node"
                                                            : ": a CPU per PE on this node");
    } else
        printf("ofishmem ofi: put-with-signal: a write and an atomic (not by message: %s)\n",
               ofi_g.sig.why_not ? ofi_g.sig.why_not : "?");
    if (ofi_g.caps.eager_size) {
        const char *rx = getenv("FI_OFI_RXM_MSG_RX_SIZE"), *srx = getenv("FI_OFI_RXM_USE_SRX");
        const char *cm = getenv("FI_OFI_RXM_CM_PROGRESS_INTERVAL");
        printf("ofishmem ofi: rxm: eager size %zu B (FI_OFI_RXM_BUFFER_SIZE), receive buffers "
               "FI_OFI_RXM_MSG_RX_SIZE=%s FI_OFI_RXM_USE_SRX=%s, connection events every "
               "FI_OFI_RXM_CM_PROGRESS_INTERVAL=%s us\n",
               ofi_g.caps.eager_size, rx ? rx : "(rxm's default)", srx ? srx : "(rxm's default)",
               cm ? cm : "(rxm's default)");
    }
    if (ofi_g.limits.nofile != ofi_g.limits.nofile_was)
        printf("ofishmem ofi: open-file limit raised from %llu to %llu (SHMEM_OFI_RAISE_NOFILE)\n",
               ofi_g.limits.nofile_was, ofi_g.limits.nofile);
    else if (ofi_g.limits.nofile)
        printf("ofishmem ofi: open-file limit %llu\n", ofi_g.limits.nofile);
    else
        printf("ofishmem ofi: open-file limit unlimited or unknown\n");
    printf("ofishmem ofi: quiet %s; progress thread %s\n",
           ofi_g.proto.put_local ? "waits for delivery, flushes blocking zero-copy puts (locally "
                                   "complete) with a read per written PE"
           : ofi_g.caps.delivery_complete ? "waits for delivery"
           : ofi_g.caps.put_in_place      ? "waits for puts (in place by CMA), flushes atomics"
                                          : "flushes with an atomic read per written PE",
           ofi_g.target.cntr         ? "polls right after remote accesses (FI_RMA_EVENT counter)"
           : ofi_g.target.cq_fd >= 0 ? "polls right after wake-ups of the CQ fd"
                                     : "polls at intervals");
    fflush(stdout);
}

/* At finalize: how many descriptors the forced FI_MR_LOCAL check verified. */
void ofi_print_fini(void)
{
    if ((ofi_g.reg.forced & FI_MR_LOCAL) && ofs_g.params.INFO && ofs_g.my_pe == 0) {
        printf("ofishmem ofi: FI_MR_LOCAL check: %lu local descriptors verified\n",
               ofi_mrchk_count());
        fflush(stdout);
    }
}
