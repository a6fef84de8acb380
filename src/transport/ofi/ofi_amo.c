/*
 * OFI atomics.  Every (op, type, fetching) triple is mapped once at init to a
 * libfabric (op, datatype) and checked with fi_query_atomic; what the provider does
 * not offer natively is done by a compare-and-swap loop on the same-width unsigned
 * type (also provider-executed, so atomicity holds against native ops on the word).
 * Non-fetching atomics use fi_inject_atomic (operand reusable at once) and count on
 * the put counter; fetching ones count on the get counter and, when nbi, write their
 * result by the next quiet.
 */
#include "ofi_ctx.h"

#include <string.h>

static enum fi_datatype ofi_dt_native(enum comm_dtype dt)
{
    static const enum fi_datatype map[COMM_DT_COUNT] = {
        [COMM_DT_I32] = FI_INT32,  [COMM_DT_I64] = FI_INT64,   [COMM_DT_U32] = FI_UINT32,
        [COMM_DT_U64] = FI_UINT64, [COMM_DT_FLOAT] = FI_FLOAT, [COMM_DT_DOUBLE] = FI_DOUBLE,
    };
    return map[dt];
}

static enum fi_datatype ofi_dt_bits(enum comm_dtype dt)
{
    return comm_dtype_size(dt) == 4 ? FI_UINT32 : FI_UINT64;
}

static const enum fi_op ofi_op_map[COMM_AMO_COUNT] = {
    [COMM_AMO_SET] = FI_ATOMIC_WRITE, [COMM_AMO_ADD] = FI_SUM,  [COMM_AMO_AND] = FI_BAND,
    [COMM_AMO_OR] = FI_BOR,           [COMM_AMO_XOR] = FI_BXOR, [COMM_AMO_FETCH] = FI_ATOMIC_READ,
    [COMM_AMO_CSWAP] = FI_CSWAP,
};

static int ofi_amo_supported(enum fi_op op, enum fi_datatype dt, int fetch)
{
    struct fi_atomic_attr attr;
    uint64_t flags = op == FI_CSWAP ? FI_COMPARE_ATOMIC : fetch ? FI_FETCH_ATOMIC : 0;

    memset(&attr, 0, sizeof(attr));
    return fi_query_atomic(ofi_g.domain, dt, op, &attr, flags) == 0 && attr.count >= 1;
}

void ofi_amo_setup(void)
{
    ofi_g.proto.amo_fallbacks = 0;
    for (int op = 0; op < COMM_AMO_COUNT; op++) {
        for (int dt = 0; dt < COMM_DT_COUNT; dt++) {
            for (int fetch = 0; fetch < 2; fetch++) {
                struct ofi_amo_how *h = &ofi_g.proto.amo[op][dt][fetch];
                /* FETCH and CSWAP always fetch */
                int f = fetch || op == COMM_AMO_FETCH || op == COMM_AMO_CSWAP;

                /* only ADD works on the value; the rest act on the bit pattern */
                h->op = ofi_op_map[op];
                h->dt = op == COMM_AMO_ADD ? ofi_dt_native(dt) : ofi_dt_bits(dt);
                h->mode = ofi_amo_supported(h->op, h->dt, f) ? OFI_AMO_NATIVE : OFI_AMO_CASLOOP;
                /* testing knob: exercise the fallback on providers that need none */
                if (ofs_g.params.OFI_AMO_CASLOOP && op != COMM_AMO_CSWAP)
                    h->mode = OFI_AMO_CASLOOP;
                if (f && ofi_g.caps.fetch_atomics_broken)
                    h->mode = OFI_AMO_UNAVAIL;
                if (h->mode == OFI_AMO_CASLOOP && f == fetch)
                    ofi_g.proto.amo_fallbacks++;
            }
        }
    }
    ofi_transport_ops.no_fetch = ofi_g.caps.fetch_atomics_broken;
    if (ofi_g.caps.fetch_atomics_broken) {
        if (ofs_g.my_pe == 0)
            ofs_log_warn("ofi: %s: fetching atomics are unavailable (a program using one "
                         "stops with an error); RMA and non-fetching atomics work",
                         ofi_g.caps.fetch_atomics_broken);
        return;
    }
    for (int w = 0; w < 2; w++) {
        enum fi_datatype d = w ? FI_UINT64 : FI_UINT32;
        if (!ofi_amo_supported(FI_CSWAP, d, 1))
            ofs_log_warn("ofi: provider %s has no %d-bit compare-swap: atomics it lacks will fail",
                         ofi_g.caps.prov_name, w ? 64 : 32);
    }
}

