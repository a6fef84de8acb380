/*
 * ofs_handle.h: tables of the objects whose addresses the program holds as handles
 * (contexts, teams, non-blocking collective and message requests), so that a handle can
 * be told valid or not without dereferencing anything that is not ours.
 *
 * A table is one reservation of address space cut into slots of a power-of-two size: an
 * object never moves, and a pointer is one of the table's slots iff it lies inside the
 * reservation on a slot boundary.  The first word of each object is its owner's magic
 * while the object may be used, anything else once it is destroyed; so "ours and alive"
 * is a range compare, a mask and one load of the object itself.
 *
 * The reservation holds OFS_HTAB_ROUND more slots than the cap of live objects, and
 * free slots are handed out round-robin over all of it (next fit): a slot comes back
 * only once the search has gone all the way round, that is after at least
 * OFS_HTAB_ROUND more objects of the table were created since its object was.  Until
 * then its handle reads as dead, never as somebody else's object.  Memory stays that
 * of the live objects: a chunk of OFS_HTAB_CHUNK_PAGES pages (or one larger slot) is
 * backed once a slot on it is handed out and given back (madvise MADV_DONTNEED: it
 * reads as zeros, dead) once none of its slots is in use and the search has moved past
 * it (OFS_HTAB_BATCH such chunks in a row at a time).  A stale handle on a released page
 * reads the kernel's zero page.  The reservation is mapped read-only and a chunk made writable while slots
 * on it are handed out (mprotect), so that only those count against the node's commit
 * limit: where the kernel overcommits strictly (vm.overcommit_memory=2) MAP_NORESERVE is
 * ignored, and a writable reservation of 2^20 slots per table would be charged whole.
 */
#ifndef OFS_HANDLE_H
#define OFS_HANDLE_H

#include "ofs.h"

#include <pthread.h>
#include <stdint.h>

/* slots beyond the cap: a destroyed handle stays dead for this many creations */
#define OFS_HTAB_ROUND (1u << 20)
/* pages backed and released at once (one mprotect per chunk, not per page) */
#define OFS_HTAB_CHUNK_PAGES 16u
/* chunks the search left empty, given back together */
#define OFS_HTAB_BATCH 2u

struct ofs_htab {
    char *base;      /* nslots slots of slot bytes (NULL before init and after fini) */
    size_t len;      /* nslots * slot */
    size_t slot;     /* a power of two */
    size_t chunk;    /* backed or released at once: max(OFS_HTAB_CHUNK_PAGES pages, slot) */
    uint32_t cap;    /* live objects at most (alloc returns NULL beyond) */
    uint32_t nslots; /* slots of the reservation: cap + OFS_HTAB_ROUND, whole chunks */
    uint32_t next;   /* where the next search for a free slot starts */
    uint32_t last;   /* the slot handed out last (its chunk is kept while the search is on it) */
    uint32_t nused;  /* slots handed out */
    uint32_t rel_lo; /* chunks [rel_lo, rel_lo + rel_n) were left empty, not yet released */
    uint32_t rel_n;  /* (released OFS_HTAB_BATCH at a time) */
    uint64_t *used;  /* one bit per slot handed out */
    uint64_t *rw;    /* one bit per chunk made writable */
    int unlocked;    /* the owner serializes alloc and free itself (its own lock): no lock here */
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

/* Reserve the address space of cap + OFS_HTAB_ROUND slots of slot bytes (a power of
 * two, at least 8); cap objects may be alive at once. */
ofs_status_t ofs_htab_init(struct ofs_htab *h, size_t slot, uint32_t cap) OFS_HIDDEN;
/* Release the reservation: every object in it is gone (handles die with it). */
void ofs_htab_fini(struct ofs_htab *h) OFS_HIDDEN;
/* A zeroed slot (the caller sets the magic once the object is ready), or NULL when
 * cap objects are alive. */
void *ofs_htab_alloc(struct ofs_htab *h) OFS_HIDDEN;
/* Give a slot back; its first word is overwritten (the handle reads as dead). */
void ofs_htab_free(struct ofs_htab *h, void *p) OFS_HIDDEN;
/* Slot i (< nslots) if it is handed out, else NULL (for walking the table at finalize). */
void *ofs_htab_at(const struct ofs_htab *h, uint32_t i) OFS_HIDDEN;

#endif
