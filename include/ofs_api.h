/*
 * ofs_api.h: what every API implementation file needs.  A routine X is defined as
 * the strong symbol pshmem_X and exported as the weak alias shmem_X, so profiling
 * tools can interpose on shmem_X and call pshmem_X.
 */
#ifndef OFS_API_H
#define OFS_API_H

/* the public opaque handles are our internal structs */
#define shmem_ctx_opaque comm_ctx
#define shmem_team_opaque coll_team

#include "ofs.h"
#include "ofs_check.h"
#include "comm.h"
#include "coll.h"

/* Define pshmem_<name> (strong) after declaring shmem_<name> as its weak alias.
 * Usage:  OFS_WEAK_ALIAS(shmem_my_pe)  after the definition of pshmem_my_pe. */
#define OFS_WEAK_ALIAS(name) \
    extern __typeof(p##name) name __attribute__((weak, alias("p" #name), visibility("default")));

static inline struct comm_ctx *ofs_ctx(void *shmem_ctx)
{
    return (struct comm_ctx *)shmem_ctx;
}

#endif
