/*
 * The engine of the non-blocking collectives (nbc.h): requests, their per-team queues and
 * the passes that advance schedules.  Passes are run by the post itself (as far as the
 * schedule goes at once), by every wait of the library (comm_progress runs the hook set
 * here while a request is outstanding: one atomic load of a pointer when none is), by
 * shmemx_req_wait/test through the wait primitive, and by the engine thread
 * (nbc_thread.c) while the program computes.  One pass at a time (a mutex taken with
 * trylock: a pass that finds it taken returns, so the comm calls of a pass may drive
 * progress again without recursing).  The engine issues its puts, gets and signals on a
 * context of its own.
 */
#define _GNU_SOURCE
#include "nbc.h"
#include "ofs_backoff.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#define NBC_LAND_SLOT_MAX 32768 /* eager landing area per team slot (docs/nbc.md) */

static struct {
    pthread_mutex_t lock; /* one pass at a time; posting and freeing */
    struct comm_ctx *ctx;
    int gets_done; /* ctx's gets all complete, as this pass last looked (-1: not looked
                    * since the pass began or a get was issued): one look per pass */
    char *base;    /* symmetric: per team slot, NBC_NCLS x n_pes counters, 2 words (nbc_pub) */
    size_t slot_len;
    char *land; /* symmetric: per team slot and member, NBC_EAGER_DEPTH x land_per bytes,
                 * then the reductions' area (nbc_rland) */
    char *rland;
    size_t land_per;
    int nslots;
    struct nbc_team **teams; /* by slot */
    struct nbc_team *active; /* teams with requests not completed */
    struct ofs_htab reqs;
    /* by world PE, with signals by CPU atomics: where its copies of base, land and the
     * bell are mapped here (NULL: not mapped); filled at the first post */
    char **pbase, **pland;
    uint64_t **pbell;
    int nreq;   /* requests not freed */
    size_t mem; /* schedule memory held */
    /* Requests take no slot of reqs (up to pend_n of them): their handle is an address of a
     * reservation that is never mapped (tok_base + 8 i, aligned as a request is), alive
     * while bit i of tok_live is set, of the team in slot tok_aux[i] & 0xffff.  Bits are
     * handed out round-robin over cap + OFS_HTAB_ROUND of them, so that a freed handle
     * stays dead as long as a slot's does (ofs_handle.h).  The engine's requests, and
     * fast ones that did not complete at their post, live in pend[(tok_aux[i] >> 16) - 1]
     * (0: none) until their wait, with tokens too: a slot of reqs, handed out round-robin,
     * made a post map a new chunk of the table every 32 requests and give old ones back
     * (mprotect, page faults, madvise), and the peers' waits ran out of spins meanwhile
     * (docs/nbc.md).  Beyond pend's pend_n they take slots of reqs.  pend's
     * free requests are reused last in, first out, warm in the cache; a freed handle
     * stays dead by its token.  All under lock. */
    char *tok_base;
    uint64_t *tok_live;
    uint32_t *tok_aux;
    uint32_t tok_n, tok_next;
    struct coll_nbc_req *pend; /* pend_n requests, allocated at the first need */
    uint16_t *pend_free;       /* its free indexes, a stack */
    uint32_t pend_n, pend_nfree;
} eng = { .lock = PTHREAD_MUTEX_INITIALIZER, .reqs = OFS_HTAB_INITIALIZER };

_Static_assert(sizeof(struct coll_nbc_req) <= NBC_REQ_SLOT, "a request fits its handle slot");
/* bytes between two handles of requests completed at their post (eng.tok_base) */
#define NBC_TOK_ALIGN 8
/* most fast requests pending in eng.pend (tok_aux's 16 bits); beyond it they take slots of
 * eng.reqs */
#define NBC_PEND_MAX 65535u
_Static_assert(_Alignof(struct coll_nbc_req) <= NBC_TOK_ALIGN, "a token is aligned as a request");

int nbc_outstanding, nbc_waiters;
unsigned nbc_moves, nbc_calls;

/* released private buffers kept for reuse, largest first out */
#define NBC_TMP_CACHE 4
static struct {
    void *p;
    size_t len;
} tmp_cache[NBC_TMP_CACHE];

/* operation and dependency arrays of released schedules, for the next ones (no malloc
 * per request) */
#define NBC_ARR_CACHE 8
static struct {
    struct nbc_op *ops;
    uint32_t *deps;
    uint32_t cap, dcap;
} arr_cache[NBC_ARR_CACHE];
static int arr_n;

static uint64_t *counter(int slot, int cls, int src)
{
    return (uint64_t *)(eng.base + (size_t)slot * eng.slot_len) +
           (size_t)cls * (size_t)ofs_g.n_pes + (size_t)src;
}

size_t nbc_eager_len(void)
{
    return eng.land_per;
}

char *nbc_land(struct nbc_team *nt, int member, uint32_t unit)
{
    size_t part = (size_t)nt->team->id * (size_t)ofs_g.n_pes + (size_t)member;

    return eng.land + part * NBC_EAGER_DEPTH * eng.land_per +
           (size_t)unit * (eng.land_per / NBC_EAGER_SUB);
}

size_t nbc_rland_len(void)
{
    return eng.land_per * (size_t)ofs_g.n_pes;
}

char *nbc_rland(struct nbc_team *nt, uint64_t r, size_t off)
{
    size_t part = (size_t)nt->team->id * 2 + (size_t)(r & 1);

    return eng.rland + part * nbc_rland_len() + off;
}

uint64_t *nbc_pub(struct nbc_team *nt)
{
    return counter(nt->team->id, NBC_NCLS, 0);
}

