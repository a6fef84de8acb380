/*
 * heap.h: symmetric memory, src/heap/.  Two segments per PE: the executable's
 * static data (.data/.bss, remapped onto a shared-memory object at init) and the
 * symmetric heap (a shared-memory object of SHMEM_SYMMETRIC_SIZE bytes).  An
 * object's offset within its segment is the same on every PE, so a remote address
 * is the peer's segment base plus the local offset.
 */
#ifndef OFS_HEAP_H
#define OFS_HEAP_H

#include "ofs.h"

enum heap_seg_id { HEAP_SEG_DATA = 0, HEAP_SEG_HEAP = 1, HEAP_NSEGS = 2 };

struct heap_seg {
    char *base;     /* local address of the segment */
    size_t len;     /* bytes */
    int fd;         /* shared-memory object (-1 once closed) */
    char name[160]; /* its name under /dev/shm, published as "ofs.seg<N>" */
};

struct heap_state {
    struct heap_seg seg[HEAP_NSEGS];
};
extern struct heap_state heap_g OFS_HIDDEN;

/* Create the heap object, remap static data, publish both names (rt_kv_put). */
ofs_status_t heap_init(void) OFS_HIDDEN;
/* Unlink this PE's objects (after every peer has mapped them). */
void heap_unlink(void) OFS_HIDDEN;
/* start-up failed: also remove the objects of the job's other PEs on this node */
void heap_unlink_job(void) OFS_HIDDEN;
void heap_fini(void) OFS_HIDDEN;
/* Publish (before rt_init's exchange) what heap fits in SHMEM_SHM_DIR next to the other
 * objects of the node_pes PEs sharing it; heap_init lowers the default to the job's
 * minimum when no PE set SHMEM_SYMMETRIC_SIZE. */
ofs_status_t heap_fit_publish(int node_pes) OFS_HIDDEN;

/* Open / unlink a shared-memory object by name, in SHMEM_SHM_DIR. */
int heap_obj_open(const char *name, int flags, int mode) OFS_HIDDEN;
void heap_obj_unlink(const char *name) OFS_HIDDEN;

/* The shared-memory object name pe published for seg (after rt_exchange()). */
ofs_status_t heap_peer_name(int pe, int seg, char *name, size_t len) OFS_HIDDEN;

/* Translate a local symmetric address: returns the segment or -1 if addr..addr+len
 * is not inside one segment. */
static inline int heap_seg_of(const void *addr, size_t len, size_t *off_p)
{
    const char *a = (const char *)addr;
    for (int s = HEAP_NSEGS - 1; s >= 0; s--) {
        const struct heap_seg *sg = &heap_g.seg[s];
        if (a >= sg->base && (size_t)(a - sg->base) <= sg->len &&
            len <= sg->len - (size_t)(a - sg->base)) {
            *off_p = (size_t)(a - sg->base);
            return s;
        }
    }
    return -1;
}

/* The library's own heap blocks are counted before the heap is made: each layer that
 * allocates them says how many bytes (msg_heap_need, coll_heap_need, with HEAP_BLOCK
 * rounding), and the heap object is SHMEM_SYMMETRIC_SIZE + that + a margin, so the
 * user's blocks never lose a byte to them.  Set before heap_fit_publish and heap_init;
 * heap_internal_check (after the layers' init) names a layer that took more. */
/* heap_set_optional: bytes more the library would use where every PE's node has room
 * for them beside the heap (what heap_fit_publish measured without them); heap_init adds
 * them to the reserve then, on every PE alike, and heap_alloc_spare finds them. */
void heap_set_optional(size_t bytes) OFS_HIDDEN;
#define HEAP_BLOCK_ALIGN 64
static inline size_t heap_block_len(size_t n)
{
    return (n + HEAP_BLOCK_ALIGN - 1) & ~(size_t)(HEAP_BLOCK_ALIGN - 1);
}
void heap_set_internal(size_t bytes) OFS_HIDDEN;
/* Warns (PE 0) if the library's blocks outgrew their count and took from the user's. */
void heap_internal_check(void) OFS_HIDDEN;

/* The allocator (src/heap/heap_alloc.c): deterministic first-fit with coalescing.
 * Local calls; the API layer adds the collective barriers. */
ofs_status_t heap_alloc_init(void *base, size_t len, size_t user_limit) OFS_HIDDEN;
/* the library's own blocks */
void *heap_alloc(size_t size, size_t align) OFS_HIDDEN;
/* A block the library can do without (a check's board, a scratch buffer): NULL, not a
 * block, if taking it would leave the user less than SHMEM_SYMMETRIC_SIZE in one piece.
 * Every PE makes the same call in the same heap, so all carve it or none. */
void *heap_alloc_spare(size_t size, size_t align) OFS_HIDDEN;
/* The largest alignment heap_alloc_user gives alike on every PE */
size_t heap_max_align(void) OFS_HIDDEN;
/* the user's: at most user_limit bytes (SHMEM_SYMMETRIC_SIZE) of them live at once */
void *heap_alloc_user(size_t size, size_t align) OFS_HIDDEN;
/* Returns OFS_ERR_INVAL if ptr is not a live allocation. */
ofs_status_t heap_free(void *ptr) OFS_HIDDEN;
/* Is ptr the start of a live allocation? */
int heap_live(const void *ptr) OFS_HIDDEN;
/* SHMEM_DEBUG's block check: the bytes from addr to the end of the live user block (of
 * shmem_malloc and friends, rounded up to 64 bytes) holding it; 0 when addr is in none
 * (free space, the library's blocks, not in the heap).  Walks the blocks: O(blocks). */
size_t heap_user_room(const void *addr) OFS_HIDDEN;
/* The user's blocks.  NULL on failure with the old block untouched. */
void *heap_realloc(void *ptr, size_t size) OFS_HIDDEN;
/* What the user may still allocate, never more than user_limit: in all, and at most in
 * one piece. */
void heap_user_free(size_t *free_p, size_t *largest_p) OFS_HIDDEN;
/* bytes of the library's own blocks */
size_t heap_lib_bytes(void) OFS_HIDDEN;
void heap_alloc_fini(void) OFS_HIDDEN;

/* A standalone allocator instance, for unit tests and internal pools. */
struct heap_allocator;
/* The alignment of every PE's heap base: len rounded up to a power of two.  shmem_align
 * pads by offset, so an alignment up to this one is the same offset on every PE. */
size_t heap_base_align(size_t len) OFS_HIDDEN;
struct heap_allocator *heap_allocator_create(void *base, size_t len) OFS_HIDDEN;
void heap_allocator_destroy(struct heap_allocator *a) OFS_HIDDEN;
void *heap_allocator_alloc(struct heap_allocator *a, size_t size, size_t align) OFS_HIDDEN;
ofs_status_t heap_allocator_free(struct heap_allocator *a, void *ptr) OFS_HIDDEN;
void *heap_allocator_realloc(struct heap_allocator *a, void *ptr, size_t size) OFS_HIDDEN;
size_t heap_allocator_bytes_free(struct heap_allocator *a) OFS_HIDDEN;
/* user blocks: limit (default: the whole heap), allocation, what is left */
void heap_allocator_user_limit(struct heap_allocator *a, size_t limit) OFS_HIDDEN;
void *heap_allocator_alloc_user(struct heap_allocator *a, size_t size, size_t align) OFS_HIDDEN;
void heap_allocator_user_free(struct heap_allocator *a, size_t *free_p, size_t *largest_p)
    OFS_HIDDEN;

#endif
