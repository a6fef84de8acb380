m4_include(`shmem_api.m4')m4_include(`shmem_untyped.m4')m4_changecom()m4_define(`MODE', `proto')m4_define(`SHPRE', `')m4_dnl
/* ofishmem: OpenSHMEM 1.5 API.
 * generated -- do not edit: made by m4 from mpp/shmem.h.m4 and the type table
 * mpp/shmem_types.m4 (families in mpp/shmem_api.m4). */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <complex.h>
#endif

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "ofishmem OFS_VERSION_STRING"

/* which implementation this is (bindings and build systems test these) */
#define OFISHMEM 1
#define OFISHMEM_MAJOR_VERSION OFS_VERSION_MAJOR
#define OFISHMEM_MINOR_VERSION OFS_VERSION_MINOR
#define OFISHMEM_PATCH_VERSION OFS_VERSION_PATCH
#define OFISHMEM_VERSION_STRING "OFS_VERSION_STRING"
/* major * 10000 + minor * 100 + patch, for #if comparisons */
#define OFISHMEM_NUMVERSION (OFISHMEM_MAJOR_VERSION * 10000 + OFISHMEM_MINOR_VERSION * 100 + OFISHMEM_PATCH_VERSION)

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* comparison operators of the point-to-point synchronization routines */
#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_LE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_GE 6

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* shmem_malloc_with_hints */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* work arrays of the deprecated active-set collectives (sizes in longs) */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_BARRIER_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_COLLECT_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 64

/* deprecated spellings */
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

/* contexts */
typedef struct shmem_ctx_opaque *shmem_ctx_t;
extern struct shmem_ctx_opaque shmem_internal_ctx_default;
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)&shmem_internal_ctx_default)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_CTX_PRIVATE 1L
#define SHMEM_CTX_SERIALIZED 2L
#define SHMEM_CTX_NOSTORE 4L
/* communication sessions (OpenSHMEM 1.6): hints only */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)

/* teams */
typedef struct shmem_team_opaque *shmem_team_t;
extern struct shmem_team_opaque shmem_internal_team_world, shmem_internal_team_shared;
#define SHMEM_TEAM_WORLD ((shmem_team_t)&shmem_internal_team_world)
#define SHMEM_TEAM_SHARED ((shmem_team_t)&shmem_internal_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

#ifdef __cplusplus
extern "C" {
#endif

MF_UNTYPED
MF_ALL
#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
/* C11 generic selection (the macros are defined after every prototype, so the
 * deprecated functions shmem_sync and shmem_wait_until stay callable by name) */
#define SHMEM_C11_ARG0_(a0, ...) a0
#define SHMEM_C11_ARG0(...) SHMEM_C11_ARG0_(__VA_ARGS__, extra)
#define SHMEM_C11_ARG1(a0, ...) SHMEM_C11_ARG0_(__VA_ARGS__, extra)
/* reached only in unselected branches: lets a context call with a value argument compile */
static inline void shmem_c11_nomatch(void *unused, ...) { (void)unused; }
#define SHMEM_C11_SYNC_PICK_(a1, a2, a3, a4, name, ...) name
#define shmem_sync(...) SHMEM_C11_SYNC_PICK_(__VA_ARGS__, shmem_sync, x3, x2, shmem_team_sync, x0)(__VA_ARGS__)
m4_define(`MODE', `gen')MF_ALL`'m4_dnl
MG_EMIT_ALL`'m4_dnl
#endif /* C11 */

#ifdef __cplusplus
/* C++: overloads in place of the C11 generics */
m4_define(`MODE', `cxx')MF_ALL`'m4_dnl
static inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }
#endif

/* shmem4py (the Python binding) knows implementations by macros of their shmem.h and
 * replaces, with definitions that collide with these prototypes, every routine it is not
 * told the library has: ofishmem has every one it asks about. */
#define PySHMEM_HAVE_shmem_malloc_with_hints 1
#define PySHMEM_HAVE_shmem_team_t 1
#define PySHMEM_HAVE_SHMEM_CTX_INVALID 1
#define PySHMEM_HAVE_shmem_amo_nbi 1
#define PySHMEM_HAVE_shmem_put_signal 1
#define PySHMEM_HAVE_shmem_signal_fetch 1
#define PySHMEM_HAVE_shmem_signal_wait_until 1
#define PySHMEM_HAVE_shmem_broadcast 1
#define PySHMEM_HAVE_shmem_collect 1
#define PySHMEM_HAVE_shmem_fcollect 1
#define PySHMEM_HAVE_shmem_alltoall 1
#define PySHMEM_HAVE_shmem_alltoalls 1
#define PySHMEM_HAVE_shmem_TYPENAME_alltoalls 1
#define PySHMEM_HAVE_shmem_broadcastmem 1
#define PySHMEM_HAVE_shmem_collectmem 1
#define PySHMEM_HAVE_shmem_fcollectmem 1
#define PySHMEM_HAVE_shmem_alltoallmem 1
#define PySHMEM_HAVE_shmem_alltoallsmem 1
#define PySHMEM_HAVE_shmem_reduce 1
#define PySHMEM_HAVE_shmem_OP_reduce 1
#define PySHMEM_HAVE_shmem_wait_test_many 1
#define PySHMEM_HAVE_shmem_pcontrol 1

#endif /* SHMEM_H */
