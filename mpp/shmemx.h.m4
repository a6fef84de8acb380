m4_changecom()m4_dnl
/* ofishmem: extensions beyond OpenSHMEM 1.5 (shmemx_ prefix).
 * generated -- do not edit: made by m4 from mpp/shmemx.h.m4. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

/* 1.6 names available today (cheap aliases of 1.5 behaviour) */
#define SHMEMX_TEAM_INVALID SHMEM_TEAM_INVALID

#ifdef __cplusplus
extern "C" {
#endif

/* 1.6: shmem_ctx_get_team spelled shmemx_; n_pes of a context's team */
int shmemx_team_n_pes_ctx(shmem_ctx_t ctx);
int pshmemx_team_n_pes_ctx(shmem_ctx_t ctx);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHMEMX_H */
