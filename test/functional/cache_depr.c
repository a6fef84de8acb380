/*
 * The deprecated cache-management routines (OpenSHMEM 1.5/1.6 Annex: deprecated since
 * 1.3, still supported): all six link, under both names, may be called before
 * shmem_init, and leave remote updates visible.  tests-mellanox era programs call them.
 */
#include "tests.h"
#include <pshmem.h>

static int x = -1;
static long buf[4];

int main(void)
{
    /* before initialization: the routines do nothing and must not need the library */
    shmem_udcflush();
    shmem_set_cache_inv();
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    shmem_set_cache_inv();
    shmem_set_cache_line_inv(&x);
    shmem_barrier_all();
    shmem_int_p(&x, me, right);
    shmem_long_put(buf, (long[4]){ me, me + 1, me + 2, me + 3 }, 4, right);
    shmem_barrier_all();
    shmem_udcflush_line(&x);
    shmem_udcflush();
    CHECK(x == left);
    for (int i = 0; i < 4; i++)
        CHECK(buf[i] == left + i);
    shmem_clear_cache_line_inv(buf);
    shmem_clear_cache_inv();
    /* the profiling names are the same routines */
    pshmem_udcflush();
    pshmem_udcflush_line(&x);
    pshmem_set_cache_inv();
    pshmem_clear_cache_inv();
    pshmem_set_cache_line_inv(&x);
    pshmem_clear_cache_line_inv(&x);
    CHECK(x == left);
    return test_finish("cache_depr");
}
