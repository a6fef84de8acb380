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

/* Handles (src/api/ctx.c, team.c): a context or team that the program may use, else
 * one line naming the routine and the handle (SHMEM_CTX_INVALID / SHMEM_TEAM_INVALID,
 * or a value that is not a live context / team: destroyed, or never created). */
void ofs_bad_ctx(const char *routine, const void *ctx) OFS_NORETURN OFS_HIDDEN;
void ofs_bad_team(const char *routine, const char *arg, const void *team) OFS_NORETURN OFS_HIDDEN;
#ifdef OFS_ERROR_CHECKING
static OFS_ALWAYS_INLINE void ofs_check_ctx(const char *routine, const struct comm_ctx *ctx)
{
    if (OFS_UNLIKELY(!comm_ctx_valid(ctx)))
        ofs_bad_ctx(routine, ctx);
}
static inline void ofs_check_team(const char *routine, const char *arg,
                                  const struct coll_team *team)
{
    if (OFS_UNLIKELY(!coll_team_valid(team)))
        ofs_bad_team(routine, arg, team);
}
#else
static inline void ofs_check_ctx(const char *routine, const struct comm_ctx *ctx)
{
    (void)routine;
    (void)ctx;
}
static inline void ofs_check_team(const char *routine, const char *arg,
                                  const struct coll_team *team)
{
    (void)routine;
    (void)arg;
    (void)team;
}
#endif

#endif
