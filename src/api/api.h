/*
 * api.h: what the generated typed entry points (src/api/gen_*.c) call.  Argument
 * checks wrap ofs_check.h (compiled out by --disable-error-checking).  Overlap (a
 * transfer to this PE itself) and an atomic's alignment cost a compare inline and are
 * always on; the costlier block check of collectives runs only when SHMEM_DEBUG is set.  The point-to-point
 * synchronization loops live in sync.c.
 */
#ifndef OFS_API_IMPL_H
#define OFS_API_IMPL_H

#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"
#include "ofs_stats.h"

#define API_CMP_NE SHMEM_CMP_NE

/* The kind column of the type table (mpp/shmem_types.m4), passed by the generated
 * routines. */
enum api_kind {
    API_KIND_UNSIGNED = 0,
    API_KIND_SIGNED = 1,
    API_KIND_FLOAT = 2,
    API_KIND_COMPLEX = 3
};

/* AMO element type from the type table kind and size; constant-folded in every
 * generated routine. */
static inline enum comm_dtype api_dt(int kind, size_t size)
{
    if (kind == API_KIND_FLOAT)
        return size == 4 ? COMM_DT_FLOAT : COMM_DT_DOUBLE;
    if (kind == API_KIND_SIGNED)
        return size == 4 ? COMM_DT_I32 : COMM_DT_I64;
    return size == 4 ? COMM_DT_U32 : COMM_DT_U64;
}

/* Checks of rare cases (out of line: they are cold). */
void api_debug_rma(const char *routine, const void *dest, const void *source, size_t len, int pe)
    OFS_HIDDEN;
void api_debug_align(const char *routine, const char *arg, const void *addr, size_t align)
    OFS_HIDDEN;
void api_debug_block(const char *routine, const char *arg, const void *addr, size_t len) OFS_HIDDEN;
void api_bad_sig_op(const char *routine, int sig_op) OFS_NORETURN OFS_HIDDEN;
void api_bad_stride(const char *routine, const char *arg, ptrdiff_t stride) OFS_NORETURN OFS_HIDDEN;

#ifdef OFS_ERROR_CHECKING
static OFS_ALWAYS_INLINE void api_chk_ctx(const char *r, struct comm_ctx *ctx)
{
    ofs_check_ctx(r, ctx); /* SHMEM_CTX_DEFAULT: one compare; others: range, slot, magic */
}
#else
static inline void api_chk_ctx(const char *r, struct comm_ctx *ctx)
{
    (void)r;
    (void)ctx;
}
#endif

/* OpenSHMEM 1.5: point-to-point routines on a context created from a team take PE
 * numbers relative to that team; translated to world numbers here (ctx.c) */
int api_team_pe(const char *r, struct comm_ctx *ctx, int pe) OFS_HIDDEN;
OFS_CHECK_INLINE int api_ctx_pe(const char *r, struct comm_ctx *ctx, int pe)
{
    if (OFS_LIKELY(ctx == NULL || ctx->team == NULL || ctx->team == &shmem_internal_team_world))
        return pe;
    return api_team_pe(r, ctx, pe);
}

/* nelems elements of es bytes (the generated wrappers): overflow-checked, so that
 * (1 << 61) + 1 longs is an error and not 8 bytes */
OFS_CHECK_INLINE size_t api_bytes(const char *r, const char *arg, size_t nelems, size_t es)
{
    return ofs_check_mul(r, arg, nelems, nelems, es);
}

/* put/get checks return the segment and offset of the symmetric side for comm_*_seg,
 * or -1 when len is 0: then nothing moves, and either pointer may be NULL (spec) */
OFS_CHECK_INLINE int api_chk_put(const char *r, struct comm_ctx *ctx, const void *dest,
                                 const void *src, size_t len, int pe, size_t *off_p)
{
    int seg;
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    seg = ofs_check_sym_seg(r, "dest", dest, len, off_p);
    ofs_check_nonnull(r, "source", src, len);
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(pe == ofs_g.my_pe))
        api_debug_rma(r, dest, src, len, pe);
