/*
 * Passive-target progress (DESIGN rule 2).  With a manual-progress provider (shm,
 * tcp;ofi_rxm, udp;ofi_rxd, sockets as ofi_info.c asks for it) RMA and atomics aimed
 * at this PE only move while somebody polls the target endpoint.  The wait loops of the library do it through
 * ofi_progress(); while the PE computes, a thread does it.  It never spins: it
 * sleeps on the target CQ's wait fd when the provider has one (fi_trywait + ppoll),
 * else for a time that grows with the time since the last remote access aimed at this
 * PE (seen on the target's FI_RMA_EVENT counter), never longer than
 * SHMEM_OFI_PROGRESS_INTERVAL microseconds (see ofi_progress_main).  Finalize stops it
 * (ofi_progress_stop, the transport's quiesce) before any context is destroyed.
 */
#define _GNU_SOURCE
#include "ofi_ctx.h"

#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* From the library's wait loops and the progress thread: the target endpoint, and
 * the default context's endpoint too while it has operations in flight (reading a
 * counter drives it without taking its completions), since some providers
 * (udp;ofi_rxd) need the initiator driven for its operations to land.  Only then: in
 * a barrier, whose quiet left nothing in flight, it is a provider poll per round for
 * nothing.  The counts are read without the context's lock: a stale pair costs one
 * poll more or one less round before the next look. */
#define OFI_SIG_POLL_EVERY 8

static void ofi_dflt_drive(void)
{
    static unsigned rounds;
    struct ofi_ctx *d = __atomic_load_n(&ofi_g.dflt, __ATOMIC_ACQUIRE);

    if (!d)
        return;
    if (__atomic_load_n(&d->put_issued, __ATOMIC_RELAXED) !=
            __atomic_load_n(&d->put_done, __ATOMIC_RELAXED) ||
        __atomic_load_n(&d->get_issued, __ATOMIC_RELAXED) !=
            __atomic_load_n(&d->get_done, __ATOMIC_RELAXED) ||
        /* put-with-signal messages leave no count to watch, and udp;ofi_rxd sends
         * nothing until its endpoint is driven: every 8th round where they are used
         * (a provider poll per round would cost a tcp ping-pong what it costs with
         * counts, above) */
        (ofi_g.sig.by_msg &&
         (__atomic_add_fetch(&rounds, 1, __ATOMIC_RELAXED) % OFI_SIG_POLL_EVERY) == 0))
        (void)fi_cntr_read(d->put_cntr);
}

void ofi_progress(void)
{
    ofi_target_poll();
    ofi_sig_drive();
    ofi_dflt_drive();
}

/* For the library's wait loops past their spin phase: did the FI_RMA_EVENT counter
 * (where the provider has one) or the count of put-with-signal messages applied move
 * since the last look of any application thread? */
int ofi_traffic(void)
{
    static uint64_t app_seen;

    if (!ofi_g.target.cntr && !ofi_g.sig.by_msg)
        return 0;
    uint64_t v = (ofi_g.target.cntr ? fi_cntr_read(ofi_g.target.cntr) : 0) + ofi_sig_received();
    return __atomic_exchange_n(&app_seen, v, __ATOMIC_RELAXED) != v;
}

static int64_t ofi_now_ns(void)
{
    return (int64_t)ofs_clock_ns();
}

/* A PE that spends less than this outside the library between its waits for other
 * PEs (on a running average) is in a conversation (put, wait_until, put, ...): the ends
 * of its waits leave the progress thread standing by. */
#define OFI_CONVERSATION_NS 200000

static int ofi_conversation(void)
{
    return __atomic_load_n(&ofi_g.progress.outside_avg_ns, __ATOMIC_RELAXED) < OFI_CONVERSATION_NS;
}

/* A waiter leaves (delta: TP_ATTEND_END or _PAUSE, 0 for a wait for this PE's own
 * operations).  The last one marks when the application went back outside the library
 * (not for its own operations) and wakes a parked thread unless it should stand by:
 * in a conversation, at the end of a wait (a waiter about to sleep without polling, a
 * futex, is not a conversation).  A nested one does neither, nor reads the clock. */
