/*
 * Waiting without burning (DESIGN rule 3): spin briefly, then yield, then sleep in
 * growing steps, driving transport progress on the way; and the point-to-point
 * comparison used by wait_until/test.
 */
#define _GNU_SOURCE
#include "comm.h"

#include <sched.h>
#include <string.h>
#include <time.h>

#define WAIT_SPINS 64
#define WAIT_YIELDS 256
#define WAIT_MAX_SLEEP_NS 100000

void comm_wait_backoff(unsigned *iter)
{
    unsigned i = (*iter)++;

    comm_progress();
    if (i < WAIT_SPINS) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        return;
    }
    if (i < WAIT_SPINS + WAIT_YIELDS) {
        sched_yield();
        return;
    }
    unsigned shift = i - WAIT_SPINS - WAIT_YIELDS;
    long ns = shift < 7 ? 1000L << shift : WAIT_MAX_SLEEP_NS;
    if (ns > WAIT_MAX_SLEEP_NS)
        ns = WAIT_MAX_SLEEP_NS;
    struct timespec ts = { 0, ns };
    nanosleep(&ts, NULL);
}

/* SHMEM_CMP_EQ..GE are 1..6 in shmem.h */
#define CMP_APPLY(a, b, cmp)                                                 \
    ((cmp) == 1 ? (a) == (b) : (cmp) == 2 ? (a) != (b) : (cmp) == 3 ? (a) > (b) \
     : (cmp) == 4 ? (a) <= (b) : (cmp) == 5 ? (a) < (b) : (cmp) == 6 ? (a) >= (b) : 0)

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
            int8_t a = __atomic_load_n((const int8_t *)ivar, __ATOMIC_ACQUIRE), b = *(const int8_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint8_t a = __atomic_load_n((const uint8_t *)ivar, __ATOMIC_ACQUIRE), b = *(const uint8_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    case 2:
        if (is_signed) {
            int16_t a = __atomic_load_n((const int16_t *)ivar, __ATOMIC_ACQUIRE), b = *(const int16_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint16_t a = __atomic_load_n((const uint16_t *)ivar, __ATOMIC_ACQUIRE), b = *(const uint16_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    case 4:
        if (is_signed) {
            int32_t a = __atomic_load_n((const int32_t *)ivar, __ATOMIC_ACQUIRE), b = *(const int32_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint32_t a = __atomic_load_n((const uint32_t *)ivar, __ATOMIC_ACQUIRE), b = *(const uint32_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    default:
        if (is_signed) {
            int64_t a = __atomic_load_n((const int64_t *)ivar, __ATOMIC_ACQUIRE), b = *(const int64_t *)value;
            return CMP_APPLY(a, b, cmp);
        } else {
            uint64_t a = __atomic_load_n((const uint64_t *)ivar, __ATOMIC_ACQUIRE), b = *(const uint64_t *)value;
            return CMP_APPLY(a, b, cmp);
        }
    }
}
