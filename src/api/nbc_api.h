/*
 * nbc_api.h: what the generated non-blocking collectives (src/api/gen_nbc.c, from
 * mpp/shmemx_nbc.m4) call; defined in src/api/nbc.c.  Each routine checked its arguments
 * with the blocking form's checks (api.h) and makes one of these calls.
 */
#ifndef OFS_NBC_API_H
#define OFS_NBC_API_H

#include "api.h"
#include "shmemx.h"

int api_nbc(const char *r, shmem_team_t team, enum coll_nbc_kind kind, void *dest, const void *src,
            size_t nelems, size_t es, int root, shmemx_req_h *request) OFS_HIDDEN;
int api_nbc_strided(const char *r, shmem_team_t team, void *dest, const void *src, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t es, shmemx_req_h *request) OFS_HIDDEN;
/* scan: 0 reduce, 1 inclusive scan, 2 exclusive scan */
int api_nbc_reduce(const char *r, shmem_team_t team, void *dest, const void *src, size_t nelems,
                   enum coll_op op, enum coll_type type, int scan, shmemx_req_h *request)
    OFS_HIDDEN;

#endif
