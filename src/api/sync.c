/*
 * Point-to-point synchronization: the loops behind every typed wait_until/test
 * routine (generated wrappers pass the element size and kind), the signal routines,
 * the deprecated untyped forms, and the cold error reports of api.h.
 *
 * Semantics (spec 1.5 section 9.10): status[i] != 0 excludes ivars[i]; a NULL
 * status includes every element; with nothing included, *_all return at once
 * (test_all: 1), *_any return SIZE_MAX and *_some return 0.
 */
#include "api.h"

#include <stdarg.h>

_Static_assert(COMM_CMP_EQ == SHMEM_CMP_EQ && COMM_CMP_NE == SHMEM_CMP_NE &&
                   COMM_CMP_GT == SHMEM_CMP_GT && COMM_CMP_LE == SHMEM_CMP_LE &&
                   COMM_CMP_LT == SHMEM_CMP_LT && COMM_CMP_GE == SHMEM_CMP_GE,
               "comm_test_cmp takes the SHMEM_CMP_* values");

/* ivars holds nelems elements (NULL is fine with none); a vector form reads nelems
 * comparison values */
static void sync_check(const char *r, const char *arg, const void *ivars, size_t nelems,
                       size_t size, int cmp, const void *values, int vector)
{
    ofs_check_init(r);
    ofs_check_sym(r, arg, ivars, ofs_check_mul(r, "nelems", nelems, nelems, size));
    if (vector)
        ofs_check_nonnull(r, "cmp_values", values, nelems * size);
#ifdef OFS_ERROR_CHECKING
    if (OFS_UNLIKELY(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE))
        ofs_bad_input(r, "cmp = %d is not a SHMEM_CMP_* constant", cmp);
#else
    (void)cmp;
#endif
}

static inline int sync_elem(const void *ivars, size_t i, int cmp, const void *values, int vector,
                            size_t size, int kind)
{
    const char *v = (const char *)values + (vector ? i * size : 0);
    return comm_test_cmp((const char *)ivars + i * size, cmp, v, size, kind == API_KIND_SIGNED,
                         kind == API_KIND_FLOAT);
}

static inline int sync_included(const int *status, size_t i)
{
    return status == NULL || status[i] == 0;
}

void api_wait_until(const char *r, void *ivar, int cmp, const void *value, size_t size, int kind)
{
    sync_check(r, "ivar", ivar, 1, size, cmp, value, 0);
    COMM_WAIT_UNTIL(
        comm_test_cmp(ivar, cmp, value, size, kind == API_KIND_SIGNED, kind == API_KIND_FLOAT));
}

int api_test(const char *r, void *ivar, int cmp, const void *value, size_t size, int kind)
{
    sync_check(r, "ivar", ivar, 1, size, cmp, value, 0);
    if (comm_test_cmp(ivar, cmp, value, size, kind == API_KIND_SIGNED, kind == API_KIND_FLOAT))
        return 1;
    comm_test_poll(); /* a caller polling test() must still drive progress */
    return 0;
}

/* 1 when every included element satisfies the comparison */
static int sync_all(void *ivars, size_t nelems, const int *status, int cmp, const void *values,
                    int vector, size_t size, int kind)
{
    for (size_t i = 0; i < nelems; i++)
        if (sync_included(status, i) && !sync_elem(ivars, i, cmp, values, vector, size, kind))
            return 0;
    return 1;
}

/* Where this thread's next *_any scan starts: one past the index its last call returned.
 * The spec requires that a satisfied element i is returned by some call of a series, not
 * only the lowest satisfied one (a loop polling test_any over flags that stay set would
 * otherwise never see the others). */
static _Thread_local size_t sync_any_next;

static size_t sync_any(void *ivars, size_t nelems, const int *status, int cmp, const void *values,
                       int vector, size_t size, int kind)
{
    size_t start = sync_any_next < nelems ? sync_any_next : 0;
    for (size_t k = 0; k < nelems; k++) {
        size_t i = k < nelems - start ? start + k : k - (nelems - start);
        if (sync_included(status, i) && sync_elem(ivars, i, cmp, values, vector, size, kind)) {
            sync_any_next = i + 1;
            return i;
        }
    }
    return SIZE_MAX;
}

