/* Communication contexts: shmem_ctx_create/destroy, shmem_team_create_ctx, shmem_ctx_get_team. */
#include "api.h"
#include "shmem.h"
#include "pshmem.h"

static int ctx_new(const char *routine, shmem_team_t team, int collective, long options,
                   shmem_ctx_t *ctx)
{
    struct comm_ctx *c;

    ofs_check_out(routine, "ctx", ctx);
    *ctx = SHMEM_CTX_INVALID;
    if (options & ~(SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE))
        ofs_bad_input(routine, "options = %#lx has bits that are not SHMEM_CTX_* options", options);
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    ofs_check_team(routine, "team", team);
    ofs_status_t st = collective ? coll_team_ctx_create(team, options, &c)
                                 : comm_ctx_create(options | COMM_CTX_USER, team, &c);
    if (st != OFS_OK) {
        /* a failure the caller can handle (the specification's nonzero return), but
         * its cause (the transport's line before this) should not go unseen */
        ofs_log_warn("%s: no context created (%s); it returns nonzero", routine,
                     ofs_status_string(st));
        return -1;
    }
    *ctx = c;
    return 0;
}

OFS_API int pshmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    ofs_check_init("shmem_ctx_create");
    return ctx_new("shmem_ctx_create", SHMEM_TEAM_WORLD, 0, options, ctx);
}
OFS_WEAK_ALIAS(shmem_ctx_create)

OFS_API int pshmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    ofs_check_init("shmem_team_create_ctx");
    return ctx_new("shmem_team_create_ctx", team, 1, options, ctx);
}
OFS_WEAK_ALIAS(shmem_team_create_ctx)

OFS_API void pshmem_ctx_destroy(shmem_ctx_t ctx)
{
    ofs_check_init("shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if (ctx == SHMEM_CTX_DEFAULT)
        ofs_bad_input("shmem_ctx_destroy", "ctx = SHMEM_CTX_DEFAULT cannot be destroyed");
    ofs_check_ctx("shmem_ctx_destroy", ctx); /* destroyed twice, or garbage */
    /* a context of a team with SHMEM_TEAM_NUM_CONTEXTS may go back to its pool */
    comm_ctx_release(ctx);
}
OFS_WEAK_ALIAS(shmem_ctx_destroy)

OFS_API int pshmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    ofs_check_init("shmem_ctx_get_team");
    if (!team)
        return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    ofs_check_ctx("shmem_ctx_get_team", ctx);
    *team = ctx->team ? ctx->team : SHMEM_TEAM_WORLD;
    return 0;
}
OFS_WEAK_ALIAS(shmem_ctx_get_team)

/* a PE number on a context of a team other than SHMEM_TEAM_WORLD: a team member */
int api_team_pe(const char *r, struct comm_ctx *ctx, int pe)
{
    const struct coll_team *t = ctx->team;

    if (OFS_UNLIKELY(pe < 0 || pe >= t->size))
        ofs_bad_input(r,
                      "pe = %d is not a PE of the context's team (%d PEs; a context from "
                      "shmem_team_create_ctx takes team-relative PE numbers)",
                      pe, t->size);
    return coll_team_world_pe(t, pe);
}

void ofs_bad_ctx(const char *routine, const void *ctx)
{
    /* the tables exist only between shmem_init and shmem_finalize: say so first (the
     * generated routines check the context before anything else) */
    ofs_check_init(routine);
    if (!ctx)
        ofs_bad_input(routine, "ctx = SHMEM_CTX_INVALID (NULL) is not a context");
    ofs_bad_input(routine, "ctx = %p is not a valid context (destroyed, or never created)", ctx);
}
