m4_include(`shmem_api.m4')m4_include(`shmem_untyped.m4')m4_changecom()m4_define(`MODE', `proto')m4_define(`SHPRE', `p')m4_dnl
/* ofishmem: OpenSHMEM 1.5 profiling interface: every routine shmem_X is also
 * callable as pshmem_X (the strong symbol; shmem_X is a weak alias of it).
 * generated -- do not edit: made by m4 from mpp/pshmem.h.m4 with the same
 * prototype templates as shmem.h (mpp/shmem_api.m4, mpp/shmem_types.m4). */
#ifndef PSHMEM_H
#define PSHMEM_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

MF_UNTYPED
MF_ALL
#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PSHMEM_H */
