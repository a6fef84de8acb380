m4_changecom()m4_dnl
/* ofishmem: extensions beyond OpenSHMEM 1.5 (shmemx_ prefix).
 * generated -- do not edit: made by m4 from mpp/shmemx.h.m4. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

/* No extensions yet: the cheap OpenSHMEM 1.6 routines (shmem_signal_add/set,
 * shmem_pe_quiet, shmem_team_ptr, shmem_query_initialized) are declared in shmem.h. */

#endif /* SHMEMX_H */
