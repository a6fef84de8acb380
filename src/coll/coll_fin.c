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
 * board, which the PEs that reach it by load/store read there, and puts it into its
 * entry of the board of each other PE (over the fabric: PEs of other nodes, or of this
 * one under SHMEM_LOCAL_TRANSPORT=ofi; beyond FIN_PUT_ALL of them, only those that wait
 * for it directly).  A PE whose wait sleeps looks every COMM_WATCH_NS (the comm layer's
 * watch of long waits: never on the fast path) at its live collectives: a member whose
 * board entry is set finalized; its number on that team (the board's for the world,
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

/* PEs beyond reach of load/store that a finalizing PE tells at most all of (else only
 * those that wait for it directly) */
#define FIN_PUT_ALL 64

struct coll_fin_state coll_fin;
static uint64_t *fin_blk; /* the symmetric block, allocated whether the watch is on or not */

static void fin_watch(void);

static size_t fin_blk_len(int nslots)
{
    return ((size_t)nslots + (size_t)ofs_g.n_pes + 1) * sizeof(uint64_t);
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
    free(coll_fin.live);
    memset(&coll_fin, 0, sizeof(coll_fin));
}

void coll_fin_slot_reset(int id)
{
    __atomic_store_n(&coll_fin.live[id].seq, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&coll_fin.cnt[id], 0, __ATOMIC_RELAXED);
}

/* my entry into pe's board, unless pe reads it in my memory */
static void fin_put(int pe, const uint64_t *v)
{
    if (pe != ofs_g.my_pe && !comm_ptr(coll_fin.board, pe))
        comm_put_nbi(COMM_CTX_DEFAULT, &coll_fin.board[ofs_g.my_pe], v, sizeof(*v), pe);
}

void coll_finalize_announce(void)
{
    static uint64_t v; /* the puts' source: until the quiet */
    int me = ofs_g.my_pe, n = ofs_g.n_pes, far = 0;
    const struct coll_hier *h = coll_team_grp(&shmem_internal_team_world)->hier;

    if (!coll_fin.board)
        return;
    v = coll_fin.cnt[shmem_internal_team_world.id] + 1;
    __atomic_store_n(&coll_fin.board[me], v, __ATOMIC_RELEASE);
    /* my numbers are final and stored before any PE can see the entry */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int pe = 0; pe < n && far <= FIN_PUT_ALL; pe++)
        far += pe != me && !comm_ptr(coll_fin.board, pe);
    if (far <= FIN_PUT_ALL) {
        for (int pe = 0; pe < n; pe++)
            fin_put(pe, &v);
    } else {
        /* a connection to every PE would cost more than the finalize: the PEs that wait
         * for me directly in the world's barriers, its dissemination partners and the
         * node leaders (the others wait for them) */
        for (int d = 1; d < n; d <<= 1) {
            fin_put((me + d) % n, &v);
            fin_put((me - d % n + n) % n, &v);
        }
        for (int i = 0; h && i < h->leaders.size; i++)
            fin_put(coll_grp_pe(&h->leaders, i), &v);
    }
    comm_quiet(COMM_CTX_DEFAULT);
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

/* pe's board entry: 0, or 1 + its world number once it finalizes (in its own memory when
 * it is reachable by load/store, else put into mine) */
static uint64_t fin_entry(int pe)
{
    const uint64_t *p = comm_ptr(&coll_fin.board[pe], pe);

    return __atomic_load_n(p ? p : &coll_fin.board[pe], __ATOMIC_ACQUIRE);
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
