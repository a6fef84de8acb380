/*
 * Signals, waits and the barrier every other algorithm ends with
 * (SHMEM_BARRIER_ALGORITHM):
 * - dissemination: round k signals member (me + 2^k) mod n on counter k and waits for
 *   member (me - 2^k) on its own counter k: ceil(log2 n) rounds, one sender per counter.
 * - tree: gather to member 0 and release down a COLL_TREE_RADIX-ary tree.
 * - shm (same-node groups with CPU atomics): one arrival counter, one release word
 *   (teams), or one release mailbox per member (active sets: pSync back at 0 on exit).
 * auto: shm where it applies; else, for 3 members or more on one host (the OFI route
 * between PEs of one machine, or simulated nodes), the tree: 2(n - 1) messages instead
 * of n ceil(log2 n), each a send the host's shared CPUs pay for, and waiters that wait
 * for one release (docs/collectives.md has the measurements); else dissemination.
 */
#include "coll_internal.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* the 32 bits of a 64-bit counter that change first (futexes are 32-bit) */
static uint32_t *low_word(uint64_t *w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint32_t *)w + 1;
#else
    return (uint32_t *)w;
#endif
}

/* sleep while *w still holds val (at most COLL_NAP_MAX_NS); shared futex: w is in a
 * shared mapping */
void coll_futex_wait(uint64_t *w, uint32_t val)
{
    struct timespec ts = { 0, COLL_NAP_MAX_NS };

    syscall(SYS_futex, low_word(w), FUTEX_WAIT, val, &ts, NULL, 0);
}