static OFS_NORETURN void ofi_amo_fatal(const char *call, ssize_t ret, const struct ofi_amo_how *h,
                                       int pe, uint64_t raddr, uint64_t key)
{
    ofi_fatal_call(call, ret, "op %d, type %d, PE %d, raddr 0x%llx, key 0x%llx", (int)h->op,
                   (int)h->dt, pe, (unsigned long long)raddr, (unsigned long long)key);
}

/* A non-fetching atomic with delivery completion: complete once applied at the
 * target.  Not FI_INJECT: shm crashes on FI_INJECT|FI_DELIVERY_COMPLETE atomics, so
 * the operand is kept in a slot. */
static void ofi_amo_post_dc(struct ofi_ctx *c, const struct ofi_amo_how *h, size_t sz, int seg,
                            size_t off, const void *operand, int pe)
{
    uint64_t raddr = ofi_raddr(seg, off, pe), key = ofi_g.peers[pe].key[seg];
    uint64_t *slot = ofi_ctx_slot(c);
    struct fi_ioc ioc = { .addr = slot, .count = 1 };
    struct fi_rma_ioc rioc = { .addr = raddr, .count = 1, .key = key };
    void *desc = NULL;
    struct fid_mr *tmp = NULL;
    unsigned iter = 0;
    ssize_t ret;

    memcpy(slot, operand, sz);
    if (ofi_g.reg.mode & FI_MR_LOCAL)
        desc = ofi_local_desc(c, slot, sz, FI_WRITE, &tmp);
    struct fi_msg_atomic msg = { .msg_iov = &ioc,
                                 .desc = &desc,
                                 .iov_count = 1,
                                 .addr = c->addr[pe],
                                 .rma_iov = &rioc,
                                 .rma_iov_count = 1,
                                 .datatype = h->dt,
                                 .op = h->op,
                                 .context = ofi_pe_tag(pe) };
    while ((ret = fi_atomicmsg(c->ep, &msg, FI_DELIVERY_COMPLETE)) == -FI_EAGAIN)
        ofi_ctx_progress(c, &iter);
    if (OFS_UNLIKELY(ret))
        ofi_amo_fatal("fi_atomicmsg", ret, h, pe, raddr, key);
    ofi_ctx_put_issued(c, pe);
    if (tmp) {
        ofi_ctx_wait(c, 1, 0);
        fi_close(&tmp->fid);
    }
}

/* A non-fetching atomic with transmit completion: injected, its PE marked for quiet's
 * flushing read. */
static void ofi_amo_inject(struct ofi_ctx *c, const struct ofi_amo_how *h, int seg, size_t off,
                           const void *operand, int pe)
{
    uint64_t raddr = ofi_raddr(seg, off, pe), key = ofi_g.peers[pe].key[seg];
    unsigned iter = 0;
    ssize_t ret;

    ofi_ctx_mark(c, pe);
    while ((ret = fi_inject_atomic(c->ep, operand, 1, c->addr[pe], raddr, key, h->dt, h->op)) ==
           -FI_EAGAIN)
        ofi_ctx_progress(c, &iter);
    if (OFS_UNLIKELY(ret))
        ofi_amo_fatal("fi_inject_atomic", ret, h, pe, raddr, key);
    ofi_ctx_put_issued(c, pe);
}

