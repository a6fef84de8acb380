/*
 * ofs_handle.h: tables of the objects whose addresses the program holds as handles
 * (contexts, teams), so that a handle can be told valid or not without dereferencing
 * anything that is not ours.
 *
 * A table is one reservation of address space (pages are touched only when used) cut
 * into slots of a power-of-two size: an object never moves, and a pointer is one of
 * the table's slots iff it lies inside the reservation on a slot boundary.  The first
 * word of each object is its owner's magic while the object may be used, anything
 * else once it is destroyed; so "ours and alive" is a range compare, a mask and one
 * load of the object itself.  Free slots are handed out round-robin (next fit), so a
 * destroyed handle stays detectably dead until the table has gone all the way round.
 */
#ifndef OFS_HANDLE_H
#define OFS_HANDLE_H

#include "ofs.h"

#include <pthread.h>
#include <stdint.h>

struct ofs_htab {
    char *base;     /* cap slots of slot bytes (NULL before init and after fini) */
    size_t len;     /* cap * slot */
    size_t slot;    /* a power of two */
    uint32_t cap;   /* number of slots */
    uint32_t next;  /* where the next search for a free slot starts */
    uint32_t nused; /* slots handed out */
    uint64_t *used; /* one bit per slot handed out */
    pthread_mutex_t lock;
};

/* for the few lines on the hot path of every call: inlined even where the compiler
 * has stopped inlining (large generated files), a call would cost more than they do */
#define OFS_ALWAYS_INLINE inline __attribute__((always_inline))

#define OFS_HTAB_INITIALIZER              \
    {                                     \
        .lock = PTHREAD_MUTEX_INITIALIZER \
    }

/* Nonzero if p is a slot of h whose first word is magic; p itself is read only once
 * it is known to be a slot (slot is constant at every call: the mask folds). */
static OFS_ALWAYS_INLINE int ofs_htab_holds(const struct ofs_htab *h, const void *p, size_t slot,
                                            uint32_t magic)
{
    uintptr_t off = (uintptr_t)p - (uintptr_t)h->base;

    return off < h->len && (off & (slot - 1)) == 0 && *(const uint32_t *)p == magic;
}

/* Reserve cap slots of slot bytes (a power of two, at least 8). */
ofs_status_t ofs_htab_init(struct ofs_htab *h, size_t slot, uint32_t cap) OFS_HIDDEN;
/* Release the reservation: every object in it is gone (handles die with it). */
void ofs_htab_fini(struct ofs_htab *h) OFS_HIDDEN;
/* A zeroed slot (the caller sets the magic once the object is ready), or NULL when
 * all cap slots are in use. */
void *ofs_htab_alloc(struct ofs_htab *h) OFS_HIDDEN;
/* Give a slot back; its first word is overwritten (the handle reads as dead). */
void ofs_htab_free(struct ofs_htab *h, void *p) OFS_HIDDEN;
/* Slot i if it is handed out, else NULL (for walking the table at finalize). */
void *ofs_htab_at(const struct ofs_htab *h, uint32_t i) OFS_HIDDEN;

#endif
