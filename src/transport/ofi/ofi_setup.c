/*
 * OFI transport setup: fabric and domain, the target endpoint with its MRs and AV,
 * the address/key exchange, the data-path functions chosen for the job, contexts'
 * creation and destruction, and teardown.  The provider is chosen by ofi_info.c,
 * endpoints are opened by ofi_ctx_open.c.
 */
#define _GNU_SOURCE
#include "ofi_ctx.h"
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ofi_state ofi_g = { .target = { .cq_fd = -1 },
                           .ops = { .target_cq_read = ofi_target_cq_read } };

static struct ofi_peer_info ofi_me; /* what this PE published */

/* Load libfabric (SHMEM_OFI_LIBRARY, or the one configure found): libsma does not link
 * it, so that a job whose PEs all talk over shared memory never loads it.  Else one
 * line: why this PE needs it, what failed and what to install. */
static ofs_status_t ofi_lib_load(const unsigned char *peers)
{
    char err[512], why[96];
    int me = ofs_g.my_pe;

    if (ofs_fabric_load(ofs_g.params.OFI_LIBRARY, err, sizeof(err)) == 0)
        return OFS_OK;
    snprintf(why, sizeof(why), "SHMEM_LOCAL_TRANSPORT=ofi");
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        if (peers[pe] && ofs_g.node_of && ofs_g.node_of[pe] != ofs_g.node_of[me]) {
            snprintf(why, sizeof(why), "PE %d is on another node%s", pe,
                     ofs_g.params.SIM_PES_PER_NODE > 0 ? ", simulated: SHMEM_SIM_PES_PER_NODE"
                                                       : "");
            break;
        }
    }
    ofs_log_error("ofi: this job needs the OFI route (%s), which needs libfabric: %s; install "
                  "it (Debian package %s) or name it with SHMEM_OFI_LIBRARY",
                  why, err, OFS_FABRIC_PACKAGE);
    return OFS_ERR_NOT_FOUND;
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

static ofs_status_t ofi_init(const unsigned char *peers)
{
    struct ofi_peer_info me;
    size_t addrlen = sizeof(me.addr);
    ofs_status_t st;
    int ret;

    ofi_g.reg.next_key = HEAP_NSEGS;
    ofi_g.active = calloc(ofs_g.n_pes, 1);
    ofi_g.peers = calloc(ofs_g.n_pes, sizeof(*ofi_g.peers));
    if (!ofi_g.active || !ofi_g.peers)
        return OFS_ERR_NOMEM;
    memcpy(ofi_g.active, peers, ofs_g.n_pes);
    st = ofi_lib_load(peers);
    if (st != OFS_OK)
        return st;
    ofi_nofile_raise();
    st = ofi_info_choose();
    if (st != OFS_OK)
        return st;
    st = ofi_fabric_open();
    if (st == OFS_OK) {
        ofi_names_init();
        st = ofi_ctx_open(1, &ofi_g.target.ctx);
    }
    if (st != OFS_OK)
        return st;
    memset(&me, 0, sizeof(me));
    st = ofi_segs_register(&me);
    if (st != OFS_OK)
        return st;
    ret = fi_getname(&ofi_g.target.ctx->ep->fid, me.addr, &addrlen);
    if (ret)
        return ofi_err("fi_getname", ret);
    me.addrlen = (uint32_t)addrlen;
    snprintf(me.prov, sizeof(me.prov), "%s", ofi_g.info->fabric_attr->prov_name);
    /* bounce or zero-copy: the provider tells which is faster (docs/ofi-internals.md) */
    long bounce = ofs_g.params.OFI_BOUNCE_SIZE;
    if (bounce < 0)
        bounce = (long)ofi_g.caps.bounce_size_default;
    ofi_thresh_compute(ofi_g.caps.inject_size, ofi_g.caps.max_msg_size,
                       ofs_g.params.OFI_INJECT_SIZE, bounce, ofs_g.params.OFI_BOUNCE_BUFFERS,
                       ofs_g.params.OFI_MAX_CHUNK, &ofi_g.proto.thresh);
    ofs_param_resolved(OFS_PARAM_OFI_INJECT_SIZE, (long)ofi_g.proto.thresh.inject_max);
    ofs_param_resolved(OFS_PARAM_OFI_BOUNCE_SIZE, (long)ofi_g.proto.thresh.bounce_max);
    ofi_amo_setup();
    st = ofi_sig_setup();
    ofs_param_resolved(OFS_PARAM_OFI_AM_SIZE, (long)ofi_g.sig.msg_max);
    ofs_param_resolved(OFS_PARAM_OFI_AM_PART, (long)ofi_g.sig.part);
    /* the target endpoint, opened before the thresholds were known, gets bounce
     * buffers only now, and only for the messages that leave from it */
    if (st == OFS_OK && ofi_g.sig.from_target)
        st = ofi_bounce_setup(ofi_g.target.ctx);
    if (st == OFS_OK)
        st = ofi_sig_rx_setup();
    if (st != OFS_OK)
        return st;
    me.sig_part = ofi_g.sig.by_msg ? ofi_g.sig.part : 0;
    me.rxm_eager = ofi_g.caps.eager_size;
    me.pid = (uint64_t)getpid();
    me.pidns = ofs_pidns();
    ofi_me = me;
    return rt_kv_put("ofi.peer", &me, sizeof(me));
}

