/*
 * The PMIx runtime: rank, size, locality, key/value exchange, fence, abort.
 * Without a launcher (no PMIX_RANK/PMIX_NAMESPACE in the environment, or
 * PMIx_Init failing) the program runs as a one-PE singleton.
 */
#include "rt.h"

#include <errno.h>
#include <pmix.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Every PE's value of one key, fetched at once (rt_kv_get) */
struct rt_bulk {
    char key[64];
    size_t len;          /* each value's length */
    unsigned char *have; /* [n_pes]: 1 fetched, 0 not (asked for one by one) */
    char *vals;          /* [n_pes][len] */
    int left;            /* replies still to come, under lock */
    pthread_mutex_t lock;
    pthread_cond_t done;
    struct rt_bulk *next;
};

struct rt_bulk_req {
    struct rt_bulk *b;
    int pe;
};

struct rt_state {
    int pmix_up;   /* PMIx_Init succeeded */
    int finishing; /* rt_finalize started: a closed connection is ours */
    pmix_proc_t myproc;
    char job_id[32];
    /* singleton key/value store: our own puts */
    struct rt_kv {
        char key[64];
        void *val;
        size_t len;
        struct rt_kv *next;
    } * local_kv;
    struct rt_bulk *bulk; /* the keys fetched for every PE since the last exchange */
    pthread_mutex_t bulk_lock;
};
static struct rt_state rt = { .bulk_lock = PTHREAD_MUTEX_INITIALIZER };

static int rt_cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static ofs_status_t rt_get_u32(const pmix_proc_t *proc, const char *key, uint32_t *out_p)
{
    pmix_value_t *val = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &val);

    if (rc != PMIX_SUCCESS || !val)
        return OFS_ERR_RUNTIME;
    switch (val->type) {
    case PMIX_UINT32: *out_p = val->data.uint32; break;
    case PMIX_UINT16: *out_p = val->data.uint16; break;
    case PMIX_INT: *out_p = (uint32_t)val->data.integer; break;
    case PMIX_UINT64: *out_p = (uint32_t)val->data.uint64; break;
    default: PMIX_VALUE_RELEASE(val); return OFS_ERR_RUNTIME;
    }
    PMIX_VALUE_RELEASE(val);
    return OFS_OK;
}

/* Ranks on my node from PMIX_LOCAL_PEERS ("0,1,2"). */
static ofs_status_t rt_local_peers(int **pes_p, int *n_p)
{
    pmix_proc_t wild;
    pmix_value_t *val = NULL;
    int *pes, n = 0, cap = 16;
    char *s, *save = NULL, *tok;

    PMIX_PROC_CONSTRUCT(&wild);
    PMIX_LOAD_PROCID(&wild, rt.myproc.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&wild, PMIX_LOCAL_PEERS, NULL, 0, &val) != PMIX_SUCCESS || !val ||
        val->type != PMIX_STRING) {
        if (val)
            PMIX_VALUE_RELEASE(val);
        return OFS_ERR_RUNTIME;
    }
    pes = malloc(cap * sizeof(int));
    s = strdup(val->data.string);
    PMIX_VALUE_RELEASE(val);
    if (!pes || !s) {
        free(pes);
        free(s);
        return OFS_ERR_NOMEM;
    }
    for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == cap) {
            int *np = realloc(pes, 2 * cap * sizeof(int));
            if (!np) {
                free(pes);
                free(s);
                return OFS_ERR_NOMEM;
            }
            pes = np;
            cap *= 2;
        }
        pes[n++] = atoi(tok);
    }
    free(s);
    qsort(pes, n, sizeof(int), rt_cmp_int);
    *pes_p = pes;
    *n_p = n;
    return OFS_OK;
}

/* node_of[] and local_pes from real locality (node id = lowest rank on the node),
 * then split by SHMEM_SIM_PES_PER_NODE when set.  publish: see rt_init. */
