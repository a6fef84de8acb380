/*
 * The engine thread of the non-blocking collectives and the bell it sleeps on (nbc.h).
 *
 * Started with the first request that a post did not complete.  With nothing outstanding
 * it lingers NBC_LINGER_NS (a condition variable with a timeout of NBC_LINGER_NAP_NS, so
 * that a post/wait loop of small requests costs no wake-up per request, while a post of
 * NBC_HEAVY_MIN bytes or more wakes it at once where it has a CPU of its own: that request
 * is worth moving while the program computes), then sleeps on the condition variable
 * until a post wakes it.  While
 * an application thread waits in shmemx_req_wait it stands by (that thread drives the
 * engine; polling too would only take the CPU and the engine's lock from it).  Otherwise
 * it makes passes; after a pass that moved nothing it sleeps on the bell when every
 * signal of the job goes through shared memory (the next signal wakes it), else it naps
 * NBC_NAP_MIN_NS doubling, then sleeps on the fabric's wait object NBC_NAP_MAX_NS at a
 * time (comm_wait_sleep_lib: the OFI target CQ's wait fd, woken by the next signal or
 * get aimed at this PE; the bound is for what rings neither, a same-node signal without
 * the bell under sim2).
 */
#define _GNU_SOURCE
#include "nbc.h"

#include <pthread.h>
#include <sys/prctl.h>
#include <time.h>

#define NBC_NAP_MIN_NS 5000L
#define NBC_NAP_MAX_NS 200000L
/* Naps from this long (the thread found nothing to do for about 300 us) sleep on the
 * fabric's wait object; shorter ones are blind.  Woken by every message aimed at the
 * PE from the first nap, the thread took the CPU and the endpoint from the application
 * thread about to wait for the same request: post + wait over tcp;ofi_rxm measured
 * 1.14-1.27x slower (docs/nbc.md). */
#define NBC_NAP_FD_NS NBC_NAP_MAX_NS
#define NBC_LINGER_NS 10000000L
/* The stand-by steps double up to this while the application keeps calling the engine */
#define NBC_STANDBY_MAX_NS 1600000L
/* Each timed wait of the linger ends in a wake-up of this thread, which on a node
 * without a spare CPU takes a CPU from a PE for a few microseconds, and two PEs that
 * wait for each other both stall: frequent ones slowed every small collective of the
 * program, the blocking ones too (docs/nbc.md).  A request that its post did not
 * complete is seen within this bound when the program computes without calling the
 * library; a post + wait loop completes its requests itself. */
#define NBC_LINGER_NAP_NS 1000000L

uint64_t *nbc_bell;

static struct {
    pthread_t thread;
    int on, stop;  /* atomic */
    int deep;      /* sleeps until a post wakes it (atomic; set under lock) */
    int lingering; /* in a timed wait of its linger (atomic; set under lock) */
    int serve_now; /* a heavy post: serve at the next look, not stand by (atomic) */
    pthread_mutex_t lock;
    pthread_cond_t cond;
} thr = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

