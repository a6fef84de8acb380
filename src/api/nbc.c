/*
 * Non-blocking collectives (shmemx_*_nb, issue 27): the request routines, the untyped
 * *mem forms and team_sync, and the calls the generated typed forms make (nbc_api.h).
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

OFS_API int pshmemx_broadcastmem_nb(shmem_team_t team, void *dest, const void *source,
                                    size_t nelems, int PE_root, shmemx_req_h *request)
{
    api_chk_bcast("shmemx_broadcastmem_nb", team, dest, source, nelems, 1, PE_root);
    return api_nbc("shmemx_broadcastmem_nb", team, COLL_NBC_BCAST, dest, source, nelems, 1, PE_root,
                   request);
}
OFS_WEAK_ALIAS(shmemx_broadcastmem_nb)

OFS_API int pshmemx_collectmem_nb(shmem_team_t team, void *dest, const void *source, size_t nelems,
                                  shmemx_req_h *request)
{
    api_chk_collect("shmemx_collectmem_nb", team, dest, source, nelems, 1);
    return api_nbc("shmemx_collectmem_nb", team, COLL_NBC_COLLECT, dest, source, nelems, 1, 0,
                   request);
}
OFS_WEAK_ALIAS(shmemx_collectmem_nb)

OFS_API int pshmemx_fcollectmem_nb(shmem_team_t team, void *dest, const void *source, size_t nelems,
                                   shmemx_req_h *request)
{
    api_chk_coll_n("shmemx_fcollectmem_nb", team, dest, source, nelems, 1, 0);
    return api_nbc("shmemx_fcollectmem_nb", team, COLL_NBC_FCOLLECT, dest, source, nelems, 1, 0,
                   request);
}
OFS_WEAK_ALIAS(shmemx_fcollectmem_nb)

OFS_API int pshmemx_alltoallmem_nb(shmem_team_t team, void *dest, const void *source, size_t nelems,
                                   shmemx_req_h *request)
{
    api_chk_coll_n("shmemx_alltoallmem_nb", team, dest, source, nelems, 1, 1);
    return api_nbc("shmemx_alltoallmem_nb", team, COLL_NBC_ALLTOALL, dest, source, nelems, 1, 0,
                   request);
}
OFS_WEAK_ALIAS(shmemx_alltoallmem_nb)

OFS_API int pshmemx_alltoallsmem_nb(shmem_team_t team, void *dest, const void *source,
                                    ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                    shmemx_req_h *request)
{
    api_chk_coll_s("shmemx_alltoallsmem_nb", team, dest, source, dst, sst, nelems, 1);
    return api_nbc_strided("shmemx_alltoallsmem_nb", team, dest, source, dst, sst, nelems, 1,
                           request);
}
OFS_WEAK_ALIAS(shmemx_alltoallsmem_nb)
