/*
 * shmem_ptr on a single-node job over shm: non-NULL for every PE, for heap and
 * static data, and loads/stores through it reach the peer's object.  With
 * EXPECT_PTR=0 (same-node PEs over ofi) only the own PE may be load/store
 * accessible and the test checks that shmem_ptr says so.
 */
#include "tests.h"
#include <string.h>

static long static_words[64];
static int static_int = 17;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *e = getenv("EXPECT_PTR");
    int expect = e ? atoi(e) : 1;
    long *heap = shmem_malloc(64 * sizeof(long));
    CHECK(heap != NULL);
    for (int i = 0; i < 64; i++)
        heap[i] = static_words[i] = -1;
    shmem_barrier_all();

    CHECK(shmem_ptr(heap, me) == heap);
    CHECK(shmem_ptr(static_words, me) == static_words);
    for (int pe = 0; pe < n; pe++) {
        long *h = shmem_ptr(heap, pe), *s = shmem_ptr(static_words, pe);
        int *si = shmem_ptr(&static_int, pe);
        if (pe == me)
            continue;
        if (!expect) {
            CHECK(h == NULL && s == NULL && si == NULL);
            continue;
        }
        CHECK(h != NULL && s != NULL && si != NULL);
        if (!h || !s || !si)
            continue;
        CHECK(*si == 17); /* initialised static data survived the remap */
        /* each PE owns slot me in every peer's arrays */
        __atomic_store_n(&h[me], 1000L * me + pe, __ATOMIC_RELEASE);
        __atomic_store_n(&s[me], 2000L * me + pe, __ATOMIC_RELEASE);
        CHECK(shmem_ptr(&heap[me], pe) == (void *)&h[me]); /* offsets are preserved */
    }
    shmem_barrier_all();
    if (expect) {
        for (int pe = 0; pe < n; pe++) {
            if (pe == me)
                continue;
            CHECK(heap[pe] == 1000L * pe + me);
            CHECK(static_words[pe] == 2000L * pe + me);
            /* what a peer stored is also visible to get */
            long v;
            shmem_getmem(&v, &heap[pe], sizeof(v), me);
            CHECK(v == 1000L * pe + me);
        }
        /* load through the pointer what the owner stored */
        heap[63] = 5000 + me;
        static_words[63] = 6000 + me;
        shmem_barrier_all();
        int right = (me + 1) % n;
        long *h = shmem_ptr(heap, right), *s = shmem_ptr(static_words, right);
        if (n > 1 && h && s) {
            CHECK(h[63] == 5000 + right);
            CHECK(s[63] == 6000 + right);
        }
    }
    return test_finish("shm_ptr");
}
