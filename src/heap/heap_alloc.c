/*
 * The symmetric heap allocator: deterministic first-fit over an address-ordered
 * block list with coalescing.  The same sequence of calls gives the same offsets on
 * every PE.  Bookkeeping lives in private memory, so a stray remote write into the
 * heap cannot corrupt it.  The library's own blocks (teams, collectives) come from the
 * same heap; the user's (shmem_malloc and friends, the _user calls) are counted
 * against a limit of their own, SHMEM_SYMMETRIC_SIZE, so that the user gets what was
 * asked for, no more, whatever the library takes.
 */
#include "heap.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_MIN_ALIGN 64 /* a cache line: enough for every type, avoids false sharing */

struct heap_block {
    size_t off;
    size_t size;
    int free;
    int user; /* counted in user_used */
    struct heap_block *prev, *next;
};

struct heap_allocator {
    char *base;
    size_t len;
    size_t base_align; /* the largest alignment offsets can honour alike on every PE */
    size_t bytes_free;
    size_t user_limit, user_used;
    struct heap_block *head;
};

static struct heap_allocator *heap_main;
/* heap_main's blocks: a thread's SHMEM_DEBUG check (heap_user_room) may walk them while
 * another thread allocates or frees */
static pthread_mutex_t heap_main_lock = PTHREAD_MUTEX_INITIALIZER;

size_t heap_base_align(size_t len)
{
    size_t a = HEAP_MIN_ALIGN;

    while (a < len && a <= SIZE_MAX / 2)
        a <<= 1;
    return a;
}

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
    a->base_align = heap_base_align(len);
    /* a base aligned less (a private allocator over malloc'd memory) honours less */
    while (a->base_align > HEAP_MIN_ALIGN && ((uintptr_t)base & (a->base_align - 1)))
        a->base_align >>= 1;
    a->bytes_free = len;
    a->user_limit = len;
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

static struct heap_block *heap_alloc_block(struct heap_allocator *a, size_t size, size_t align)
{
    if (size == 0 || size > a->len)
        return NULL;
    if (align & (align - 1))
        return NULL;
    if (align < HEAP_MIN_ALIGN)
        align = HEAP_MIN_ALIGN;
    /* Padding is computed from the offset, which is the same on every PE; it aligns the
     * address only up to the base's alignment, beyond which no offset would be symmetric */
    if (align > a->base_align)
        return NULL;
    size = (size + HEAP_MIN_ALIGN - 1) & ~(size_t)(HEAP_MIN_ALIGN - 1);
    for (struct heap_block *b = a->head; b; b = b->next) {
        size_t lead = ((b->off + align - 1) & ~(align - 1)) - b->off;

        if (!b->free || b->size < lead || b->size - lead < size)
            continue;
        return heap_carve(a, b, lead, size);
    }
    return NULL;
}

void *heap_allocator_alloc(struct heap_allocator *a, size_t size, size_t align)
{
    struct heap_block *b = heap_alloc_block(a, size, align);
    return b ? a->base + b->off : NULL;
}

/* size rounded as the allocator rounds it, or 0 if it cannot be */
static size_t heap_round(size_t size)
{
    size_t r = (size + HEAP_MIN_ALIGN - 1) & ~(size_t)(HEAP_MIN_ALIGN - 1);
    return r < size ? 0 : r;
}

void *heap_allocator_alloc_user(struct heap_allocator *a, size_t size, size_t align)
{
    size_t r = heap_round(size);
    struct heap_block *b;

    if (r == 0 || r > a->user_limit - a->user_used)
        return NULL;
    b = heap_alloc_block(a, size, align);
    if (!b)
        return NULL;
    b->user = 1;
    a->user_used += b->size;
    return a->base + b->off;
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
    if (b->user)
        a->user_used -= b->size;
    b->user = 0;
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
        return heap_allocator_alloc_user(a, size, HEAP_MIN_ALIGN);
    b = heap_find(a, ptr);
    if (!b)
        return NULL;
    size_t want = heap_round(size);
    if (want == 0)
        return NULL;
    if (want <= b->size)
        return ptr; /* shrinking keeps the block: deterministic and cheap */
    /* the user's bytes after the call: the old block's go, want's come */
    if (want > a->user_limit - (a->user_used - (b->user ? b->size : 0)))
        return NULL;
    if (b->next && b->next->free && b->size + b->next->size >= want) {
        size_t grow = want - b->size;
        struct heap_block *n = b->next;
        a->bytes_free -= grow;
        if (b->user)
            a->user_used += grow;
        if (n->size == grow) {
            heap_merge_next(b);
        } else {
            n->off += grow;
            n->size -= grow;
            b->size += grow;
        }
        return ptr;
    }
    struct heap_block *nb = heap_alloc_block(a, size, HEAP_MIN_ALIGN);
    if (!nb)
        return NULL;
    np = a->base + nb->off;
    memcpy(np, ptr, b->size);
    nb->user = b->user;
    if (nb->user)
        a->user_used += nb->size;
    heap_allocator_free(a, ptr);
    return np;
}

