/*
 * Waiting without burning (DESIGN rule 3): the steps of COMM_WAIT_UNTIL (spin briefly,
 * then yield, then sleep in growing steps, driving transport progress on the way, on the
 * schedule of ofs_backoff.h) with the OFI progress thread's standby rule, and the
 * point-to-point comparison used by wait_until/test.  Why the schedule is what it is,
 * with the measurements: docs/waiting.md.
 */
#define _GNU_SOURCE
#include "comm.h"
#include "ofs_backoff.h"
#include "ofs_stats.h"

#include <sched.h>
#include <string.h>

/* this thread waits in the library: TP_ATTEND_START told, TP_ATTEND_END to come */
static __thread int comm_waiting;
/* this thread holds an attend for a whole routine (comm_attend_hold) */
static __thread int comm_held;

void comm_attend_hold(void)
{
    if (!comm_held) {
        comm_held = 1;
        comm_attend(TP_ATTEND_HOLD);
    }
}

void comm_attend_release(void)
{
    if (comm_held) {
        comm_held = 0;
        comm_attend(TP_ATTEND_RELEASE);
    }
}

int comm_wait_active(void)
{
    return comm_waiting || comm_held;
}

/* the watch of long waits (comm.h): its function, and per thread when it is due next
 * and whether it runs (a watch that waits, for a get, must not watch again) */
static void (*comm_watch_fn)(void);
static __thread uint64_t comm_watch_at;
static __thread int comm_watch_busy;

void comm_wait_watch_set(void (*fn)(void))
{
    comm_watch_fn = fn;
}

static __attribute__((noinline, cold)) void comm_wait_watch(void)
{
    uint64_t now = ofs_clock_ns();

    if (now < comm_watch_at || comm_watch_busy)
        return;
    comm_watch_at = now + COMM_WATCH_NS;
    comm_watch_busy = 1;
    comm_watch_fn();
    comm_watch_busy = 0;
}

static void comm_wait_stop(int how)
{
    if (comm_waiting) {
        comm_waiting = 0;
        comm_attend(how);
    }
}

void comm_wait_end(void)
{
    comm_wait_stop(TP_ATTEND_END);
    ofs_stats_wait_end();
}

void comm_wait_backoff(unsigned *iter)
{
    unsigned i = (*iter)++;
    long step;

    if (!comm_waiting) {
        comm_waiting = 1;
        comm_attend(TP_ATTEND_START);
        if (OFS_UNLIKELY(ofs_stats_on))
            ofs_stats_wait_begin();
    }
    comm_progress();
    if (i >= ofs_backoff_spins() && comm_traffic()) {
        /* operations aimed at this PE keep coming: serve them from the spin phase */
        *iter = 1;
        i = 0;
    }
    step = ofs_backoff_step(i);
    if (step == OFS_BACKOFF_SPIN)
        ofs_cpu_relax();
    else if (step == OFS_BACKOFF_YIELD)
        sched_yield();
    else {
        if (OFS_UNLIKELY(comm_watch_fn != NULL))
            comm_wait_watch();
        if (comm_wait_sleep(step))
            *iter = 0; /* woken by traffic for this PE: spin again while it lasts */
    }
}

int comm_wait_nap_due(unsigned *iter)
{
    if (*iter < ofs_backoff_nap_after()) {
        comm_wait_backoff(iter);
        return 0;
    }
    /* about to sleep without polling: the progress thread takes over at once,
     * conversation or not, and for the rest of a held routine */
    comm_wait_stop(TP_ATTEND_PAUSE);
    if (comm_held) {
        comm_held = 0;
        comm_attend(TP_ATTEND_HOLD_PAUSE);
    }
    if (OFS_UNLIKELY(comm_watch_fn != NULL))
        comm_wait_watch();
    return 1;
}

/* A test routine's look that found nothing: drive progress once, and count the look as
 * a wait for other PEs that ended at once, so that a loop of tests (shmem_test in a
 * ping-pong) is a conversation for the OFI progress thread as a loop of waits is (see
 * ofi_attend; docs/waiting.md). */
void comm_test_poll(void)
{
    OFS_STATS_COUNT(OFS_STATS_I_TEST_MISS);
    comm_progress();
    if (!comm_waiting) {
        comm_attend(TP_ATTEND_START);
        comm_attend(TP_ATTEND_END);
    }
}

#define CMP_APPLY(a, b, cmp)             \
    ((cmp) == COMM_CMP_EQ   ? (a) == (b) \
     : (cmp) == COMM_CMP_NE ? (a) != (b) \
     : (cmp) == COMM_CMP_GT ? (a) > (b)  \
     : (cmp) == COMM_CMP_LE ? (a) <= (b) \
     : (cmp) == COMM_CMP_LT ? (a) < (b)  \
     : (cmp) == COMM_CMP_GE ? (a) >= (b) \
                            : 0)

int comm_test_cmp(const void *ivar, int cmp, const void *value, size_t size, int is_signed,
                  int is_float)
{
    if (is_float) {
        if (size == 4) {
            uint32_t bits = __atomic_load_n((const uint32_t *)ivar, __ATOMIC_ACQUIRE);
            float a, b;
            memcpy(&a, &bits, 4);
            memcpy(&b, value, 4);
            return CMP_APPLY(a, b, cmp);
        } else {
            uint64_t bits = __atomic_load_n((const uint64_t *)ivar, __ATOMIC_ACQUIRE);
            double a, b;
            memcpy(&a, &bits, 8);
            memcpy(&b, value, 8);
            return CMP_APPLY(a, b, cmp);
        }
    }
    switch (size) {
    case 1:
        if (is_signed) {
            int8_t a = __atomic_load_n((const int8_t *)ivar, __ATOMIC_ACQUIRE),
                   b = *(const int8_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint8_t a = __atomic_load_n((const uint8_t *)ivar, __ATOMIC_ACQUIRE),
                    b = *(const uint8_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    case 2:
        if (is_signed) {
            int16_t a = __atomic_load_n((const int16_t *)ivar, __ATOMIC_ACQUIRE),
                    b = *(const int16_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint16_t a = __atomic_load_n((const uint16_t *)ivar, __ATOMIC_ACQUIRE),
                     b = *(const uint16_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    case 4:
        if (is_signed) {
            int32_t a = __atomic_load_n((const int32_t *)ivar, __ATOMIC_ACQUIRE),
                    b = *(const int32_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint32_t a = __atomic_load_n((const uint32_t *)ivar, __ATOMIC_ACQUIRE),
                     b = *(const uint32_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    default:
        if (is_signed) {
            int64_t a = __atomic_load_n((const int64_t *)ivar, __ATOMIC_ACQUIRE),
                    b = *(const int64_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint64_t a = __atomic_load_n((const uint64_t *)ivar, __ATOMIC_ACQUIRE),
                     b = *(const uint64_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    }
}