#endif
    return seg;
}

OFS_CHECK_INLINE int api_chk_get(const char *r, struct comm_ctx *ctx, const void *dest,
                                 const void *src, size_t len, int pe, size_t *off_p)
{
    int seg;
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    seg = ofs_check_sym_seg(r, "source", src, len, off_p);
    ofs_check_nonnull(r, "dest", dest, len);
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(pe == ofs_g.my_pe))
        api_debug_rma(r, dest, src, len, pe);
#endif
    return seg;
}

void api_bad_extent(const char *r, const char *st_arg, ptrdiff_t stride, const char *cnt_arg,
                    size_t cnt, size_t bsize, size_t elem) OFS_NORETURN OFS_HIDDEN;
/* Bytes spanned by nblocks blocks of bsize elements of elem bytes, block starts stride
 * elements apart: ((nblocks - 1) * stride + bsize) * elem, 0 when there is nothing;
 * overflow-checked, and reported with the stride and count arguments (st_arg, cnt_arg) */
OFS_CHECK_INLINE size_t api_extent_b(const char *r, const char *st_arg, ptrdiff_t stride,
                                     const char *cnt_arg, size_t bsize, size_t nblocks, size_t elem)
{
    size_t e;
    if (nblocks == 0 || bsize == 0)
        return 0;
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(__builtin_mul_overflow(nblocks - 1, (size_t)stride, &e) |
                     __builtin_add_overflow(e, bsize, &e) | __builtin_mul_overflow(e, elem, &e)))
        api_bad_extent(r, st_arg, stride, cnt_arg, nblocks, bsize, elem);
#else
    (void)r;
    (void)st_arg;
    (void)cnt_arg;
    e = ((nblocks - 1) * (size_t)stride + bsize) * elem;
#endif
    return e;
}

OFS_CHECK_INLINE void api_chk_strides(const char *r, ptrdiff_t dst, ptrdiff_t sst)
{
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(dst < 1))
        api_bad_stride(r, "dst", dst);
    if (OFS_UNLIKELY(sst < 1))
        api_bad_stride(r, "sst", sst);
#else
    (void)r;
    (void)dst;
    (void)sst;
#endif
}

/* the part of the strided checks that is not about buffers; then the remote side must
 * be symmetric over its whole extent and the local one not NULL, both extents
 * overflow-checked (api_extent_b) */
OFS_CHECK_INLINE void api_chk_strided(const char *r, struct comm_ctx *ctx, ptrdiff_t dst,
                                      ptrdiff_t sst, int pe)
{
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    api_chk_strides(r, dst, sst);
}

OFS_CHECK_INLINE void api_chk_ibput(const char *r, struct comm_ctx *ctx, const void *dest,
                                    const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                                    size_t nblocks, size_t elem, int pe)
{
    api_chk_strided(r, ctx, dst, sst, pe);
    ofs_check_sym(r, "dest", dest, api_extent_b(r, "dst", dst, "nblocks", bsize, nblocks, elem));
    ofs_check_nonnull(r, "source", src,
                      api_extent_b(r, "sst", sst, "nblocks", bsize, nblocks, elem));
}

OFS_CHECK_INLINE void api_chk_ibget(const char *r, struct comm_ctx *ctx, const void *dest,
                                    const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                                    size_t nblocks, size_t elem, int pe)
{
    api_chk_strided(r, ctx, dst, sst, pe);
    ofs_check_sym(r, "source", src, api_extent_b(r, "sst", sst, "nblocks", bsize, nblocks, elem));
    ofs_check_nonnull(r, "dest", dest,
                      api_extent_b(r, "dst", dst, "nblocks", bsize, nblocks, elem));
}

OFS_CHECK_INLINE void api_chk_iput(const char *r, struct comm_ctx *ctx, const void *dest,
                                   const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                   size_t elem, int pe)
{
    api_chk_strided(r, ctx, dst, sst, pe);
    ofs_check_sym(r, "dest", dest, api_extent_b(r, "dst", dst, "nelems", 1, nelems, elem));
    ofs_check_nonnull(r, "source", src, api_extent_b(r, "sst", sst, "nelems", 1, nelems, elem));
}