static ofs_status_t rt_locality(int *real_local, int n_real, ofs_status_t (*publish)(int))
{
    int my_node = real_local[0];
    int sim = (int)ofs_g.params.SIM_PES_PER_NODE;
    ofs_status_t st;

    ofs_g.node_of = malloc(ofs_g.n_pes * sizeof(int));
    ofs_g.local_pes = malloc(ofs_g.n_pes * sizeof(int));
    if (!ofs_g.node_of || !ofs_g.local_pes)
        return OFS_ERR_NOMEM;
    if (rt.pmix_up) {
        st = rt_kv_put("ofs.node", &my_node, sizeof(my_node));
        if (st == OFS_OK && publish)
            st = publish(n_real);
        if (st == OFS_OK)
            st = rt_exchange();
        for (int pe = 0; st == OFS_OK && pe < ofs_g.n_pes; pe++)
            st = rt_kv_get(pe, "ofs.node", &ofs_g.node_of[pe], sizeof(int));
        if (st != OFS_OK)
            return st;
    } else {
        ofs_g.node_of[0] = 0;
    }
    if (sim > 0) {
        /* a simulated node is a block of sim PEs, inside a real node */
        for (int pe = 0; pe < ofs_g.n_pes; pe++)
            ofs_g.node_of[pe] = ofs_g.node_of[pe] * ofs_g.n_pes + pe / sim;
    }
    ofs_g.local_size = 0;
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        if (ofs_g.node_of[pe] == ofs_g.node_of[ofs_g.my_pe]) {
            if (pe == ofs_g.my_pe)
                ofs_g.local_rank = ofs_g.local_size;
            ofs_g.local_pes[ofs_g.local_size++] = pe;
        }
    }
    return OFS_OK;
}

/* An orphan whose SIGTERM handler let it live (or that ignores SIGTERM) still ends,
 * SHMEM_ORPHAN_GRACE seconds later: nobody else will end it. */
static void *rt_orphan_timer(void *arg)
{
    struct timespec ts = { (time_t)(intptr_t)arg, 0 };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    ofs_log_error("PE %d still runs %lds after losing its launcher: exiting", ofs_g.my_pe,
                  (long)(intptr_t)arg);
    _exit(128 + SIGTERM);
    return NULL;
}

static void rt_orphan_timer_start(long grace)
{
    pthread_t t;
    pthread_attr_t a;
    sigset_t all, old;

    /* the timer thread takes no signals: the program's handlers run elsewhere */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, rt_orphan_timer, (void *)(intptr_t)grace) != 0)
        ofs_log_error("PE %d: cannot start the thread that ends it if SIGTERM does not",
                      ofs_g.my_pe);
    pthread_attr_destroy(&a);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The launcher's PMIx server is gone while this PE runs: the launcher was killed
 * without taking its PEs down (Open MPI's mpiexec exits at once on a second SIGINT or
 * SIGTERM, and `timeout` sends two: one to it, one to its process group), or a node
 * daemon died.  Nobody else will end this PE, and one computing or waiting for a dead
 * peer would run on forever at full speed, so it ends itself: SIGTERM, so that
 * handlers (the program's, libfabric shm's region cleanup) run, and exits
 * SHMEM_ORPHAN_GRACE seconds later if it is still there.  Called on PMIx's thread,
 * whatever the application's threads are doing. */
static void rt_lost_server(size_t id, pmix_status_t status, const pmix_proc_t *source,
                           pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                           pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id, (void)source, (void)info, (void)ninfo, (void)results, (void)nresults;
    if (cbfunc)
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    if (__atomic_load_n(&rt.finishing, __ATOMIC_ACQUIRE))
        return;
    ofs_log_error("PE %d lost its launcher (PMIx: %s): ending it with SIGTERM", ofs_g.my_pe,
                  PMIx_Error_string(status));
    rt_orphan_timer_start(ofs_g.params.ORPHAN_GRACE > 0 ? ofs_g.params.ORPHAN_GRACE : 0);
    kill(getpid(), SIGTERM);
}

static void rt_watch_server(void)
{
    pmix_status_t code = PMIX_ERR_LOST_CONNECTION;

    /* a failed registration leaves the PE without this safety net, nothing more */
    (void)PMIx_Register_event_handler(&code, 1, NULL, 0, rt_lost_server, NULL, NULL);
}

