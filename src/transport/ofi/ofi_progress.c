/*
 * Passive-target progress (DESIGN rule 2).  With a manual-progress provider (shm,
 * tcp;ofi_rxm, udp;ofi_rxd here) RMA and atomics aimed at this PE only move while
 * somebody polls the target endpoint.  The wait loops of the library do it through
 * ofi_progress(); while the PE computes, a thread does it.  The thread sleeps on the
 * target CQ's wait fd (fi_trywait + ppoll) when the provider has one, and in any case
 * never longer than SHMEM_PROGRESS_INTERVAL microseconds between polls; it never spins.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"

#include <poll.h>
#include <string.h>
#include <time.h>

/* Reading the target CQ drives the provider's progress on the target endpoint; it
 * only ever holds errors (nothing is posted with FI_COMPLETION there). */
void ofi_target_poll(void)
{
    struct ofi_ctx *m = ofi_g.main;
    struct fi_cq_entry e[8];
    ssize_t n;

    if (!m)
        return;
    n = fi_cq_read(m->cq, e, 8);
    if (OFS_LIKELY(n == -FI_EAGAIN || n >= 0))
        return;
    if (n == -FI_EAVAIL) {
        struct fi_cq_err_entry err;
        char buf[256] = "";
        memset(&err, 0, sizeof(err));
        if (fi_cq_readerr(m->cq, &err, 0) > 0) {
            fi_cq_strerror(m->cq, err.prov_errno, err.err_data, buf, sizeof(buf));
            ofs_fatal(1, "ofi: the target endpoint reported an error: %s (%d); provider: %s",
                      fi_strerror(err.err), err.err, buf);
        }
        return;
    }
    ofi_fatal_call("fi_cq_read", n, "target CQ");
}

void ofi_progress(void)
{
    ofi_target_poll();
}

static void *ofi_progress_main(void *arg)
{
    long us = ofs_g.params.PROGRESS_INTERVAL;
    struct timespec interval = { us / 1000000, (us % 1000000) * 1000 };
    unsigned woken = 0;

    (void)arg;
    while (!__atomic_load_n(&ofi_g.thread_stop, __ATOMIC_ACQUIRE)) {
        ofi_target_poll();
        if (ofi_g.tcq_fd >= 0 && woken < 16) {
            struct fid *f = &ofi_g.main->cq->fid;
            if (fi_trywait(ofi_g.fabric, &f, 1) == FI_SUCCESS) {
                struct pollfd pfd = { .fd = ofi_g.tcq_fd, .events = POLLIN };
                /* an fd that stays readable would make us spin: count such wake-ups */
                woken = ppoll(&pfd, 1, &interval, NULL) > 0 ? woken + 1 : 0;
                continue;
            }
        }
        woken = 0;
        nanosleep(&interval, NULL);
    }
    return NULL;
}

ofs_status_t ofi_progress_start(void)
{
    int ret;

    if (!ofi_g.manual_progress || ofs_g.params.PROGRESS_INTERVAL <= 0)
        return OFS_OK;
    ofi_g.thread_stop = 0;
    ret = pthread_create(&ofi_g.thread, NULL, ofi_progress_main, NULL);
    if (ret) {
        ofs_log_error("ofi: cannot start the progress thread: %s", strerror(ret));
        return OFS_ERR_IO;
    }
    ofi_g.thread_running = 1;
    return OFS_OK;
}

void ofi_progress_stop(void)
{
    if (!ofi_g.thread_running)
        return;
    __atomic_store_n(&ofi_g.thread_stop, 1, __ATOMIC_RELEASE);
    pthread_join(ofi_g.thread, NULL);
    ofi_g.thread_running = 0;
}
