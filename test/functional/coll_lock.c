/* Locks: mutual exclusion and no lost update under contention from every PE, with
 * shmem_set_lock and with shmem_test_lock, two locks nested (different home PEs);
 * every lock word is back to 0 at the end. */
#include "tests.h"

#define ITERS 200

static long lock_a, lock_b[2];
static long counter, inside;

static void critical(void)
{
    long c;
    /* nobody else is inside */
    CHECK(shmem_long_atomic_fetch_add(&inside, 1, 0) == 0);
    shmem_getmem(&c, &counter, sizeof(c), 0);
    c++;
    shmem_putmem(&counter, &c, sizeof(c), 0);
    shmem_long_atomic_add(&inside, -1, 0);
}

int main(void)
{
    int npes;

    shmem_init();
    npes = shmem_n_pes();
    for (int i = 0; i < ITERS; i++) {
        shmem_set_lock(&lock_a);
        critical();
        shmem_clear_lock(&lock_a);
    }
    for (int i = 0; i < ITERS; i++) {
        while (shmem_test_lock(&lock_a) != 0)
            ;
        critical();
        shmem_clear_lock(&lock_a);
    }
    for (int i = 0; i < ITERS / 2; i++) {
        shmem_set_lock(&lock_a);
        shmem_set_lock(&lock_b[1]);
        critical();
        shmem_clear_lock(&lock_b[1]);
        shmem_clear_lock(&lock_a);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        CHECK(counter == (long)npes * (2 * ITERS + ITERS / 2));
    CHECK(lock_a == 0 && lock_b[0] == 0 && lock_b[1] == 0);
    /* every PE has read its lock words before PE 0 takes lock_a again below: without
     * this barrier the home PE of lock_a (PE 8 at 16 PEs) could see PE 0's tail entry */
    shmem_barrier_all();
    /* a held lock is reported as held */
    if (shmem_my_pe() == 0)
        shmem_set_lock(&lock_a);
    shmem_barrier_all();
    if (shmem_my_pe() != 0)
        CHECK(shmem_test_lock(&lock_a) == 1);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        shmem_clear_lock(&lock_a);
    shmem_barrier_all();
    CHECK(lock_a == 0);
    return test_finish("coll_lock");
}
