/*
 * Library start-up and shut-down, in one place and one order:
 *   env -> runtime -> heap -> comm (transports) -> collectives
 * Finalize runs it backwards.  A failed init leaves the first error in ofs_g so a
 * second shmem_init can report it.  This is the top of the library (docs/architecture.md):
 * it may call every layer, and no layer below calls it.
 */
#define _GNU_SOURCE
#include "ofs.h"
#include "rt.h"
#include "heap.h"
#include "comm.h"
#include "coll.h"
#include "msg.h"
#include "init.h"
#include "ofs_stats.h"

#include <stdio.h>
#include <unistd.h>

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
    int ncpu = ofs_cpus_usable();

    /* a launcher that binds each PE to one core has given each its own CPU */
    int on_host = ofs_g.local_size;

    if (ncpu <= 1)
        ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    /* simulated nodes (SHMEM_SIM_PES_PER_NODE) share the real node's CPUs: count the PEs of
     * the real node (rt_pmix.c numbers a simulated node real node x n_pes + block) */
    if (ofs_g.params.SIM_PES_PER_NODE > 0 && ofs_g.node_of) {
        int host = ofs_g.node_of[ofs_g.my_pe] / ofs_g.n_pes;
        on_host = 0;
        for (int pe = 0; pe < ofs_g.n_pes; pe++)
            on_host += ofs_g.node_of[pe] / ofs_g.n_pes == host;
    }
    ofs_g.oversubscribed = on_host > ncpu;
    ofs_g.cpu_spare = ofs_cpus_usable() > 1 && on_host < ncpu;
    ofs_g.pes_per_cpu = on_host > ncpu ? (on_host + ncpu - 1) / ncpu : 1;
}

void init_heap_count(void)
{
    heap_set_internal(msg_heap_need() + coll_heap_need());
    heap_set_optional(coll_heap_optional());
}

ofs_status_t ofs_init(int requested_thread_level)
{
    char err[512];
    ofs_status_t st;

    if (ofs_g.initialized)
        return OFS_OK;
    /* from now on a fatal error takes the whole job down, not only this process */
    ofs_set_abort_handler(rt_abort);
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
    st = rt_init(init_agree_publish);
    if (st != OFS_OK)
        goto err;
    /* a misspelt parameter is otherwise silently ignored */
    if (ofs_g.my_pe == 0)
        ofs_env_warn_unknown(ofs_log_warn);
    st = init_agree_check();
    if (st != OFS_OK)
        goto err_rt;
    init_oversubscribed();
    ofs_stats_start(ofs_g.params.STATS);
    init_heap_count(); /* again: the locality is known now */
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
    /* before coll: the message rings must be heap blocks never used before (zeroed) */
    st = msg_init();
    if (st != OFS_OK)
        goto err_comm;
    st = coll_init();
    if (st != OFS_OK)
        goto err_msg;
    heap_internal_check();
    /* coll_init ends with the start-up's last PMIx fence: every PE has passed comm_init,
     * so every PE has mapped every PE's heap objects, which need no names any more (one
     * fence for both: docs/performance.md, "Start-up") */
    heap_unlink();
    init_print_info();
    init_exit_register();
    return OFS_OK;

err_msg:
    msg_fini();
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
    coll_check_finalize();
    api_stats_finalize(); /* SHMEM_STATS: the last dump, while every PE still answers */
    coll_finalize_announce();
    /* The implicit barrier: quiet (every operation this PE issued is complete and
     * visible at its target: over OFI the flushes and signal acknowledgements need the
     * peers' answers, which they give whether still computing, in this quiet or in the
     * fence below, where they keep driving progress), then a wait until every PE has
     * announced its finalize (no PE is in the fence while another may still end the
     * job: coll_finalize_wait_all), then the launcher's PMIx fence.
     * When a PE leaves the fence every PE has passed its quiet: nobody sends anything
     * or touches another PE's memory any more, and teardown is local.  No barrier over
     * the fabric: over tcp;ofi_rxm it connected the pairs of a dissemination barrier
     * only to close them (docs/performance.md, "Start-up").  finalizing is set after
     * the quiet, which needs its flushes; the fence sends nothing over the fabric. */
    coll_nbc_finalize();
    comm_quiet_all();
    msg_bye(); /* after the quiet: every record of this PE is in its receiver's ring */
    ofs_g.finalizing = 1;
    coll_finalize_wait_all(&iter);
    rt_barrier_poll(init_fini_poll, &iter);
    comm_wait_end();
    msg_fini();
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
