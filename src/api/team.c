/* Teams: shmem_team_* (spec 1.5 section 9.4). */
#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"
#include "ofs_stats.h"

static int team_nctx(const shmem_team_config_t *config, long mask)
{
    return (config && (mask & SHMEM_TEAM_NUM_CONTEXTS)) ? config->num_contexts : 0;
}

static void team_check_mask(const char *routine, const shmem_team_config_t *config, long mask)
{
    if (mask & ~SHMEM_TEAM_NUM_CONTEXTS)
        ofs_bad_input(routine, "config_mask = %#lx has bits other than SHMEM_TEAM_NUM_CONTEXTS",
                      mask);
    if ((mask & SHMEM_TEAM_NUM_CONTEXTS) && !config)
        ofs_bad_input(routine, "config is NULL while config_mask selects SHMEM_TEAM_NUM_CONTEXTS");
    if ((mask & SHMEM_TEAM_NUM_CONTEXTS) && config->num_contexts < 0)
        ofs_bad_input(routine, "config->num_contexts = %d is negative", config->num_contexts);
}

OFS_API int pshmem_team_my_pe(shmem_team_t team)
{
    ofs_check_init("shmem_team_my_pe");
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    ofs_check_team("shmem_team_my_pe", "team", team);
    return team->my_pe;
}
OFS_WEAK_ALIAS(shmem_team_my_pe)

OFS_API int pshmem_team_n_pes(shmem_team_t team)
{
    ofs_check_init("shmem_team_n_pes");
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    ofs_check_team("shmem_team_n_pes", "team", team);
    return team->size;
}
OFS_WEAK_ALIAS(shmem_team_n_pes)

OFS_API int pshmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    ofs_check_init("shmem_team_get_config");
    if (team == SHMEM_TEAM_INVALID || !config)
        return -1;
    ofs_check_team("shmem_team_get_config", "team", team);
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->num_contexts;
    return 0;
}
OFS_WEAK_ALIAS(shmem_team_get_config)

OFS_API int pshmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    ofs_check_init("shmem_team_translate_pe");
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID)
        return -1;
    ofs_check_team("shmem_team_translate_pe", "src_team", src_team);
    ofs_check_team("shmem_team_translate_pe", "dest_team", dest_team);
    return coll_team_translate(src_team, src_pe, dest_team);
}
OFS_WEAK_ALIAS(shmem_team_translate_pe)

OFS_API int pshmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                                      const shmem_team_config_t *config, long config_mask,
                                      shmem_team_t *new_team)
{
    ofs_check_init("shmem_team_split_strided");
    ofs_check_out("shmem_team_split_strided", "new_team", new_team);
    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    ofs_check_team("shmem_team_split_strided", "parent_team", parent_team);
    team_check_mask("shmem_team_split_strided", config, config_mask);
    return coll_team_split_strided(parent_team, start, stride, size, config_mask,
                                   team_nctx(config, config_mask), new_team)
               ? -1
               : 0;
}
OFS_WEAK_ALIAS(shmem_team_split_strided)

OFS_API int pshmem_team_split_2d(shmem_team_t parent_team, int xrange,
                                 const shmem_team_config_t *xaxis_config, long xaxis_mask,
                                 shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                                 long yaxis_mask, shmem_team_t *yaxis_team)
{
    ofs_check_init("shmem_team_split_2d");
    ofs_check_out("shmem_team_split_2d", "xaxis_team", xaxis_team);
    ofs_check_out("shmem_team_split_2d", "yaxis_team", yaxis_team);
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    ofs_check_team("shmem_team_split_2d", "parent_team", parent_team);
    team_check_mask("shmem_team_split_2d", xaxis_config, xaxis_mask);
    team_check_mask("shmem_team_split_2d", yaxis_config, yaxis_mask);
    return coll_team_split_2d(parent_team, xrange, xaxis_mask, team_nctx(xaxis_config, xaxis_mask),
                              xaxis_team, yaxis_mask, team_nctx(yaxis_config, yaxis_mask),
                              yaxis_team)
               ? -1
               : 0;
}
OFS_WEAK_ALIAS(shmem_team_split_2d)

OFS_API void pshmem_team_destroy(shmem_team_t team)
{
    ofs_check_init("shmem_team_destroy");
    if (team == SHMEM_TEAM_INVALID)
        return;
    if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED)
        ofs_bad_input("shmem_team_destroy", "team = %s: a predefined team cannot be destroyed",
                      team == SHMEM_TEAM_WORLD ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED");
    ofs_check_team("shmem_team_destroy", "team", team); /* destroyed twice, or garbage */
    coll_team_destroy(team);
}
OFS_WEAK_ALIAS(shmem_team_destroy)

OFS_API int pshmem_team_sync(shmem_team_t team)
{
    ofs_check_init("shmem_team_sync");
    if (team == SHMEM_TEAM_INVALID)
        ofs_bad_team("shmem_team_sync", "team", team);
    ofs_check_team("shmem_team_sync", "team", team);
    OFS_STATS_SCOPE(OFS_STATS_C_SYNC, 0, 1);
    return coll_team_sync(team);
}
OFS_WEAK_ALIAS(shmem_team_sync)

void ofs_bad_team(const char *routine, const char *arg, const void *team)
{
    ofs_check_init(routine);
    if (!team)
        ofs_bad_input(routine, "%s = SHMEM_TEAM_INVALID (NULL) is not a team", arg);
    ofs_bad_input(routine, "%s = %p is not a valid team (destroyed, or never created)", arg, team);
}
