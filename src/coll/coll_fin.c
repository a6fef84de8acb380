/*
 * coll_fin.c: a PE left waiting in a collective that a member of its team will never
 * call, because that member called shmem_finalize (explicitly, or at exit: a PE that
 * skipped the last barrier on an error path; a Python program whose PE 0 raised), ends
 * the job with a line naming the routine, the member and the mismatch, instead of
 * hanging (docs/reliability.md, "A member that finalized").
 *
 * Every PE numbers the blocking collectives it calls on each team: cnt[slot], in the
 * symmetric heap, so that a peer can read it.  Members call a team's collectives in one
 * order, so number s is the same collective on each.  A PE entering shmem_finalize calls
 * no collective any more; it stores 1 + its world number into its entry of its own
 * board, then adds one to the finalize count at PE 0 (FIN_HUB).  A PE that reaches it by
 * load/store reads the entry there; the others read the count, and where it moved since
 * they last looked, the entry of each member they find themselves waiting for, by get:
 * one message per finalizing PE, not one per pair (a connection each over tcp;ofi_rxm).
 * A PE whose wait sleeps looks every COMM_WATCH_NS (the comm layer's watch of long
 * waits: never on the fast path) at its live collectives: a member whose board entry is
 * set finalized; its number on that team (the board's for the world,
 * else read from its cnt) below the live one means it never called this collective, and
 * never will (non-blocking posts are numbered too; shmemx_req_wait is live).  A member
 * that called it and left, or that finalized while others still finish a collective it
 * contributed to, has a number at least the live one: no error.  A member of a team
 * that is not live here, or one finalizing while this PE is in its own finalize (no live
 * collective), is never looked at.
 */
#include "coll_internal.h"
#include "heap.h"

#include <stdio.h>
#include <stdlib.h>

/* the PE that holds the finalize count */
#define FIN_HUB 0

struct coll_fin_state coll_fin;
static uint64_t *fin_blk; /* the symmetric block, allocated whether the watch is on or not */
/* per PE, the finalize count when its entry was last fetched (PEs not reached by
 * load/store); the count as read in the running watch, and whether it was */
static uint64_t *fin_looked;
static __thread uint64_t fin_now;
static __thread int fin_now_read;

static void fin_watch(void);

static size_t fin_blk_len(int nslots)
{
    /* the team numbers, the board, the word PEs claim a finalized PE by, the count */
    return ((size_t)nslots + (size_t)ofs_g.n_pes + 2) * sizeof(uint64_t);
}

size_t coll_fin_heap_need(int nslots)
{
    return heap_block_len(fin_blk_len(nslots));
}

ofs_status_t coll_fin_init(int nslots)
{
    size_t len = fin_blk_len(nslots);
    uint64_t *blk;

    coll_fin.nslots = nslots;
    coll_fin.live = calloc((size_t)nslots, sizeof(*coll_fin.live));
    if (!coll_fin.live)
        return OFS_ERR_NOMEM;
    /* every PE makes the same allocation in the same heap (fresh blocks are zero), even
     * with SHMEM_FINALIZE_WATCH=0, so that PEs disagreeing on it keep alike heaps; never
     * at the expense of the user's SHMEM_SYMMETRIC_SIZE (then the watch is off on every
     * PE, and the numbers are kept in private memory) */
    blk = heap_alloc_spare(len, 64);
    fin_blk = blk;
    if (blk && ofs_g.params.FINALIZE_WATCH) {
        fin_looked = calloc((size_t)ofs_g.n_pes, sizeof(*fin_looked));
        if (!fin_looked)
            return OFS_ERR_NOMEM;
        coll_fin.cnt = blk;
        coll_fin.board = blk + nslots;
        comm_wait_watch_set(fin_watch);
        return OFS_OK;
    }
    coll_fin.cnt = calloc((size_t)nslots, sizeof(uint64_t));
    return coll_fin.cnt ? OFS_OK : OFS_ERR_NOMEM;
}

