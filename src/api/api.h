/*
 * api.h: what the generated typed entry points (src/api/gen_*.c) call.  Argument
 * checks wrap ofs_check.h (compiled out by --disable-error-checking); the costlier
 * ones (overlap, alignment) run only when SHMEM_DEBUG is set.  The point-to-point
 * synchronization loops live in sync.c.
 */
#ifndef OFS_API_IMPL_H
#define OFS_API_IMPL_H

#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"

#define API_CMP_NE SHMEM_CMP_NE

/* AMO element type from the type table kind (1 signed, 0 unsigned, 2 float) and size;
 * constant-folded in every generated routine. */
static inline enum comm_dtype api_dt(int kind, size_t size)
{
    if (kind == 2)
        return size == 4 ? COMM_DT_FLOAT : COMM_DT_DOUBLE;
    if (kind == 1)
        return size == 4 ? COMM_DT_I32 : COMM_DT_I64;
    return size == 4 ? COMM_DT_U32 : COMM_DT_U64;
}

/* SHMEM_DEBUG checks (out of line: they are cold). */
void api_debug_rma(const char *routine, const void *remote, const void *local, size_t len, int pe)
    OFS_HIDDEN;
void api_debug_align(const char *routine, const char *arg, const void *addr, size_t align)
    OFS_HIDDEN;
void api_bad_ctx(const char *routine) OFS_NORETURN OFS_HIDDEN;
void api_bad_team(const char *routine) OFS_NORETURN OFS_HIDDEN;
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
static inline int api_ctx_pe(const char *r, struct comm_ctx *ctx, int pe)
{
    if (OFS_LIKELY(ctx == NULL || ctx->team == NULL || ctx->team == &shmem_internal_team_world))
        return pe;
    return api_team_pe(r, ctx, pe);
}

/* put/get checks return the segment and offset of the symmetric side for comm_*_seg */
static inline int api_chk_put(const char *r, struct comm_ctx *ctx, const void *dest,
                              const void *src, size_t len, int pe, size_t *off_p)
{
    int seg;
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    seg = ofs_check_sym_seg(r, "dest", dest, len, off_p);
    ofs_check_nonnull(r, "source", src, len);
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(OFS_DEBUG_ON))
        api_debug_rma(r, dest, src, len, pe);
#endif
    return seg;
}

static inline int api_chk_get(const char *r, struct comm_ctx *ctx, const void *dest,
                              const void *src, size_t len, int pe, size_t *off_p)
{
    int seg;
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    seg = ofs_check_sym_seg(r, "source", src, len, off_p);
    ofs_check_nonnull(r, "dest", dest, len);
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(OFS_DEBUG_ON))
        api_debug_rma(r, src, dest, len, pe);
#endif
    return seg;
}

/* extent in bytes of nelems elements at stride (elements) */
/* bytes spanned by nblocks blocks of bsize elements, block starts stride elements apart */
static inline size_t api_extent_b(ptrdiff_t stride, size_t bsize, size_t nblocks, size_t elem)
{
    return nblocks && bsize ? ((nblocks - 1) * (size_t)stride + bsize) * elem : 0;
}

static inline size_t api_extent(ptrdiff_t stride, size_t nelems, size_t elem)
{
    return api_extent_b(stride, 1, nelems, elem);
}

static inline void api_chk_strides(const char *r, ptrdiff_t dst, ptrdiff_t sst)
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

static inline void api_chk_ibput(const char *r, struct comm_ctx *ctx, const void *dest,
                                 const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                                 size_t nblocks, size_t elem, int pe)
{
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    api_chk_strides(r, dst, sst);
    ofs_check_sym(r, "dest", dest, api_extent_b(dst, bsize, nblocks, elem));
    ofs_check_nonnull(r, "source", src, nblocks * bsize);
}

static inline void api_chk_ibget(const char *r, struct comm_ctx *ctx, const void *dest,
                                 const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                                 size_t nblocks, size_t elem, int pe)
{
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    api_chk_strides(r, dst, sst);
    ofs_check_sym(r, "source", src, api_extent_b(sst, bsize, nblocks, elem));
    ofs_check_nonnull(r, "dest", dest, nblocks * bsize);
}

static inline void api_chk_iput(const char *r, struct comm_ctx *ctx, const void *dest,
                                const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                size_t elem, int pe)
{
    api_chk_ibput(r, ctx, dest, src, dst, sst, 1, nelems, elem, pe);
}

static inline void api_chk_iget(const char *r, struct comm_ctx *ctx, const void *dest,
                                const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                size_t elem, int pe)
{
    api_chk_ibget(r, ctx, dest, src, dst, sst, 1, nelems, elem, pe);
}

static inline void api_chk_put_signal(const char *r, struct comm_ctx *ctx, const void *dest,
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
    if (OFS_UNLIKELY(OFS_DEBUG_ON))
        api_debug_rma(r, dest, src, len, pe);
    if (OFS_UNLIKELY(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD))
        api_bad_sig_op(r, sig_op);
#endif
}

/* AMO checks return the segment and offset of dest for comm_amo_seg */
static inline int api_chk_amo(const char *r, struct comm_ctx *ctx, const void *dest, size_t size,
                              int pe, size_t *off_p)
{
    int seg;
    ofs_check_init(r);
    api_chk_ctx(r, ctx);
    ofs_check_pe(r, pe);
    seg = ofs_check_sym_seg(r, "dest", dest, size, off_p);
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(OFS_DEBUG_ON))
        api_debug_align(r, "dest", dest, size);
#endif
    return seg;
}
static inline int api_chk_amo_nbi(const char *r, struct comm_ctx *ctx, const void *fetch,
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

static inline void api_chk_coll(const char *r, struct coll_team *team, const void *dest,
                                const void *src, size_t len)
{
    api_chk_coll_team(r, team);
    ofs_check_sym(r, "dest", dest, len);
    ofs_check_nonnull(r, "source", src, len);
}

/* dest (and, for alltoall, source) hold one block of len bytes per team member */
static inline void api_chk_coll_n(const char *r, struct coll_team *team, const void *dest,
                                  const void *src, size_t len, int src_per_member)
{
    api_chk_coll_team(r, team);
    ofs_check_sym(r, "dest", dest, len * (size_t)team->size);
    ofs_check_nonnull(r, "source", src, src_per_member ? len * (size_t)team->size : len);
}

/* alltoalls: nelems elements per member, strides dst/sst in elements */
static inline void api_chk_coll_s(const char *r, struct coll_team *team, const void *dest,
                                  const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                  size_t es)
{
    api_chk_coll_team(r, team);
    api_chk_strides(r, dst, sst);
    ofs_check_sym(r, "dest", dest, api_extent(dst, nelems * (size_t)team->size, es));
    ofs_check_sym(r, "source", src, api_extent(sst, nelems * (size_t)team->size, es));
}

/* scans read other PEs' source: it must be symmetric too */
static inline void api_chk_scan(const char *r, struct coll_team *team, const void *dest,
                                const void *src, size_t len)
{
    api_chk_coll_team(r, team);
    ofs_check_sym(r, "dest", dest, len);
    ofs_check_sym(r, "source", src, len);
}

static inline void api_chk_aset(const char *r, const void *dest, const void *src, size_t len,
                                int PE_start, int logPE_stride, int PE_size, const long *pSync)
{
    ofs_check_init(r);
    ofs_check_pe(r, PE_start);
    ofs_check_sym(r, "dest", dest, len);
    ofs_check_nonnull(r, "source", src, len);
    ofs_check_sym(r, "pSync", pSync, sizeof(long));
    (void)logPE_stride;
    (void)PE_size;
}

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
