/* Put/get/p/g of many sizes to heap and static targets on every PE; shmem_ptr. */
#include "tests.h"
#include <string.h>

static char static_buf[1 << 16];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    size_t max = 1 << 20;
    char *heap = shmem_malloc(max);
    char *src = malloc(max), *dst = malloc(max);
    CHECK(heap != NULL);

    for (size_t len = 1; len <= max; len = len * 3 + 1) {
        for (size_t i = 0; i < len; i++)
            src[i] = (char)(me * 31 + i * 7 + len);
        shmem_barrier_all();
        shmem_putmem(heap, src, len, right);
        if (len <= sizeof(static_buf))
            shmem_putmem(static_buf, src, len, right);
        shmem_barrier_all();
        for (size_t i = 0; i < len; i++) {
            if (heap[i] != (char)(left * 31 + i * 7 + len)) {
                CHECK(heap[i] == (char)(left * 31 + i * 7 + len));
                break;
            }
        }
        if (len <= sizeof(static_buf))
            CHECK(memcmp(static_buf, heap, len) == 0);
        memset(dst, 0, len);
        shmem_getmem(dst, heap, len, right);
        for (size_t i = 0; i < len; i++) {
            if (dst[i] != (char)(me * 31 + i * 7 + len)) {
                CHECK(dst[i] == (char)(me * 31 + i * 7 + len));
                break;
            }
        }
    }

    /* p/g on an int in static memory */
    static int word;
    shmem_barrier_all();
    shmem_int_p(&word, 1000 + me, right);
    shmem_barrier_all();
    CHECK(word == 1000 + left);
    CHECK(shmem_int_g(&word, right) == 1000 + me);

    /* shmem_ptr: every PE of a single-node job is reachable by load/store */
    for (int pe = 0; pe < n; pe++) {
        int *p = shmem_ptr(&word, pe);
        if (getenv("EXPECT_PTR"))
            CHECK(p != NULL);
        if (p)
            CHECK(*p == 1000 + (pe + n - 1) % n);
    }
    CHECK(shmem_ptr(&word, me) == &word);
    CHECK(shmem_addr_accessible(heap, right) && shmem_addr_accessible(&word, left));
    CHECK(!shmem_addr_accessible(src, right));
    CHECK(shmem_pe_accessible(right) && !shmem_pe_accessible(n));

    shmem_free(heap);
    free(src);
    free(dst);
    return test_finish("rma_basic");
}