void coll_fin_fini(void)
{
    comm_wait_watch_set(NULL);
    if (coll_fin.cnt != fin_blk)
        free(coll_fin.cnt);
    if (fin_blk)
        heap_free(fin_blk);
    fin_blk = NULL;
    free(fin_looked);
    fin_looked = NULL;
    free(coll_fin.live);
    memset(&coll_fin, 0, sizeof(coll_fin));
}

void coll_fin_slot_reset(int id)
{
    __atomic_store_n(&coll_fin.live[id].seq, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&coll_fin.cnt[id], 0, __ATOMIC_RELAXED);
}

void coll_finalize_announce(void)
{
    static const uint64_t one = 1;
    int me = ofs_g.my_pe;

    if (!coll_fin.board)
        return;
    __atomic_store_n(&coll_fin.board[me], coll_fin.cnt[shmem_internal_team_world.id] + 1,
                     __ATOMIC_RELEASE);
    /* my numbers are final and stored before any PE can see the entry, and the entry
     * before the count moves */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_U64, &coll_fin.board[ofs_g.n_pes + 1], &one,
             NULL, NULL, FIN_HUB, 0);
    comm_quiet(COMM_CTX_DEFAULT);
}

/* Every PE waits here until the finalize count at FIN_HUB has reached the number of PEs,
 * before the launcher's fence: a PE that ends the job meanwhile (a member named by the
 * watch, shmem_global_exit while the others finalize, as the specification's example
 * does, a PE that failed) finds the others in this wait, not inside a PMIx fence.  Open
 * MPI 4.1's mpiexec, killing a job whose PEs sit in a fence, now and then misses their
 * exits, hangs or crashes in its own teardown (docs/reliability.md).  Out of load/store
 * reach of FIN_HUB the count is read by get, at intervals doubling from 20 us to 4 ms:
 * the link to FIN_HUB is the one the announcement used. */
void coll_finalize_wait_all(unsigned *iter)
{
    const uint64_t *cnt = coll_fin.board ? &coll_fin.board[ofs_g.n_pes + 1] : NULL;
    const uint64_t *p;
    uint64_t v = 0, next = 0, gap = 20000;

    if (!cnt || ofs_g.n_pes < 2)
        return;
    p = comm_ptr(cnt, FIN_HUB);
    for (;;) {
        if (p) {
            v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
        } else if (ofs_clock_ns() >= next) {
            comm_get(COMM_CTX_DEFAULT, &v, cnt, sizeof(v), FIN_HUB);
            next = ofs_clock_ns() + gap;
            gap = gap < 4000000 ? gap * 2 : gap;
        }
        if (v >= (uint64_t)ofs_g.n_pes)
            return;
        comm_wait_backoff(iter);
    }
}

/* Of the PEs that find pe's finalize in their way, the first to claim it on pe (the word
 * after the board) reports, so that the job ends with one line; the others go on
 * waiting for the end it brings, and report themselves should it not come within
 * FIN_CLAIM_GRACE_NS. */
#define FIN_CLAIM_GRACE_NS 5000000000ULL
static int fin_claim(int pe)
{
    static uint64_t lost_at;
    uint64_t mine = (uint64_t)ofs_g.my_pe + 1, zero = 0, old = 0;

    if (!comm_amo_fetch_ok())
        return 1;
    if (lost_at)
        return ofs_clock_ns() - lost_at > FIN_CLAIM_GRACE_NS;
    comm_amo(COMM_CTX_DEFAULT, COMM_AMO_CSWAP, COMM_DT_U64, coll_fin.board + ofs_g.n_pes, &mine,
             &zero, &old, pe, 0);
    if (old == 0 || old == mine)
        return 1;
    lost_at = ofs_clock_ns();
    return 0;
}

/* the finalize count, read once per watch */
static uint64_t fin_count_now(void)
{
    const uint64_t *p;

    if (fin_now_read)
        return fin_now;
    fin_now_read = 1;
    p = comm_ptr(&coll_fin.board[ofs_g.n_pes + 1], FIN_HUB);
    if (p)
        fin_now = __atomic_load_n(p, __ATOMIC_ACQUIRE);
    else
        comm_get(COMM_CTX_DEFAULT, &fin_now, &coll_fin.board[ofs_g.n_pes + 1], sizeof(fin_now),
                 FIN_HUB);
    return fin_now;
}