ofs_status_t rt_init(ofs_status_t (*publish)(int node_pes))
{
    pmix_status_t rc;
    int *local = NULL, n_local = 0;
    ofs_status_t st;

    if (!getenv("PMIX_RANK") && !getenv("PMIX_NAMESPACE")) {
        rt.pmix_up = 0;
    } else {
        rc = PMIx_Init(&rt.myproc, NULL, 0);
        if (rc != PMIX_SUCCESS) {
            ofs_log_warn("PMIx_Init failed (%s); running as a single PE", PMIx_Error_string(rc));
            rt.pmix_up = 0;
        } else {
            rt.pmix_up = 1;
            rt.finishing = 0;
            rt_watch_server();
        }
    }

    if (!rt.pmix_up) {
        unsigned long r = (unsigned long)getpid() ^ ((unsigned long)time(NULL) << 16);
        ofs_g.singleton = 1;
        ofs_g.my_pe = 0;
        ofs_g.n_pes = 1;
        snprintf(rt.job_id, sizeof(rt.job_id), "s%lx", r);
        local = malloc(sizeof(int));
        if (!local)
            return OFS_ERR_NOMEM;
        local[0] = 0;
        n_local = 1;
    } else {
        pmix_proc_t wild;
        uint32_t size;
        unsigned long h = 5381;

        PMIX_PROC_CONSTRUCT(&wild);
        PMIX_LOAD_PROCID(&wild, rt.myproc.nspace, PMIX_RANK_WILDCARD);
        if (rt_get_u32(&wild, PMIX_JOB_SIZE, &size) != OFS_OK) {
            ofs_log_error("PMIx_Get(PMIX_JOB_SIZE) failed");
            return OFS_ERR_RUNTIME;
        }
        ofs_g.my_pe = (int)rt.myproc.rank;
        ofs_g.n_pes = (int)size;
        for (const char *c = rt.myproc.nspace; *c; c++)
            h = h * 33 + (unsigned char)*c;
        snprintf(rt.job_id, sizeof(rt.job_id), "%lx", h & 0xffffffffffUL);
        st = rt_local_peers(&local, &n_local);
        if (st != OFS_OK) {
            ofs_log_error("PMIx_Get(PMIX_LOCAL_PEERS) failed: cannot tell which PEs share a node");
            return st;
        }
    }
    st = rt_locality(local, n_local, publish);
    free(local);
    return st;
}

static void rt_bulk_clear(void)
{
    pthread_mutex_lock(&rt.bulk_lock);
    while (rt.bulk) {
        struct rt_bulk *b = rt.bulk;
        rt.bulk = b->next;
        pthread_mutex_destroy(&b->lock);
        pthread_cond_destroy(&b->done);
        free(b->have);
        free(b->vals);
        free(b);
    }
    pthread_mutex_unlock(&rt.bulk_lock);
}

void rt_finalize(void)
{
    rt_bulk_clear();
    while (rt.local_kv) {
        struct rt_kv *kv = rt.local_kv;
        rt.local_kv = kv->next;
        free(kv->val);
        free(kv);
    }
    free(ofs_g.node_of);
    free(ofs_g.local_pes);
    ofs_g.node_of = NULL;
    ofs_g.local_pes = NULL;
    if (rt.pmix_up) {
        __atomic_store_n(&rt.finishing, 1, __ATOMIC_RELEASE);
        PMIx_Finalize(NULL, 0);
        rt.pmix_up = 0;
    }
}

ofs_status_t rt_kv_put(const char *key, const void *val, size_t len)
{
    if (rt.pmix_up) {
        pmix_value_t v;
        pmix_status_t rc;

        PMIX_VALUE_CONSTRUCT(&v);
        v.type = PMIX_BYTE_OBJECT;
        v.data.bo.bytes = (char *)val;
        v.data.bo.size = len;
        rc = PMIx_Put(PMIX_GLOBAL, key, &v);
        if (rc != PMIX_SUCCESS) {
            ofs_log_error("PMIx_Put(%s, %zu bytes) failed: %s", key, len, PMIx_Error_string(rc));
            return OFS_ERR_RUNTIME;
        }
        return OFS_OK;
    } else {
        struct rt_kv *kv = calloc(1, sizeof(*kv));
        if (!kv || !(kv->val = malloc(len ? len : 1))) {
            free(kv);
            return OFS_ERR_NOMEM;
        }
        snprintf(kv->key, sizeof(kv->key), "%s", key);
        memcpy(kv->val, val, len);
        kv->len = len;
        kv->next = rt.local_kv;
        rt.local_kv = kv;
        return OFS_OK;
    }
}