/* Issue one native fetching atomic; it waits unless nbi. */
static void ofi_amo_native(struct ofi_ctx *c, const struct ofi_amo_how *h, size_t sz, int seg,
                           size_t off, const void *operand, const void *cmp, void *result, int pe,
                           int nbi)
{
    uint64_t raddr = ofi_raddr(seg, off, pe), key = ofi_g.peers[pe].key[seg];
    uint64_t dummy = 0;
    struct fid_mr *tmp_o = NULL, *tmp_c = NULL, *tmp_r = NULL;
    unsigned iter = 0;
    ssize_t ret;

    if (!operand)
        operand = &dummy;
    /* an nbi operand may live on the caller's stack: keep a copy until quiet.  Under
     * FI_MR_LOCAL operands and a blocking result go through the context's registered
     * slots too, so no atomic needs a registration of its own. */
    int local = (ofi_g.reg.mode & FI_MR_LOCAL) != 0;
    void *user_result = NULL;
    if (local && !nbi) {
        user_result = result;
        result = ofi_ctx_slot(c);
    }
    if (nbi || local) {
        uint64_t *slot = ofi_ctx_slot(c);
        memcpy(&slot[0], operand, sz);
        operand = &slot[0];
        if (cmp) {
            memcpy(&slot[1], cmp, sz);
            cmp = &slot[1];
        }
    }
    void *od = ofi_local_desc(c, operand, sz, FI_WRITE, &tmp_o);
    void *rd = ofi_local_desc(c, result, sz, FI_READ, &tmp_r);
    if (h->op == FI_CSWAP) {
        void *cd = ofi_local_desc(c, cmp, sz, FI_WRITE, &tmp_c);
        while ((ret = fi_compare_atomic(c->ep, operand, 1, od, cmp, cd, result, rd, c->addr[pe],
                                        raddr, key, h->dt, h->op, ofi_pe_tag(pe))) == -FI_EAGAIN)
            ofi_ctx_progress(c, &iter);
        if (OFS_UNLIKELY(ret))
            ofi_fatal_call("fi_compare_atomic", ret, "type %d, PE %d, raddr 0x%llx, key 0x%llx",
                           (int)h->dt, pe, (unsigned long long)raddr, (unsigned long long)key);
    } else {
        while ((ret = fi_fetch_atomic(c->ep, operand, 1, od, result, rd, c->addr[pe], raddr, key,
                                      h->dt, h->op, ofi_pe_tag(pe))) == -FI_EAGAIN)
            ofi_ctx_progress(c, &iter);
        if (OFS_UNLIKELY(ret))
            ofi_amo_fatal("fi_fetch_atomic", ret, h, pe, raddr, key);
    }
    c->get_issued++;
    if (!nbi || tmp_o || tmp_c || tmp_r)
        ofi_ctx_wait(c, 0, 1);
    if (tmp_o)
        fi_close(&tmp_o->fid);
    if (tmp_c)
        fi_close(&tmp_c->fid);
    if (tmp_r)
        fi_close(&tmp_r->fid);
    if (user_result)
        memcpy(user_result, result, sz);
}

/* A fetching atomic the provider would crash on (amo_fetch_broken). */
static OFS_NORETURN void ofi_amo_unavail(enum comm_amo_op op, enum comm_dtype dt, int pe)
{
    static const char *const ops[COMM_AMO_COUNT] = { "swap/set",    "fetch-add", "fetch-and",
                                                     "fetch-or",    "fetch-xor", "fetch",
                                                     "compare-swap" };
    static const char *const dts[COMM_DT_COUNT] = { "int32",  "int64", "uint32",
                                                    "uint64", "float", "double" };

    ofs_fatal(1,
              "ofi: atomic %s on %s to PE %d cannot run: %s; use another provider (e.g. "
              "SHMEM_OFI_PROVIDER='tcp;ofi_rxm')",
              ops[op], dts[dt], pe, ofi_g.caps.fetch_atomics_broken);
}

/* New value of a word for the compare-swap fallback. */
static uint64_t ofi_amo_apply(enum comm_amo_op op, enum comm_dtype dt, uint64_t old, uint64_t v)
{
    switch (op) {
    case COMM_AMO_SET: return v;
    case COMM_AMO_AND: return old & v;
    case COMM_AMO_OR: return old | v;
    case COMM_AMO_XOR: return old ^ v;
    case COMM_AMO_ADD:
        if (dt == COMM_DT_FLOAT) {
            float a, b;
            uint32_t o32 = (uint32_t)old, v32 = (uint32_t)v, r;
            memcpy(&a, &o32, 4);
            memcpy(&b, &v32, 4);
            a += b;
            memcpy(&r, &a, 4);
            return r;
        }
        if (dt == COMM_DT_DOUBLE) {
            double a, b;
            memcpy(&a, &old, 8);
            memcpy(&b, &v, 8);
            a += b;
            memcpy(&old, &a, 8);
            return old;
        }
        return old + v;
    default: return old;
    }
}

static void ofi_amo_casloop(struct ofi_ctx *c, enum comm_amo_op op, enum comm_dtype dt, int seg,
                            size_t off, const void *operand, void *result, int pe)
{
    size_t sz = comm_dtype_size(dt);
    const struct ofi_amo_how *cas =
        &ofi_g.proto.amo[COMM_AMO_CSWAP][sz == 4 ? COMM_DT_U32 : COMM_DT_U64][1];
    uint64_t v = 0, old = 0, nv, prev = 0;

    if (cas->mode == OFI_AMO_UNAVAIL)
        ofi_amo_unavail(op, dt, pe);
    if (cas->mode != OFI_AMO_NATIVE)
        ofs_fatal(1,
                  "ofi: provider %s supports neither atomic op %d on type %d nor a %zu-bit "
                  "compare-swap to emulate it",
                  ofi_g.caps.prov_name, (int)op, (int)dt, sz * 8);
    if (operand)
        memcpy(&v, operand, sz);
    /* compare-swap of 0 with 0 reads the word without changing it */
    ofi_amo_native(c, cas, sz, seg, off, &old, &old, &prev, pe, 0);
    old = prev;
    while (op != COMM_AMO_FETCH) {
        nv = ofi_amo_apply(op, dt, old, v);
        if (sz == 4)
            nv &= 0xffffffffu;
        ofi_amo_native(c, cas, sz, seg, off, &nv, &old, &prev, pe, 0);
        if (prev == old)
            break;
        old = prev;
    }
    if (result)
        memcpy(result, &old, sz);
}