/* pe's board entry: 0, or 1 + its world number once it finalizes (read in pe's memory:
 * by load where it is mapped, else by get once the finalize count moved since the last
 * get, into my board, where it stays once set) */
static uint64_t fin_entry(int pe)
{
    const uint64_t *p = comm_ptr(&coll_fin.board[pe], pe);
    uint64_t *mine = &coll_fin.board[pe], n;

    if (p)
        return __atomic_load_n(p, __ATOMIC_ACQUIRE);
    if (!*mine && (n = fin_count_now()) != fin_looked[pe]) {
        fin_looked[pe] = n;
        comm_get(COMM_CTX_DEFAULT, mine, mine, sizeof(*mine), pe);
    }
    return *mine;
}

/* pe's number on team slot id (pe finalized: it no longer changes) */
static uint64_t fin_count(int pe, int id)
{
    const uint64_t *p = comm_ptr(&coll_fin.cnt[id], pe);
    uint64_t v;

    if (p)
        return __atomic_load_n(p, __ATOMIC_ACQUIRE);
    comm_get(COMM_CTX_DEFAULT, &v, &coll_fin.cnt[id], sizeof(v), pe);
    return v;
}

static const char *fin_routine(const struct coll_live *l, char *buf, size_t len)
{
    static const char *const ops[] = { "and", "or", "xor", "max", "min", "sum", "prod" };

    if (l->r)
        return l->r;
    switch (l->kind) {
    case COLL_NBC_BCAST: return "shmem_broadcast";
    case COLL_NBC_COLLECT: return "shmem_collect";
    case COLL_NBC_FCOLLECT: return "shmem_fcollect";
    case COLL_NBC_ALLTOALL: return "shmem_alltoall";
    case COLL_NBC_ALLTOALLS: return "shmem_alltoalls";
    case COLL_NBC_SCAN: return l->op ? "shmem_sum_exscan" : "shmem_sum_inscan";
    case COLL_NBC_REDUCE:
        snprintf(buf, len, "shmem_%s_reduce",
                 (unsigned)l->op < sizeof(ops) / sizeof(ops[0]) ? ops[l->op] : "?");
        return buf;
    default: return "shmem_team_sync";
    }
}

static OFS_NORETURN void fin_report(const struct coll_live *l, uint64_t seq, int pe,
                                    uint64_t theirs)
{
    const struct coll_team *t = l->team;
    char r[32], group[32];

    coll_team_label(t, group, sizeof(group));
    ofs_bad_input(fin_routine(l, r, sizeof(r)),
                  "mismatched collectives: PE %d called shmem_finalize while this PE (%d) "
                  "waits for it in collective #%llu on %s, which PE %d never called (it "
                  "called %llu on that team); every member of a team must call the team's "
                  "collectives before shmem_finalize",
                  pe, ofs_g.my_pe, (unsigned long long)seq, group, pe, (unsigned long long)theirs);
}

/* the watch of long waits (comm_wait.c calls it at most every COMM_WATCH_NS) */
static void fin_watch(void)
{
    fin_now_read = 0;
    for (int id = 0; id < coll_fin.nslots; id++) {
        const struct coll_live *l = &coll_fin.live[id];
        uint64_t seq = __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE);
        const struct coll_team *t;

        if (!seq)
            continue;
        t = l->team;
        for (int i = 0; i < t->size; i++) {
            int pe = coll_team_world_pe(t, i);
            uint64_t v = fin_entry(pe), theirs;

            if (!v || i == t->my_pe)
                continue;
            theirs = t == &shmem_internal_team_world ? v - 1 : fin_count(pe, id);
            /* the collective may have returned meanwhile (another thread's) */
            if (theirs < seq && __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE) == seq) {
                if (!fin_claim(pe))
                    return;
                fin_report(l, seq, pe, theirs);
            }
        }
    }
}
