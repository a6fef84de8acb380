/*
 * SHMEM_STATS on the routes: with statistics on, comm_init points every PE's route at
 * a counting copy of its transport's table, whose data-path entries count the
 * operation (kind, route, bytes, target PE) and call the transport's own entry.  With
 * statistics off the route tables are the transports' and nothing is tested.
 */
#include "comm.h"
#include "ofs_stats.h"

static const struct transport_ops *comm_stats_real[COMM_NTP];
static struct transport_ops comm_stats_ops[COMM_NTP];

#define COMM_STATS_ROUTE(T, R)                                                                     \
    static void st_put_##T(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, \
                           int pe)                                                                 \
    {                                                                                              \
        if (ofs_stats_on)                                                                          \
            ofs_stats_rma(OFS_STATS_PUT, R, len, pe);                                              \
        comm_stats_real[T]->put(ctx, seg, off, src, len, pe);                                      \
    }                                                                                              \
    static void st_put_nbi_##T(struct comm_ctx *ctx, int seg, size_t off, const void *src,         \
                               size_t len, int pe)                                                 \
    {                                                                                              \
        if (ofs_stats_on)                                                                          \
            ofs_stats_rma(OFS_STATS_PUT, R, len, pe);                                              \
        comm_stats_real[T]->put_nbi(ctx, seg, off, src, len, pe);                                  \
    }                                                                                              \
    static void st_get_##T(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len,       \
                           int pe)                                                                 \
    {                                                                                              \
        if (ofs_stats_on)                                                                          \
            ofs_stats_rma(OFS_STATS_GET, R, len, pe);                                              \
        comm_stats_real[T]->get(ctx, dst, seg, off, len, pe);                                      \
    }                                                                                              \
    static void st_get_nbi_##T(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len,   \
                               int pe)                                                             \
    {                                                                                              \
        if (ofs_stats_on)                                                                          \
            ofs_stats_rma(OFS_STATS_GET, R, len, pe);                                              \
        comm_stats_real[T]->get_nbi(ctx, dst, seg, off, len, pe);                                  \
    }                                                                                              \
    static void st_put_signal_##T(struct comm_ctx *ctx, int seg, size_t off, const void *src,      \
                                  size_t len, int sig_seg, size_t sig_off, uint64_t signal,        \
                                  int sig_op, int pe, int nbi)                                     \
    {                                                                                              \
        if (ofs_stats_on)                                                                          \
            ofs_stats_rma(OFS_STATS_SIGNAL, R, len, pe);                                           \
        comm_stats_real[T]->put_signal(ctx, seg, off, src, len, sig_seg, sig_off, signal, sig_op,  \
                                       pe, nbi);                                                   \
    }                                                                                              \
    static void st_amo_##T(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt, int seg, \
                           size_t off, const void *operand, const void *cmp, void *result, int pe, \
                           int nbi)                                                                \
    {                                                                                              \
        if (ofs_stats_on)                                                                          \
            ofs_stats_rma(OFS_STATS_AMO, R, comm_dtype_size(dt), pe);                              \
        comm_stats_real[T]->amo(ctx, op, dt, seg, off, operand, cmp, result, pe, nbi);             \
    }

COMM_STATS_ROUTE(COMM_TP_SHM, OFS_STATS_SHM)
COMM_STATS_ROUTE(COMM_TP_OFI, OFS_STATS_OFI)

#define COMM_STATS_OPS(T)                                 \
    do {                                                  \
        comm_stats_ops[T] = *comm_stats_real[T];          \
        comm_stats_ops[T].put = st_put_##T;               \
        comm_stats_ops[T].put_nbi = st_put_nbi_##T;       \
        comm_stats_ops[T].get = st_get_##T;               \
        comm_stats_ops[T].get_nbi = st_get_nbi_##T;       \
        comm_stats_ops[T].put_signal = st_put_signal_##T; \
        comm_stats_ops[T].amo = st_amo_##T;               \
    } while (0)

void comm_stats_routes(const struct transport_ops *const tps[COMM_NTP])
{
    comm_stats_real[COMM_TP_SHM] = tps[COMM_TP_SHM];
    comm_stats_real[COMM_TP_OFI] = tps[COMM_TP_OFI];
    COMM_STATS_OPS(COMM_TP_SHM);
    COMM_STATS_OPS(COMM_TP_OFI);
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        comm_g.rma[pe] =
            &comm_stats_ops[comm_g.rma[pe] == tps[COMM_TP_SHM] ? COMM_TP_SHM : COMM_TP_OFI];
        comm_g.amo[pe] =
            &comm_stats_ops[comm_g.amo[pe] == tps[COMM_TP_SHM] ? COMM_TP_SHM : COMM_TP_OFI];
    }
}