void nbc_bell_ring(uint64_t *bell)
{
    uint64_t b = __atomic_load_n(bell, __ATOMIC_SEQ_CST);

    /* the CAS fails only when another ringer cleared the bit (and wakes) */
    if ((b & 1) &&
        __atomic_compare_exchange_n(bell, &b, b + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        coll_futex_wake(bell);
}

void nbc_bell_nap(int (*done)(void *), void *arg)
{
    uint64_t b = __atomic_load_n(nbc_bell, __ATOMIC_SEQ_CST);

    if (!(b & 1) &&
        !__atomic_compare_exchange_n(nbc_bell, &b, b | 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        return; /* it changed: look again first */
    if (!done(arg))
        coll_futex_wait(nbc_bell, (uint32_t)(b | 1));
}

/* the thread's last look before sleeping on the bell: a pass, and whether to go on */
static int thread_busy(void *arg)
{
    unsigned m = *(const unsigned *)arg;

    comm_progress();
    return __atomic_load_n(&nbc_moves, __ATOMIC_ACQUIRE) != m ||
           !__atomic_load_n(&nbc_outstanding, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&nbc_waiters, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&thr.stop, __ATOMIC_ACQUIRE);
}

static void nap_ns(long ns)
{
    struct timespec ts = { 0, ns };
    nanosleep(&ts, NULL);
}

static void *thread_main(void *arg)
{
    long nap = NBC_NAP_MIN_NS, idle = 0;
    unsigned calls = 0;         /* nbc_calls at the last look */
    long step = NBC_NAP_MAX_NS; /* the next stand-by step */

    (void)arg;
    /* naps of a few microseconds, not the default 50 us of timer slack */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    prctl(PR_SET_NAME, "ofishmem-nbc", 0, 0, 0); /* in top -H, ps -L, perf and gdb */
    pthread_mutex_lock(&thr.lock);
    while (!thr.stop) {
        if (!__atomic_load_n(&nbc_outstanding, __ATOMIC_SEQ_CST)) {
            nap = NBC_NAP_MIN_NS;
            if (idle < NBC_LINGER_NS) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += NBC_LINGER_NAP_NS;
                if (ts.tv_nsec >= 1000000000L) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000L;
                }
                /* lingering first, then the look: a post increments outstanding first,
                 * then looks at lingering (and deep), so one of the two sees the other */
                __atomic_store_n(&thr.lingering, 1, __ATOMIC_SEQ_CST);
                if (!__atomic_load_n(&nbc_outstanding, __ATOMIC_SEQ_CST) && !thr.stop)
                    pthread_cond_timedwait(&thr.cond, &thr.lock, &ts);
                __atomic_store_n(&thr.lingering, 0, __ATOMIC_SEQ_CST);
                idle += NBC_LINGER_NAP_NS;
                continue;
            }
            __atomic_store_n(&thr.deep, 1, __ATOMIC_SEQ_CST);
            if (!__atomic_load_n(&nbc_outstanding, __ATOMIC_SEQ_CST) && !thr.stop)
                pthread_cond_wait(&thr.cond, &thr.lock);
            __atomic_store_n(&thr.deep, 0, __ATOMIC_SEQ_CST);
            continue;
        }
        idle = 0;
        unsigned c = __atomic_load_n(&nbc_calls, __ATOMIC_RELAXED);
        int serve = __atomic_exchange_n(&thr.serve_now, 0, __ATOMIC_ACQ_REL);
        /* An application thread drives: it waits, or, over a fabric, it posted, waited
         * or tested since the last look (a post/wait loop).  Stand by for a step (a
         * heavy post is served at the next look); over a fabric the steps double while
         * the calls keep coming, and the first look that finds none serves.  There,
         * serving between such calls, or waking every 200 us to look, took the CPU and
         * the endpoint from the loop's own thread; through shared memory the passes
         * between its calls are copies made beside it, and the thread sleeps on the
         * bell (docs/nbc.md, "The engine thread stands by") */
        int active = c != calls && !serve && !coll_cfg.fast_signal;
        if (active || __atomic_load_n(&nbc_waiters, __ATOMIC_ACQUIRE)) {
            struct timespec ts;
            long ns = active ? step : NBC_NAP_MAX_NS;
            calls = c;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += ns;
            while (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            if (active)
                step = step * 2 > NBC_STANDBY_MAX_NS ? NBC_STANDBY_MAX_NS : step * 2;
            if (!__atomic_load_n(&thr.serve_now, __ATOMIC_SEQ_CST) && !thr.stop)
                pthread_cond_timedwait(&thr.cond, &thr.lock, &ts);
            nap = NBC_NAP_MIN_NS;
            continue;
        }
        calls = c;
        step = NBC_NAP_MAX_NS;
        pthread_mutex_unlock(&thr.lock);
        {
            unsigned m = __atomic_load_n(&nbc_moves, __ATOMIC_ACQUIRE);
            comm_progress(); /* the transports, then the hook: nbc_progress */
            if (__atomic_load_n(&nbc_moves, __ATOMIC_ACQUIRE) != m) {
                nap = NBC_NAP_MIN_NS;
            } else if (coll_cfg.fast_signal) {
                m = __atomic_load_n(&nbc_moves, __ATOMIC_ACQUIRE);
                nbc_bell_nap(thread_busy, &m); /* nothing moves: until the next signal */
            } else if (nap < NBC_NAP_FD_NS) {
                nap_ns(nap);
                nap = nap * 2 > NBC_NAP_FD_NS ? NBC_NAP_FD_NS : nap * 2;
            } else {
                comm_wait_sleep_lib(nap); /* woken early by traffic aimed at this PE */
            }
        }
        pthread_mutex_lock(&thr.lock);
    }
    pthread_mutex_unlock(&thr.lock);
    return NULL;
}

void nbc_thread_kick(size_t bytes)
{
    int need;

    if (!ofs_g.params.NBC_THREAD)
        return;
    /* Worth moving while the program computes, where the thread has a CPU to do it on:
     * serve it at once.  On its PE's own CPU (a PE bound to one core, or no CPU to spare
     * on the node) the woken thread preempts the post and then takes turns with the
     * computing program, moving nothing sooner (docs/nbc.md, "A heavy post wakes the
     * thread only beside a spare CPU"); its linger and stand-by steps serve a PE that
     * computes. */
    int heavy = bytes >= NBC_HEAVY_MIN && ofs_g.cpu_spare;
    if (heavy)
        __atomic_store_n(&thr.serve_now, 1, __ATOMIC_SEQ_CST);
    need = !__atomic_load_n(&thr.on, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&thr.deep, __ATOMIC_SEQ_CST) ||
           (heavy && __atomic_load_n(&thr.lingering, __ATOMIC_SEQ_CST));

    if (!need) /* running, lingering or standing by: it sees the request within a step */
        return;
    pthread_mutex_lock(&thr.lock);
    if (!thr.on) {
        if (pthread_create(&thr.thread, NULL, thread_main, NULL) == 0)
            __atomic_store_n(&thr.on, 1, __ATOMIC_RELEASE);
        else
            ofs_log_warn("non-blocking collectives: no engine thread (%m): they progress "
                         "only in calls to the library");
    }
    pthread_cond_signal(&thr.cond);
    pthread_mutex_unlock(&thr.lock);
}

void nbc_thread_stop(void)
{
    if (!thr.on)
        return;
    pthread_mutex_lock(&thr.lock);
    __atomic_store_n(&thr.stop, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&thr.cond);
    pthread_mutex_unlock(&thr.lock);
    nbc_bell_ring(nbc_bell);
    pthread_join(thr.thread, NULL);
    thr.on = 0;
    thr.stop = 0;
}
