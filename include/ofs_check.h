/*
 * ofs_check.h: cheap argument checks for the API layer (DESIGN rule 5).  Each
 * prints one line naming the routine, the argument and the bad value, then takes
 * the job down.  Compiled out by configure --disable-error-checking.
 */
#ifndef OFS_CHECK_H
#define OFS_CHECK_H

#include "ofs.h"
#include "heap.h"

/* the checks of the data path are inlined whatever the compiler's size heuristics say
 * (a call per check costs more than the check) */
#define OFS_CHECK_INLINE static inline __attribute__((always_inline))

#ifdef OFS_ERROR_CHECKING

OFS_CHECK_INLINE void ofs_check_init(const char *routine)
{
    if (OFS_UNLIKELY(!ofs_g.initialized || ofs_g.finalized))
        ofs_bad_input(routine, "%s",
                      ofs_g.finalized ? "called after shmem_finalize" : "called before shmem_init");
}

OFS_CHECK_INLINE void ofs_check_pe(const char *routine, int pe)
{
    if (OFS_UNLIKELY(pe < 0 || pe >= ofs_g.n_pes))
        ofs_bad_input(routine, "pe = %d is out of range [0, %d)", pe, ofs_g.n_pes);
}

/* Cold halves of the checks below (src/api/sync.c).  ofs_sym_miss: addr..addr+len is
 * not inside one symmetric segment; returns -1 when len is 0 (nothing is accessed, so
 * any pointer, NULL included, is fine), otherwise reports NULL, a range that runs past
 * the end of its segment, or a non-symmetric address, and aborts.  ofs_bad_size: a
 * size computed from arg = value overflows size_t. */
int ofs_sym_miss(const char *routine, const char *arg, const void *addr, size_t len) OFS_HIDDEN;
void ofs_bad_size(const char *routine, const char *arg, size_t value) OFS_NORETURN OFS_HIDDEN;

/* Overflow-checked size arithmetic for every size a check computes: a * b (a + b), or
 * a report naming the argument arg = value that the size comes from. */
OFS_CHECK_INLINE size_t ofs_check_mul(const char *routine, const char *arg, size_t value, size_t a,
                                      size_t b)
{
    size_t r;
    if (OFS_UNLIKELY(__builtin_mul_overflow(a, b, &r)))
        ofs_bad_size(routine, arg, value);
    return r;
}

OFS_CHECK_INLINE size_t ofs_check_add(const char *routine, const char *arg, size_t value, size_t a,
                                      size_t b)
{
    size_t r;
    if (OFS_UNLIKELY(__builtin_add_overflow(a, b, &r)))
        ofs_bad_size(routine, arg, value);
    return r;
}

/* addr..addr+len must lie in one symmetric segment; returns the segment and offset
 * (for comm_put_seg and friends: one lookup per call for the check and the transfer),
 * or -1 when len is 0: the caller then moves nothing. */
OFS_CHECK_INLINE int ofs_check_sym_seg(const char *routine, const char *arg, const void *addr,
                                       size_t len, size_t *off_p)
{
    int s = heap_seg_of(addr, len, off_p);
    if (OFS_UNLIKELY(s < 0 || len == 0)) {
        *off_p = 0;
        s = ofs_sym_miss(routine, arg, addr, len);
    }
    return s;
}

OFS_CHECK_INLINE void ofs_check_sym(const char *routine, const char *arg, const void *addr,
                                    size_t len)
{
    size_t off;
    (void)ofs_check_sym_seg(routine, arg, addr, len, &off);
}

OFS_CHECK_INLINE void ofs_check_nonnull(const char *routine, const char *arg, const void *p,
                                        size_t len)
{
    if (OFS_UNLIKELY(p == NULL && len != 0))
        ofs_bad_input(routine, "%s is NULL with a length of %zu bytes", arg, len);
}

/* an out-parameter (where a routine stores a handle) must not be NULL */
OFS_CHECK_INLINE void ofs_check_out(const char *routine, const char *arg, const void *p)
{
    if (OFS_UNLIKELY(p == NULL))
        ofs_bad_input(routine, "%s is NULL: it must point to where the result is stored", arg);
}

#else
OFS_CHECK_INLINE void ofs_check_init(const char *routine)
{
    (void)routine;
}
OFS_CHECK_INLINE void ofs_check_pe(const char *routine, int pe)
{
    (void)routine;
    (void)pe;
}
OFS_CHECK_INLINE void ofs_check_sym(const char *r, const char *a, const void *p, size_t l)
{
    (void)r;
    (void)a;
    (void)p;
    (void)l;
}
OFS_CHECK_INLINE void ofs_check_nonnull(const char *r, const char *a, const void *p, size_t l)
{
    (void)r;
    (void)a;
    (void)p;
    (void)l;
}
OFS_CHECK_INLINE void ofs_check_out(const char *r, const char *a, const void *p)
{
    (void)r;
    (void)a;
    (void)p;
}
OFS_CHECK_INLINE size_t ofs_check_mul(const char *r, const char *arg, size_t v, size_t a, size_t b)
{
    (void)r;
    (void)arg;
    (void)v;
    return a * b;
}
OFS_CHECK_INLINE size_t ofs_check_add(const char *r, const char *arg, size_t v, size_t a, size_t b)
{
    (void)r;
    (void)arg;
    (void)v;
    return a + b;
}
/* unchecked: the lookup the transfer needs anyway (a bad address is an internal error);
 * a zero length still moves nothing, whatever the pointer (not an error) */
OFS_CHECK_INLINE int ofs_check_sym_seg(const char *r, const char *a, const void *addr, size_t len,
                                       size_t *off_p)
{
    int s = heap_seg_of(addr, len, off_p);
    (void)r;
    (void)a;
    if (OFS_UNLIKELY(s < 0 || len == 0)) {
        *off_p = 0;
        if (len)
            ofs_fatal(1, "internal: address %p (+%zu) is not symmetric", addr, len);
        return -1;
    }
    return s;
}
#endif

#endif