ofs_status_t rt_exchange(void)
{
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc;

    if (!rt.pmix_up)
        return OFS_OK;
    rt_bulk_clear(); /* values put since are fetched anew */
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) {
        ofs_log_error("PMIx_Commit failed: %s", PMIx_Error_string(rc));
        return OFS_ERR_RUNTIME;
    }
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        ofs_log_error("PMIx_Fence (with data) failed: %s", PMIx_Error_string(rc));
        return OFS_ERR_RUNTIME;
    }
    return OFS_OK;
}

/* on PMIx's thread: one PE's value of a bulk fetch */
static void rt_bulk_got(pmix_status_t status, pmix_value_t *v, void *cbdata)
{
    struct rt_bulk_req *r = cbdata;
    struct rt_bulk *b = r->b;

    if (status == PMIX_SUCCESS && v && v->type == PMIX_BYTE_OBJECT && v->data.bo.size == b->len) {
        memcpy(b->vals + (size_t)r->pe * b->len, v->data.bo.bytes, b->len);
        b->have[r->pe] = 1;
    }
    pthread_mutex_lock(&b->lock);
    if (--b->left == 0)
        pthread_cond_signal(&b->done);
    pthread_mutex_unlock(&b->lock);
}

/* Every PE's value of key, asked for all at once: PMIx_Get hands each request to
 * PMIx's thread and sleeps until it answers, two context switches per value, which
 * on a crowded node cost most of the exchange (every caller reads a key of every
 * PE in turn: docs/performance.md, "Start-up").  Only from the local store
 * (PMIX_OPTIONAL: what the exchange collected); a value not there, or of another
 * length, is asked for on its own as before.  NULL where it cannot be had. */
static struct rt_bulk *rt_bulk_fetch(const char *key, size_t len)
{
    struct rt_bulk *b;
    struct rt_bulk_req *req;
    int n = ofs_g.n_pes;
    pmix_info_t opt;
    bool yes = true;

    if (strlen(key) >= sizeof(b->key) || n < 2 || (double)n * (double)len > (64 << 20))
        return NULL;
    for (b = rt.bulk; b; b = b->next)
        if (strcmp(b->key, key) == 0)
            return b->len == len ? b : NULL;
    b = calloc(1, sizeof(*b));
    req = calloc((size_t)n, sizeof(*req));
    if (b) {
        b->have = calloc((size_t)n, 1);
        b->vals = malloc((size_t)n * len);
    }
    if (!b || !req || !b->have || !b->vals) {
        if (b) {
            free(b->have);
            free(b->vals);
        }
        free(b);
        free(req);
        return NULL;
    }
    snprintf(b->key, sizeof(b->key), "%s", key);
    b->len = len;
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->done, NULL);
    PMIX_INFO_CONSTRUCT(&opt);
    PMIX_INFO_LOAD(&opt, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    b->left = n;
    for (int pe = 0; pe < n; pe++) {
        pmix_proc_t proc;

        req[pe].b = b;
        req[pe].pe = pe;
        PMIX_PROC_CONSTRUCT(&proc);
        PMIX_LOAD_PROCID(&proc, rt.myproc.nspace, (pmix_rank_t)pe);
        if (PMIx_Get_nb(&proc, key, &opt, 1, rt_bulk_got, &req[pe]) != PMIX_SUCCESS) {
            pthread_mutex_lock(&b->lock);
            b->left--;
            pthread_mutex_unlock(&b->lock);
        }
    }
    pthread_mutex_lock(&b->lock);
    while (b->left > 0)
        pthread_cond_wait(&b->done, &b->lock);
    pthread_mutex_unlock(&b->lock);
    PMIX_INFO_DESTRUCT(&opt);
    free(req);
    b->next = rt.bulk;
    rt.bulk = b;
    return b;
}