/* The locked part of an atomic; dc (delivery completion) is a constant in each
 * instance, so that no atomic tests the job's settings. */
static inline void ofi_amo_body(struct ofi_ctx *c, enum comm_amo_op op, enum comm_dtype dt, int seg,
                                size_t off, const void *operand, const void *cmp, void *result,
                                int pe, int nbi, const int dc)
{
    int fetch = result != NULL || op == COMM_AMO_FETCH || op == COMM_AMO_CSWAP;
    const struct ofi_amo_how *h = &ofi_g.proto.amo[op][dt][fetch];
    uint64_t scratch;

    if (fetch && !result)
        result = &scratch, nbi = 0;
    /* Without delivery completion a non-fetching atomic is injected and its PE marked
     * for quiet's flushing read; but the first one on an idle context goes as its
     * fetching twin, complete once applied, which needs no flush: an atomic followed
     * by quiet then costs one round trip, not two (docs/ofi-internals.md). */
    if (!fetch && !dc && ofi_g.proto.amo[op][dt][1].mode == OFI_AMO_NATIVE && ofi_ctx_idle(c)) {
        h = &ofi_g.proto.amo[op][dt][1];
        result = ofi_ctx_slot(c);
        nbi = 1;
    }
    if (OFS_LIKELY(h->mode == OFI_AMO_NATIVE)) {
        if (result)
            ofi_amo_native(c, h, comm_dtype_size(dt), seg, off, operand, cmp, result, pe, nbi);
        else if (dc)
            ofi_amo_post_dc(c, h, comm_dtype_size(dt), seg, off, operand, pe);
        else
            ofi_amo_inject(c, h, seg, off, operand, pe);
    } else if (h->mode == OFI_AMO_UNAVAIL) {
        ofi_amo_unavail(op, dt, pe);
    } else {
        ofi_amo_casloop(c, op, dt, seg, off, operand, result, pe);
    }
}

static inline void ofi_amo_entry(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt,
                                 int seg, size_t off, const void *operand, const void *cmp,
                                 void *result, int pe, int nbi, const int mt, const int dc)
{
    struct ofi_ctx *c = ofi_ctx_of(ctx);
    int l = mt ? ofi_ctx_lock_mt(c) : 0;

    ofi_sig_order(c, pe);
    ofi_amo_body(c, op, dt, seg, off, operand, cmp, result, pe, nbi, dc);
    ofi_ctx_unlock(c, l);
}

/* the locked part (ofi_g.ops.amo) and the entries of both thread levels, for one
 * completion */
#define OFI_AMO_INSTANCES(name, dc)                                                               \
    static void ofi_amo_locked_##name(struct ofi_ctx *c, enum comm_amo_op op, enum comm_dtype dt, \
                                      int seg, size_t off, const void *operand, const void *cmp,  \
                                      void *result, int pe, int nbi)                              \
    {                                                                                             \
        ofi_amo_body(c, op, dt, seg, off, operand, cmp, result, pe, nbi, dc);                     \
    }                                                                                             \
    static void ofi_amo_st_##name(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt,  \
                                  int seg, size_t off, const void *operand, const void *cmp,      \
                                  void *result, int pe, int nbi)                                  \
    {                                                                                             \
        ofi_amo_entry(ctx, op, dt, seg, off, operand, cmp, result, pe, nbi, 0, dc);               \
    }                                                                                             \
    static void ofi_amo_mt_##name(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt,  \
                                  int seg, size_t off, const void *operand, const void *cmp,      \
                                  void *result, int pe, int nbi)                                  \
    {                                                                                             \
        ofi_amo_entry(ctx, op, dt, seg, off, operand, cmp, result, pe, nbi, 1, dc);               \
    }

OFI_AMO_INSTANCES(delivery, 1)
OFI_AMO_INSTANCES(transmit, 0)

void ofi_amo_ops_choose(struct transport_ops *t)
{
    int mt = ofs_g.thread_level == OFI_THREAD_MULTIPLE;

    if (ofi_g.caps.delivery_complete) {
        t->amo = mt ? ofi_amo_mt_delivery : ofi_amo_st_delivery;
        ofi_g.ops.amo = ofi_amo_locked_delivery;
    } else {
        t->amo = mt ? ofi_amo_mt_transmit : ofi_amo_st_transmit;
        ofi_g.ops.amo = ofi_amo_locked_transmit;
    }
}