size_t heap_allocator_bytes_free(struct heap_allocator *a)
{
    return a->bytes_free;
}

void heap_allocator_user_limit(struct heap_allocator *a, size_t limit)
{
    a->user_limit = limit;
}

void heap_allocator_user_free(struct heap_allocator *a, size_t *free_p, size_t *largest_p)
{
    size_t room = a->user_limit > a->user_used ? a->user_limit - a->user_used : 0;
    size_t largest = 0;

    for (struct heap_block *b = a->head; b; b = b->next)
        if (b->free && b->size > largest)
            largest = b->size;
    *free_p = room < a->bytes_free ? room : a->bytes_free;
    *largest_p = largest < *free_p ? largest : *free_p;
}

ofs_status_t heap_alloc_init(void *base, size_t len, size_t user_limit)
{
    heap_allocator_destroy(heap_main);
    heap_main = heap_allocator_create(base, len);
    if (heap_main)
        heap_allocator_user_limit(heap_main, user_limit);
    return heap_main ? OFS_OK : OFS_ERR_NOMEM;
}

void heap_alloc_fini(void)
{
    heap_allocator_destroy(heap_main);
    heap_main = NULL;
}

void *heap_alloc(size_t size, size_t align)
{
    pthread_mutex_lock(&heap_main_lock);
    void *p = heap_allocator_alloc(heap_main, size, align);
    pthread_mutex_unlock(&heap_main_lock);
    return p;
}

void *heap_alloc_spare(size_t size, size_t align)
{
    size_t ufree, ularge;

    pthread_mutex_lock(&heap_main_lock);
    void *p = heap_allocator_alloc(heap_main, size, align);
    if (p) {
        heap_allocator_user_free(heap_main, &ufree, &ularge);
        if (ularge < heap_main->user_limit) {
            heap_allocator_free(heap_main, p);
            p = NULL;
        }
    }
    pthread_mutex_unlock(&heap_main_lock);
    return p;
}

void *heap_alloc_user(size_t size, size_t align)
{
    pthread_mutex_lock(&heap_main_lock);
    void *p = heap_allocator_alloc_user(heap_main, size, align);
    pthread_mutex_unlock(&heap_main_lock);
    return p;
}

ofs_status_t heap_free(void *ptr)
{
    pthread_mutex_lock(&heap_main_lock);
    ofs_status_t st = heap_allocator_free(heap_main, ptr);
    pthread_mutex_unlock(&heap_main_lock);
    return st;
}

void *heap_realloc(void *ptr, size_t size)
{
    pthread_mutex_lock(&heap_main_lock);
    void *p = heap_allocator_realloc(heap_main, ptr, size);
    pthread_mutex_unlock(&heap_main_lock);
    return p;
}

int heap_live(const void *ptr)
{
    pthread_mutex_lock(&heap_main_lock);
    int live = heap_main && heap_find(heap_main, ptr) != NULL;
    pthread_mutex_unlock(&heap_main_lock);
    return live;
}

size_t heap_max_align(void)
{
    size_t a;

    pthread_mutex_lock(&heap_main_lock);
    a = heap_main ? heap_main->base_align : 0;
    pthread_mutex_unlock(&heap_main_lock);
    return a;
}

size_t heap_user_room(const void *addr)
{
    size_t room = 0;

    pthread_mutex_lock(&heap_main_lock);
    if (heap_main && (const char *)addr >= heap_main->base &&
        (const char *)addr < heap_main->base + heap_main->len) {
        size_t off = (size_t)((const char *)addr - heap_main->base);
        for (struct heap_block *b = heap_main->head; b; b = b->next)
            if (off >= b->off && off - b->off < b->size) {
                if (!b->free && b->user)
                    room = b->size - (off - b->off);
                break;
            }
    }
    pthread_mutex_unlock(&heap_main_lock);
    return room;
}

size_t heap_lib_bytes(void)
{
    size_t n = 0;

    pthread_mutex_lock(&heap_main_lock);
    if (heap_main)
        n = heap_main->len - heap_main->bytes_free - heap_main->user_used;
    pthread_mutex_unlock(&heap_main_lock);
    return n;
}

void heap_user_free(size_t *free_p, size_t *largest_p)
{
    *free_p = *largest_p = 0;
    pthread_mutex_lock(&heap_main_lock);
    if (heap_main)
        heap_allocator_user_free(heap_main, free_p, largest_p);
    pthread_mutex_unlock(&heap_main_lock);
}
