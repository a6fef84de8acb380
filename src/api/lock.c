/* Distributed locks: shmem_set_lock, shmem_test_lock, shmem_clear_lock (MCS queue lock). */
#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"

static void lock_check(const char *routine, long *lock)
{
    ofs_check_init(routine);
    ofs_check_nonnull(routine, "lock", lock, sizeof(long));
    ofs_check_sym(routine, "lock", lock, sizeof(long));
    if ((uintptr_t)lock % sizeof(long))
        ofs_bad_input(routine, "lock = %p is not aligned to a long", (void *)lock);
}

OFS_API void pshmem_set_lock(long *lock)
{
    lock_check("shmem_set_lock", lock);
    coll_lock_set("shmem_set_lock", lock);
}
OFS_WEAK_ALIAS(shmem_set_lock)

OFS_API int pshmem_test_lock(long *lock)
{
    lock_check("shmem_test_lock", lock);
    return coll_lock_test(lock);
}
OFS_WEAK_ALIAS(shmem_test_lock)

OFS_API void pshmem_clear_lock(long *lock)
{
    lock_check("shmem_clear_lock", lock);
    coll_lock_clear("shmem_clear_lock", lock);
}
OFS_WEAK_ALIAS(shmem_clear_lock)
