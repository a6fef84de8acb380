/*
 * The contexts of a team (SHMEM_TEAM_NUM_CONTEXTS = N).  A team's N contexts are opened
 * when the team is created (the split fails on every PE when some member cannot open
 * them) and kept in the team's pool.  shmem_team_create_ctx takes from the pool first
 * and opens a new context only when it is empty; shmem_ctx_destroy gives a context
 * back while the pool holds fewer than N.  So pool + contexts in use >= N at all
 * times: while fewer than N of the team's contexts exist, creating one never needs
 * new transport resources.  Pooled contexts are opened shareable (options 0) and
 * given the caller's options when handed out: at the transport, a pooled context
 * handed out as SHMEM_CTX_PRIVATE still takes its (uncontended) lock under
 * SHMEM_THREAD_MULTIPLE, which is correct, only not lock-free.
 */
#include "comm.h"

#include <stdlib.h>

struct comm_ctx_pool {
    struct comm_ctx **ctxs; /* cap contexts: the first avail are free */
    int cap;                /* N */
    int avail;
};

/* guards every pool's ctxs/avail (creating and destroying contexts is not hot) */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

ofs_status_t comm_ctx_pool_open(int n, struct comm_ctx_pool **pool_p)
{
    struct comm_ctx_pool *pool;
    ofs_status_t st;

    *pool_p = NULL;
    if (n <= 0)
        return OFS_OK;
    pool = calloc(1, sizeof(*pool));
    if (pool)
        pool->ctxs = calloc((size_t)n, sizeof(*pool->ctxs));
    if (!pool || !pool->ctxs) {
        free(pool);
        return OFS_ERR_NOMEM;
    }
    pool->cap = n;
    for (int i = 0; i < n; i++) {
        st = comm_ctx_create(0, NULL, &pool->ctxs[i]);
        if (st != OFS_OK) {
            ofs_log_debug("SHMEM_TEAM_NUM_CONTEXTS = %d: context %d could not be opened: %s", n, i,
                          ofs_status_string(st));
            comm_ctx_pool_close(pool);
            return st;
        }
        pool->ctxs[i]->magic = COMM_CTX_POOLED;
        pool->ctxs[i]->pool = pool;
        pool->avail++;
    }
    *pool_p = pool;
    return OFS_OK;
}

void comm_ctx_pool_bind(struct comm_ctx_pool *pool, struct coll_team *team)
{
    for (int i = 0; pool && i < pool->avail; i++)
        pool->ctxs[i]->team = team;
}

void comm_ctx_pool_close(struct comm_ctx_pool *pool)
{
    if (!pool)
        return;
    for (int i = 0; i < pool->avail; i++)
        comm_ctx_destroy(pool->ctxs[i]);
    free(pool->ctxs);
    free(pool);
}

/* spec 1.5: not collective; fails only when a context cannot be opened */
ofs_status_t comm_ctx_team_create(struct coll_team *team, struct comm_ctx_pool *pool, long options,
                                  struct comm_ctx **ctx_p)
{
    struct comm_ctx *c = NULL;

    *ctx_p = NULL;
    if (pool) {
        pthread_mutex_lock(&pool_lock);
        if (pool->avail > 0)
            c = pool->ctxs[--pool->avail];
        pthread_mutex_unlock(&pool_lock);
    }
    if (c) {
        c->options = options;
        c->magic = COMM_CTX_LIVE;
    } else {
        ofs_status_t st = comm_ctx_create(options, team, &c);
        if (st != OFS_OK)
            return st;
        c->pool = pool;
    }
    *ctx_p = c;
    return OFS_OK;
}

void comm_ctx_release(struct comm_ctx *ctx)
{
    struct comm_ctx_pool *pool = ctx->pool;

    if (pool) {
        comm_quiet(ctx);
        pthread_mutex_lock(&pool_lock);
        if (pool->avail < pool->cap) {
            ctx->magic = COMM_CTX_POOLED; /* the program's handle is dead */
            ctx->options = 0;
            pool->ctxs[pool->avail++] = ctx;
            ctx = NULL;
        }
        pthread_mutex_unlock(&pool_lock);
        if (!ctx)
            return;
    }
    comm_ctx_destroy(ctx);
}

void comm_ctx_team_close(struct coll_team *team, struct comm_ctx_pool *pool)
{
    struct comm_ctx *c;

    /* its pooled contexts are closed by the loop below (they are on the context list) */
    if (pool) {
        pthread_mutex_lock(&pool_lock);
        pool->avail = 0;
        pthread_mutex_unlock(&pool_lock);
        free(pool->ctxs);
        free(pool);
    }
    /* spec: destroying a team destroys its shareable contexts; a SHMEM_CTX_PRIVATE
     * one left by the program (its error) is destroyed too rather than left pointing
     * at a freed team */
    for (;;) {
        pthread_mutex_lock(&comm_g.ctx_list_lock);
        for (c = comm_g.ctx_list; c && c->team != team; c = c->next)
            ;
        pthread_mutex_unlock(&comm_g.ctx_list_lock);
        if (!c)
            break;
        comm_ctx_destroy(c);
    }
}