/* The data-path functions of the job, from the caps and the parameters (once the
 * peers are known: in-place puts are decided per peer). */
static void ofi_ops_choose(void)
{
    ofi_rma_ops_choose(&ofi_transport_ops);
    ofi_amo_ops_choose(&ofi_transport_ops);
    ofi_sig_ops_choose(&ofi_transport_ops);
}

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
            st = ofi_peer_check(pe, &ofi_g.peers[pe], &ofi_me);
            if (st != OFS_OK)
                return st;
        }
    }
    st = ofi_ctx_av_fill(ofi_g.target.ctx);
    if (st != OFS_OK)
        return st;
    ofi_caps_peers_check();
    ofi_ops_choose();
    ofi_names_guard();
    ofi_print_info(&ofi_me);
    return ofi_progress_start();
}

static void ofi_fini(void)
{
    ofi_names_unguard();
    ofi_progress_stop();
    ofi_print_fini();
    ofi_ctx_spares_free();
    ofi_segs_deregister();
    ofi_sig_rx_close(); /* the receive buffers' MR (FI_MR_LOCAL): before its endpoint */
    ofi_ctx_free(ofi_g.target.ctx);
    ofi_g.target.ctx = NULL;
    ofi_sig_rx_free();
    ofi_close(ofi_g.target.cntr ? &ofi_g.target.cntr->fid : NULL, "target counter");
    ofi_g.target.cntr = NULL;
    ofi_g.caps.rma_event = 0;
    ofi_g.ops.target_cq_read = ofi_target_cq_read;
    ofi_close(ofi_g.domain ? &ofi_g.domain->fid : NULL, "domain");
    ofi_close(ofi_g.fabric ? &ofi_g.fabric->fid : NULL, "fabric");
    ofi_g.domain = NULL;
    ofi_g.fabric = NULL;
    ofi_g.target.cq_fd = -1;
    if (ofi_g.info)
        fi_freeinfo(ofi_g.info);
    ofi_g.info = NULL;
    free(ofi_g.peers);
    free(ofi_g.active);
    ofi_g.peers = NULL;
    ofi_g.active = NULL;
}

static void *ofi_ptr(int seg, size_t off, int pe)
{
    (void)seg;
    (void)off;
    (void)pe;
    return NULL;
}

/* The data-path entries are chosen at connect (ofi_ops_choose). */
struct transport_ops ofi_transport_ops = {
    .name = "ofi",
    .init = ofi_init,
    .connect = ofi_connect,
    .quiesce = ofi_progress_stop,
    .fini = ofi_fini,
    .ctx_create = ofi_ctx_attach,
    .ctx_destroy = ofi_ctx_detach,
    .quiet = ofi_quiet,
    .gets_test = ofi_gets_test,
    .ptr = ofi_ptr,
    .progress = ofi_progress,
    .traffic = ofi_traffic,
    .wait_sleep = ofi_wait_sleep,
    .wait_sleep_lib = ofi_wait_sleep_lib,
    .attend = ofi_attend,
};
