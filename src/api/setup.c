/* Library setup, exit and query routines. */
#include "ofs_api.h"
#include "shmem.h"
#include "pshmem.h"
#include "ofs_stats.h"
#include "init.h"

#include <stdio.h>
#include <string.h>

/* The specification leaves these undefined; they cost nothing to catch (start-up and
 * shut-down only), so they are caught even with --disable-error-checking.  A second
 * shmem_init while initialized stays a no-op, as start_pes always was, and so does a
 * second shmem_finalize. */
static void setup_check_not_finalized(const char *routine)
{
    if (OFS_UNLIKELY(ofs_g.finalized))
        ofs_bad_input(routine, "called after shmem_finalize: the library cannot be "
                               "initialized again in the same program");
}

OFS_API void pshmem_init(void)
{
    setup_check_not_finalized("shmem_init");
    ofs_status_t st = ofs_init(SHMEM_THREAD_SINGLE);
    if (st != OFS_OK)
        ofs_fatal(1, "shmem_init failed: %s", ofs_status_string(st));
}
OFS_WEAK_ALIAS(shmem_init)

OFS_API int pshmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
        ofs_log_error("shmem_init_thread: requested = %d is not a SHMEM_THREAD_* level", requested);
        return -1;
    }
    setup_check_not_finalized("shmem_init_thread");
    ofs_status_t st = ofs_init(requested);
    if (st != OFS_OK)
        return -1;
    if (provided)
        *provided = ofs_g.thread_level;
    return 0;
}
OFS_WEAK_ALIAS(shmem_init_thread)

OFS_API void pshmem_query_thread(int *provided)
{
    ofs_check_init("shmem_query_thread");
    if (provided)
        *provided = ofs_g.thread_level;
}
OFS_WEAK_ALIAS(shmem_query_thread)

OFS_API void pshmem_finalize(void)
{
    /* after a shmem_init_thread that failed (and said why) there is nothing to end */
    if (OFS_UNLIKELY(!ofs_g.initialized && !ofs_g.finalized && !ofs_g.init_error))
        ofs_bad_input("shmem_finalize", "called before shmem_init");
    ofs_finalize();
}
OFS_WEAK_ALIAS(shmem_finalize)

OFS_API void pshmem_global_exit(int status)
{
    ofs_global_exit(status);
}
OFS_WEAK_ALIAS(shmem_global_exit)

OFS_API int pshmem_my_pe(void)
{
    ofs_check_init("shmem_my_pe");
    return ofs_g.my_pe;
}
OFS_WEAK_ALIAS(shmem_my_pe)

OFS_API int pshmem_n_pes(void)
{
    ofs_check_init("shmem_n_pes");
    return ofs_g.n_pes;
}
OFS_WEAK_ALIAS(shmem_n_pes)

OFS_API int pshmem_pe_accessible(int pe)
{
    ofs_check_init("shmem_pe_accessible");
    return pe >= 0 && pe < ofs_g.n_pes;
}
OFS_WEAK_ALIAS(shmem_pe_accessible)

OFS_API int pshmem_addr_accessible(const void *addr, int pe)
{
    size_t off;
    ofs_check_init("shmem_addr_accessible");
    return pe >= 0 && pe < ofs_g.n_pes && heap_seg_of(addr, 1, &off) >= 0;
}
OFS_WEAK_ALIAS(shmem_addr_accessible)

OFS_API void *pshmem_ptr(const void *dest, int pe)
{
    size_t off;
    ofs_check_init("shmem_ptr");
    ofs_check_pe("shmem_ptr", pe);
    if (heap_seg_of(dest, 1, &off) < 0)
        return NULL;
    return comm_ptr(dest, pe);
}
OFS_WEAK_ALIAS(shmem_ptr)

OFS_API void pshmem_info_get_version(int *major, int *minor)
{
    if (major)
        *major = SHMEM_MAJOR_VERSION;
    if (minor)
        *minor = SHMEM_MINOR_VERSION;
}
OFS_WEAK_ALIAS(shmem_info_get_version)

OFS_API void pshmem_info_get_name(char *name)
{
    if (name)
        snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}
