/*
 * Symmetric memory management: every routine is collective and ends in a barrier.  That
 * closing barrier hands the block to the other PEs, who may put into it or aim atomics
 * at it the moment they leave: everything this PE writes into the block itself
 * (shmem_calloc's zeroes, shmem_realloc's copy) happens before it, and nothing after.
 */
#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"
#include "ofs_stats.h"

#include <stdint.h>
#include <string.h>

/* shmem_free and shmem_realloc of something that is not a live block: say what it is. */
static void mem_bad_ptr(const char *routine, const void *ptr)
{
    size_t off;
    int seg = heap_seg_of(ptr, 1, &off);

    ofs_bad_input(routine, "ptr = %p was not returned by shmem_malloc (%s)", ptr,
                  seg == HEAP_SEG_DATA   ? "it is a global or static variable"
                  : seg == HEAP_SEG_HEAP ? "it was freed already, or points inside a block"
                                         : "it is not symmetric memory");
}

/* Why an allocation failed: what is left of SHMEM_SYMMETRIC_SIZE, which the library's
 * own blocks do not count against.  A warning the first time (a program that probes
 * how much it can get is not flooded), every time under SHMEM_DEBUG. */
static void mem_report_full(const char *routine, const char *what, size_t size)
{
    static int warned;
    size_t avail, largest;

    if (!OFS_DEBUG_ON && __atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        return;
    heap_user_free(&avail, &largest);
    ofs_log_warn("%s: cannot %s %zu bytes: %zu of the %ld bytes of SHMEM_SYMMETRIC_SIZE are "
                 "free, at most %zu in one piece; it returns NULL (raise SHMEM_SYMMETRIC_SIZE%s)",
                 routine, what, size, avail, ofs_g.params.SYMMETRIC_SIZE, largest,
                 OFS_DEBUG_ON ? "" : "; SHMEM_DEBUG=1 reports every failure");
}

/* The arguments that every PE must pass alike, folded into one word */
static uint64_t mem_sig(int kind, uint64_t a, uint64_t b)
{
    uint64_t h = (uint64_t)kind * 0x9e3779b97f4a7c15u;

    h = (h ^ a) * 0xbf58476d1ce4e5b9u;
    h = (h ^ b) * 0x94d049bb133111ebu;
    return h ^ h >> 31;
}

/* The entry of every routine here: complete this PE's operations and synchronise (no
 * PE may still be using memory that a previous shmem_free released), and check that
 * every PE passed the same arguments (the specification leaves a mismatch undefined:
 * the heaps would part ways and later puts land in other blocks); the caller names its
 * arguments when they differ from those of the PE on its left. */
static int mem_agree(const char *routine, uint64_t sig)
{
    coll_agree_pub(sig);
    coll_barrier_all_as(routine);
    return coll_agree_left() == sig;
}
#define MEM_DIFFER ": the PE on the left passed other values (every PE must pass the same)"

enum { MEM_MALLOC, MEM_CALLOC, MEM_ALIGN, MEM_FREE, MEM_REALLOC };

static void *mem_alloc(const char *routine, size_t size, size_t align, int zero)
{
    int kind = align ? MEM_ALIGN : zero ? MEM_CALLOC : MEM_MALLOC;
    void *p;

    ofs_check_init(routine);
    OFS_STATS_SCOPE(OFS_STATS_C_NONE, 0, 0);
    if (!mem_agree(routine, mem_sig(kind, size, align))) {
        if (align)
            ofs_bad_input(routine, "alignment = %zu, size = %zu" MEM_DIFFER, align, size);
        ofs_bad_input(routine, "size = %zu" MEM_DIFFER, size);
    }
    if (size == 0)
        return NULL;
    p = heap_alloc_user(size, align);
    if (!p && align > heap_max_align())
        ofs_log_warn("%s: alignment = %zu is more than the symmetric heap can give at the same "
                     "offset on every PE (at most %zu); it returns NULL",
                     routine, align, heap_max_align());
    else if (!p)
        mem_report_full(routine, "allocate", size);
    if (p && zero)
        memset(p, 0, size);
    coll_barrier_all_as(routine);
    return p;
}

OFS_API void *pshmem_malloc(size_t size)
{
    return mem_alloc("shmem_malloc", size, 0, 0);
}
OFS_WEAK_ALIAS(shmem_malloc)

OFS_API void *pshmem_malloc_with_hints(size_t size, long hints)
{
    (void)hints; /* hints are advice; one heap serves them all */
    return mem_alloc("shmem_malloc_with_hints", size, 0, 0);
}
OFS_WEAK_ALIAS(shmem_malloc_with_hints)

OFS_API void *pshmem_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) {
        /* no such block can exist: NULL, as for any size the heap cannot hold, said once
         * (still collective: the other PEs passed the same arguments) */
        ofs_check_init("shmem_calloc");
        ofs_log_warn("shmem_calloc: count = %zu times size = %zu overflows size_t; it returns "
                     "NULL",
                     count, size);
        if (!mem_agree("shmem_calloc", mem_sig(MEM_CALLOC, count, size)))
            ofs_bad_input("shmem_calloc", "count = %zu, size = %zu" MEM_DIFFER, count, size);
        coll_barrier_all_as("shmem_calloc");
        return NULL;
    }
    return mem_alloc("shmem_calloc", count * size, 0, 1);
}
OFS_WEAK_ALIAS(shmem_calloc)

