/* shmem_align gives the same offset on every PE whatever the alignment: each PE's heap
 * is mapped at an address only page-aligned by mmap, so padding computed from the
 * address differed between PEs for alignments beyond a page (SOS shmemalign, 4 PEs,
 * 1 MiB..8 MiB).  An alignment beyond what the heap can honour alike is NULL on every
 * PE. */
#include "tests.h"
#include <stdint.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    /* a first block so that the aligned ones need padding */
    char *first = shmem_malloc(100);
    CHECK(first != NULL);
    for (size_t align = 8; align <= ((size_t)1 << 23); align <<= 1) {
        long *p = shmem_align(align, 257 * sizeof(long));
        CHECK(p != NULL && ((uintptr_t)p & (align - 1)) == 0);
        if (!p)
            break;
        p[0] = -1;
        shmem_barrier_all();
        /* lands on p[0] of the right neighbour only if the offsets agree */
        shmem_long_p(p, me, (me + 1) % npes);
        shmem_barrier_all();
        if (p[0] != (me + npes - 1) % npes) {
            CHECK(p[0] == (me + npes - 1) % npes);
            break;
        }
        shmem_free(p);
    }
    CHECK(shmem_align((size_t)1 << 50, 64) == NULL);
    shmem_free(first);
    return test_finish("heap_align");
}
