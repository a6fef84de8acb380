/*
 * ofs_backoff.h: the one back-off schedule of every wait in the library (DESIGN rule 3).
 * A wait calls ofs_backoff_step() once per unsuccessful look with a counter that starts
 * at 0; the step says what to do before the next look: spin (a pause instruction),
 * yield the CPU, or sleep that many nanoseconds.  The comm layer's wait primitive
 * (COMM_WAIT_UNTIL, comm.h) sleeps on the transport's wait object; a transport waiting on its
 * own completions (the OFI context engine) sleeps with nanosleep.  Spinning pays only
 * when every same-node PE has a CPU of its own; oversubscribed, a spinning waiter holds
 * the CPU the PE it waits for needs, so it yields almost at once (docs/waiting.md).
 */
#ifndef OFS_BACKOFF_H
#define OFS_BACKOFF_H

#include "ofs.h"

#define OFS_BACKOFF_SPINS 64        /* one CPU per PE */
#define OFS_BACKOFF_SPINS_OVERSUB 2 /* more same-node PEs than CPUs */
#define OFS_BACKOFF_YIELDS 256
#define OFS_BACKOFF_MAX_SLEEP_NS 100000L

/* yields of an oversubscribed wait before it sleeps on a word of its own (a futex) */
#define OFS_BACKOFF_NAP_YIELDS_OVERSUB 16

#define OFS_BACKOFF_SPIN 0L
#define OFS_BACKOFF_YIELD (-1L)

/* Number of looks that spin before the first yield. */
static inline unsigned ofs_backoff_spins(void)
{
    return ofs_g.oversubscribed ? OFS_BACKOFF_SPINS_OVERSUB : OFS_BACKOFF_SPINS;
}

/* Looks of a wait that can sleep on a word of its own (COMM_WAIT_UNTIL_NAP) before it
 * does: with a CPU per same-node PE, when the back-off would start sleeping; oversubscribed,
 * after a few yields, so that the CPU goes to the PEs that still have to act and whoever
 * changes the word wakes every sleeper with one call. */
static inline unsigned ofs_backoff_nap_after(void)
{
    return ofs_g.oversubscribed ? OFS_BACKOFF_SPINS_OVERSUB + OFS_BACKOFF_NAP_YIELDS_OVERSUB
                                : OFS_BACKOFF_SPINS + OFS_BACKOFF_YIELDS;
}

/* What to do after look number i of a wait: OFS_BACKOFF_SPIN, OFS_BACKOFF_YIELD or a
 * sleep of that many nanoseconds (growing from 1 us to OFS_BACKOFF_MAX_SLEEP_NS). */
static inline long ofs_backoff_step(unsigned i)
{
    unsigned spins = ofs_backoff_spins();

    if (i < spins)
        return OFS_BACKOFF_SPIN;
    if (i < spins + OFS_BACKOFF_YIELDS)
        return OFS_BACKOFF_YIELD;
    unsigned shift = i - spins - OFS_BACKOFF_YIELDS;
    long ns = shift < 7 ? 1000L << shift : OFS_BACKOFF_MAX_SLEEP_NS;
    return ns < OFS_BACKOFF_MAX_SLEEP_NS ? ns : OFS_BACKOFF_MAX_SLEEP_NS;
}

/* The pause instruction of a spin step. */
static inline void ofs_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

#endif