/* The engine's shape: slot_len, nslots, land_per of eng, and the lengths of the eager
 * landing area and of both landing areas; by coll_nbc_heap_need before the heap exists
 * (fast_signal not known yet) and by coll_nbc_init. */
static void nbc_eng_shape(int fast_signal, size_t *eager_len, size_t *land_len)
{
    eng.nslots = (int)ofs_g.params.TEAMS_MAX;
    eng.slot_len =
        (((size_t)NBC_NCLS * (size_t)ofs_g.n_pes + 2) * sizeof(uint64_t) + 63) & ~(size_t)63;
    /* at most NBC_LAND_SLOT_MAX bytes per team slot */
    eng.land_per = (size_t)ofs_g.params.NBC_EAGER;
    if (eng.land_per > NBC_LAND_SLOT_MAX / NBC_EAGER_DEPTH / (size_t)ofs_g.n_pes)
        eng.land_per = NBC_LAND_SLOT_MAX / NBC_EAGER_DEPTH / (size_t)ofs_g.n_pes;
    if (fast_signal && eng.land_per > NBC_EAGER_SHM_MAX)
        eng.land_per = NBC_EAGER_SHM_MAX;
    eng.land_per &= ~(size_t)63;
    *eager_len = eng.land_per * NBC_EAGER_DEPTH * (size_t)ofs_g.n_pes * (size_t)eng.nslots;
    *land_len = *eager_len + eng.land_per * 2 * (size_t)ofs_g.n_pes * (size_t)eng.nslots;
}

size_t coll_nbc_heap_need(void)
{
    size_t eager_len, land_len;

    /* whether signals go by CPU atomics is known after the transports start: the larger
     * landing areas (without), and the same-node fast path's rings (with) */
    nbc_eng_shape(0, &eager_len, &land_len);
    return heap_block_len(eng.slot_len * (size_t)eng.nslots) + heap_block_len(64) +
           (land_len ? heap_block_len(land_len) : 0) + nbc_shm_heap_need();
}

