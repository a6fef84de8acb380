/*
 * Locks: an MCS queue lock over comm AMOs, so waiting is FIFO-fair and each waiter
 * spins on its OWN memory (no traffic on the lock word while waiting).
 *
 * The symmetric long is viewed as two 32-bit words:
 *   word 0 on the lock's home PE: the queue tail (PE + 1, 0 = free);
 *   word 1 on every PE: that PE's queue node: the successor (PE + 1) in the low 31 bits,
 *          COLL_LOCK_GO when the predecessor hands the lock over.
 * The home PE is derived from the lock's symmetric offset, spreading locks over PEs.
 * Every update goes through comm_amo (one atomic executor); local reads are atomic
 * loads.  The lock word returns to 0 when the lock is free and nobody waits.
 * A lock is held by a PE: threads of one PE must not contend for the same lock.
 * Each PE keeps the addresses of the locks it holds: setting one again would queue the
 * PE behind itself for ever, and clearing one it does not hold would hand another PE's
 * lock over (the specification defines neither: both are named errors).
 */
#include "coll_internal.h"

#include <pthread.h>
#include <stdlib.h>

#define COLL_LOCK_GO 0x80000000u
#define COLL_LOCK_NEXT 0x7fffffffu

static int lock_home(long *lock)
{
    size_t off;
    comm_seg(lock, sizeof(long), &off);
    return (int)((off / sizeof(long)) % (size_t)ofs_g.n_pes);
}

static inline uint32_t *lock_tail(long *lock)
{
    return (uint32_t *)lock;
}

static inline uint32_t *lock_node(long *lock)
{
    return (uint32_t *)lock + 1;
}

static uint32_t node_wait(long *lock, uint32_t mask)
{
    uint32_t v;

    COMM_WAIT_UNTIL((v = __atomic_load_n(lock_node(lock), __ATOMIC_ACQUIRE)) & mask);
    return v;
}

static void node_amo(long *lock, enum comm_amo_op op, uint32_t val, int pe)
{
    comm_amo(COMM_CTX_DEFAULT, op, COMM_DT_U32, lock_node(lock), &val, NULL, NULL, pe, 0);
}

/* Clear my queue node and return only when that is done.  A non-fetching AMO over the
 * fabric completes asynchronously (even on my own PE): if the reset were still in
 * flight when I queue up again, my wait would see the GO of my previous turn and
 * enter the critical section at once, or the reset would wipe my successor's link. */
static void node_reset(long *lock)
{
    uint32_t zero = 0, old;
    comm_amo(COMM_CTX_DEFAULT, COMM_AMO_SET, COMM_DT_U32, lock_node(lock), &zero, NULL, &old,
             ofs_g.my_pe, 0);
}

static struct {
    pthread_mutex_t mutex;
    long **v; /* the locks this PE holds */
    size_t n, cap;
} held = { .mutex = PTHREAD_MUTEX_INITIALIZER };

/* index of lock among the held ones, or held.n; under held.mutex */
static size_t held_find(const long *lock)
{
    size_t i = 0;

    while (i < held.n && held.v[i] != lock)
        i++;
    return i;
}

static int lock_held(const long *lock)
{
    pthread_mutex_lock(&held.mutex);
    int yes = held_find(lock) < held.n;
    pthread_mutex_unlock(&held.mutex);
    return yes;
}

static void held_add(long *lock)
{
    pthread_mutex_lock(&held.mutex);
    if (held.n == held.cap) {
        size_t cap = held.cap ? 2 * held.cap : 8;
        long **v = realloc(held.v, cap * sizeof(*v));
        if (!v)
            ofs_fatal(1, "out of memory recording a held lock (%zu held)", held.n);
        held.v = v;
        held.cap = cap;
    }
    held.v[held.n++] = lock;
    pthread_mutex_unlock(&held.mutex);
}

static void held_remove(long *lock)
{
    pthread_mutex_lock(&held.mutex);
    size_t i = held_find(lock);
    if (i < held.n)
        held.v[i] = held.v[--held.n];
    pthread_mutex_unlock(&held.mutex);
}

void coll_lock_set(const char *r, long *lock)
{
    uint32_t me1 = (uint32_t)ofs_g.my_pe + 1, prev = 0;

    if (lock_held(lock))
        ofs_bad_input(r,
                      "lock = %p is already held by this PE (PE %d): it would wait for itself; "
                      "locks are not recursive (shmem_clear_lock it first)",
                      (void *)lock, ofs_g.my_pe);

    comm_amo(COMM_CTX_DEFAULT, COMM_AMO_SET, COMM_DT_U32, lock_tail(lock), &me1, NULL, &prev,
             lock_home(lock), 0);
    if (prev != 0) {
        node_amo(lock, COMM_AMO_OR, me1, (int)prev - 1); /* link behind prev */
        node_wait(lock, COLL_LOCK_GO);
    }
    held_add(lock);
}

int coll_lock_test(long *lock)
{
    uint32_t me1 = (uint32_t)ofs_g.my_pe + 1, zero = 0, prev = 1;

    comm_amo(COMM_CTX_DEFAULT, COMM_AMO_CSWAP, COMM_DT_U32, lock_tail(lock), &me1, &zero, &prev,
             lock_home(lock), 0);
    if (prev == 0)
        held_add(lock);
    return prev != 0;
}

void coll_lock_clear(const char *r, long *lock)
{
    uint32_t me1 = (uint32_t)ofs_g.my_pe + 1, zero = 0, old = 0, next;

    if (!lock_held(lock))
        ofs_bad_input(r,
                      "lock = %p is not held by this PE (PE %d): only the PE that set a lock "
                      "may clear it",
                      (void *)lock, ofs_g.my_pe);
    held_remove(lock);

    /* updates made under the lock are visible before the next holder gets it */
    comm_quiet(COMM_CTX_DEFAULT);
    next = __atomic_load_n(lock_node(lock), __ATOMIC_ACQUIRE) & COLL_LOCK_NEXT;
    if (next == 0) {
        comm_amo(COMM_CTX_DEFAULT, COMM_AMO_CSWAP, COMM_DT_U32, lock_tail(lock), &zero, &me1, &old,
                 lock_home(lock), 0);
        if (old == me1) {
            node_reset(lock);
            return;
        }
        /* somebody swapped in behind us: wait until it links itself */
        next = node_wait(lock, COLL_LOCK_NEXT) & COLL_LOCK_NEXT;
    }
    node_reset(lock);
    node_amo(lock, COMM_AMO_OR, COLL_LOCK_GO, (int)next - 1);
}
