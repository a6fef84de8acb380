/*
 * The symmetric heap allocator: deterministic first-fit over an address-ordered
 * block list with coalescing.  The same sequence of calls gives the same offsets on
 * every PE.  Bookkeeping lives in private memory, so a stray remote write into the
 * heap cannot corrupt it.
 */
#include "heap.h"

#include <stdlib.h>
#include <string.h>

#define HEAP_MIN_ALIGN 64 /* a cache line: enough for every type, avoids false sharing */

struct heap_block {
    size_t off;
    size_t size;
    int free;
    struct heap_block *prev, *next;
};

struct heap_allocator {
    char *base;
    size_t len;
    size_t bytes_free;
    struct heap_block *head;
};

static struct heap_allocator *heap_main;

struct heap_allocator *heap_allocator_create(void *base, size_t len)
{
    struct heap_allocator *a = calloc(1, sizeof(*a));
    struct heap_block *b = calloc(1, sizeof(*b));

    if (!a || !b) {
        free(a);
        free(b);
        return NULL;
    }
    a->base = base;
    a->len = len;
    a->bytes_free = len;
    b->off = 0;
    b->size = len;
    b->free = 1;
    a->head = b;
    return a;
}

void heap_allocator_destroy(struct heap_allocator *a)
{
    if (!a)
        return;
    for (struct heap_block *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

/* Split b so that a block of exactly 'size' bytes starts at b->off + lead. */
static struct heap_block *heap_carve(struct heap_allocator *a, struct heap_block *b, size_t lead,
                                     size_t size)
{
    if (lead) {
        struct heap_block *nb = calloc(1, sizeof(*nb));
        if (!nb)
            return NULL;
        nb->off = b->off + lead;
        nb->size = b->size - lead;
        nb->free = 1;
        nb->prev = b;
        nb->next = b->next;
        if (b->next)
            b->next->prev = nb;
        b->next = nb;
        b->size = lead;
        b = nb;
    }
    if (b->size > size) {
        struct heap_block *tail = calloc(1, sizeof(*tail));
        if (!tail)
            return NULL; /* b stays a free block; nothing lost */
        tail->off = b->off + size;
        tail->size = b->size - size;
        tail->free = 1;
        tail->prev = b;
        tail->next = b->next;
        if (b->next)
            b->next->prev = tail;
        b->next = tail;
        b->size = size;
    }
    b->free = 0;
    a->bytes_free -= size;
    return b;
}

void *heap_allocator_alloc(struct heap_allocator *a, size_t size, size_t align)
{
    if (size == 0 || size > a->len)
        return NULL;
    if (align & (align - 1))
        return NULL;
    if (align < HEAP_MIN_ALIGN)
        align = HEAP_MIN_ALIGN;
    size = (size + HEAP_MIN_ALIGN - 1) & ~(size_t)(HEAP_MIN_ALIGN - 1);
    for (struct heap_block *b = a->head; b; b = b->next) {
        uintptr_t addr = (uintptr_t)a->base + b->off;
        size_t lead = (size_t)(((addr + align - 1) & ~(uintptr_t)(align - 1)) - addr);

        if (!b->free || b->size < lead || b->size - lead < size)
            continue;
        b = heap_carve(a, b, lead, size);
        return b ? a->base + b->off : NULL;
    }
    return NULL;
}

static struct heap_block *heap_find(struct heap_allocator *a, const void *ptr)
{
    if ((const char *)ptr < a->base || (const char *)ptr >= a->base + a->len)
        return NULL;
    size_t off = (size_t)((const char *)ptr - a->base);
    for (struct heap_block *b = a->head; b; b = b->next)
        if (b->off == off)
            return b->free ? NULL : b;
    return NULL;
}

static void heap_merge_next(struct heap_block *b)
{
    struct heap_block *n = b->next;
    b->size += n->size;
    b->next = n->next;
    if (n->next)
        n->next->prev = b;
    free(n);
}

ofs_status_t heap_allocator_free(struct heap_allocator *a, void *ptr)
{
    struct heap_block *b = heap_find(a, ptr);

    if (!b)
        return OFS_ERR_INVAL;
    b->free = 1;
    a->bytes_free += b->size;
    if (b->next && b->next->free)
        heap_merge_next(b);
    if (b->prev && b->prev->free)
        heap_merge_next(b->prev);
    return OFS_OK;
}

void *heap_allocator_realloc(struct heap_allocator *a, void *ptr, size_t size)
{
    struct heap_block *b;
    void *np;

    if (!ptr)
        return heap_allocator_alloc(a, size, HEAP_MIN_ALIGN);
    b = heap_find(a, ptr);
    if (!b)
        return NULL;
    size_t want = (size + HEAP_MIN_ALIGN - 1) & ~(size_t)(HEAP_MIN_ALIGN - 1);
    if (want == 0)
        return NULL;
    if (want <= b->size)
        return ptr; /* shrinking keeps the block: deterministic and cheap */
    if (b->next && b->next->free && b->size + b->next->size >= want) {
        size_t grow = want - b->size;
        struct heap_block *n = b->next;
        a->bytes_free -= grow;
        if (n->size == grow) {
            heap_merge_next(b);
        } else {
            n->off += grow;
            n->size -= grow;
            b->size += grow;
        }
        return ptr;
    }
    np = heap_allocator_alloc(a, size, HEAP_MIN_ALIGN);
    if (!np)
        return NULL;
    memcpy(np, ptr, b->size);
    heap_allocator_free(a, ptr);
    return np;
}

size_t heap_allocator_bytes_free(struct heap_allocator *a)
{
    return a->bytes_free;
}

ofs_status_t heap_alloc_init(void *base, size_t len)
{
    heap_allocator_destroy(heap_main);
    heap_main = heap_allocator_create(base, len);
    return heap_main ? OFS_OK : OFS_ERR_NOMEM;
}

void heap_alloc_fini(void)
{
    heap_allocator_destroy(heap_main);
    heap_main = NULL;
}

void *heap_alloc(size_t size, size_t align)
{
    return heap_allocator_alloc(heap_main, size, align);
}

ofs_status_t heap_free(void *ptr)
{
    return heap_allocator_free(heap_main, ptr);
}

void *heap_realloc(void *ptr, size_t size)
{
    return heap_allocator_realloc(heap_main, ptr, size);
}

int heap_live(const void *ptr)
{
    return heap_main && heap_find(heap_main, ptr) != NULL;
}

size_t heap_bytes_free(void)
{
    return heap_main ? heap_allocator_bytes_free(heap_main) : 0;
}
