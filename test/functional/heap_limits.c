/* The heap honours SHMEM_SYMMETRIC_SIZE: beyond it shmem_malloc returns NULL, memory
 * comes back after free, and all of it is the user's in one block, whatever the number
 * of PEs (the library's own blocks come from elsewhere).  Run with
 * SHMEM_SYMMETRIC_SIZE=4096K. */
#include "tests.h"
#include <stdint.h>

int main(void)
{
    shmem_init();
    void *big = shmem_malloc((size_t)64 << 20); /* well beyond 4 MiB + reserve */
    CHECK(big == NULL);
    CHECK(shmem_malloc(0) == NULL);
    void *a = shmem_malloc(3 << 20);
    CHECK(a != NULL);
    void *b = shmem_malloc(3 << 20);
    CHECK(b == NULL || b != a);
    shmem_free(b);
    shmem_free(a);
    void *c = shmem_malloc(3 << 20);
    CHECK(c == a); /* deterministic first fit */
    void *al = shmem_align(1 << 16, 100);
    CHECK(al != NULL && ((uintptr_t)al & 0xffff) == 0);
    int *z = shmem_calloc(1000, sizeof(int));
    CHECK(z != NULL);
    for (int i = 0; z && i < 1000; i++)
        if (z[i] != 0) {
            CHECK(z[i] == 0);
            break;
        }
    int *r = shmem_realloc(z, 100000 * sizeof(int));
    CHECK(r != NULL);
    shmem_free(r);
    shmem_free(al);
    shmem_free(c);
    void *all = shmem_malloc((size_t)4096 << 10);
    CHECK(all != NULL);
    shmem_free(all);
    return test_finish("heap_limits");
}
