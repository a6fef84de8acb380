/*
 * Library start-up and shut-down, in one place and one order:
 *   env -> runtime -> heap -> comm (transports) -> collectives
 * Finalize runs it backwards.  A failed init leaves the first error in ofs_g so a
 * second shmem_init can report it.
 */
#define _GNU_SOURCE
#include "ofs.h"
#include "rt.h"
#include "heap.h"
#include "comm.h"
#include "coll.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct ofs_state ofs_g;

/*
 * Settings every PE must share.  The heap's layout: the allocator gives equal offsets
 * only over equal heaps (SHMEM_TEAMS_MAX sizes the team pool in it), and a peer's
 * smaller heap object mapped at our size ends in SIGBUS.  The routes and the atomic
 * executor: PEs that disagree on them mix CPU and fabric atomics or look for endpoints
 * that were never opened.  The collective algorithms: PEs running different ones wait
 * for each other forever.  (The OFI route checks its own settings in ofi_connect.)
 * Published with the node ids at rt_init's exchange and compared right after it,
 * before anything is created.
 */
enum { AGREE_LONG, AGREE_BOOL, AGREE_ENUM };
static const struct init_agree {
    const char *name;
    int kind;
    size_t off;
} init_agree_tab[] = {
    { "SYMMETRIC_SIZE", AGREE_LONG, offsetof(struct ofs_params, SYMMETRIC_SIZE) },
    { "TEAMS_MAX", AGREE_LONG, offsetof(struct ofs_params, TEAMS_MAX) },
    { "LOCAL_TRANSPORT", AGREE_ENUM, offsetof(struct ofs_params, LOCAL_TRANSPORT) },
    { "SIM_PES_PER_NODE", AGREE_LONG, offsetof(struct ofs_params, SIM_PES_PER_NODE) },
    { "COLL_SHM", AGREE_BOOL, offsetof(struct ofs_params, COLL_SHM) },
    { "BARRIER_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, BARRIER_ALGORITHM) },
    { "BCAST_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, BCAST_ALGORITHM) },
    { "REDUCE_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, REDUCE_ALGORITHM) },
    { "COLLECT_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, COLLECT_ALGORITHM) },
    { "ALLTOALL_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, ALLTOALL_ALGORITHM) },
};
#define AGREE_N (sizeof(init_agree_tab) / sizeof(init_agree_tab[0]))
#define AGREE_VAL 32 /* longer values (not valid for any of them) compare truncated */
struct init_agree_vals {
    char v[AGREE_N][AGREE_VAL];
};

static void init_agree_fill(struct init_agree_vals *a)
{
    memset(a, 0, sizeof(*a));
    for (size_t i = 0; i < AGREE_N; i++) {
        const char *field = (const char *)&ofs_g.params + init_agree_tab[i].off;
        char *v = a->v[i];

        if (init_agree_tab[i].kind == AGREE_LONG)
            snprintf(v, AGREE_VAL, "%ld", *(const long *)field);
        else if (init_agree_tab[i].kind == AGREE_BOOL)
            snprintf(v, AGREE_VAL, "%d", *(const int *)field);
        else
            snprintf(v, AGREE_VAL, "%s",
                     ofs_param_word(ofs_param_find(init_agree_tab[i].name), *(const int *)field));
    }
}

ofs_status_t ofs_agree_publish(int node_pes)
{
    struct init_agree_vals a;
    ofs_status_t st;

    init_agree_fill(&a);
    st = rt_kv_put("ofs.agree", &a, sizeof(a));
    /* and the heap the node has room for, should the default not fit */
    return st == OFS_OK ? heap_fit_publish(node_pes) : st;
}

/* "0, 2-5, 7": the PEs (of n) whose value of setting i is v */
static void init_agree_pes(const struct init_agree_vals *all, int n, size_t i, const char *v,
                           char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int pe = 0; pe < n && used < len; pe++) {
        int last = pe;
        if (strncmp(all[pe].v[i], v, AGREE_VAL) != 0)
            continue;
        while (last + 1 < n && strncmp(all[last + 1].v[i], v, AGREE_VAL) == 0)
            last++;
        int w = last == pe ? snprintf(buf + used, len - used, "%s%d", used ? ", " : "", pe)
                : last == pe + 1
                    ? snprintf(buf + used, len - used, "%s%d, %d", used ? ", " : "", pe, last)
                    : snprintf(buf + used, len - used, "%s%d-%d", used ? ", " : "", pe, last);
        used += w > 0 ? (size_t)w : 0;
        pe = last;
    }
}

/* Every PE reads every PE's settings, so every PE knows; PE 0 reports, one line per
 * setting that differs, and the others give it a moment to do so before they go down. */
static ofs_status_t init_agree_check(void)
{
    int n = ofs_g.n_pes, bad = 0;
    struct init_agree_vals *all;
    ofs_status_t st = OFS_OK;

    if (ofs_g.singleton || n < 2)
        return OFS_OK;
    all = calloc((size_t)n, sizeof(*all));
    if (!all)
        return OFS_ERR_NOMEM;
    for (int pe = 0; st == OFS_OK && pe < n; pe++)
        st = rt_kv_get(pe, "ofs.agree", &all[pe], sizeof(all[pe]));
    if (st != OFS_OK) {
        ofs_log_error("shmem_init: cannot read the settings of every PE: %s",
                      ofs_status_string(st));
        free(all);
        return st;
    }
    for (size_t i = 0; i < AGREE_N; i++) {
        char msg[768], pes[256];
        size_t used = 0;
        int nvals = 0, differs = 0;

        for (int pe = 1; pe < n && !differs; pe++)
            differs = strncmp(all[pe].v[i], all[0].v[i], AGREE_VAL) != 0;
        bad |= differs;
        if (!differs || ofs_g.my_pe != 0)
            continue;
        /* each distinct value once, in order of the first PE that has it */
        for (int pe = 0; pe < n && used < sizeof(msg); pe++) {
            int seen = 0;
            for (int q = 0; q < pe && !seen; q++)
                seen = strncmp(all[q].v[i], all[pe].v[i], AGREE_VAL) == 0;
            if (seen)
                continue;
            if (++nvals > 4) {
                snprintf(msg + used, sizeof(msg) - used, "; ...");
                break;
            }
            init_agree_pes(all, n, i, all[pe].v[i], pes, sizeof(pes));
            int w = snprintf(msg + used, sizeof(msg) - used, "%s'%.*s' on PE%s %s",
                             used ? "; " : "", AGREE_VAL, all[pe].v[i],
                             strchr(pes, ',') || strchr(pes, '-') ? "s" : "", pes);
            used += w > 0 ? (size_t)w : 0;
        }
        ofs_log_error("shmem_init: SHMEM_%s must be the same on every PE, but it is %s",
                      init_agree_tab[i].name, msg);
    }
    free(all);
    if (!bad)
        return OFS_OK;
    if (ofs_g.my_pe != 0)
        sleep(2); /* PE 0 reports and takes the job down; this is only in case it cannot */
    return OFS_ERR_INVAL;
}

static void init_print_info(void)
{
    if (ofs_g.my_pe != 0)
        return;
    if (ofs_g.params.VERSION || ofs_g.params.INFO)
        printf("ofishmem %s (OpenSHMEM 1.5)\n", PACKAGE_VERSION);
    if (ofs_g.params.INFO) {
        printf("ofishmem runtime parameters (name, type, value, help; values accepted):\n");
        ofs_env_print(stdout, &ofs_g.params);
    }
    fflush(stdout);
}

static void init_oversubscribed(void)
{
    cpu_set_t set;
    int ncpu = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;

    /* a launcher that binds each PE to one core has given each its own CPU */
    if (ncpu <= 1)
        ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    ofs_g.oversubscribed = ofs_g.local_size > ncpu;
}

/* The watchdog of the shmem_finalize run at exit: a PE that calls exit() while the others
 * still wait for it in the program would otherwise wait for them in finalize forever. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    int done;
} exit_wd = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };

static void *init_exit_watchdog(void *arg)
{
    long secs = *(const long *)arg;
    struct timespec until;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += secs;
    pthread_mutex_lock(&exit_wd.lock);
    while (!exit_wd.done)
        if (pthread_cond_timedwait(&exit_wd.done_cv, &exit_wd.lock, &until) == ETIMEDOUT)
            break;
    int done = exit_wd.done;
    pthread_mutex_unlock(&exit_wd.lock);
    if (!done)
        ofs_fatal(1,
                  "this PE ended its program (exit or return from main) without "
                  "shmem_finalize, and the other PEs did not end theirs within %ld s "
                  "(SHMEM_EXIT_TIMEOUT): a PE that calls exit() while others still "
                  "expect it ends the job",
                  secs);
    return NULL;
}

/* A program that ends normally (returns from main or calls exit) without calling
 * shmem_finalize is finalized here, as other implementations do, so that legacy
 * start_pes programs end cleanly; abnormal ends (signals, _exit) still take the job
 * down.  Registered at the first successful shmem_init, so handlers the program
 * registers after it run first and may still use the library. */
static void init_exit_handler(void)
{
    static long secs;
    pthread_t wd;
    int have_wd;

    if (!ofs_g.initialized || ofs_g.finalized)
        return;
    secs = ofs_g.params.EXIT_TIMEOUT;
    have_wd = secs > 0 && pthread_create(&wd, NULL, init_exit_watchdog, &secs) == 0;
    ofs_finalize();
    if (have_wd) {
        pthread_mutex_lock(&exit_wd.lock);
        exit_wd.done = 1;
        pthread_cond_signal(&exit_wd.done_cv);
        pthread_mutex_unlock(&exit_wd.lock);
        pthread_join(wd, NULL);
    }
}

ofs_status_t ofs_init(int requested_thread_level)
{
    static int exit_handler;
    char err[512];
    ofs_status_t st;

    if (ofs_g.initialized)
        return OFS_OK;
    if (ofs_g.init_error) {
        ofs_log_error("shmem_init: an earlier shmem_init failed (%s); cannot initialise again",
                      ofs_status_string(ofs_g.init_error));
        return ofs_g.init_error;
    }
    st = ofs_env_parse(&ofs_g.params, err, sizeof(err));
    if (st != OFS_OK) {
        ofs_log_error("shmem_init: %s", err);
        goto err;
    }
    st = rt_init();
    if (st != OFS_OK)
        goto err;
    /* a misspelt parameter is otherwise silently ignored */
    if (ofs_g.my_pe == 0)
        ofs_env_warn_unknown(ofs_log_warn);
    st = init_agree_check();
    if (st != OFS_OK)
        goto err_rt;
    init_oversubscribed();
    st = heap_init();
    if (st != OFS_OK)
        goto err_rt;
    /* every level up to SHMEM_THREAD_MULTIPLE is provided; set before the transports
     * start so that they can lock shareable contexts */
    ofs_g.thread_level = requested_thread_level < 0   ? 0
                         : requested_thread_level > 3 ? 3
                                                      : requested_thread_level;
    st = comm_init();
    if (st != OFS_OK)
        goto err_heap;
    ofs_g.initialized = 1;
    st = coll_init();
    if (st != OFS_OK)
        goto err_comm;
    init_print_info();
    if (!exit_handler && atexit(init_exit_handler) == 0)
        exit_handler = 1;
    return OFS_OK;

err_comm:
    ofs_g.initialized = 0;
    comm_fini();
err_heap:
    heap_fini();
err_rt:
    /* other PEs may be waiting in a fence: take the job down rather than hang, and take
     * their shared-memory names with us (they may die without running a handler) */
    heap_unlink_job();
    ofs_g.init_error = st;
    ofs_fatal(1, "shmem_init failed: %s", ofs_status_string(st));
err:
    ofs_g.init_error = st;
    return st;
}

/* Waiting in finalize's fence: the transports keep moving what is in flight. */
static void init_fini_poll(void *iter)
{
    comm_wait_backoff(iter);
}

void ofs_finalize(void)
{
    unsigned iter = 0;

    if (!ofs_g.initialized || ofs_g.finalized)
        return;
    coll_barrier_all();
    ofs_g.finalizing = 1;
    /* No PE closes an endpoint before every PE has left that barrier.  A PE leaves it
     * once its own signals have arrived, but the signals it sent may still sit in its
     * provider's queues, not yet on the wire: tcp;ofi_rxm keeps a send that found the
     * socket busy (a partial write on a loaded machine) for a later progress call, and
     * fi_close cancels it.  Its peer then waited for that signal in this barrier
     * forever, while the sender, its endpoints closed, waited for the peer in the
     * fence that used to follow comm_fini (2-PE hello under load;
     * test/load/startup-loop.sh -F makes it frequent).  So: quiet (completions that need the peers' answers, while they
     * still answer), then a fence that keeps driving progress while it waits; after
     * it nobody sends anything or touches another PE's memory, and teardown is local. */
    comm_quiet_all();
    rt_barrier_poll(init_fini_poll, &iter);
    comm_wait_end();
    coll_fini();
    comm_fini();
    heap_fini();
    rt_finalize();
    ofs_g.finalized = 1;
    ofs_g.initialized = 0;
}

void ofs_global_exit(int status)
{
    fflush(stdout);
    fflush(stderr);
    heap_unlink();
    rt_abort(status, "shmem_global_exit");
}