ofs_status_t rt_kv_get(int pe, const char *key, void *val, size_t len)
{
    if (rt.pmix_up && pe >= 0 && pe < ofs_g.n_pes) {
        struct rt_bulk *b;
        int hit = 0;

        pthread_mutex_lock(&rt.bulk_lock);
        b = rt_bulk_fetch(key, len);
        if (b && b->have[pe]) {
            memcpy(val, b->vals + (size_t)pe * len, len);
            hit = 1;
        }
        pthread_mutex_unlock(&rt.bulk_lock);
        if (hit)
            return OFS_OK;
    }
    if (rt.pmix_up) {
        pmix_proc_t proc;
        pmix_value_t *v = NULL;
        pmix_status_t rc;

        PMIX_PROC_CONSTRUCT(&proc);
        PMIX_LOAD_PROCID(&proc, rt.myproc.nspace, (pmix_rank_t)pe);
        rc = PMIx_Get(&proc, key, NULL, 0, &v);
        if (rc != PMIX_SUCCESS || !v) {
            ofs_log_error("PMIx_Get(PE %d, %s) failed: %s", pe, key, PMIx_Error_string(rc));
            return OFS_ERR_RUNTIME;
        }
        if (v->type != PMIX_BYTE_OBJECT || v->data.bo.size != len) {
            ofs_log_error("PMIx_Get(PE %d, %s): expected %zu bytes, got type %d size %zu", pe, key,
                          len, (int)v->type, (size_t)v->data.bo.size);
            PMIX_VALUE_RELEASE(v);
            return OFS_ERR_RUNTIME;
        }
        memcpy(val, v->data.bo.bytes, len);
        PMIX_VALUE_RELEASE(v);
        return OFS_OK;
    }
    for (struct rt_kv *kv = rt.local_kv; kv; kv = kv->next) {
        if (pe == 0 && strcmp(kv->key, key) == 0 && kv->len == len) {
            memcpy(val, kv->val, len);
            return OFS_OK;
        }
    }
    return OFS_ERR_NOT_FOUND;
}

ofs_status_t rt_barrier(void)
{
    pmix_status_t rc;

    if (!rt.pmix_up)
        return OFS_OK;
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        ofs_log_error("PMIx_Fence failed: %s", PMIx_Error_string(rc));
        return OFS_ERR_RUNTIME;
    }
    return OFS_OK;
}

struct rt_fence {
    int done;
    pmix_status_t status;
};

/* on PMIx's thread */
static void rt_fence_done(pmix_status_t status, void *cbdata)
{
    struct rt_fence *f = cbdata;

    f->status = status;
    __atomic_store_n(&f->done, 1, __ATOMIC_RELEASE);
}

ofs_status_t rt_barrier_poll(void (*poll)(void *), void *arg)
{
    struct rt_fence f = { 0, PMIX_SUCCESS };
    pmix_status_t rc;

    if (!rt.pmix_up)
        return OFS_OK;
    rc = PMIx_Fence_nb(NULL, 0, NULL, 0, rt_fence_done, &f);
    if (rc == PMIX_SUCCESS) {
        while (!__atomic_load_n(&f.done, __ATOMIC_ACQUIRE))
            poll(arg);
        rc = f.status;
    }
#ifdef PMIX_OPERATION_SUCCEEDED
    if (rc == PMIX_OPERATION_SUCCEEDED) /* done at once, without the callback */
        rc = PMIX_SUCCESS;
#endif
    if (rc == PMIX_ERR_PARTIAL_SUCCESS) {
        /* a PE left the job without reaching the fence: it called shmem_global_exit
         * while this one finalized (the spec's own example ends so), or it failed, which
         * the launcher reports.  The job is ending; an error line from each PE still in
         * shmem_finalize would name no error of theirs. */
        ofs_log_debug("PMIx fence: a PE left the job before reaching it (%s)",
                      PMIx_Error_string(rc));
        return OFS_ERR_RUNTIME;
    }
    if (rc != PMIX_SUCCESS) {
        ofs_log_error("PMIx_Fence_nb failed: %s", PMIx_Error_string(rc));
        return OFS_ERR_RUNTIME;
    }
    return OFS_OK;
}

void rt_abort(int code, const char *msg)
{
    if (rt.pmix_up) {
        /* PMIx_Abort waits for the server; should that never answer, the alarm ends this
         * process and the launcher takes the job down all the same */
        signal(SIGALRM, SIG_DFL);
        alarm(3);
        PMIx_Abort(code, msg, NULL, 0);
    }
    /* PMIx_Abort normally does not return; when it does, leave anyway */
    _exit(code);
}

const char *rt_job_id(void)
{
    return rt.job_id;
}
