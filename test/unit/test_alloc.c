/* Unit test: the symmetric heap allocator (determinism, alignment, coalescing,
 * exhaustion, realloc, bad frees). */
#include "heap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"

#define HEAP (1 << 20)

/* A fixed pseudo-random sequence of alloc/free/realloc; returns the offsets seen. */
static void run_sequence(struct heap_allocator *a, char *base, size_t *offs, int n)
{
    void *live[64] = { 0 };
    unsigned x = 12345;

    for (int i = 0; i < n; i++) {
        x = x * 1103515245 + 12345;
        int slot = (x >> 16) % 64;
        if (live[slot]) {
            if ((x >> 8) & 1) {
                CHECK(heap_allocator_free(a, live[slot]) == OFS_OK);
                live[slot] = NULL;
            } else {
                void *p = heap_allocator_realloc(a, live[slot], (x >> 4) % 5000 + 1);
                if (p)
                    live[slot] = p;
            }
            offs[i] = live[slot] ? (size_t)((char *)live[slot] - base) : (size_t)-1;
        } else {
            size_t align = (size_t)1 << ((x >> 20) % 12);
            live[slot] = heap_allocator_alloc(a, (x >> 3) % 7000 + 1, align);
            if (live[slot])
                CHECK(((uintptr_t)live[slot] & (align - 1)) == 0);
            offs[i] = live[slot] ? (size_t)((char *)live[slot] - base) : (size_t)-1;
        }
    }
    for (int s = 0; s < 64; s++)
        if (live[s])
            CHECK(heap_allocator_free(a, live[s]) == OFS_OK);
}

int main(void)
{
    char *b1 = aligned_alloc(4096, HEAP), *b2 = aligned_alloc(4096, HEAP);
    struct heap_allocator *a1 = heap_allocator_create(b1, HEAP);
    struct heap_allocator *a2 = heap_allocator_create(b2, HEAP);
    size_t o1[2000], o2[2000];

    /* determinism: two heaps at different addresses give the same offsets */
    run_sequence(a1, b1, o1, 2000);
    run_sequence(a2, b2, o2, 2000);
    CHECK(memcmp(o1, o2, sizeof(o1)) == 0);
    /* everything freed: fully coalesced */
    CHECK(heap_allocator_bytes_free(a1) == HEAP);
    void *all = heap_allocator_alloc(a1, HEAP, 1);
    CHECK(all == b1);
    CHECK(heap_allocator_alloc(a1, 1, 1) == NULL); /* exhausted */
    CHECK(heap_allocator_free(a1, all) == OFS_OK);

    /* too large, zero, bad alignment */
    CHECK(heap_allocator_alloc(a1, HEAP + 1, 1) == NULL);
    CHECK(heap_allocator_alloc(a1, 0, 1) == NULL);
    CHECK(heap_allocator_alloc(a1, 8, 3) == NULL);

    /* bad frees are refused, the heap stays intact */
    void *p = heap_allocator_alloc(a1, 100, 1);
    CHECK(p != NULL);
    CHECK(heap_allocator_free(a1, (char *)p + 8) == OFS_ERR_INVAL);
    CHECK(heap_allocator_free(a1, b2) == OFS_ERR_INVAL);
    CHECK(heap_allocator_free(a1, p) == OFS_OK);
    CHECK(heap_allocator_free(a1, p) == OFS_ERR_INVAL); /* double free */

    /* realloc keeps contents when it moves */
    char *q = heap_allocator_alloc(a1, 64, 1);
    char *blocker = heap_allocator_alloc(a1, 64, 1);
    memset(q, 0x5a, 64);
    char *q2 = heap_allocator_realloc(a1, q, 4096);
    CHECK(q2 && q2 != q);
    for (int i = 0; q2 && i < 64; i++)
        CHECK(q2[i] == 0x5a);
    /* growing in place into a free neighbour */
    CHECK(heap_allocator_free(a1, blocker) == OFS_OK);
    char *r = heap_allocator_alloc(a1, 64, 1);
    CHECK(r == b1);
    CHECK(heap_allocator_realloc(a1, r, 128) == r);

    /* the user's blocks count against their own limit, the library's do not; what is
     * reported free never exceeds the limit */
    struct heap_allocator *a3 = heap_allocator_create(b2, HEAP);
    size_t avail, largest;
    heap_allocator_user_limit(a3, 4096);
    heap_allocator_user_free(a3, &avail, &largest);
    CHECK(avail == 4096 && largest == 4096);
    void *lib = heap_allocator_alloc(a3, 8192, 1);
    char *u = heap_allocator_alloc_user(a3, 4000, 1); /* 4032 after rounding */
    CHECK(lib && u);
    CHECK(heap_allocator_alloc_user(a3, 128, 1) == NULL);
    CHECK(heap_allocator_alloc_user(a3, 64, 1) != NULL);
    heap_allocator_user_free(a3, &avail, &largest);
    CHECK(avail == 0 && largest == 0);
    CHECK(heap_allocator_alloc(a3, 8192, 1) != NULL);   /* the library's: not limited */
    CHECK(heap_allocator_realloc(a3, u, 4096) == NULL); /* 4096 + 64 > 4096 */
    CHECK(heap_allocator_free(a3, lib) == OFS_OK);
    CHECK(heap_allocator_free(a3, u) == OFS_OK);
    heap_allocator_user_free(a3, &avail, &largest);
    CHECK(avail == 4096 - 64 && largest == 4096 - 64);
    u = heap_allocator_realloc(a3, NULL, 2048);
    CHECK(u != NULL);
    u = heap_allocator_realloc(a3, u, 4096 - 64); /* moves or grows: the old block's count goes */
    CHECK(u != NULL);
    heap_allocator_destroy(a3);
    heap_allocator_destroy(a1);
    heap_allocator_destroy(a2);
    free(b1);
    free(b2);
    if (failures)
        fprintf(stderr, "test_alloc: %d failures\n", failures);
    else
        printf("test_alloc: ok\n");
    return failures != 0;
}