void coll_futex_wake(uint64_t *w)
{
    syscall(SYS_futex, low_word(w), FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void coll_nap(uint64_t *w, uint64_t seen)
{
    if ((seen & COLL_SLEEPING) || __atomic_compare_exchange_n(w, &seen, seen | COLL_SLEEPING, 0,
                                                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        coll_futex_wait(w, (uint32_t)(seen | COLL_SLEEPING));
}

/* Mailbox words (the active-set shm barrier): 0 is empty, COLL_SLEEPING says its owner
 * sleeps on it, anything else is a message.  post: wait until *w is empty, store v,
 * wake the owner if it sleeps.  take: wait until my own *w holds a message and return
 * it; the caller empties it. */
static int mbox_try_post(uint64_t *w, uint64_t v)
{
    uint64_t cur = 0;

    while (!__atomic_compare_exchange_n(w, &cur, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        if (cur != 0 && cur != COLL_SLEEPING)
            return 0; /* the owner has not taken the last message yet */
    if (cur == COLL_SLEEPING)
        coll_futex_wake(w);
    return 1;
}

static void mbox_post(uint64_t *w, uint64_t v)
{
    COMM_WAIT_UNTIL(mbox_try_post(w, v));
}

static uint64_t mbox_take(uint64_t *w)
{
    uint64_t v;

    COMM_WAIT_UNTIL_NAP((v = __atomic_load_n(w, __ATOMIC_ACQUIRE)) != 0 && v != COLL_SLEEPING,
                        coll_nap(w, v));
    return v;
}

void coll_signal(struct coll_grp *g, int idx, int i)
{
    coll_put_signal(g, NULL, NULL, 0, idx, i);
}

void coll_wait(struct coll_grp *g, int idx, uint64_t count)
{
    uint64_t *f = &g->flags[idx];
    uint64_t target, v;
    unsigned sw = 0;

    if (count == 0)
        return;
    /* count signals of this collective's signature */
    target = count * coll_sig_unit(g);
    if (g->seen)
        target = g->seen[idx] += target;
    COMM_WAIT_UNTIL(coll_cnt_reached(v = __atomic_load_n(f, __ATOMIC_ACQUIRE), target) ||
                    COLL_SIG_WATCH(g, sw));
    /* exactly the count: the signatures must add up too (more: a sender ran ahead into
     * its next collective, whose signature may differ) */
    if (OFS_UNLIKELY(v != target) && coll_cnt_same(v, target))
        coll_sig_fail(g, -1, 0, 0);
    if (!g->seen) {
        /* pSync: take our count back out so it returns to SHMEM_SYNC_VALUE */
        uint64_t minus = (uint64_t)0 - target, old;
        if (coll_cfg.fast_signal)
            __atomic_fetch_add(f, minus, __ATOMIC_ACQ_REL);
        else if (comm_amo_fetch_ok()) /* fetching, so it is applied before we go on: a
                                       * later wait on this counter (the next round, the
                                       * next call) must not see the count again, and
                                       * pSync must read SHMEM_SYNC_VALUE when the call
                                       * returns */
            comm_amo(g->ctx, COMM_AMO_ADD, COMM_DT_U64, f, &minus, NULL, &old, ofs_g.my_pe, 0);
        else { /* the same through a provider that cannot fetch: applied by the quiet */
            comm_amo(g->ctx, COMM_AMO_ADD, COMM_DT_U64, f, &minus, NULL, NULL, ofs_g.my_pe, 0);
            comm_quiet(g->ctx);
        }
    }
}

/* The signal is an atomic add by the job's atomic executor, ordered after the data and
 * every earlier put to that PE.  comm_put_signal does that on every route (also when
 * puts go by shm and atomics by the fabric) without the full completion that a
 * comm_fence needs in such a job. */
void coll_put_signal(struct coll_grp *g, void *dst, const void *src, size_t len, int idx, int i)
{
    int pe = coll_grp_pe(g, i);
    uint64_t *f = &g->flags[idx];

    /* every PE on one node with CPU atomics, or a node's own group: add through the
     * mapping (one executor) */
    if (coll_cfg.fast_signal || g->cpu_sig) {
        uint64_t *p = comm_ptr(f, pe);
        if (p) {
            if (len)
                comm_put(g->ctx, dst, src, len, pe);
            __atomic_fetch_add(p, coll_sig_unit(g), __ATOMIC_RELEASE);
            return;
        }
    }
    if (!len)
        dst = f, src = f;
    comm_put_signal(g->ctx, dst, src, len, f, coll_sig_unit(g), COMM_SIG_ADD | COMM_SIG_COLL, pe,
                    0);
}

void coll_grp_barrier_p2p(struct coll_grp *g)
{
    int n = g->size, me = g->me;

    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        coll_signal(g, COLL_F_BAR + k, (me + d) % n);
        coll_wait(g, COLL_F_BAR + k, 1);
    }
}

/* k-ary gather/release tree rooted at member 0: wait for my children, tell my parent,
 * wait for its release, release my children.  The up counter has several senders (my
 * children), but none of them signals again before I released it, so the counts of two
 * barriers never mix. */
static void barrier_tree(struct coll_grp *g, int up, int down)
{
    int n = g->size, me = g->me, first = me * COLL_TREE_RADIX + 1;
    int nchild = first >= n ? 0 : (n - first < COLL_TREE_RADIX ? n - first : COLL_TREE_RADIX);

    coll_wait(g, up, (uint64_t)nchild);
    if (me > 0) {
        coll_signal(g, up, (me - 1) / COLL_TREE_RADIX);
        coll_wait(g, down, 1);
    }
    for (int c = 0; c < nchild; c++)
        coll_signal(g, down, first + c);
}

/* sleep on the shm barrier's release word until generation gen is released; a wait
 * that long looks whether a member is in another collective (coll_sig_look) */
static void release_nap(struct coll_grp *g, uint64_t *release, uint64_t *sleepers, uint64_t gen)
{
    coll_sig_look(g);
    __atomic_add_fetch(sleepers, 1, __ATOMIC_SEQ_CST);
    if (!coll_cnt_reached(__atomic_load_n(release, __ATOMIC_SEQ_CST), gen))
        coll_futex_wait(release, (uint32_t)(gen - 1));
    __atomic_sub_fetch(sleepers, 1, __ATOMIC_RELAXED);
}

/* The member that completed a same-node barrier the program called, on a node with
 * more PEs than CPUs: yield once, so that the members that waited (yielding, or just
 * woken from the futex) leave before it.  Otherwise it leaves first and the others
 * follow one context switch apart, the member that arrived first (the root of a
 * broadcast that returned at once) among the last, and what the program does next
 * waits for it (an OSU-style loop's broadcast at 4 PEs on 2 cores: 1.7-7 us on the last
 * arriver against 0.07 us after a yield, docs/collectives.md).  Not in the barriers
 * that end a collective: there the completing member would only wait for the others
 * inside the call. */
static __thread int barrier_yield;

static void release_yield(void)
{
    if (barrier_yield && coll_cfg.release_yield && ofs_g.oversubscribed)
        sched_yield();
}

/* a barrier the program called */
static void user_barrier(struct coll_grp *g)
{
    barrier_yield = !g->hier; /* node-aware: leave its three stages alone */
    coll_grp_barrier(g);
    barrier_yield = 0;
}

/* Every member on this node with CPU atomics (teams only: the counters grow forever).
 * Each member adds 1 to the arrival counter on member 0; the one that completes the
 * generation stores it in the release word there, which every other member watches:
 * nobody waits for one particular member.  A waiter that is not last spins briefly,
 * yields, then sleeps on a futex on the release word (the releaser wakes sleepers with
 * one call), so that the members that still have to arrive get the CPU. */
static void barrier_shm(struct coll_grp *g)
{
    int root = coll_grp_pe(g, 0);
    uint64_t *arrive = comm_ptr(&g->flags[COLL_F_SHM_ARRIVE], root);
    uint64_t *release = comm_ptr(&g->flags[COLL_F_SHM_RELEASE], root);
    uint64_t *sleepers = release + 1;
    uint64_t gen = ++g->seen[COLL_F_SHM_RELEASE], unit = coll_sig_unit(g), r;
    /* the arrivals carry the members' signatures, which the completer checks against
     * its own sum of them; the release carries the completer's, which the others check */
    uint64_t want = g->seen[COLL_F_SHM_ARRIVE] += unit * (uint64_t)g->size;

    r = __atomic_add_fetch(arrive, unit, __ATOMIC_ACQ_REL);
    if (coll_cnt_same(r, want)) {
        if (OFS_UNLIKELY(r != want))
            coll_sig_fail(g, -1, 0, 0);
        __atomic_store_n(release, gen | (unit - 1), __ATOMIC_SEQ_CST);
        if (__atomic_load_n(sleepers, __ATOMIC_SEQ_CST))
            coll_futex_wake(release);
        release_yield();
        return;
    }
    COMM_WAIT_UNTIL_NAP(coll_cnt_reached(r = __atomic_load_n(release, __ATOMIC_ACQUIRE), gen),
                        release_nap(g, release, sleepers, gen));
    if (OFS_UNLIKELY((r & ~COLL_CNT_MASK) != unit - 1) && coll_cnt_same(r, gen))
        coll_sig_fail(g, -1, (uint32_t)(r >> COLL_CNT_BITS), 1);
}

/* The same for an active set, whose pSync must read 0 again on return: the arrival
 * counter (on member 0) is set back to 0 by the member that completes it before it
 * releases anyone; it then posts 1 to every other member's release mailbox, and each
 * member empties its own.  n - 1 posts instead of one store, but no word keeps a
 * generation.  Arrivals and release messages carry the signatures as above. */
static void barrier_shm_psync(struct coll_grp *g)
{
    uint64_t *arrive = comm_ptr(&g->flags[COLL_ASET_SHM_ARRIVE], coll_grp_pe(g, 0));
    uint64_t *mine = &g->flags[COLL_ASET_SHM_RELEASE];
    uint64_t unit = coll_sig_unit(g), want = unit * (uint64_t)g->size, r;

    r = __atomic_add_fetch(arrive, unit, __ATOMIC_ACQ_REL);
    if (coll_cnt_same(r, want)) {
        if (OFS_UNLIKELY(r != want))
            coll_sig_fail(g, -1, 0, 0);
        __atomic_store_n(arrive, 0, __ATOMIC_SEQ_CST);
        for (int i = 1; i < g->size; i++)
            mbox_post(comm_ptr(mine, coll_grp_pe(g, (g->me + i) % g->size)), unit);
        release_yield();
        return;
    }
    r = mbox_take(mine);
    __atomic_store_n(mine, 0, __ATOMIC_RELEASE);
    if (OFS_UNLIKELY(r != unit))
        coll_sig_fail(g, -1, (uint32_t)(r >> COLL_CNT_BITS), 1);
}

int coll_grp_one_host(const struct coll_grp *g)
{
    /* simulated nodes: rt_pmix.c numbers them real node x n_pes + block */
    int div = ofs_g.params.SIM_PES_PER_NODE > 0 ? ofs_g.n_pes : 1, h0;

    if (!ofs_g.node_of || g->size < 1)
        return g->size <= 1;
    h0 = ofs_g.node_of[coll_grp_pe(g, 0)] / div;
    for (int i = 1; i < g->size; i++)
        if (ofs_g.node_of[coll_grp_pe(g, i)] / div != h0)
            return 0;
    return 1;
}

void coll_grp_barrier(struct coll_grp *g)
{
    int alg = coll_cfg.barrier;

    g->unsynced = 0;
    if (g->size == 1)
        return;
    if (coll_hier_use(g, alg)) {
        coll_hier_barrier(g);
        return;
    }
    if (alg == COLL_ALG_HIER)
        alg = COLL_ALG_AUTO;
    if ((alg == COLL_ALG_AUTO || alg == COLL_ALG_SHM) && g->all_local &&
        (coll_cfg.fast_signal || g->cpu_sig)) {
        if (g->seen)
            barrier_shm(g);
        else
            barrier_shm_psync(g);
        return;
    }
    if (alg == COLL_ALG_AUTO && g->one_host && g->size >= 3)
        alg = COLL_ALG_TREE;
    if (alg == COLL_ALG_TREE) {
        if (g->seen)
            barrier_tree(g, COLL_F_TREE_UP, COLL_F_TREE_DOWN);
        else if (g->size > 2) /* pSync: ceil(log2 n) >= 2 barrier counters */
            barrier_tree(g, COLL_F_BAR, COLL_F_BAR + 1);
        else
            coll_grp_barrier_p2p(g);
        return;
    }
    coll_grp_barrier_p2p(g);
}

static void sync_all(const char *r)
{
    struct coll_team *w = &shmem_internal_team_world;

    COLL_CHECK("shmem_barrier_all/shmem_sync_all", w, .kind = COLL_NBC_SYNC);
    coll_live_enter(w, r, COLL_NBC_SYNC, 0);
    user_barrier(coll_team_grp(w));
    coll_live_leave(w);
}

void coll_sync_all(void)
{
    sync_all("shmem_sync_all");
}

void coll_barrier_all_as(const char *r)
{
    comm_quiet_all();
    sync_all(r);
}

void coll_barrier_all(void)
{
    coll_barrier_all_as("shmem_barrier_all");
}

int coll_team_sync(struct coll_team *team)
{
    COLL_CHECK("shmem_team_sync", team, .kind = COLL_NBC_SYNC);
    coll_live_enter(team, "shmem_team_sync", COLL_NBC_SYNC, 0);
    user_barrier(coll_team_grp(team));
    coll_live_leave(team);
    return 0;
}

void coll_barrier_aset(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    comm_quiet_all();
    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    COLL_CHECK_ASET("shmem_barrier", &g, .kind = COLL_NBC_SYNC);
    comm_attend_hold();
    user_barrier(&g);
    comm_attend_release();
}

void coll_sync_aset(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct coll_grp g;

    coll_aset_grp(&g, PE_start, logPE_stride, PE_size, pSync);
    COLL_CHECK_ASET("shmem_sync", &g, .kind = COLL_NBC_SYNC);
    comm_attend_hold();
    user_barrier(&g);
    comm_attend_release();
}