ofs_status_t coll_nbc_init(void)
{
    ofs_status_t st;
    size_t land_len, eager_len;

    nbc_eng_shape(coll_cfg.fast_signal, &eager_len, &land_len);
    eng.base = heap_alloc(eng.slot_len * (size_t)eng.nslots, 64);
    nbc_bell = heap_alloc(64, 64);
    eng.teams = calloc((size_t)eng.nslots, sizeof(*eng.teams));
    if (land_len) {
        eng.land = heap_alloc(land_len, 64);
        eng.rland = eng.land ? eng.land + eager_len : NULL;
    }
    if (!eng.base || !nbc_bell || !eng.teams || (eng.land_per && !eng.land)) {
        ofs_log_error("shmem_init: no room for the counters and eager landing areas of the "
                      "non-blocking collectives (%zu bytes of the symmetric heap; "
                      "SHMEM_NBC_EAGER=0 saves %zu)",
                      eng.slot_len * (size_t)eng.nslots + land_len, land_len);
        return OFS_ERR_NOMEM;
    }
    /* no memset of the counters and the bell: fresh heap blocks are zero (as the team
     * pool's, coll_init).  The table's reservation keeps a freed handle dead through
     * OFS_HTAB_ROUND later posts: its cap is the limit itself */
    eng.reqs.unlocked = 1; /* allocated and freed under eng.lock */
    st = ofs_htab_init(&eng.reqs, NBC_REQ_SLOT, (uint32_t)ofs_g.params.NBC_REQS_MAX);
    if (st != OFS_OK)
        return st;
    eng.tok_n = ((uint32_t)ofs_g.params.NBC_REQS_MAX + OFS_HTAB_ROUND + 63) & ~63u;
    eng.tok_base = mmap(NULL, (size_t)eng.tok_n * NBC_TOK_ALIGN, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    eng.tok_live = calloc(eng.tok_n / 64, sizeof(uint64_t));
    eng.tok_aux = calloc(eng.tok_n, sizeof(uint32_t)); /* touched as tokens are handed out */
    if (eng.tok_base == MAP_FAILED || !eng.tok_live || !eng.tok_aux) {
        ofs_log_error("shmem_init: no memory for the handles of the non-blocking collectives");
        if (eng.tok_base != MAP_FAILED)
            munmap(eng.tok_base, (size_t)eng.tok_n * NBC_TOK_ALIGN);
        eng.tok_base = NULL;
        return OFS_ERR_NOMEM;
    }
    /* the context: at the first post (coll_nbc_post) */
    return nbc_shm_init();
}

static void team_state_free(int slot)
{
    struct nbc_team *nt = eng.teams[slot];

    if (!nt)
        return;
    /* a team whose last requests completed outside a pass (the fast path) may still be on
     * the engine's list */
    for (struct nbc_team **pp = &eng.active; nt->active && *pp; pp = &(*pp)->anext)
        if (*pp == nt) {
            *pp = nt->anext;
            nt->active = 0;
            break;
        }
    free(nt->seen);
    free(nt->owed);
    free(nt->xcnt);
    free(nt->xsum);
    free(nt->xhist);
    free(nt->xbad);
    nbc_shm_team_free(nt);
    free(nt);
    eng.teams[slot] = NULL;
}

void coll_nbc_fini(void)
{
    nbc_thread_stop();
    comm_progress_hook_set(NULL);
    for (int i = 0; eng.teams && i < eng.nslots; i++)
        team_state_free(i);
    for (int i = 0; i < NBC_TMP_CACHE; i++) {
        free(tmp_cache[i].p);
        tmp_cache[i].p = NULL;
    }
    while (arr_n > 0) {
        arr_n--;
        free(arr_cache[arr_n].ops);
        free(arr_cache[arr_n].deps);
    }
    free(eng.teams);
    eng.teams = NULL;
    free(eng.pbase);
    free(eng.pland);
    free(eng.pbell);
    eng.pbase = eng.pland = NULL;
    eng.pbell = NULL;
    ofs_htab_fini(&eng.reqs);
    if (eng.tok_base)
        munmap(eng.tok_base, (size_t)eng.tok_n * NBC_TOK_ALIGN);
    eng.tok_base = NULL;
    free(eng.tok_live);
    free(eng.tok_aux);
    eng.tok_live = NULL;
    eng.tok_aux = NULL;
    eng.tok_n = eng.tok_next = 0;
    free(eng.pend);
    free(eng.pend_free);
    eng.pend = NULL;
    eng.pend_free = NULL;
    eng.pend_n = eng.pend_nfree = 0;
    if (eng.ctx)
        comm_ctx_destroy(eng.ctx);
    eng.ctx = NULL;
    if (eng.land)
        heap_free(eng.land);
    eng.land = eng.rland = NULL;
    nbc_shm_fini();
    if (nbc_bell)
        heap_free(nbc_bell);
    nbc_bell = NULL;
    if (eng.base)
        heap_free(eng.base);
    eng.base = NULL;
    eng.active = NULL;
    nbc_outstanding = eng.nreq = 0;
    eng.mem = 0;
}

void coll_nbc_finalize(void)
{
    int left, running;

    pthread_mutex_lock(&eng.lock);
    left = eng.nreq;
    pthread_mutex_unlock(&eng.lock);
    if (!left)
        return;
    running = __atomic_load_n(&nbc_outstanding, __ATOMIC_ACQUIRE);
    ofs_log_warn("shmem_finalize: %d non-blocking collective request(s) not completed by "
                 "shmemx_req_wait/shmemx_req_test (%d of them still running: finalize "
                 "completes them first)",
                 left, running);
    /* their puts, gets and signals must be over before finalize's quiet and fence */
    COMM_WAIT_UNTIL(__atomic_load_n(&nbc_outstanding, __ATOMIC_ACQUIRE) == 0);
}

/* ---- running a schedule ---- */

/* the first post: the mappings of every PE's counters, landing area and bell */
static void peers_map(void)
{
    int n = ofs_g.n_pes;

    eng.pbase = calloc((size_t)n, sizeof(*eng.pbase));
    eng.pland = calloc((size_t)n, sizeof(*eng.pland));
    eng.pbell = calloc((size_t)n, sizeof(*eng.pbell));
    if (!eng.pbase || !eng.pland || !eng.pbell)
        ofs_fatal(1, "shmem: out of host memory for the non-blocking collectives");
    for (int pe = 0; pe < n; pe++) {
        eng.pbase[pe] = comm_ptr(eng.base, pe);
        eng.pland[pe] = eng.land ? comm_ptr(eng.land, pe) : NULL;
        eng.pbell[pe] = comm_ptr(nbc_bell, pe);
    }
}

static void nbc_signal(struct nbc_team *nt, int cls, int peer, const void *dst, const void *src,
                       size_t len)
{
    struct coll_team *t = nt->team;
    uint64_t *f = counter(t->id, cls, t->my_pe);
    int pe = coll_team_world_pe(t, peer);

    /* the running request's: signals are sent by the head of the team's queue alone */
    uint64_t v = NBC_SIG_ADD(nt->head->s.h);

    if (coll_cfg.fast_signal && eng.pbase[pe] && eng.pbell[pe] && (!len || eng.pland[pe])) {
        /* the data (always a landing slot), then the count, then the bell */
        if (len)
            memcpy(eng.pland[pe] + ((const char *)dst - eng.land), src, len);
        __atomic_fetch_add((uint64_t *)(eng.pbase[pe] + ((char *)f - eng.base)), v,
                           __ATOMIC_SEQ_CST);
        nbc_bell_ring(eng.pbell[pe]);
        return;
    }
    if (!len)
        dst = f, src = f;
    comm_put_signal(eng.ctx, (void *)dst, src, len, f, v, COMM_SIG_ADD | COMM_SIG_COLL, pe, 0);
}

/* v, the counter of class cls from member peer, holds the sum this PE's requests predict
 * at its count (when that count is among the last NBC_XHIST expected), else the job ends:
 * the member posted another collective at some point of the team's order (undefined in
 * the draft; it would hang, or mix two requests' data, without a word) */
static void nbc_verify(struct nbc_team *nt, int cls, int peer, uint64_t v)
{
    size_t i = (size_t)cls * (size_t)nt->team->size + (size_t)peer;
    uint64_t c = NBC_CNT(v), e, now;
    static const char *const cname[NBC_NCLS] = { "READY", "DATA", "SYNC", "RED" };
    char d[96] = "none";

    if (OFS_LIKELY(!c))
        return;
    e = nt->xhist[i * NBC_XHIST + c % NBC_XHIST];
    if (OFS_LIKELY(e >> 24 != c)) { /* not among the counts remembered */
        /* a disagreement seen earlier must last through counts that are checked: a
         * late signal long ago and another now are not one mismatch */
        if (OFS_UNLIKELY(nt->xbad[i]))
            nt->xbad[i] = 0;
        return;
    }
    if (OFS_LIKELY((e & 0xffffffu) == NBC_HSUM(v))) {
        nt->xbad[i] = 0;
        return;
    }
    now = ofs_clock_ns();
    if (!nt->xbad[i] || now - nt->xbad[i] < NBC_XBAD_NS) {
        if (!nt->xbad[i])
            nt->xbad[i] = now;
        return;
    }
    if (nt->head)
        nbc_sig_describe(d, sizeof(d), nt->head->s.sig);
    ofs_bad_input(nt->head ? nt->head->routine : "shmemx_req_wait",
                  "PE %d of the team posted different non-blocking collectives on this team "
                  "than this PE, or in another order (its %s signal %llu belongs to another "
                  "request than the one this PE expects it from; this PE's running request: "
                  "%s): every PE must post a team's requests in the same order with the same "
                  "arguments",
                  coll_team_world_pe(nt->team, peer), cname[cls], (unsigned long long)c, d);
}

/* every counter of the team against what its requests predict (a wait that makes no
 * progress may wait for a signal that a member's mismatched order never sends, while a
 * signal of that member sits on another counter) */
static void nbc_scan(struct nbc_team *nt)
{
    for (int cls = 0; cls < NBC_NCLS; cls++)
        for (int j = 0; j < nt->team->size; j++)
            if (j != nt->team->my_pe)
                nbc_verify(nt, cls, j,
                           __atomic_load_n(counter(nt->team->id, cls, j), __ATOMIC_ACQUIRE));
}

/* Every get issued on the engine's context complete (a provider poll at most once per
 * pass, and again only after a get was issued) */
static int gets_done(void)
{
    if (eng.gets_done < 0)
        eng.gets_done = comm_gets_test(eng.ctx);
    return eng.gets_done;
}

/* Run op if it can complete now; 1 when it completed. */
static int op_run(struct nbc_team *nt, struct nbc_op *op)
{
    struct coll_team *t = nt->team;
    int pe =
        op->kind == NBC_OP_COPY || op->kind == NBC_OP_REDUCE ? -1 : coll_team_world_pe(t, op->peer);

    switch (op->kind) {
    case NBC_OP_SIG: nbc_signal(nt, op->cls, op->peer, NULL, NULL, 0); return 1;
    case NBC_OP_WAIT: {
        uint64_t v = __atomic_load_n(counter(t->id, op->cls, op->peer), __ATOMIC_ACQUIRE);
        nbc_verify(nt, op->cls, op->peer, v);
        return NBC_CNT(v) >= op->target;
    }
    case NBC_OP_PUT:
        if (op->len)
            comm_put(eng.ctx, op->dst, op->src, op->len, pe);
        return 1;
    case NBC_OP_PUTSIG: nbc_signal(nt, op->cls, op->peer, op->dst, op->src, op->len); return 1;
    case NBC_OP_GET:
        /* issued now, done when the context's gets are: the gets a pass can issue are in
         * flight together, not one round trip after the other */
        if (!op->len)
            return 1;
        if (!op->issued) {
            comm_get_nbi(eng.ctx, op->dst, op->src, op->len, pe);
            op->issued = 1;
            eng.gets_done = -1;
        }
        return gets_done();
    case NBC_OP_IGET:
        if (op->nel)
            comm_iget(eng.ctx, op->dst, op->src, op->dstr, op->sstr, op->nel, op->es, pe);
        return 1;
    case NBC_OP_GETV: {
        size_t off = 0, len = (size_t)op->lens[op->peer] * op->es;
        for (int i = 0; i < op->peer; i++)
            off += (size_t)op->lens[i] * op->es;
        if (!len)
            return 1;
        if (op->peer == t->my_pe) {
            memmove(op->dst + off, op->src, len);
            return 1;
        }
        if (!op->issued) { /* as a GET */
            if (op->cls)   /* my source is NULL: from where the owner published its own */
                comm_get_nbi_seg(eng.ctx, op->dst + off, NBC_LOC_SEG(op->lens[t->size + op->peer]),
                                 NBC_LOC_OFF(op->lens[t->size + op->peer]), len, pe);
            else
                comm_get_nbi(eng.ctx, op->dst + off, op->src, len, pe);
            op->issued = 1;
            eng.gets_done = -1;
        }
        return gets_done();
    }
    case NBC_OP_CHECK: {
        size_t total = 0, blk;
        for (int i = 0; i < t->size; i++) {
            if (__builtin_mul_overflow((size_t)op->lens[i], op->es, &blk))
                blk = SIZE_MAX; /* reported as an overflow by the sum */
            total = coll_total_add(op->r, op->check, op->dst, op->nel, total, blk);
        }
        op->check(op->r, op->dst, op->nel, total, 0);
        return 1;
    }
    case NBC_OP_COPY:
        if (op->len && op->dst != op->src)
            memmove(op->dst, op->src, op->len);
        return 1;
    case NBC_OP_REDUCE: {
        const void *from = op->src;
        if (op->cls && op->nel) {
            int rpe = coll_team_world_pe(t, op->peer);
            from = comm_ptr(op->src, rpe);
            if (!from) {
                comm_get(eng.ctx, op->buf, op->src, op->nel * coll_type_size(op->rtype), rpe);
                from = op->buf;
            }
        }
        coll_op_apply((enum coll_op)op->rop, (enum coll_type)op->rtype, op->dst, from, op->nel);
        return 1;
    }
    case NBC_OP_SHMRED: /* this member's slice, as the blocking shm reduction */
        coll_grp_fold_shm(coll_team_grp(t), op->dst, op->src, 0, op->nel, (enum coll_op)op->rop,
                          (enum coll_type)op->rtype);
        return 1;
    }
    return 1;
}

/* One pass over a schedule in order (dependencies point backwards, so a chain whose
 * operations can complete now completes in one pass); 1 when the schedule is done. */
static int sched_pass(struct nbc_team *nt, struct nbc_sched *s, int *moved)
{
    eng.gets_done = -1;
    for (uint32_t i = s->first; i < s->nops; i++) {
        struct nbc_op *op = &s->ops[i];
        uint32_t d;

        if (op->done)
            continue;
        for (d = 0; d < op->ndeps; d++)
            if (!s->ops[s->deps[op->dep0 + d]].done)
                break;
        if (d < op->ndeps || !op_run(nt, op))
            continue;
        op->done = 1;
        *moved = 1;
        if (i == s->first)
            s->first++;
    }
    while (s->first < s->nops && s->ops[s->first].done)
        s->first++;
    return s->first == s->nops;
}

void *nbc_tmp_get(struct nbc_sched *s, size_t len)
{
    int best = -1;

    for (int i = 0; i < NBC_TMP_CACHE; i++)
        if (tmp_cache[i].p && tmp_cache[i].len >= len &&
            (best < 0 || tmp_cache[i].len < tmp_cache[best].len))
            best = i;
    if (best >= 0) {
        s->tmp = tmp_cache[best].p;
        s->tmp_len = tmp_cache[best].len;
        tmp_cache[best].p = NULL;
        memset(s->tmp, 0, len);
    } else {
        s->tmp = calloc(1, len ? len : 1);
        s->tmp_len = len;
    }
    return s->tmp;
}

static void tmp_put(void *p, size_t len)
{
    int slot = 0;

    if (!p)
        return;
    /* an empty slot, else the smallest buffer kept */
    for (int i = 0; i < NBC_TMP_CACHE; i++) {
        if (!tmp_cache[i].p) {
            slot = i;
            break;
        }
        if (tmp_cache[i].len < tmp_cache[slot].len)
            slot = i;
    }
    if (tmp_cache[slot].p && tmp_cache[slot].len >= len) {
        free(p);
        return;
    }
    free(tmp_cache[slot].p);
    tmp_cache[slot].p = p;
    tmp_cache[slot].len = len;
}

/* The schedule's memory goes as soon as it completed (the handle stays until freed). */
static void sched_release(struct nbc_sched *s)
{
    if (arr_n < NBC_ARR_CACHE) {
        arr_cache[arr_n].ops = s->ops;
        arr_cache[arr_n].cap = s->cap;
        arr_cache[arr_n].deps = s->deps;
        arr_cache[arr_n++].dcap = s->dcap;
    } else {
        free(s->ops);
        free(s->deps);
    }
    tmp_put(s->tmp, s->tmp_len);
    eng.mem -= s->mem;
    memset(s, 0, sizeof(*s));
}

static void sched_arrays(struct nbc_sched *s)
{
    if (!arr_n)
        return;
    arr_n--;
    s->ops = arr_cache[arr_n].ops;
    s->cap = arr_cache[arr_n].cap;
    s->deps = arr_cache[arr_n].deps;
    s->dcap = arr_cache[arr_n].dcap;
}

void nbc_req_complete(struct coll_nbc_req *q, int counted)
{
    __atomic_store_n(&q->state, NBC_S_DONE, __ATOMIC_RELEASE);
    if (counted && __atomic_sub_fetch(&nbc_outstanding, 1, __ATOMIC_ACQ_REL) == 0)
        comm_progress_hook_set(NULL);
    /* an application thread may sleep on the bell for this request */
    if (__atomic_load_n(&nbc_waiters, __ATOMIC_SEQ_CST))
        nbc_bell_ring(nbc_bell);
}

/* A pass over the running request of every team with requests (and its fast requests);
 * under eng.lock. */
static int engine_pass(void)
{
    int moved = 0;
    struct nbc_team *nt, **pp = &eng.active;

    while ((nt = *pp) != NULL) {
        struct coll_nbc_req *q;
        int tm = 0;

        if (nt->fhead && nbc_shm_advance(nt))
            moved = 1;
        while ((q = nt->head) != NULL) {
            if (!sched_pass(nt, &q->s, &tm)) {
                if (!tm && ++nt->idle % 16 == 0)
                    nbc_scan(nt);
                break;
            }
            sched_release(&q->s);
            nt->head = q->next;
            if (!nt->head)
                nt->tail = NULL;
            q->next = NULL;
            tm = 1;
            nbc_req_complete(q, 1);
        }
        moved |= tm;
        if (!nt->head && !nt->fhead) {
            *pp = nt->anext;
            nt->anext = NULL;
            nt->active = 0;
        } else {
            pp = &nt->anext;
        }
    }
    if (moved)
        __atomic_add_fetch(&nbc_moves, 1, __ATOMIC_RELEASE);
    return moved;
}

void nbc_progress(void)
{
    static __thread int inside;

    if (inside || pthread_mutex_trylock(&eng.lock))
        return;
    inside = 1;
    while (engine_pass())
        ;
    inside = 0;
    pthread_mutex_unlock(&eng.lock);
}

/* ---- requests ---- */

static struct nbc_team *team_state(struct coll_team *team)
{
    struct nbc_team *nt = eng.teams[team->id];

    if (nt && nt->team == team)
        return nt;
    if (nt) /* a destroyed team's slot (its state was cleared then: defensive) */
        team_state_free(team->id);
    nt = calloc(1, sizeof(*nt));
    if (!nt)
        return NULL;
    nt->seen = calloc((size_t)NBC_NCLS * (size_t)team->size, sizeof(uint64_t));
    nt->owed = calloc((4 + NBC_EAGER_UNITS) * (size_t)team->size, sizeof(uint64_t));
    nt->xcnt = calloc((size_t)NBC_NCLS * (size_t)team->size, sizeof(uint64_t));
    nt->xsum = calloc((size_t)NBC_NCLS * (size_t)team->size, sizeof(uint32_t));
    nt->xhist = calloc((size_t)NBC_NCLS * (size_t)team->size * NBC_XHIST, sizeof(uint64_t));
    nt->xbad = calloc((size_t)NBC_NCLS * (size_t)team->size, sizeof(uint64_t));
    if (!nt->seen || !nt->owed || !nt->xcnt || !nt->xsum || !nt->xhist || !nt->xbad) {
        free(nt->seen);
        free(nt->owed);
        free(nt->xcnt);
        free(nt->xsum);
        free(nt->xhist);
        free(nt->xbad);
        free(nt);
        return NULL;
    }
    nt->esent = nt->owed + team->size;
    nt->erecv = nt->esent + team->size;
    nt->ecur = nt->erecv + team->size;
    nt->eunit = nt->ecur + team->size;
    nt->team = team;
    eng.teams[team->id] = nt;
    return nt;
}

static int req_done(struct coll_nbc_req *q)
{
    return __atomic_load_n(&q->state, __ATOMIC_ACQUIRE) == NBC_S_DONE;
}

/* the last look of a waiter before it sleeps on the bell (a fast request: its team's
 * fast requests only; the wait's own progress calls run the whole engine) */
static int wait_done(void *arg)
{
    struct coll_nbc_req *q = arg;

    if (q->fast) {
        /* the lock only once its entries are there (polling costs no atomic then) */
        if (!req_done(q) && nbc_shm_ready(q) && pthread_mutex_trylock(&eng.lock) == 0) {
            nbc_shm_advance(q->nt);
            pthread_mutex_unlock(&eng.lock);
        }
    } else {
        nbc_progress();
    }
    return req_done(q);
}

static void team_activate(struct nbc_team *nt)
{
    if (!nt->active) {
        nt->active = 1;
        nt->anext = eng.active;
        eng.active = nt;
    }
}

/* a handle for a fast request on the team in slot: completed at its post (pend 0) or
 * held in eng.pend[pend - 1] */
static struct coll_nbc_req *tok_alloc(int slot, uint32_t pend)
{
    uint32_t i = eng.tok_next;

    /* fewer than NBC_REQS_MAX bits are set: a clear one is near */
    while (eng.tok_live[i / 64] >> (i % 64) & 1)
        i = i + 1 < eng.tok_n ? i + 1 : 0;
    eng.tok_live[i / 64] |= 1ULL << (i % 64);
    eng.tok_aux[i] = (uint32_t)slot | pend << 16;
    eng.tok_next = i + 1 < eng.tok_n ? i + 1 : 0;
    return (struct coll_nbc_req *)(eng.tok_base + (size_t)i * NBC_TOK_ALIGN);
}

/* a free request of eng.pend (its index + 1 in *idx), or NULL when all are taken */
static struct coll_nbc_req *pend_alloc(uint32_t *idx)
{
    if (!eng.pend) {
        uint32_t n = ofs_g.params.NBC_REQS_MAX < NBC_PEND_MAX ? (uint32_t)ofs_g.params.NBC_REQS_MAX
                                                              : NBC_PEND_MAX;
        eng.pend = malloc((size_t)n * sizeof(*eng.pend));
        eng.pend_free = malloc((size_t)n * sizeof(*eng.pend_free));
        if (!eng.pend || !eng.pend_free) { /* the table then */
            free(eng.pend);
            free(eng.pend_free);
            eng.pend = NULL;
            eng.pend_free = NULL;
            return NULL;
        }
        for (uint32_t k = 0; k < n; k++)
            eng.pend_free[k] = (uint16_t)(n - 1 - k);
        eng.pend_n = eng.pend_nfree = n;
    }
    if (!eng.pend_nfree)
        return NULL;
    *idx = (uint32_t)eng.pend_free[--eng.pend_nfree] + 1;
    return &eng.pend[*idx - 1];
}

/* q lies in the tokens' reservation (alive or not) */
static int is_tok(const struct coll_nbc_req *q)
{
    return eng.tok_base &&
           (uintptr_t)q - (uintptr_t)eng.tok_base < (uintptr_t)eng.tok_n * NBC_TOK_ALIGN;
}

/* the same-node fast path (nbc_shm.c), under eng.lock (released here): the request is
 * built in q (the caller's, on its stack) and moved into pend (a slot of the table when
 * pend is full) only if it did not complete at its post */
static int fast_post(struct coll_nbc_req *q, struct coll_nbc_req **req_p,
                     const struct coll_nbc_args *a)
{
    struct nbc_team *nt = q->nt;
    struct coll_nbc_req *p;

    q->fast = 1;
    q->state = NBC_S_QUEUED;
    q->magic = NBC_REQ_LIVE;
    eng.nreq++;
    nt->nreq++;
    nbc_shm_post(q, a);
    if (req_done(q)) { /* dequeued already: nothing refers to q */
        *req_p = tok_alloc(nt->team->id, 0);
        pthread_mutex_unlock(&eng.lock);
        return 0;
    }
    uint32_t pi = 0;
    p = pend_alloc(&pi);
    if (!p) /* more than NBC_PEND_MAX pending, or no memory for pend */
        p = ofs_htab_alloc(&eng.reqs);
    if (!p)
        ofs_fatal(1, "%s: out of host memory", q->routine);
    memcpy(p, q, sizeof(*q));
    /* q is the last of the team's fast queue */
    if (nt->fhead == q) {
        nt->fhead = p;
    } else {
        struct coll_nbc_req *e = nt->fhead;
        while (e->next != q)
            e = e->next;
        e->next = p;
    }
    nt->ftail = p;
    p->f.counted = 1;
    if (__atomic_add_fetch(&nbc_outstanding, 1, __ATOMIC_SEQ_CST) == 1)
        comm_progress_hook_set(nbc_progress);
    team_activate(nt);
    *req_p = pi ? tok_alloc(nt->team->id, pi) : p;
    pthread_mutex_unlock(&eng.lock);
    /* not for a direct request: every transfer left is made by the others' posts or by my
     * wait (nbc_shm.c), and a thread woken for it only took a CPU from the PEs (post +
     * wait 0.77-1.0x without it at 4 PEs on 2 CPUs, docs/nbc.md) */
    if (!p->f.direct || p->f.unpub) /* an unpublished part is mine to publish */
        nbc_thread_kick(0);
    return 0;
}

int coll_nbc_post(const char *r, struct coll_team *team, const struct coll_nbc_args *a,
                  struct coll_nbc_req **req_p)
{
    struct coll_nbc_req *q;
    struct nbc_team *nt;
    uint32_t pi = 0;
    size_t bytes;

    COLL_CHECK_NBC(r, team, a);
    nbc_app_call();
    uint64_t fin_seq = coll_live_count(team);
    *req_p = NULL;
    pthread_mutex_lock(&eng.lock);
    /* opened here, not at shmem_init: an endpoint per PE that most jobs never use */
    if (!eng.ctx && comm_ctx_create(0, NULL, &eng.ctx) != OFS_OK)
        ofs_fatal(1, "%s: cannot open the non-blocking collectives' context", r);
    if (!eng.pbase)
        peers_map();
    if (eng.nreq >= ofs_g.params.NBC_REQS_MAX)
        ofs_bad_input(r,
                      "%d non-blocking collective requests are outstanding already "
                      "(SHMEM_NBC_REQS_MAX): complete some with shmemx_req_wait or "
                      "shmemx_req_test, or raise SHMEM_NBC_REQS_MAX",
                      eng.nreq);
    nt = team_state(team);
    if (!nt)
        ofs_fatal(1, "%s: out of host memory", r);
    if (nbc_shm_fits(nt, a)) {
        /* not zeroed as a whole (the common case of a small request: clearing its 128
         * bytes was a measurable part of the post): fast_post and nbc_shm_post set the
         * rest, f whole */
        struct coll_nbc_req fq;
        fq.routine = r;
        fq.nt = nt;
        fq.fin_seq = fin_seq;
        fq.next = NULL;
        return fast_post(&fq, req_p, a);
    }
    q = pend_alloc(&pi); /* a slot of the table beyond pend */
    if (q)
        memset(q, 0, sizeof(*q));
    else
        q = ofs_htab_alloc(&eng.reqs);
    if (!q)
        ofs_fatal(1, "%s: out of host memory", r);
    q->routine = r;
    q->nt = nt;
    q->fin_seq = fin_seq;
    sched_arrays(&q->s);
    if (nbc_build(q, a) != OFS_OK)
        ofs_fatal(1, "%s: out of host memory for the schedule", r);
    if (eng.mem + q->s.mem > (size_t)ofs_g.params.NBC_MEM_MAX)
        ofs_bad_input(r,
                      "the schedules of the outstanding non-blocking collectives would hold "
                      "%zu bytes, more than SHMEM_NBC_MEM_MAX = %zu: complete some requests "
                      "first or raise SHMEM_NBC_MEM_MAX",
                      eng.mem + q->s.mem, (size_t)ofs_g.params.NBC_MEM_MAX);
    eng.mem += q->s.mem;
    eng.nreq++;
    nt->nreq++;
    q->state = NBC_S_QUEUED;
    if (nt->tail)
        nt->tail->next = q;
    else
        nt->head = q;
    nt->tail = q;
    team_activate(nt);
    q->magic = NBC_REQ_LIVE;
    if (__atomic_add_fetch(&nbc_outstanding, 1, __ATOMIC_SEQ_CST) == 1)
        comm_progress_hook_set(nbc_progress);
    /* start it now: what can be issued at once goes out before the program computes */
    while (engine_pass())
        ;
    bytes = req_done(q) ? 0 : q->s.bytes + 1;
    *req_p = pi ? tok_alloc(team->id, pi) : q;
    pthread_mutex_unlock(&eng.lock);
    if (bytes) /* q may be freed by now (a wait in another thread) */
        nbc_thread_kick(bytes - 1);
    return 0;
}

static void req_check(const char *r, struct coll_nbc_req *q)
{
    if (OFS_UNLIKELY(!ofs_htab_holds(&eng.reqs, q, NBC_REQ_SLOT, NBC_REQ_LIVE)))
        ofs_bad_input(r,
                      "request = %p is not an outstanding non-blocking collective request "
                      "(never returned by a shmemx_*_nb routine, or already completed and "
                      "freed by shmemx_req_wait/shmemx_req_test)",
                      (void *)q);
}

/* Free handle h of request q (NULL: a token of a request completed at its post); under
 * eng.lock */
static void req_drop(struct coll_nbc_req *h, struct coll_nbc_req *q)
{
    if (is_tok(h)) {
        uint32_t i = (uint32_t)((size_t)((char *)h - eng.tok_base) / NBC_TOK_ALIGN);
        uint32_t aux = eng.tok_aux[i];
        eng.tok_live[i / 64] &= ~(1ULL << (i % 64));
        eng.teams[aux & 0xffff]->nreq--;
        if (aux >> 16)
            eng.pend_free[eng.pend_nfree++] = (uint16_t)((aux >> 16) - 1);
    } else {
        q->nt->nreq--;
        ofs_htab_free(&eng.reqs, q);
    }
    eng.nreq--;
}

/* Handle *req_p, a token (is_tok): the request of eng.pend it names, or, for a request
 * completed at its post, NULL with the handle freed; reported if it is not outstanding. */
static struct coll_nbc_req *tok_take(const char *r, struct coll_nbc_req **req_p)
{
    size_t off = (size_t)((char *)*req_p - eng.tok_base);
    uint32_t i = (uint32_t)(off / NBC_TOK_ALIGN), pi;

    pthread_mutex_lock(&eng.lock);
    if (OFS_UNLIKELY(off % NBC_TOK_ALIGN || !(eng.tok_live[i / 64] >> (i % 64) & 1))) {
        pthread_mutex_unlock(&eng.lock);
        req_check(r, *req_p); /* not outstanding: reported as any other */
    }
    pi = eng.tok_aux[i] >> 16;
    if (!pi) {
        req_drop(*req_p, NULL);
        *req_p = NULL;
    }
    pthread_mutex_unlock(&eng.lock);
    return pi ? &eng.pend[pi - 1] : NULL;
}

static void req_free(struct coll_nbc_req **req_p, struct coll_nbc_req *q)
{
    pthread_mutex_lock(&eng.lock);
    req_drop(*req_p, q);
    pthread_mutex_unlock(&eng.lock);
    *req_p = NULL;
}

/* The first looks of a wait for a fast request: at its entries only, without the lock,
 * the waiters' count or progress calls (a peer's entry comes within a few hundred
 * nanoseconds when both PEs run); once they are there, the lock once to complete it
 * (with the team's earlier fast requests) and free it.  1 when it did. */
static int wait_fast(struct coll_nbc_req **req_p, struct coll_nbc_req *q)
{
    int done = 0;

    for (unsigned i = 0; i < ofs_backoff_spins(); i++) {
        if (req_done(q) || nbc_shm_ready(q)) {
            pthread_mutex_lock(&eng.lock);
            if (!req_done(q))
                nbc_shm_advance(q->nt);
            done = req_done(q);
            if (done) {
                req_drop(*req_p, q);
                *req_p = NULL;
            }
            pthread_mutex_unlock(&eng.lock);
            break; /* not done: an earlier request waits for others (the general wait) */
        }
        ofs_cpu_relax();
    }
    return done;
}

int coll_nbc_wait(const char *r, struct coll_nbc_req **req_p)
{
    struct coll_nbc_req *q = *req_p;

    if (!q)
        return 0;
    nbc_app_call();
    if (is_tok(q)) {
        q = tok_take(r, req_p);
        if (!q)
            return 0;
    } else {
        req_check(r, q);
    }
    if (q->fast && wait_fast(req_p, q))
        return 0;
    if (!req_done(q)) {
        struct coll_team *t = q->nt->team;
        /* a member that finalized without posting it is named (coll_fin.c) */
        int live = coll_live_wait(t, q->routine, COLL_NBC_SYNC, q->fin_seq);

        __atomic_add_fetch(&nbc_waiters, 1, __ATOMIC_SEQ_CST);
        if (coll_cfg.fast_signal) /* sleep on the bell once polling did not suffice */
            COMM_WAIT_UNTIL_NAP(wait_done(q), nbc_bell_nap(wait_done, q));
        else
            COMM_WAIT_UNTIL(wait_done(q));
        __atomic_sub_fetch(&nbc_waiters, 1, __ATOMIC_ACQ_REL);
        if (live)
            coll_live_leave(t);
    }
    req_free(req_p, q);
    return 0;
}

int coll_nbc_test(const char *r, struct coll_nbc_req **req_p, int *done_p)
{
    struct coll_nbc_req *q = *req_p;

    if (!q) {
        *done_p = 1;
        return 0;
    }
    nbc_app_call();
    if (is_tok(q)) {
        q = tok_take(r, req_p);
        if (!q) {
            *done_p = 1;
            return 0;
        }
    } else {
        req_check(r, q);
    }
    if (!req_done(q)) {
        nbc_progress();
        if (!req_done(q)) {
            comm_test_poll();
            *done_p = req_done(q);
            if (!*done_p)
                return 0;
        }
    }
    *done_p = 1;
    req_free(req_p, q);
    return 0;
}

void coll_nbc_team_destroy(struct coll_team *team)
{
    struct nbc_team *nt;

    if (!eng.teams)
        return;
    nt = eng.teams[team->id];
    /* the answers to my last eager puts: they must not land after the reset below */
    for (int j = 0; nt && nt->team == team && nt->nreq == 0 && j < team->size; j++) {
        uint64_t *c = counter(team->id, NBC_C_DATA, j);
        uint64_t want = nt->seen[(size_t)NBC_C_DATA * (size_t)team->size + (size_t)j] + nt->owed[j];
        COMM_WAIT_UNTIL(NBC_CNT(__atomic_load_n(c, __ATOMIC_ACQUIRE)) >= want);
    }
    /* every member has read my entries of the fast path */
    if (nt && nt->team == team && nt->nreq == 0)
        nbc_shm_team_drain(nt);
    pthread_mutex_lock(&eng.lock);
    nt = eng.teams[team->id];
    if (nt && nt->team == team && nt->nreq > 0)
        ofs_bad_input("shmem_team_destroy",
                      "team = %p has %d non-blocking collective request(s) not completed by "
                      "shmemx_req_wait/shmemx_req_test",
                      (void *)team, nt->nreq);
    /* every signal meant for me in this team's requests has arrived (each is waited for
     * by a request of mine, all completed): the counters start again from 0 */
    memset(eng.base + (size_t)team->id * eng.slot_len, 0, eng.slot_len);
    team_state_free(team->id);
    pthread_mutex_unlock(&eng.lock);
}

void coll_nbc_team_forget(struct coll_team *team)
{
    nbc_shm_slot_reset(team->id);
}
