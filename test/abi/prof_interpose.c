/* (3) profiling interposition: a tool defines shmem_int_put itself and forwards to
 * pshmem_int_put; the application's calls (direct and through the C11 generic) must
 * reach the tool, and the data must still move. */
#include <shmem.h>
#include <pshmem.h>
#include "../functional/tests.h"

static int intercepted;

void shmem_int_put(int *dest, const int *source, size_t nelems, int pe)
{
    intercepted++;
    pshmem_int_put(dest, source, nelems, pe);
}

static int dst[2];

int main(void)
{
    int src[2] = { 11, 22 };
    shmem_init();
    shmem_int_put(dst, src, 1, shmem_my_pe());
    shmem_put(&dst[1], &src[1], 1, shmem_my_pe());
    shmem_quiet();
    CHECK(intercepted == 2);
    CHECK(dst[0] == 11 && dst[1] == 22);
    return test_finish("prof_interpose");
}