static void ofi_attend_leave(int delta)
{
    if (__atomic_sub_fetch(&ofi_g.progress.attending, 1, __ATOMIC_SEQ_CST) != 0)
        return;
    if (delta)
        __atomic_store_n(&ofi_g.progress.wait_end_ns, ofi_now_ns(), __ATOMIC_RELAXED);
    int keep_standby = delta == TP_ATTEND_END && ofi_conversation();
    if (!keep_standby && __atomic_load_n(&ofi_g.progress.parked, __ATOMIC_SEQ_CST)) {
        __atomic_store_n(&ofi_g.progress.serve_now, 1, __ATOMIC_SEQ_CST);
        syscall(SYS_futex, &ofi_g.progress.attending, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
}

/* An application thread starts or ends waiting in the library for other PEs
 * (wait_until, barrier, a lock: comm_wait_backoff; TP_ATTEND_*).  Not counted with
 * more PEs than CPUs on the node unless the target CQ has a wait fd: a waiter there
 * yields the CPU to the others and may not run for a while, and without the fd it
 * sleeps blind, so the thread keeps serving; with the fd the waiter sleeps on it,
 * woken by the traffic it is to serve, and a thread that kept serving only took CPU
 * time from the PEs (docs/ofi-internals.md, "Progress thread", has the measurements).
 * Waits for this PE's own operations (ofi_attend_ctx) still do not count there: a PE
 * spinning on memory between them needs the thread at once.  The end of the last
 * waiter wakes the thread, unless the PE is in a conversation: in a ping-pong (put,
 * wait_until, put, ...) that wake came once per message, a context switch per message
 * (see ofi_progress_main for how long the thread stands by then).  Only the outermost
 * start and end time the application's stay outside the library: the waits inside a
 * blocking collective (held from its start to its end, comm_attend_hold) are
 * separated by the library's own work (folds, copies, sends), which is no
 * application's.  The average is a hint (several application threads update it
 * without a lock), so is the decision. */
void ofi_attend(int delta)
{
    if (ofs_g.oversubscribed && ofi_g.target.cq_fd < 0)
        return;
    if (delta == TP_ATTEND_HOLD || delta == TP_ATTEND_RELEASE || delta == TP_ATTEND_HOLD_PAUSE) {
        /* a held routine: where the thread sleeps on the CQ's fd, woken by the traffic its
         * PE polls for anyway (without the fd it sleeps blind, and the hold's two clock
         * reads made 2-PE collectives over the shm provider, 0.3-0.5 us, 10 % slower) */
        if (ofi_g.target.cq_fd < 0)
            return;
        delta = delta == TP_ATTEND_HOLD      ? TP_ATTEND_START
                : delta == TP_ATTEND_RELEASE ? TP_ATTEND_END
                                             : TP_ATTEND_PAUSE;
    }
    if (delta == TP_ATTEND_START) {
        __atomic_add_fetch(&ofi_g.progress.attends, 1, __ATOMIC_RELAXED);
        if (__atomic_fetch_add(&ofi_g.progress.attending, 1, __ATOMIC_SEQ_CST) != 0)
            return;
        int64_t out = ofi_now_ns() - __atomic_load_n(&ofi_g.progress.wait_end_ns, __ATOMIC_RELAXED);
        int64_t avg = __atomic_load_n(&ofi_g.progress.outside_avg_ns, __ATOMIC_RELAXED);
        __atomic_store_n(&ofi_g.progress.outside_avg_ns, avg + (out - avg) / 4, __ATOMIC_RELAXED);
        return;
    }
    ofi_attend_leave(delta);
}

/* The same for a wait for this PE's own operations (quiet, a blocking get or fetching
 * atomic past its spin phase: ofi_ctx_wait).  Its end always wakes the thread: the PE
 * may go back to polling memory outside the library at once (put, quiet, spin: the
 * thread must answer the peer's put). */
void ofi_attend_ctx(int delta)
{
    if (ofs_g.oversubscribed)
        return;
    if (delta > 0)
        __atomic_add_fetch(&ofi_g.progress.attending, 1, __ATOMIC_SEQ_CST);
    else
        ofi_attend_leave(0);
}

/* Sleep at most ns on the target CQ's wait fd where the provider has one (nonzero when
 * woken, or kept awake, by traffic aimed at this PE), else for ns. */
static int ofi_cq_sleep(long ns)
{
    struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

    if (ofi_g.target.cq_fd >= 0 && ofi_g.target.ctx) {
        struct fid *f = &ofi_g.target.ctx->cq->fid;
        struct pollfd pfd = { .fd = ofi_g.target.cq_fd, .events = POLLIN };
        if (fi_trywait(ofi_g.fabric, &f, 1) != FI_SUCCESS) {
            ofi_target_poll_cq(); /* events pending */
            return 1;
        }
        return ppoll(&pfd, 1, &ts, NULL) > 0;
    }
    nanosleep(&ts, NULL);
    return 0;
}

/* The sleep step of the library's wait loops (DESIGN rule 3): on the target CQ's wait
 * fd where the provider has one, so that an operation aimed at this PE wakes the PE
 * that waits in the library at once, and it serves it itself (the progress thread
 * stands by meanwhile, see ofi_progress_main).  Nonzero when woken by such traffic. */
int ofi_wait_sleep(long ns)
{
    __atomic_store_n(&ofi_g.progress.app_polls,
                     __atomic_load_n(&ofi_g.progress.app_polls, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
    return ofi_cq_sleep(ns);
}

/* The same sleep for a thread of the library (the non-blocking collectives' engine
 * thread): not an application poll.  Counted as one, it kept the progress thread
 * standing by for an application thread that had stopped polling (asleep on a futex, or
 * gone back to computing) while the engine thread napped here: nbc/progress-3 over
 * tcp;ofi_rxm failed 4 of 24 runs under load that way. */
int ofi_wait_sleep_lib(long ns)
{
    return ofi_cq_sleep(ns);
}

/* Longest stand-by step of the thread while the application waits in the library
 * (whose wait loops poll at least every ~150 us: the longest sleep step, 100 us, plus
 * timer slack).  On a node with more PEs than CPUs, that times the PEs per CPU, up to
 * OFI_PARK_MAX_NS: every parked thread of the node wakes once a step, and on a crowded
 * node 1 ms steps spent the CPUs on those wakes instead of on the waiting PEs
 * (docs/ofi-internals.md, "Progress thread"). */
#define OFI_PARK_NS 1000000
#define OFI_PARK_MAX_NS 100000000
/* A sched_yield slower than this gave the CPU to somebody else; then the thread
 * sleeps instead of yielding for OFI_BUSY_BACKOFF_NS. */
#define OFI_YIELD_SLOW_NS 30000
#define OFI_BUSY_BACKOFF_NS 10000000

/* Did anything aimed at this PE arrive since the last look?  With FI_RMA_EVENT the
 * target counter says so (reading it also drives the provider); with a wait fd, a
 * readable fd or a refused fi_trywait says so.  Without either, nothing tells. */
static int ofi_target_activity(uint64_t *seen)
{
    int act = 0;

    if (ofi_g.target.cntr) {
        uint64_t v = fi_cntr_read(ofi_g.target.cntr);
        act = v != *seen;
        *seen = v;
    } else if (ofi_g.target.cq_fd >= 0) {
        /* fi_trywait re-arms the fd: without it the fd stays readable */
        struct fid *f = &ofi_g.target.ctx->cq->fid;
        struct pollfd pfd = { .fd = ofi_g.target.cq_fd, .events = POLLIN };
        act = fi_trywait(ofi_g.fabric, &f, 1) != FI_SUCCESS || poll(&pfd, 1, 0) > 0;
    }
    return act;
}

/* Written by ofi_progress_stop: every sleep of the thread but the short stand-by steps
 * (a futex, woken too) watches it, so that finalize returns at once whatever
 * SHMEM_OFI_PROGRESS_INTERVAL is. */
static int ofi_wake_fd = -1;

/* The first blind sleep of the thread when the wait fd cannot be armed but the target
 * CQ has nothing (ofi_progress_main); doubling up to its shortest sleep */
#define OFI_BLIND_MIN_NS 5000

/* Sleep for ns unless ofi_progress_stop wakes the thread (or fd, when >= 0, becomes
 * readable: then nonzero). */
static int ofi_thread_sleep(int64_t ns, int fd)
{
    struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };
    struct pollfd pfd[2] = { { .fd = ofi_wake_fd, .events = POLLIN },
                             { .fd = fd, .events = POLLIN } };

    return ppoll(pfd, fd >= 0 ? 2 : 1, &ts, NULL) > 0 && (pfd[1].revents & POLLIN);
}

/* Adaptive.  With a wait fd the thread sleeps on it (woken by traffic, at the latest
 * after SHMEM_OFI_PROGRESS_INTERVAL).  Without one it sleeps for a quarter of the time
 * since the last remote access aimed at this PE, between a tenth of
 * SHMEM_OFI_PROGRESS_INTERVAL and all of it: a target in a conversation answers within
 * about 100 us by default, an idle one costs nothing.  With SHMEM_OFI_PROGRESS_HOT > 0 it polls,
 * yielding the CPU between polls, for that long after a remote access, unless the
 * application is polling itself or the CPU is contended. */
static void *ofi_progress_main(void *arg)
{
    const int64_t max_ns = ofs_g.params.OFI_PROGRESS_INTERVAL * 1000LL;
    const int64_t hot_ns = ofs_g.params.OFI_PROGRESS_HOT * 1000LL;
    int64_t last = 0;
    uint64_t seen = 0;
    unsigned long app_polls = 0;
    unsigned seen_attends = 0;
    /* one stand-by step: OFI_PARK_NS, or SHMEM_OFI_PROGRESS_INTERVAL if shorter, times
     * the PEs per CPU (up to OFI_PARK_MAX_NS) */
    const int64_t park_base = max_ns < OFI_PARK_NS ? max_ns : OFI_PARK_NS;
    const int64_t park_crowd = park_base * (ofs_g.pes_per_cpu > 1 ? ofs_g.pes_per_cpu : 1);
    const int64_t park_ns = park_crowd < OFI_PARK_MAX_NS ? park_crowd : OFI_PARK_MAX_NS;
    int64_t busy_until = 0; /* no yielding before then: the CPU is contended */
    int64_t blind_ns = 0;   /* the next blind sleep (0: poll again first) */

    (void)arg;
    /* short sleeps must be short: the default 50 us timer slack would round them up */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    prctl(PR_SET_NAME, "ofishmem-ofi", 0, 0, 0); /* in top -H, ps -L, perf and gdb */
    /* Shortest sleep (without a wait fd): a tenth of the longest.  Shorter sleeps wake
     * the thread so often that it preempts the application's threads */
    const int64_t min_ns = max_ns / 10 > 1000 ? max_ns / 10 : 1000;
    while (!__atomic_load_n(&ofi_g.progress.stop, __ATOMIC_ACQUIRE)) {
        /* While the application waits in the library (and polls the endpoint, sleeping
         * on the wait fd itself), stand by rather than compete with it for the CPU and
         * the endpoint (a thread woken by every message aimed at a PE that was polling
         * anyway made small gets 2-3x slower).  The last waiter to leave wakes the
         * thread, except in a conversation (ofi_attend): then the stand-by lasts for as
         * long as the application keeps starting waits for other PEs, since a thread
         * woken by the fd between two waits cost as much as one woken at the end of
         * each (docs/ofi-internals.md).  A PE that leaves its last wait
         * of a conversation is served again within two stand-by steps.  A waiter that
         * stopped polling (asleep on a futex, or a wait loop that forgot to leave) is
         * not trusted beyond one step without a poll. */
        int att = __atomic_load_n(&ofi_g.progress.attending, __ATOMIC_SEQ_CST);
        unsigned long polls = __atomic_load_n(&ofi_g.progress.app_polls, __ATOMIC_RELAXED);
        unsigned attends = __atomic_load_n(&ofi_g.progress.attends, __ATOMIC_RELAXED);
        if (__atomic_exchange_n(&ofi_g.progress.serve_now, 0, __ATOMIC_SEQ_CST))
            seen_attends = attends; /* woken by the last waiter to leave: serve */
        else if ((att > 0 && polls != app_polls) ||
                 (attends != seen_attends && ofi_conversation())) {
            struct timespec ts = { park_ns / 1000000000LL, park_ns % 1000000000LL };
            app_polls = polls;
            seen_attends = attends;
            __atomic_store_n(&ofi_g.progress.parked, 1, __ATOMIC_SEQ_CST);
            if (__atomic_load_n(&ofi_g.progress.attending, __ATOMIC_SEQ_CST) == att)
                syscall(SYS_futex, &ofi_g.progress.attending, FUTEX_WAIT_PRIVATE, att, &ts, NULL,
                        0);
            __atomic_store_n(&ofi_g.progress.parked, 0, __ATOMIC_SEQ_CST);
            continue;
        }
        int got = ofi_target_poll_cq();
        /* the initiators too (udp;ofi_rxd sends only while the sending endpoint is
         * driven): the contexts that sent messages from their own endpoint, and the
         * default context while it has operations in flight, for a PE that injected a
         * put or an atomic and then polls memory without calling the library.  Safe:
         * comm_fini stops this thread (ofi_progress_stop) before it destroys any
         * context, and the others leave the drive list, under its lock, first. */
        ofi_sig_drive();
        ofi_dflt_drive();
        int64_t now = ofi_now_ns();
        if ((hot_ns > 0 || ofi_g.target.cntr) && ofi_target_activity(&seen))
            last = now;
        int64_t idle = now - last;
        if (idle < hot_ns && now >= busy_until) {
            /* a yield that took long means another thread wants this CPU (our own PE
             * computing, say): it would hold it for a time slice per yield, while a
             * sleeper is woken at once; so stop yielding */
            sched_yield();
            if (ofi_now_ns() - now > OFI_YIELD_SLOW_NS)
                busy_until = now + OFI_BUSY_BACKOFF_NS;
            continue;
        }
        if (ofi_g.target.cq_fd >= 0) {
            struct fid *f = &ofi_g.target.ctx->cq->fid;
            if (fi_trywait(ofi_g.fabric, &f, 1) != FI_SUCCESS) {
                /* Events pending: poll again.  But when the poll read nothing twice in
                 * a row, what keeps the fd from arming is not this PE's target traffic
                 * (seen over tcp;ofi_rxm while a non-blocking collective runs), and
                 * polling at once again only takes the CPU from the PE for whole time
                 * slices (docs/ofi-internals.md, "A wait fd that does not arm"): sleep
                 * blind instead, from OFI_BLIND_MIN_NS doubling up to the shortest
                 * sleep. */
                if (got) {
                    blind_ns = 0;
                } else if (!blind_ns) {
                    blind_ns = OFI_BLIND_MIN_NS;
                } else {
                    ofi_thread_sleep(blind_ns, -1);
                    blind_ns = blind_ns * 2 < min_ns ? blind_ns * 2 : min_ns;
                }
                continue;
            }
            blind_ns = 0;
            if (ofi_thread_sleep(max_ns, ofi_g.target.cq_fd))
                last = ofi_now_ns();
            continue;
        }
        int64_t ns = idle < hot_ns ? min_ns : idle / 4;
        ns = ns < min_ns ? min_ns : ns > max_ns ? max_ns : ns;
        ofi_thread_sleep(ns, -1);
    }
    return NULL;
}

ofs_status_t ofi_progress_start(void)
{
    int ret;

    if (!ofi_g.caps.manual_progress || ofs_g.params.OFI_PROGRESS_INTERVAL <= 0)
        return OFS_OK;
    ofi_g.progress.stop = 0;
    ofi_wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (ofi_wake_fd < 0) {
        ofs_log_error("ofi: cannot start the progress thread: eventfd: %m");
        return OFS_ERR_IO;
    }
    ret = pthread_create(&ofi_g.progress.thread, NULL, ofi_progress_main, NULL);
    if (ret) {
        ofs_log_error("ofi: cannot start the progress thread: %s", strerror(ret));
        close(ofi_wake_fd);
        ofi_wake_fd = -1;
        return OFS_ERR_IO;
    }
    ofi_g.progress.running = 1;
    return OFS_OK;
}

void ofi_progress_stop(void)
{
    if (!ofi_g.progress.running)
        return;
    __atomic_store_n(&ofi_g.progress.stop, 1, __ATOMIC_RELEASE);
    /* wake it wherever it sleeps: it may have gone to sleep for SHMEM_OFI_PROGRESS_INTERVAL */
    uint64_t one = 1;
    if (write(ofi_wake_fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
        ofs_log_warn("ofi: cannot wake the progress thread (%m): finalize waits for it");
    syscall(SYS_futex, &ofi_g.progress.attending, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    pthread_join(ofi_g.progress.thread, NULL);
    close(ofi_wake_fd);
    ofi_wake_fd = -1;
    ofi_g.progress.running = 0;
}