static size_t sync_some(void *ivars, size_t nelems, size_t *indices, const int *status, int cmp,
                        const void *values, int vector, size_t size, int kind)
{
    size_t n = 0;
    for (size_t i = 0; i < nelems; i++)
        if (sync_included(status, i) && sync_elem(ivars, i, cmp, values, vector, size, kind))
            indices[n++] = i;
    return n;
}

static int sync_none_included(size_t nelems, const int *status)
{
    for (size_t i = 0; i < nelems; i++)
        if (sync_included(status, i))
            return 0;
    return 1;
}

void api_wait_until_all(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                        const void *values, int vector, size_t size, int kind)
{
    sync_check(r, "ivars", ivars, nelems, size, cmp, values, vector);
    COMM_WAIT_UNTIL(sync_all(ivars, nelems, status, cmp, values, vector, size, kind));
}

size_t api_wait_until_any(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                          const void *values, int vector, size_t size, int kind)
{
    size_t i;
    sync_check(r, "ivars", ivars, nelems, size, cmp, values, vector);
    if (sync_none_included(nelems, status))
        return SIZE_MAX;
    COMM_WAIT_UNTIL((i = sync_any(ivars, nelems, status, cmp, values, vector, size, kind)) !=
                    SIZE_MAX);
    return i;
}

size_t api_wait_until_some(const char *r, void *ivars, size_t nelems, size_t *indices,
                           const int *status, int cmp, const void *values, int vector, size_t size,
                           int kind)
{
    size_t n;
    sync_check(r, "ivars", ivars, nelems, size, cmp, values, vector);
    ofs_check_nonnull(r, "indices", indices,
                      ofs_check_mul(r, "nelems", nelems, nelems, sizeof(size_t)));
    if (sync_none_included(nelems, status))
        return 0;
    COMM_WAIT_UNTIL(
        (n = sync_some(ivars, nelems, indices, status, cmp, values, vector, size, kind)) != 0);
    return n;
}

int api_test_all(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                 const void *values, int vector, size_t size, int kind)
{
    sync_check(r, "ivars", ivars, nelems, size, cmp, values, vector);
    if (sync_all(ivars, nelems, status, cmp, values, vector, size, kind))
        return 1;
    comm_test_poll();
    return 0;
}

size_t api_test_any(const char *r, void *ivars, size_t nelems, const int *status, int cmp,
                    const void *values, int vector, size_t size, int kind)
{
    size_t i;
    sync_check(r, "ivars", ivars, nelems, size, cmp, values, vector);
    i = sync_any(ivars, nelems, status, cmp, values, vector, size, kind);
    if (i == SIZE_MAX)
        comm_test_poll();
    return i;
}

size_t api_test_some(const char *r, void *ivars, size_t nelems, size_t *indices, const int *status,
                     int cmp, const void *values, int vector, size_t size, int kind)
{
    size_t n;
    sync_check(r, "ivars", ivars, nelems, size, cmp, values, vector);
    ofs_check_nonnull(r, "indices", indices,
                      ofs_check_mul(r, "nelems", nelems, nelems, sizeof(size_t)));
    n = sync_some(ivars, nelems, indices, status, cmp, values, vector, size, kind);
    if (n == 0)
        comm_test_poll();
    return n;
}

/* ---- signals ---- */
OFS_API uint64_t pshmem_signal_fetch(const uint64_t *sig_addr)
{
    ofs_check_init("shmem_signal_fetch");
    ofs_check_sym("shmem_signal_fetch", "sig_addr", sig_addr, sizeof(uint64_t));
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
OFS_WEAK_ALIAS(shmem_signal_fetch)

OFS_API uint64_t pshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    ofs_check_init("shmem_signal_wait_until");
    ofs_check_sym("shmem_signal_wait_until", "sig_addr", sig_addr, sizeof(uint64_t));
    api_wait_until("shmem_signal_wait_until", sig_addr, cmp, &cmp_value, sizeof(uint64_t), 0);
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
OFS_WEAK_ALIAS(shmem_signal_wait_until)

/* ---- deprecated untyped forms (long) ---- */
OFS_API void pshmem_wait(long *ivar, long cmp_value)
{
    api_wait_until("shmem_wait", ivar, SHMEM_CMP_NE, &cmp_value, sizeof(long), 1);
}
OFS_WEAK_ALIAS(shmem_wait)

OFS_API void pshmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    api_wait_until("shmem_wait_until", ivar, cmp, &cmp_value, sizeof(long), 1);
}
OFS_WEAK_ALIAS(shmem_wait_until)

