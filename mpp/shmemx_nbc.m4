m4_dnl shmemx_nbc.m4: non-blocking collectives (issue 27); included by mpp/shmemx.h.m4, and by
m4_dnl src/api/nbc_gen.c.m4 with NBX_GEN defined (then only the families are used).
m4_dnl Names follow the draft of the specification (openshmem-org/specification pull request
m4_dnl 456): the blocking routine's name with _nb appended, the request handle last; the
m4_dnl draft's shmem_req_test/wait take the handle, ours take its address (set to
m4_dnl SHMEMX_REQ_NULL when the request completed and was freed), and req_test reports
m4_dnl completion in *done.
m4_ifdef(`MT_RMA', `', `m4_changecom(`#')m4_include(`shmem_types.m4')m4_changecom()')m4_dnl
/* ---- non-blocking collectives (man shmemx_req_wait, docs/nbc.md) ---- */
typedef struct shmemx_req *shmemx_req_h;
#define SHMEMX_REQ_NULL ((shmemx_req_h)0)
MX_DECL(`int', `req_wait', `shmemx_req_h *request')m4_dnl
MX_DECL(`int', `req_test', `shmemx_req_h *request, int *done')m4_dnl
MX_DECL(`int', `team_sync_nb', `shmem_team_t team, shmemx_req_h *request')m4_dnl
m4_dnl
m4_dnl NBX_DEF(return type, name without shmemx_, parameters, body): declared in shmemx.h,
m4_dnl defined (pshmemx_ strong, shmemx_ weak) in src/api/gen_nbc.c.  NBX_NAME is the name.
m4_define(`NBX_DEF', `m4_ifdef(`NBX_GEN', `m4_define(`NBX_NAME', `"shmemx_$2"')OFS_API $1 pshmemx_$2($3)
{
    $4
}
OFS_WEAK_ALIAS(shmemx_$2)
', `MX_DECL(`$1', `$2', `$3')')')m4_dnl
m4_dnl C11 generics (as the draft's C11 synopses): NBX_GADD(generic name, C type, g when the
m4_dnl type takes part, routine) collects `TYPE *: shmemx_ROUTINE'; NBX_GEMIT writes the macros,
m4_dnl selecting on dest (the second argument).
m4_define(`NBX_GNAMES', `')m4_dnl
m4_define(`NBX_GADD', `m4_ifelse(`$3', `g', `m4_ifdef(`NBX_GL_$1', `', `m4_define(`NBX_GNAMES', m4_defn(`NBX_GNAMES')`NBX_GEMIT1(`$1')')')m4_define(`NBX_GL_$1', m4_ifdef(`NBX_GL_$1', `m4_defn(`NBX_GL_$1')')`, $2 *: shmemx_$4')')')m4_dnl
m4_define(`NBX_GEMIT1', `#define shmemx_$1(...) _Generic(SHMEM_C11_ARG1(__VA_ARGS__)m4_defn(`NBX_GL_$1'))(__VA_ARGS__)
')m4_dnl
m4_dnl typed families over the type tables of mpp/shmem_types.m4: $1 TYPENAME, $2 C type, $4 COLL_T_
m4_define(`NBX_COLL_T', `m4_dnl
NBX_DEF(`int', `$1_broadcast_nb', `shmem_team_t team, $2 *dest, const $2 *source, size_t nelems, int PE_root, shmemx_req_h *request',
`api_chk_bcast(NBX_NAME, team, dest, source, nelems, sizeof($2), PE_root);
    return api_nbc(NBX_NAME, team, COLL_NBC_BCAST, dest, source, nelems, sizeof($2), PE_root, request);')m4_dnl
NBX_GADD(`broadcast_nb', `$2', `$5', `$1_broadcast_nb')m4_dnl
NBX_DEF(`int', `$1_collect_nb', `shmem_team_t team, $2 *dest, const $2 *source, size_t nelems, shmemx_req_h *request',
`api_chk_collect(NBX_NAME, team, dest, source, nelems, sizeof($2));
    return api_nbc(NBX_NAME, team, COLL_NBC_COLLECT, dest, source, nelems, sizeof($2), 0, request);')m4_dnl
NBX_GADD(`collect_nb', `$2', `$5', `$1_collect_nb')m4_dnl
NBX_DEF(`int', `$1_fcollect_nb', `shmem_team_t team, $2 *dest, const $2 *source, size_t nelems, shmemx_req_h *request',
`api_chk_coll_n(NBX_NAME, team, dest, source, nelems, sizeof($2), 0);
    return api_nbc(NBX_NAME, team, COLL_NBC_FCOLLECT, dest, source, nelems, sizeof($2), 0, request);')m4_dnl
NBX_GADD(`fcollect_nb', `$2', `$5', `$1_fcollect_nb')m4_dnl
NBX_DEF(`int', `$1_alltoall_nb', `shmem_team_t team, $2 *dest, const $2 *source, size_t nelems, shmemx_req_h *request',
`api_chk_coll_n(NBX_NAME, team, dest, source, nelems, sizeof($2), 1);
    return api_nbc(NBX_NAME, team, COLL_NBC_ALLTOALL, dest, source, nelems, sizeof($2), 0, request);')m4_dnl
NBX_GADD(`alltoall_nb', `$2', `$5', `$1_alltoall_nb')m4_dnl
NBX_DEF(`int', `$1_alltoalls_nb', `shmem_team_t team, $2 *dest, const $2 *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, shmemx_req_h *request',
`api_chk_coll_s(NBX_NAME, team, dest, source, dst, sst, nelems, sizeof($2));
    return api_nbc_strided(NBX_NAME, team, dest, source, dst, sst, nelems, sizeof($2), request);')m4_dnl
NBX_GADD(`alltoalls_nb', `$2', `$5', `$1_alltoalls_nb')m4_dnl
')m4_dnl
m4_dnl the untyped *mem forms: elements are bytes
m4_define(`NBX_COLL_MEM', `m4_dnl
NBX_DEF(`int', `broadcastmem_nb', `shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root, shmemx_req_h *request',
`api_chk_bcast(NBX_NAME, team, dest, source, nelems, 1, PE_root);
    return api_nbc(NBX_NAME, team, COLL_NBC_BCAST, dest, source, nelems, 1, PE_root, request);')m4_dnl
NBX_DEF(`int', `collectmem_nb', `shmem_team_t team, void *dest, const void *source, size_t nelems, shmemx_req_h *request',
`api_chk_collect(NBX_NAME, team, dest, source, nelems, 1);
    return api_nbc(NBX_NAME, team, COLL_NBC_COLLECT, dest, source, nelems, 1, 0, request);')m4_dnl
NBX_DEF(`int', `fcollectmem_nb', `shmem_team_t team, void *dest, const void *source, size_t nelems, shmemx_req_h *request',
`api_chk_coll_n(NBX_NAME, team, dest, source, nelems, 1, 0);
    return api_nbc(NBX_NAME, team, COLL_NBC_FCOLLECT, dest, source, nelems, 1, 0, request);')m4_dnl
NBX_DEF(`int', `alltoallmem_nb', `shmem_team_t team, void *dest, const void *source, size_t nelems, shmemx_req_h *request',
`api_chk_coll_n(NBX_NAME, team, dest, source, nelems, 1, 1);
    return api_nbc(NBX_NAME, team, COLL_NBC_ALLTOALL, dest, source, nelems, 1, 0, request);')m4_dnl
NBX_DEF(`int', `alltoallsmem_nb', `shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, shmemx_req_h *request',
`api_chk_coll_s(NBX_NAME, team, dest, source, dst, sst, nelems, 1);
    return api_nbc_strided(NBX_NAME, team, dest, source, dst, sst, nelems, 1, request);')m4_dnl
')m4_dnl
m4_dnl $6 op name, $7 COLL_OP_ suffix
m4_define(`NBX_REDUCE1', `NBX_DEF(`int', `$1_$6_reduce_nb', `shmem_team_t team, $2 *dest, const $2 *source, size_t nreduce, shmemx_req_h *request',
`api_chk_reduce(NBX_NAME, team, dest, source, nreduce, sizeof($2), "nreduce");
    return api_nbc_reduce(NBX_NAME, team, dest, source, nreduce, COLL_OP_$7, COLL_T_$4, 0, request);')NBX_GADD(`$6_reduce_nb', `$2', `$5', `$1_$6_reduce_nb')')m4_dnl
m4_define(`NBX_RED_BIT', `NBX_REDUCE1(`$1', `$2', `$3', `$4', `$5', `and', `AND')NBX_REDUCE1(`$1', `$2', `$3', `$4', `$5', `or', `OR')NBX_REDUCE1(`$1', `$2', `$3', `$4', `$5', `xor', `XOR')')m4_dnl
m4_define(`NBX_RED_MINMAX', `NBX_REDUCE1(`$1', `$2', `$3', `$4', `$5', `max', `MAX')NBX_REDUCE1(`$1', `$2', `$3', `$4', `$5', `min', `MIN')')m4_dnl
m4_define(`NBX_RED_ARITH', `NBX_REDUCE1(`$1', `$2', `$3', `$4', `$5', `sum', `SUM')NBX_REDUCE1(`$1', `$2', `$3', `$4', `$5', `prod', `PROD')')m4_dnl
m4_dnl 1.6 prefix sums: $6 inscan|exscan, $7 1 when exclusive
m4_define(`NBX_SCAN1', `NBX_DEF(`int', `$1_sum_$6_nb', `shmem_team_t team, $2 *dest, const $2 *source, size_t nelems, shmemx_req_h *request',
`api_chk_reduce(NBX_NAME, team, dest, source, nelems, sizeof($2), "nelems");
    return api_nbc_reduce(NBX_NAME, team, dest, source, nelems, COLL_OP_SUM, COLL_T_$4, 1 + $7, request);')NBX_GADD(`sum_$6_nb', `$2', `$5', `$1_sum_$6_nb')')m4_dnl
m4_define(`NBX_SCAN', `NBX_SCAN1(`$1', `$2', `$3', `$4', `$5', `inscan', 0)NBX_SCAN1(`$1', `$2', `$3', `$4', `$5', `exscan', 1)')m4_dnl
m4_define(`NBX_ALL', `m4_dnl
NBX_COLL_MEM`'m4_dnl
MT_RMA(`NBX_COLL_T')m4_dnl
MT_RED_BIT(`NBX_RED_BIT')MT_RED_MINMAX(`NBX_RED_MINMAX')MT_RED_ARITH(`NBX_RED_ARITH')m4_dnl
MT_RED_ARITH(`NBX_SCAN')m4_dnl
')m4_dnl
m4_ifdef(`NBX_GEN', `', `NBX_ALL()`'m4_dnl
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
NBX_GNAMES`'m4_dnl
#endif
')m4_dnl