OFS_CHECK_INLINE void api_chk_iget(const char *r, struct comm_ctx *ctx, const void *dest,
                                   const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                   size_t elem, int pe)
{
    api_chk_strided(r, ctx, dst, sst, pe);
    ofs_check_sym(r, "source", src, api_extent_b(r, "sst", sst, "nelems", 1, nelems, elem));
    ofs_check_nonnull(r, "dest", dest, api_extent_b(r, "dst", dst, "nelems", 1, nelems, elem));
}

OFS_CHECK_INLINE void api_chk_put_signal(const char *r, struct comm_ctx *ctx, const void *dest,
                                         const void *src, size_t len, const uint64_t *sig_addr,
                                         int sig_op, int pe)
{
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    ofs_check_sym(r, "dest", dest, len); /* comm_put_signal looks it up itself */
    ofs_check_nonnull(r, "source", src, len);
    ofs_check_sym(r, "sig_addr", sig_addr, sizeof(uint64_t));
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(pe == ofs_g.my_pe))
        api_debug_rma(r, dest, src, len, pe);
    if (OFS_UNLIKELY(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD))
        api_bad_sig_op(r, sig_op);
#endif
}

/* put-with-signal of no data still updates the signal (sync.c) */
void api_signal_only(struct comm_ctx *ctx, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
    OFS_HIDDEN;
OFS_CHECK_INLINE void api_put_signal(struct comm_ctx *ctx, void *dest, const void *src, size_t len,
                                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                     int nbi)
{
    if (OFS_UNLIKELY(len == 0))
        api_signal_only(ctx, sig_addr, signal, sig_op, pe);
    else
        comm_put_signal(ctx, dest, src, len, sig_addr, signal, sig_op, pe, nbi);
}

/* AMO checks return the segment and offset of dest for comm_amo_seg */
OFS_CHECK_INLINE int api_chk_amo(const char *r, struct comm_ctx *ctx, const void *dest, size_t size,
                                 int pe, size_t *off_p)
{
    int seg;
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    seg = ofs_check_sym_seg(r, "dest", dest, size, off_p);
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY((uintptr_t)dest & (size - 1)))
        api_debug_align(r, "dest", dest, size);
#endif
    return seg;
}
OFS_CHECK_INLINE int api_chk_amo_nbi(const char *r, struct comm_ctx *ctx, const void *fetch,
                                     const void *dest, size_t size, int pe, size_t *off_p)
{
    int seg = api_chk_amo(r, ctx, dest, size, pe, off_p);
    ofs_check_nonnull(r, "fetch", fetch, size);
    return seg;
}

/* the part of every team-based collective check that is not about buffers */
static inline void api_chk_coll_team(const char *r, struct coll_team *team)
{
    ofs_check_init(r);
    ofs_check_team(r, "team", team); /* NULL, destroyed or garbage: named, never dereferenced */
}

/* ---- collectives: argument checks (collectives are not on the small-message path,
 * so these live out of line in coll_untyped.c).  Counts are in elements of es bytes;
 * every size is overflow-checked and a zero count accepts any pointer.  dest and
 * source are symmetric, as the spec has them (reductions and scans read other
 * members' source; broadcast picks its algorithm from where source lies). ---- */
/* broadcast: PE_root is team-relative, in [0, team size) */
void api_chk_bcast(const char *r, struct coll_team *team, const void *dest, const void *src,
                   size_t nelems, size_t es, int PE_root) OFS_HIDDEN;
/* collect: dest holds at least this PE's block; the total, known only inside the
 * collective, is checked by api_collect_total, which coll calls (coll_total_check_fn) */
void api_chk_collect(const char *r, struct coll_team *team, const void *dest, const void *src,
                     size_t nelems, size_t es) OFS_HIDDEN;
void api_collect_total(const char *r, const void *dest, size_t nelems, size_t total, int overflow)
    OFS_HIDDEN;
