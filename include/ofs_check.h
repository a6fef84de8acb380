/*
 * ofs_check.h: cheap argument checks for the API layer (DESIGN rule 5).  Each
 * prints one line naming the routine, the argument and the bad value, then takes
 * the job down.  Compiled out by configure --disable-error-checking.
 */
#ifndef OFS_CHECK_H
#define OFS_CHECK_H

#include "ofs.h"
#include "heap.h"

#ifdef OFS_ERROR_CHECKING

static inline void ofs_check_init(const char *routine)
{
    if (OFS_UNLIKELY(!ofs_g.initialized || ofs_g.finalized))
        ofs_bad_input(routine, "%s",
                      ofs_g.finalized ? "called after shmem_finalize" : "called before shmem_init");
}

static inline void ofs_check_pe(const char *routine, int pe)
{
    if (OFS_UNLIKELY(pe < 0 || pe >= ofs_g.n_pes))
        ofs_bad_input(routine, "pe = %d is out of range [0, %d)", pe, ofs_g.n_pes);
}

/* addr..addr+len must lie in one symmetric segment (len 0 still needs a symmetric addr
 * unless the caller skips it).  The _seg form also returns the segment and offset (for
 * comm_put_seg and friends): one lookup per call for the check and the transfer. */
static inline int ofs_check_sym_seg(const char *routine, const char *arg, const void *addr,
                                    size_t len, size_t *off_p)
{
    int s = heap_seg_of(addr, len, off_p);
    if (OFS_UNLIKELY(s < 0))
        ofs_bad_input(routine,
                      "%s = %p (%zu bytes) is not symmetric: it must come from "
                      "shmem_malloc or be a global or static variable",
                      arg, addr, len);
    return s;
}

static inline void ofs_check_sym(const char *routine, const char *arg, const void *addr, size_t len)
{
    size_t off;
    (void)ofs_check_sym_seg(routine, arg, addr, len, &off);
}

static inline void ofs_check_nonnull(const char *routine, const char *arg, const void *p,
                                     size_t len)
{
    if (OFS_UNLIKELY(p == NULL && len != 0))
        ofs_bad_input(routine, "%s is NULL with a length of %zu bytes", arg, len);
}

#else
static inline void ofs_check_init(const char *routine)
{
    (void)routine;
}
static inline void ofs_check_pe(const char *routine, int pe)
{
    (void)routine;
    (void)pe;
}
static inline void ofs_check_sym(const char *r, const char *a, const void *p, size_t l)
{
    (void)r;
    (void)a;
    (void)p;
    (void)l;
}
static inline void ofs_check_nonnull(const char *r, const char *a, const void *p, size_t l)
{
    (void)r;
    (void)a;
    (void)p;
    (void)l;
}
/* unchecked: the lookup the transfer needs anyway (a bad address is an internal error) */
static inline int ofs_check_sym_seg(const char *r, const char *a, const void *addr, size_t len,
                                    size_t *off_p)
{
    int s = heap_seg_of(addr, len, off_p);
    (void)r;
    (void)a;
    if (OFS_UNLIKELY(s < 0))
        ofs_fatal(1, "internal: address %p (+%zu) is not symmetric", addr, len);
    return s;
}
#endif

#endif
