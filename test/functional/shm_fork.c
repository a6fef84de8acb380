/*
 * What ofishmem_shm(7) says about fork(): a child forked after shmem_init shares
 * the parent's static data and heap (both are MAP_SHARED), so the parent sees what
 * the child stores.  The child makes no OpenSHMEM call.
 */
#include "tests.h"
#include <sys/wait.h>
#include <unistd.h>

static volatile long static_word = 1;

int main(void)
{
    shmem_init();
    long *heap_word = shmem_malloc(sizeof(long));
    CHECK(heap_word != NULL);
    *heap_word = 2;
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        static_word = 11;
        *heap_word = 12;
        _exit(0);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(static_word == 11);
    CHECK(*heap_word == 12);
    shmem_barrier_all();
    return test_finish("shm_fork");
}