OFS_WEAK_ALIAS(shmem_info_get_name)

OFS_API void pshmem_barrier_all(void)
{
    ofs_check_init("shmem_barrier_all");
    OFS_STATS_SCOPE(OFS_STATS_C_BARRIER, 0, 1);
    coll_barrier_all();
}
OFS_WEAK_ALIAS(shmem_barrier_all)

OFS_API void pshmem_sync_all(void)
{
    ofs_check_init("shmem_sync_all");
    OFS_STATS_SCOPE(OFS_STATS_C_SYNC, 0, 1);
    coll_sync_all();
}
OFS_WEAK_ALIAS(shmem_sync_all)

OFS_API void pshmem_quiet(void)
{
    ofs_check_init("shmem_quiet");
    OFS_STATS_SCOPE(OFS_STATS_C_QUIET, 0, comm_g.tp_active[COMM_TP_OFI]);
    comm_quiet(COMM_CTX_DEFAULT);
}
OFS_WEAK_ALIAS(shmem_quiet)

OFS_API void pshmem_fence(void)
{
    ofs_check_init("shmem_fence");
    comm_fence(COMM_CTX_DEFAULT);
}
OFS_WEAK_ALIAS(shmem_fence)

/* deprecated forms */
OFS_API void pstart_pes(int npes)
{
    (void)npes;
    pshmem_init();
}
OFS_WEAK_ALIAS(start_pes)

OFS_API int p_my_pe(void)
{
    return pshmem_my_pe();
}
OFS_WEAK_ALIAS(_my_pe)

OFS_API int p_num_pes(void)
{
    return pshmem_n_pes();
}
OFS_WEAK_ALIAS(_num_pes)

/* Cache management (deprecated since OpenSHMEM 1.3, still in the 1.5 and 1.6 Annex as
 * supported): kept for SGI-era programs.  Every machine ofishmem runs on keeps its caches
 * coherent, and the specification allows these to be no-ops. */
OFS_API void pshmem_clear_cache_inv(void)
{
}
OFS_WEAK_ALIAS(shmem_clear_cache_inv)

OFS_API void pshmem_set_cache_inv(void)
{
}
OFS_WEAK_ALIAS(shmem_set_cache_inv)

OFS_API void pshmem_clear_cache_line_inv(void *dest)
{
    (void)dest;
}
OFS_WEAK_ALIAS(shmem_clear_cache_line_inv)

OFS_API void pshmem_set_cache_line_inv(void *dest)
{
    (void)dest;
}
OFS_WEAK_ALIAS(shmem_set_cache_line_inv)

OFS_API void pshmem_udcflush(void)
{
}
OFS_WEAK_ALIAS(shmem_udcflush)

OFS_API void pshmem_udcflush_line(void *dest)
{
    (void)dest;
}
OFS_WEAK_ALIAS(shmem_udcflush_line)

OFS_API void pshmem_ctx_quiet(shmem_ctx_t ctx)
{
    ofs_check_init("shmem_ctx_quiet");
    if (OFS_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return; /* spec: a no-op on SHMEM_CTX_INVALID */
    ofs_check_ctx("shmem_ctx_quiet", ofs_ctx(ctx));
    OFS_STATS_SCOPE(OFS_STATS_C_QUIET, 0, comm_g.tp_active[COMM_TP_OFI]);
    comm_quiet(ofs_ctx(ctx));
}
OFS_WEAK_ALIAS(shmem_ctx_quiet)

OFS_API void pshmem_ctx_fence(shmem_ctx_t ctx)
{
    ofs_check_init("shmem_ctx_fence");
    if (OFS_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return;
    ofs_check_ctx("shmem_ctx_fence", ofs_ctx(ctx));
    comm_fence(ofs_ctx(ctx));
}
OFS_WEAK_ALIAS(shmem_ctx_fence)

/* Profiling control: levels are advice to tools; the library has nothing to switch. */
OFS_API void pshmem_pcontrol(const int level, ...)
{
    (void)level;
}
OFS_WEAK_ALIAS(shmem_pcontrol)
