/* OpenSHMEM 1.6 routines that are cheap on top of 1.5 (declared in shmem.h). */
#include "api.h"

static void signal_op(const char *r, struct comm_ctx *ctx, uint64_t *sig_addr, uint64_t signal,
                      int pe, enum comm_amo_op op)
{
    size_t off;
    int seg;

    api_chk_ctx(r, ctx); /* before api_ctx_pe reads it */
    pe = api_ctx_pe(r, ctx, pe);
    seg = api_chk_amo(r, ctx, sig_addr, sizeof(uint64_t), pe, &off);
    comm_amo_seg(ctx, op, COMM_DT_U64, seg, off, &signal, NULL, NULL, pe, 0);
}

OFS_API void pshmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op("shmem_signal_add", COMM_CTX_DEFAULT, sig_addr, signal, pe, COMM_AMO_ADD);
}
OFS_WEAK_ALIAS(shmem_signal_add)

OFS_API void pshmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op("shmem_ctx_signal_add", ofs_ctx(ctx), sig_addr, signal, pe, COMM_AMO_ADD);
}
OFS_WEAK_ALIAS(shmem_ctx_signal_add)

OFS_API void pshmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op("shmem_signal_set", COMM_CTX_DEFAULT, sig_addr, signal, pe, COMM_AMO_SET);
}
OFS_WEAK_ALIAS(shmem_signal_set)

OFS_API void pshmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op("shmem_ctx_signal_set", ofs_ctx(ctx), sig_addr, signal, pe, COMM_AMO_SET);
}
OFS_WEAK_ALIAS(shmem_ctx_signal_set)

OFS_API int pshmem_query_initialized(int *initialized)
{
    if (initialized)
        *initialized = ofs_g.initialized && !ofs_g.finalized;
    return 0;
}
OFS_WEAK_ALIAS(shmem_query_initialized)

/* Completing everything is a valid (if conservative) per-PE quiet. */
static void pe_quiet(const char *r, shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    ofs_check_init(r);
    ofs_check_nonnull(r, "target_pes", target_pes,
                      ofs_check_mul(r, "npes", npes, npes, sizeof(int)));
    (void)target_pes;
    if (ctx == SHMEM_CTX_INVALID)
        return;
    ofs_check_ctx(r, ofs_ctx(ctx));
#ifdef OFS_ERROR_CHECKING
    {
        /* PE numbers of the context's team (SHMEM_TEAM_WORLD's for most contexts) */
        const struct coll_team *t = ofs_ctx(ctx)->team;
        int size = t ? t->size : ofs_g.n_pes;
        for (size_t i = 0; i < npes; i++)
            if (OFS_UNLIKELY(target_pes[i] < 0 || target_pes[i] >= size))
                ofs_bad_input(r, "target_pes[%zu] = %d is not a PE of the context's team [0, %d)",
                              i, target_pes[i], size);
    }
#endif
    comm_quiet(ofs_ctx(ctx));
}

OFS_API void pshmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    pe_quiet("shmem_ctx_pe_quiet", ctx, target_pes, npes);
}
OFS_WEAK_ALIAS(shmem_ctx_pe_quiet)

OFS_API void pshmem_pe_quiet(const int *target_pes, size_t npes)
{
    pe_quiet("shmem_pe_quiet", SHMEM_CTX_DEFAULT, target_pes, npes);
}
OFS_WEAK_ALIAS(shmem_pe_quiet)

OFS_API void *pshmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    size_t off;
    ofs_check_init("shmem_team_ptr");
    if (team == SHMEM_TEAM_INVALID)
        return NULL;
    ofs_check_team("shmem_team_ptr", "team", team);
    if (pe < 0 || pe >= team->size)
        return NULL;
    if (heap_seg_of(dest, 1, &off) < 0)
        return NULL;
    return comm_ptr(dest, coll_team_pe(team, pe));
}
OFS_WEAK_ALIAS(shmem_team_ptr)

/* Communication sessions are hints (the spec requires no optimisation): validated, then
 * nothing to do -- our puts and non-fetching AMOs already return without waiting for
 * completion, which is what a batch would buy. */
OFS_API void pshmem_ctx_session_start(shmem_ctx_t ctx, long options,
                                      const shmem_ctx_session_config_t *config, long config_mask)
{
    ofs_check_init("shmem_ctx_session_start");
    (void)options; /* "no combination of options results in undefined behavior" */
    if (ctx == SHMEM_CTX_INVALID)
        return;
    ofs_check_ctx("shmem_ctx_session_start", ofs_ctx(ctx));
    if (config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS)
        ofs_bad_input("shmem_ctx_session_start",
                      "config_mask = %#lx has bits other than SHMEM_CTX_SESSION_TOTAL_OPS",
                      config_mask);
    if (config_mask && !config)
        ofs_bad_input("shmem_ctx_session_start", "config is NULL while config_mask = %#lx",
                      config_mask);
}
OFS_WEAK_ALIAS(shmem_ctx_session_start)

OFS_API void pshmem_ctx_session_stop(shmem_ctx_t ctx)
{
    ofs_check_init("shmem_ctx_session_stop");
    if (ctx != SHMEM_CTX_INVALID)
        ofs_check_ctx("shmem_ctx_session_stop", ofs_ctx(ctx));
}
OFS_WEAK_ALIAS(shmem_ctx_session_stop)
