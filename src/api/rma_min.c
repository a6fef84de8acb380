/* Bootstrap subset of RMA and AMO (the m4 layer generates the full set). */
#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"

OFS_API void pshmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    ofs_check_init("shmem_putmem");
    ofs_check_pe("shmem_putmem", pe);
    ofs_check_sym("shmem_putmem", "dest", dest, nelems);
    ofs_check_nonnull("shmem_putmem", "source", source, nelems);
    comm_put(COMM_CTX_DEFAULT, dest, source, nelems, pe);
}
OFS_WEAK_ALIAS(shmem_putmem)

OFS_API void pshmem_getmem(void *dest, const void *source, size_t nelems, int pe)
{
    ofs_check_init("shmem_getmem");
    ofs_check_pe("shmem_getmem", pe);
    ofs_check_sym("shmem_getmem", "source", source, nelems);
    ofs_check_nonnull("shmem_getmem", "dest", dest, nelems);
    comm_get(COMM_CTX_DEFAULT, dest, source, nelems, pe);
}
OFS_WEAK_ALIAS(shmem_getmem)

OFS_API void pshmem_int_put(int *dest, const int *source, size_t nelems, int pe)
{
    ofs_check_init("shmem_int_put");
    ofs_check_pe("shmem_int_put", pe);
    ofs_check_sym("shmem_int_put", "dest", dest, nelems * sizeof(int));
    ofs_check_nonnull("shmem_int_put", "source", source, nelems);
    comm_put(COMM_CTX_DEFAULT, dest, source, nelems * sizeof(int), pe);
}
OFS_WEAK_ALIAS(shmem_int_put)

OFS_API void pshmem_int_get(int *dest, const int *source, size_t nelems, int pe)
{
    ofs_check_init("shmem_int_get");
    ofs_check_pe("shmem_int_get", pe);
    ofs_check_sym("shmem_int_get", "source", source, nelems * sizeof(int));
    ofs_check_nonnull("shmem_int_get", "dest", dest, nelems);
    comm_get(COMM_CTX_DEFAULT, dest, source, nelems * sizeof(int), pe);
}
OFS_WEAK_ALIAS(shmem_int_get)

OFS_API void pshmem_int_p(int *dest, int value, int pe)
{
    ofs_check_init("shmem_int_p");
    ofs_check_pe("shmem_int_p", pe);
    ofs_check_sym("shmem_int_p", "dest", dest, sizeof(int));
    comm_put(COMM_CTX_DEFAULT, dest, &value, sizeof(int), pe);
}
OFS_WEAK_ALIAS(shmem_int_p)

OFS_API int pshmem_int_g(const int *source, int pe)
{
    int v;
    ofs_check_init("shmem_int_g");
    ofs_check_pe("shmem_int_g", pe);
    ofs_check_sym("shmem_int_g", "source", source, sizeof(int));
    comm_get(COMM_CTX_DEFAULT, &v, source, sizeof(int), pe);
    return v;
}
OFS_WEAK_ALIAS(shmem_int_g)

OFS_API long pshmem_long_atomic_fetch_add(long *dest, long value, int pe)
{
    long old;
    ofs_check_init("shmem_long_atomic_fetch_add");
    ofs_check_pe("shmem_long_atomic_fetch_add", pe);
    ofs_check_sym("shmem_long_atomic_fetch_add", "dest", dest, sizeof(long));
    comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_I64, dest, &value, NULL, &old, pe, 0);
    return old;
}
OFS_WEAK_ALIAS(shmem_long_atomic_fetch_add)

OFS_API void pshmem_long_atomic_add(long *dest, long value, int pe)
{
    ofs_check_init("shmem_long_atomic_add");
    ofs_check_pe("shmem_long_atomic_add", pe);
    ofs_check_sym("shmem_long_atomic_add", "dest", dest, sizeof(long));
    comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_I64, dest, &value, NULL, NULL, pe, 0);
}
OFS_WEAK_ALIAS(shmem_long_atomic_add)
