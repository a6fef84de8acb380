/*
 * coll.h: teams, collectives and locks, src/coll/.  Written on the comm layer only.
 */
#ifndef OFS_COLL_H
#define OFS_COLL_H

#include "comm.h"

/* Collective, after comm_init(): world and shared teams, sync work arrays. */
ofs_status_t coll_init(void) OFS_HIDDEN;
void coll_fini(void) OFS_HIDDEN;

/* shmem_barrier_all: quiet on every context, then synchronise all PEs. */
void coll_barrier_all(void) OFS_HIDDEN;
/* shmem_sync_all: synchronise all PEs without completing outstanding operations. */
void coll_sync_all(void) OFS_HIDDEN;

#endif
