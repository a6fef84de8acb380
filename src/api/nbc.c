/*
 * Non-blocking collectives (shmemx_*_nb, issue 27): the request routines and team_sync,
 * and the calls the generated forms (typed and *mem, src/api/gen_nbc.c) make (nbc_api.h).
 * Arguments are checked as for the blocking forms; the request pointer must not be NULL.
 * The schedules and their engine live in src/coll/nbc_*.c.
 */
#include "nbc_api.h"

static void chk_request(const char *r, shmemx_req_h *request)
{
    if (OFS_UNLIKELY(!request))
        ofs_bad_input(r, "request is NULL: it must point at a shmemx_req_h");
}

static int post(const char *r, shmem_team_t team, const struct coll_nbc_args *a,
                shmemx_req_h *request)
{
    struct coll_nbc_req *q;
    int rc;

    chk_request(r, request);
    if (OFS_UNLIKELY(((struct coll_team *)team)->my_pe < 0))
        ofs_bad_input(r, "team = %p: this PE (%d) is not a member of the team", (void *)team,
                      ofs_g.my_pe);
    rc = coll_nbc_post(r, (struct coll_team *)team, a, &q);
    *request = (shmemx_req_h)q;
    return rc;
}

int api_nbc(const char *r, shmem_team_t team, enum coll_nbc_kind kind, void *dest, const void *src,
            size_t nelems, size_t es, int root, shmemx_req_h *request)
{
    /* collect: dest is checked against the total once the engine knows it */
    struct coll_nbc_args a = { .kind = kind,
                               .dest = dest,
                               .src = src,
                               .nelems = nelems,
                               .es = es,
                               .root = root,
                               .check = kind == COLL_NBC_COLLECT ? api_collect_total : NULL };
    return post(r, team, &a, request);
}

int api_nbc_strided(const char *r, shmem_team_t team, void *dest, const void *src, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t es, shmemx_req_h *request)
{
    struct coll_nbc_args a = { .kind = COLL_NBC_ALLTOALLS,
                               .dest = dest,
                               .src = src,
                               .nelems = nelems,
                               .es = es,
                               .dst = dst,
                               .sst = sst };
    return post(r, team, &a, request);
}

int api_nbc_reduce(const char *r, shmem_team_t team, void *dest, const void *src, size_t nelems,
                   enum coll_op op, enum coll_type type, int scan, shmemx_req_h *request)
{
    struct coll_nbc_args a = { .kind = scan ? COLL_NBC_SCAN : COLL_NBC_REDUCE,
                               .dest = dest,
                               .src = src,
                               .nelems = nelems,
                               .es = coll_type_size(type),
                               .op = op,
                               .type = type,
                               .exclusive = scan == 2 };
    return post(r, team, &a, request);
}

OFS_API int pshmemx_req_wait(shmemx_req_h *request)
{
    ofs_check_init("shmemx_req_wait");
    chk_request("shmemx_req_wait", request);
    return coll_nbc_wait("shmemx_req_wait", (struct coll_nbc_req **)request);
}
OFS_WEAK_ALIAS(shmemx_req_wait)

OFS_API int pshmemx_req_test(shmemx_req_h *request, int *done)
{
    ofs_check_init("shmemx_req_test");
    chk_request("shmemx_req_test", request);
    if (OFS_UNLIKELY(!done))
        ofs_bad_input("shmemx_req_test", "done is NULL: it must point at an int");
    return coll_nbc_test("shmemx_req_test", (struct coll_nbc_req **)request, done);
}
OFS_WEAK_ALIAS(shmemx_req_test)

OFS_API int pshmemx_team_sync_nb(shmem_team_t team, shmemx_req_h *request)
{
    struct coll_nbc_args a = { .kind = COLL_NBC_SYNC };

    api_chk_coll_team("shmemx_team_sync_nb", team);
    return post("shmemx_team_sync_nb", team, &a, request);
}
OFS_WEAK_ALIAS(shmemx_team_sync_nb)