OFS_API void *pshmem_align(size_t alignment, size_t size)
{
    /* The specification leaves any other alignment undefined: named, never a silent NULL.
     * A power of two below sizeof(void *) (also undefined there) is honoured: every
     * block is aligned to at least that. */
    if (alignment == 0 || (alignment & (alignment - 1))) {
        ofs_check_init("shmem_align");
        ofs_bad_input("shmem_align", "alignment = %zu is not a power of two", alignment);
    }
    return mem_alloc("shmem_align", size, alignment, 0);
}
OFS_WEAK_ALIAS(shmem_align)

OFS_API void pshmem_free(void *ptr)
{
    size_t off = SIZE_MAX;

    ofs_check_init("shmem_free");
    OFS_STATS_SCOPE(OFS_STATS_C_NONE, 0, 0);
    if (ptr && !heap_live(ptr))
        mem_bad_ptr("shmem_free", ptr);
    if (ptr)
        (void)heap_seg_of(ptr, 1, &off);
    if (!mem_agree("shmem_free", mem_sig(MEM_FREE, off, 0))) {
        if (!ptr)
            ofs_bad_input("shmem_free", "ptr = NULL" MEM_DIFFER);
        ofs_bad_input("shmem_free", "ptr = %p (offset %zu in the heap)" MEM_DIFFER, ptr, off);
    }
    if (ptr && heap_free(ptr) != OFS_OK)
        mem_bad_ptr("shmem_free", ptr);
}
OFS_WEAK_ALIAS(shmem_free)

OFS_API void *pshmem_realloc(void *ptr, size_t size)
{
    void *p;

    size_t off = SIZE_MAX;

    ofs_check_init("shmem_realloc");
    OFS_STATS_SCOPE(OFS_STATS_C_NONE, 0, 0);
    if (ptr && !heap_live(ptr))
        mem_bad_ptr("shmem_realloc", ptr);
    if (ptr)
        (void)heap_seg_of(ptr, 1, &off);
    if (!mem_agree("shmem_realloc", mem_sig(MEM_REALLOC, off, size)))
        ofs_bad_input("shmem_realloc", "ptr = %p (offset %zu in the heap), size = %zu" MEM_DIFFER,
                      ptr, off, size);
    if (size == 0) {
        if (ptr)
            heap_free(ptr);
        coll_barrier_all_as("shmem_realloc");
        return NULL;
    }
    p = heap_realloc(ptr, size);
    if (!p)
        mem_report_full("shmem_realloc", ptr ? "grow the block to" : "allocate", size);
    coll_barrier_all_as("shmem_realloc");
    return p;
}
OFS_WEAK_ALIAS(shmem_realloc)

OFS_API void *pshmalloc(size_t size)
{
    return pshmem_malloc(size);
}
OFS_WEAK_ALIAS(shmalloc)
OFS_API void pshfree(void *ptr)
{
    pshmem_free(ptr);
}
OFS_WEAK_ALIAS(shfree)
OFS_API void *pshrealloc(void *ptr, size_t size)
{
    return pshmem_realloc(ptr, size);
}
OFS_WEAK_ALIAS(shrealloc)
OFS_API void *pshmemalign(size_t alignment, size_t size)
{
    return pshmem_align(alignment, size);
}
OFS_WEAK_ALIAS(shmemalign)