/* fcollect (src_per_member 0) and alltoall (1): dest (and for alltoall source) hold
 * one block of nelems elements per team member */
void api_chk_coll_n(const char *r, struct coll_team *team, const void *dest, const void *src,
                    size_t nelems, size_t es, int src_per_member) OFS_HIDDEN;
/* alltoalls: nelems elements per member, strides dst/sst in elements */
void api_chk_coll_s(const char *r, struct coll_team *team, const void *dest, const void *src,
                    ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t es) OFS_HIDDEN;
/* reductions and scans (cnt_arg: nreduce or nelems) */
void api_chk_reduce(const char *r, struct coll_team *team, const void *dest, const void *src,
                    size_t nreduce, size_t es, const char *cnt_arg) OFS_HIDDEN;
/* active sets: PE_start/logPE_stride/PE_size describe PEs of the job and include this
 * one; pSync is symmetric with sync_size longs (the spec's SHMEM_*_SYNC_SIZE) */
void api_chk_aset(const char *r, int PE_start, int logPE_stride, int PE_size, const long *pSync,
                  size_t sync_size) OFS_HIDDEN;
/* shmem_TYPE_OP_to_all: the active set, dest/source of nreduce elements (source
 * symmetric), pWrk of max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements */
void api_chk_to_all(const char *r, const void *dest, const void *src, int nreduce, size_t es,
                    int PE_start, int logPE_stride, int PE_size, const void *pWrk,
                    const long *pSync) OFS_HIDDEN;
/* the deprecated active-set collectives (shmem_broadcast32, ...): the active set and
 * its pSync (the routine's SHMEM_*_SYNC_SIZE), then the buffers as their team-based
 * forms check them, counted over the PE_size members of the set */
void api_chk_bcast_aset(const char *r, const void *dest, const void *src, size_t nelems, size_t es,
                        int PE_root, int PE_start, int logPE_stride, int PE_size, const long *pSync)
    OFS_HIDDEN;
void api_chk_collect_aset(const char *r, const void *dest, const void *src, size_t nelems,
                          size_t es, int PE_start, int logPE_stride, int PE_size, const long *pSync)
    OFS_HIDDEN;
void api_chk_fcollect_aset(const char *r, const void *dest, const void *src, size_t nelems,
                           size_t es, int PE_start, int logPE_stride, int PE_size,
                           const long *pSync) OFS_HIDDEN;
void api_chk_alltoall_aset(const char *r, const void *dest, const void *src, size_t nelems,
                           size_t es, int PE_start, int logPE_stride, int PE_size,
                           const long *pSync) OFS_HIDDEN;
void api_chk_alltoalls_aset(const char *r, const void *dest, const void *src, ptrdiff_t dst,
                            ptrdiff_t sst, size_t nelems, size_t es, int PE_start, int logPE_stride,
                            int PE_size, const long *pSync) OFS_HIDDEN;

/* ---- point-to-point synchronization (sync.c) ---- */
void api_wait_until(const char *r, void *ivar, int cmp, const void *value, size_t size, int kind)
    OFS_HIDDEN;
int api_test(const char *r, void *ivar, int cmp, const void *value, size_t size, int kind)
    OFS_HIDDEN;
void api_wait_until_all(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                        const void *values, int vector, size_t size, int kind) OFS_HIDDEN;
size_t api_wait_until_any(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                          const void *values, int vector, size_t size, int kind) OFS_HIDDEN;
size_t api_wait_until_some(const char *r, void *ivars, size_t nelems, size_t *indices,
                           const int *status, int cmp, const void *values, int vector, size_t size,
                           int kind) OFS_HIDDEN;
int api_test_all(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                 const void *values, int vector, size_t size, int kind) OFS_HIDDEN;
size_t api_test_any(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                    const void *values, int vector, size_t size, int kind) OFS_HIDDEN;
size_t api_test_some(const char *r, void *ivars, size_t nelems, size_t *indices, const int *status,
                     int cmp, const void *values, int vector, size_t size, int kind) OFS_HIDDEN;

#endif