/* ---- cold error reports and SHMEM_DEBUG checks of api.h and ofs_check.h ---- */
#ifdef OFS_ERROR_CHECKING
int ofs_sym_miss(const char *routine, const char *arg, const void *addr, size_t len)
{
    size_t off;
    int s;

    if (len == 0)
        return -1; /* nothing is accessed (spec: a NULL pointer with a zero count is fine) */
    if (addr == NULL)
        ofs_bad_input(routine, "%s is NULL with a length of %zu bytes", arg, len);
    s = heap_seg_of(addr, 0, &off);
    if (s >= 0)
        ofs_bad_input(routine,
                      "%s = %p (%zu bytes) runs past the end of the symmetric %s "
                      "(%zu bytes from %s to its end)",
                      arg, addr, len, s == HEAP_SEG_HEAP ? "heap" : "data segment",
                      heap_g.seg[s].len - off, arg);
    ofs_bad_input(routine,
                  "%s = %p (%zu bytes) is not symmetric: it must come from "
                  "shmem_malloc or be a global or static variable",
                  arg, addr, len);
    return -1;
}

void api_bad_extent(const char *r, const char *st_arg, ptrdiff_t stride, const char *cnt_arg,
                    size_t cnt, size_t bsize, size_t elem)
{
    if (bsize == 1)
        ofs_bad_input(r,
                      "%s = %td, %s = %zu: the extent ((%s - 1) * %s + 1) * %zu bytes "
                      "overflows size_t",
                      st_arg, stride, cnt_arg, cnt, cnt_arg, st_arg, elem);
    ofs_bad_input(r,
                  "%s = %td, %s = %zu, bsize = %zu: the extent ((%s - 1) * %s + bsize) * %zu "
                  "bytes overflows size_t",
                  st_arg, stride, cnt_arg, cnt, bsize, cnt_arg, st_arg, elem);
}

void ofs_bad_size(const char *routine, const char *arg, size_t value)
{
    ofs_bad_input(routine, "%s = %zu is too large: the size in bytes it implies overflows size_t",
                  arg, value);
}
#endif

void api_signal_only(struct comm_ctx *ctx, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    comm_amo(ctx, sig_op == SHMEM_SIGNAL_ADD ? COMM_AMO_ADD : COMM_AMO_SET, COMM_DT_U64, sig_addr,
             &signal, NULL, NULL, pe, 0);
}

void api_bad_sig_op(const char *routine, int sig_op)
{
    ofs_bad_input(routine, "sig_op = %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", sig_op);
}

void api_bad_stride(const char *routine, const char *arg, ptrdiff_t stride)
{
    ofs_bad_input(routine, "%s = %td: strides must be at least 1", arg, stride);
}

/* A transfer from a PE to itself whose two ranges partly overlap is undefined (spec:
 * no overlap); the same range (a put of a block onto itself) moves nothing and passes. */
void api_debug_rma(const char *routine, const void *dest, const void *source, size_t len, int pe)
{
    const char *a = dest, *b = source;
    if (pe == ofs_g.my_pe && len && a != b && a < b + len && b < a + len)
        ofs_bad_input(routine, "dest and source overlap (%p and %p, %zu bytes) on PE %d", dest,
                      source, len, pe);
}

/* A collective's dest that starts in a shmem_malloc block must end in it: the segment
 * check alone lets it run on into the next block. */
void api_debug_block(const char *routine, const char *arg, const void *addr, size_t len)
{
    size_t room = heap_user_room(addr);
    if (room && len > room)
        ofs_bad_input(routine,
                      "%s = %p (%zu bytes) runs past the end of its shmem_malloc block "
                      "(%zu bytes from %s to the block's end)",
                      arg, addr, len, room, arg);
}

void api_debug_align(const char *routine, const char *arg, const void *addr, size_t align)
{
    if ((uintptr_t)addr % align)
        ofs_bad_input(routine, "%s = %p is not aligned to its %zu-byte type", arg, addr, align);
}
