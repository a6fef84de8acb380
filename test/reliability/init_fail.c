/* A failed shmem_init_thread returns nonzero; a second attempt reports the first
 * failure instead of half-initialising.  Run with SHMEM_SYMMETRIC_SIZE=garbage. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    int provided = -1;
    int rc1 = shmem_init_thread(SHMEM_THREAD_SINGLE, &provided);
    int rc2 = shmem_init_thread(SHMEM_THREAD_SINGLE, &provided);
    if (rc1 == 0 || rc2 == 0) {
        printf("init_fail: FAILED (rc1 %d, rc2 %d)\n", rc1, rc2);
        return 1;
    }
    printf("init_fail: ok\n");
    return 0;
}
