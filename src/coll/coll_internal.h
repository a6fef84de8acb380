/*
 * coll_internal.h: the engine shared by every file of src/coll.
 *
 * A group (struct coll_grp) is what an algorithm runs on: its members (world PEs),
 * my index, and a symmetric array of signal counters.  Team collectives use the
 * team's slot in the pool allocated at coll_init (counters + scratch); the deprecated
 * active-set forms use the user's pSync as counters.
 *
 * Signals are counting: a sender adds 1 to a counter on the receiver, the receiver
 * waits until the counter reaches what it expects.  Each counter of a group has ONE
 * sender per pattern, so counts never mix between rounds and nothing needs resetting
 * between calls.  Teams track the expected value locally (seen[]); pSync counters are
 * consumed (subtracted again) so pSync is back at SHMEM_SYNC_VALUE (0) on exit.
 */
#ifndef OFS_COLL_INTERNAL_H
#define OFS_COLL_INTERNAL_H

#include "coll.h"
#include <string.h>

/* counter indices */
#define COLL_F_BAR 0           /* 32: dissemination barrier rounds */
#define COLL_F_BCAST 32        /* broadcast: from my parent in the tree */
#define COLL_F_RING 33         /* ring collect: from my left neighbour */
#define COLL_F_PRE 34          /* reduce: fold of an extra PE */
#define COLL_F_POST 35         /* reduce: result back to an extra PE */
#define COLL_F_RD 36           /* 16: recursive doubling rounds */
#define COLL_F_RAB 52          /* 32: Rabenseifner halving then doubling rounds */
#define COLL_F_BRUCK 84        /* 16: Bruck rounds */
#define COLL_F_TREE_UP 100     /* tree barrier: arrivals from my children */
#define COLL_F_TREE_DOWN 101   /* tree barrier: release from my parent */
#define COLL_F_HIER_X 102      /* node-aware collect: node blocks from the other leaders */
#define COLL_F_HIER_A2A 103    /* node-aware alltoall: my blocks from the other leaders */
#define COLL_F_SHM_ARRIVE 104  /* shm barrier: arrivals, on member 0 (own cache line) */
#define COLL_F_SHM_RELEASE 112 /* shm barrier: generation released (own cache line) */
#define COLL_F_SLICE 120       /* sliced reduction: result slices from their owners */
#define COLL_F_BANN 128        /* COLL_BANN_N: ring broadcast announcements, on the root */
#define COLL_F_BACK 144        /* COLL_BANN_N: members yet to read each announcement */
#define COLL_BANN_N 16
#define COLL_F_BLINE 160     /* COLL_BLINE_N: small broadcasts' data and sequence, on the root */
#define COLL_F_BLINE_ACK 224 /* the last small broadcast I completed (own cache line) */
#define COLL_BLINE_N 4
#define COLL_BLINE_WORDS 16 /* per entry: the sequence number, then the data */
#define COLL_BLINE_BYTES ((COLL_BLINE_WORDS - 1) * 8)
#define COLL_NFLAGS 232 /* at most COLL_FLAGS_BYTES / 8 (coll_team.c) */
/* past the counters: a split of this team's members publishes its member list's hash
 * here (two words, alternating with the team's splits: coll_team.c) */
#define COLL_W_SPLIT COLL_NFLAGS
#define COLL_TREE_RADIX 4 /* children per node of the tree barrier */
/* pSync of an active set of n PEs holds ceil(log2 n) barrier counters, then the
 * broadcast and ring counters: at most COLL_ASET_NFLAGS longs */
#define COLL_MAX_TEAM_LOG 16 /* teams up to 2^16 PEs (rounds of RD/Bruck counters) */
#define COLL_ASET_NFLAGS (COLL_MAX_TEAM_LOG + 2)
/* pSync words of the same-node active-set barrier and ring broadcast, on their own
 * cache lines after those (so SHMEM_*_SYNC_SIZE must be at least
 * COLL_ASET_BQ + 2 * COLL_ASET_BQN) */
#define COLL_ASET_SHM_ARRIVE 24
#define COLL_ASET_SHM_RELEASE 32
#define COLL_ASET_BBELL 40 /* ring broadcast: a member sleeps on this word ... */
#define COLL_ASET_BQ 42    /* ... for announcements in these COLL_ASET_BQN pairs of words */
#define COLL_ASET_BQN 8

/* Set in the low word of a shared word that somebody sleeps on (coll_nap): the barrier
 * mailboxes, ring broadcast announcements and bells; with no sequence number beside
 * it, it also marks a reserved active-set announcement entry (coll_bring.c). */
#define COLL_SLEEPING 0x80000000u

#define COLL_MAX_ROUNDS 32
/* bytes of another member's data fetched per get by the linear reduction and the scan */
#define COLL_GET_CHUNK 65536

enum coll_alg {
    COLL_ALG_AUTO = 0,
    COLL_ALG_DISSEMINATION,
    COLL_ALG_SHM,
    COLL_ALG_BINOMIAL,
    COLL_ALG_SCATTER_ALLGATHER,
    COLL_ALG_LINEAR,
    COLL_ALG_RECURSIVE_DOUBLING,
    COLL_ALG_RABENSEIFNER,
    COLL_ALG_RING,
    COLL_ALG_BRUCK,
    COLL_ALG_PAIRWISE,
    COLL_ALG_TREE,
    COLL_ALG_HIER,
    COLL_ALG_INLINE,
    COLL_ALG_SLICES,
};

struct coll_hier;

/* A collective's arguments that the members must pass alike (coll_check.c) */
struct coll_sig {
    enum coll_nbc_kind kind;
    int nb, root, exclusive;
    int aset; /* set by coll_check_aset (names: sum_to_all) */
    size_t es, nelems;
    ptrdiff_t dst, sst; /* alltoalls' strides (0 elsewhere) */
    enum coll_op op;
    enum coll_type type;
};

/* the collective a team (or an active set) is in: its number on the team, routine and
 * signature, for the always-on check's error (coll_check.c) */
struct coll_sig_state {
    const char *r;
    struct coll_team *team; /* NULL: an active set */
    uint64_t seq;
    struct coll_sig s;
};

struct coll_grp {
    int size, me;
    int start, stride;  /* world PE of member i = start + i*stride ... */
    const int *members; /* ... unless this is non-NULL */
    uint64_t *flags;    /* symmetric counters */
    uint64_t *seen;     /* team: expected counts; NULL: consume (pSync) */
    char *scratch;      /* symmetric scratch (teams only) */
    size_t scratch_len;
    size_t chunk;   /* bytes per reduction slot */
    char *rscratch; /* 2 parities x rslots reduction slots of chunk bytes */
    int rslots;
    int all_local;       /* every member reachable through comm_ptr */
    int one_host;        /* every member on one host (coll_grp_one_host) */
    int f_bcast, f_ring; /* counters of broadcast and ring (compact for pSync) */
    int unsynced;        /* COLL_UNSYNC_* bits: returned without a barrier since the last one */
    uint64_t *step;      /* reduction step counter (scratch parity) */
    struct comm_ctx *ctx;
    int cpu_sig;            /* signals by CPU atomics though coll_cfg.fast_signal is off:
                              * a node's own group, whose counters nobody else touches */
    struct coll_hier *hier; /* team spanning nodes (coll_hier.c), else NULL */
    /* the collective in progress (coll_check.c, "always-on signature"): its hash, which
     * the signals, the shm barrier's words and the inline entries carry; what it was
     * (for the error), kept on the group the program called it on (top: a node-aware
     * team's local and leaders groups point there) */
    uint32_t sig;
    struct coll_grp *top;
    struct coll_sig_state sg;
};

/* A team spanning nodes, seen from one member: the team members on my node (in team
 * order; the first is the node's leader) and the leaders of all nodes, each a group with
 * its own counters in the team's slot, so nothing mixes with the flat algorithms. */
struct coll_hier {
    struct coll_grp local;   /* team members on my node */
    struct coll_grp leaders; /* first member of each node, in team order; me < 0: not one */
    int *node;               /* team member i is on the node of leader node[i] ... */
    int *lidx;               /* ... and is member lidx[i] of that node */
    int *run_a, *run_b;      /* runs of consecutive team members on one node ... */
    int nruns;               /* ... [run_a[r], run_b[r]), their node: node[run_a[r]] */
    int *mem;                /* one allocation for the arrays above */
    uint64_t lseen[COLL_NFLAGS], eseen[COLL_NFLAGS];
    uint64_t estep;
};

/* per-team private state (team->priv) */
struct coll_tpriv {
    int *members; /* world PE of each member */
    uint64_t seen[COLL_NFLAGS];
    uint64_t step;
    struct coll_grp grp;
    struct comm_ctx_pool *ctx_pool; /* SHMEM_TEAM_NUM_CONTEXTS contexts (comm.h) */
    uint64_t splits;                /* splits of this team so far (the same on every member) */
};

struct coll_cfg {
    int barrier, bcast, reduce, collect, alltoall;
    int release_yield; /* SHMEM_BARRIER_RELEASE_YIELD (coll_sync.c) */
    int fast_signal;   /* CPU atomics through comm_ptr are allowed */
    size_t seg;        /* bytes per piece of a broadcast, ring or Bruck step (coll_data.c) */
    size_t whole;      /* blocks of at least this many bytes go whole (0: never) */
};
extern struct coll_cfg coll_cfg OFS_HIDDEN;

/* A transfer of len bytes goes in one piece: pieces off (SHMEM_COLL_SEGMENT=0), no more
 * than a piece, or from SHMEM_COLL_WHOLE bytes, where one write moves it for less than
 * its pieces' messages (coll_data.c's blocks, coll_reduce.c's exchanges). */
static inline int coll_seg_whole(size_t len)
{
    return coll_cfg.seg == 0 || len <= coll_cfg.seg || (coll_cfg.whole && len >= coll_cfg.whole);
}

/* a + b for a collect's running total; an overflow goes to the API's check (which reports
 * it and does not return) */
static inline size_t coll_total_add(const char *r, coll_total_check_fn check, const void *dest,
                                    size_t nelems, size_t a, size_t b)
{
    size_t sum;
    if (OFS_UNLIKELY(__builtin_add_overflow(a, b, &sum))) {
        if (check)
            check(r, dest, nelems, 0, 1);
        ofs_fatal(1, "%s: the members' blocks add up to more than SIZE_MAX bytes", r);
    }
    return sum;
}

static inline int coll_grp_pe(const struct coll_grp *g, int i)
{
    return g->members ? g->members[i] : g->start + i * g->stride;
}

/* Add 1 to counter idx of member i.  Orders after every earlier put to that PE. */
void coll_signal(struct coll_grp *g, int idx, int i) OFS_HIDDEN;
/* Wait until count more signals arrived on counter idx (and consume them). */
void coll_wait(struct coll_grp *g, int idx, uint64_t count) OFS_HIDDEN;
/* put len bytes to member i then signal its counter idx */
void coll_put_signal(struct coll_grp *g, void *dst, const void *src, size_t len, int idx, int i)
    OFS_HIDDEN;

void coll_grp_barrier(struct coll_grp *g) OFS_HIDDEN;
/* Are all members on one host (ofs_g.node_of, the simulated nodes of one host counting
 * as one)?  The same answer on every member: the barrier's auto choice rests on it. */
int coll_grp_one_host(const struct coll_grp *g) OFS_HIDDEN;
/* Pieces of a transfer of len bytes: at most SHMEM_COLL_SEGMENT each (coll_data.c);
 * coll_put_segs sends len bytes at src to dst on member i in coll_seg_count(len)
 * put-with-signals on counter idx */
size_t coll_seg_count(size_t len) OFS_HIDDEN;
void coll_put_segs(struct coll_grp *g, char *dst, const char *src, size_t len, int idx, int i)
    OFS_HIDDEN;
/* unsynced: a same-node ring broadcast (or a node-aware collective ending with one) let
 * its root run ahead; a flat broadcast or collect whose members count their data in by
 * signals returned without its closing barrier (teams only: pSync must be free again
 * when an active-set call returns); the node-aware forms handle RING and HIER of their
 * team themselves (coll_hier.c) and barrier the team only for FLAT */
#define COLL_UNSYNC_RING 1
#define COLL_UNSYNC_FLAT 2
#define COLL_UNSYNC_HIER 4 /* a node-aware collect: some leader may still hand out */

/* Before writing into other members' memory (their dest, or scratch that the previous
 * collective may still read): a barrier if a ring broadcast went before without one.
 * The ring broadcast lets its root run ahead; this keeps back-to-back collectives of a
 * team free of user synchronisation. */
static inline void coll_grp_settle(struct coll_grp *g)
{
    if (g->unsynced)
        coll_grp_barrier(g);
}

/* Futexes on the low 32 bits of a 64-bit word in a shared mapping.  A sleeper wakes
 * after COLL_NAP_MAX_NS at the latest, to look again and drive progress. */
#define COLL_NAP_MAX_NS 1000000L
void coll_futex_wait(uint64_t *w, uint32_t val) OFS_HIDDEN;
void coll_futex_wake(uint64_t *w) OFS_HIDDEN;
/* The nap of COMM_WAIT_UNTIL_NAP for *w (in shared memory) to change from seen: mark it
 * COLL_SLEEPING and sleep on it; whoever changes a word so marked calls coll_futex_wake. */
void coll_nap(uint64_t *w, uint64_t seen) OFS_HIDDEN;

/* Same-node broadcast through the root's ring of slots (coll_bring.c): no barrier,
 * nobody writes another PE's dest.  coll_bring_fits: the group and length qualify
 * (direct: the members could copy straight from the root's source instead, which pays
 * above a few KiB where every PE has a CPU). */
ofs_status_t coll_bring_init(void) OFS_HIDDEN;
size_t coll_bring_heap_need(void) OFS_HIDDEN;
void coll_bring_fini(void) OFS_HIDDEN;
int coll_bring_fits(const struct coll_grp *g, size_t len, int direct) OFS_HIDDEN;
void coll_bring_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root)
    OFS_HIDDEN;
/* Same-node team collectives whose blocks are at most COLL_BLINE_BYTES, carried in
 * entries of the members' counters (coll_bring.c): broadcast, collect (src: my block,
 * may be dest + offs[me]), all-reduce; coll_bline_fits: the group and a block's length
 * qualify. */
int coll_bline_fits(const struct coll_grp *g, size_t len) OFS_HIDDEN;
void coll_bline_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root)
    OFS_HIDDEN;
void coll_bline_collectv(struct coll_grp *g, char *dest, const void *src, const size_t *offs,
                         const size_t *lens) OFS_HIDDEN;
void coll_bline_reduce(struct coll_grp *g, void *dest, const void *src, size_t nreduce,
                       enum coll_op op, enum coll_type type) OFS_HIDDEN;
/* dissemination barrier: on return nobody reads or signals my counters of this barrier
 * any more (the shm barrier's release word on member 0 may still be being read) */
void coll_grp_barrier_p2p(struct coll_grp *g) OFS_HIDDEN;
void coll_grp_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root,
                    int root_copies) OFS_HIDDEN;
void coll_grp_fcollect(struct coll_grp *g, void *dest, const void *src, size_t len) OFS_HIDDEN;
/* blocks of variable size: offs[i], lens[i] for member i (both arrays of size n) */
void coll_grp_collectv(struct coll_grp *g, void *dest, const void *src, const size_t *offs,
                       const size_t *lens) OFS_HIDDEN;
void coll_grp_alltoalls(struct coll_grp *g, void *dest, const void *src, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems, size_t es) OFS_HIDDEN;
/* allreduce through get (no scratch): used by active sets and the "linear" choice */
void coll_grp_reduce_linear(struct coll_grp *g, void *dest, const void *src, size_t n,
                            enum coll_op op, enum coll_type type) OFS_HIDDEN;

/* same-node groups (all_local): elements [lo, hi) of every member's src folded, read in
 * place, and stored into every member's dest (blocks read from all before written to
 * any: a src that is also dest is safe); the caller synchronises around it */
void coll_grp_fold_shm(struct coll_grp *g, char *dest, const char *src, size_t lo, size_t hi,
                       enum coll_op op, enum coll_type type) OFS_HIDDEN;
/* same-node groups (all_local): slices reduced through shared memory, two barriers */
void coll_grp_reduce_shm(struct coll_grp *g, void *dest, const void *src, size_t n, enum coll_op op,
                         enum coll_type type) OFS_HIDDEN;

/* coll_reduce called by routine r (NULL: the reduction's own name) in the errors */
int coll_reduce_r(const char *r, struct coll_team *team, void *dest, const void *src,
                  size_t nreduce, enum coll_op op, enum coll_type type) OFS_HIDDEN;

/* dst[i] = dst[i] op src[i], i < n elements of type */
void coll_op_apply(enum coll_op op, enum coll_type type, void *dst, const void *src, size_t n)
    OFS_HIDDEN;

struct coll_grp *coll_team_grp(struct coll_team *t) OFS_HIDDEN;
/* the team as the errors name it: SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, "team <slot>" */
void coll_team_label(const struct coll_team *t, char *buf, size_t len) OFS_HIDDEN;
size_t coll_grp_sizes_len(void) OFS_HIDDEN;
extern uint64_t *coll_aset_pub OFS_HIDDEN; /* symmetric: my length for active-set collect */
/* an active set as a group on pSync */
void coll_aset_grp(struct coll_grp *g, int PE_start, int logPE_stride, int PE_size, long *pSync)
    OFS_HIDDEN;

/* node-aware algorithms (coll_hier.c).  coll_hier_use: g spans nodes and alg (a
 * coll_cfg choice) is hier, or auto where the node part goes by shared memory. */
int coll_hier_use(const struct coll_grp *g, int alg) OFS_HIDDEN;
/* set up t's view (flags: the two counter areas, escratch: the leaders' reduction
 * scratch, same layout as the team's) or leave g->hier NULL; 0 on success */
int coll_hier_setup(struct coll_grp *g, uint64_t *lflags, uint64_t *eflags, char *escratch)
    OFS_HIDDEN;
void coll_hier_free(struct coll_grp *g) OFS_HIDDEN;
void coll_hier_barrier(struct coll_grp *g) OFS_HIDDEN;
void coll_hier_bcast(struct coll_grp *g, void *dest, const void *src, size_t len, int root)
    OFS_HIDDEN;
void coll_hier_collectv(struct coll_grp *g, char *dest, const size_t *offs, const size_t *lens)
    OFS_HIDDEN;
/* alltoall(s) through each node's leader (team spanning nodes; coll_hier.c) */
void coll_hier_alltoalls(struct coll_grp *g, char *dest, const char *src, ptrdiff_t dst,
                         ptrdiff_t sst, size_t nelems, size_t es) OFS_HIDDEN;
void coll_hier_reduce(struct coll_grp *g, void *dest, const void *src, size_t n, enum coll_op op,
                      enum coll_type type) OFS_HIDDEN;
/* allreduce on a group with the algorithm alg (auto: chosen by size and shape) */
void coll_grp_reduce(struct coll_grp *g, void *dest, const void *src, size_t n, enum coll_op op,
                     enum coll_type type, int alg) OFS_HIDDEN;

int coll_alg_parse(const char *var, const char *val, const char *const *names, const int *algs)
    OFS_HIDDEN;

/* A member that finalized instead of joining a collective (coll_fin.c, docs/reliability.md):
 * every PE numbers the blocking collectives it calls on each team (cnt, per team slot);
 * the one in progress on a slot is live until it returns.  A PE entering shmem_finalize
 * puts 1 + its world number into its entry of every PE's board; a wait that sleeps looks
 * (comm_wait_watch_set) whether a member of a live collective's team finalized with a
 * number below the live one: that member will never join it. */
struct coll_live {
    uint64_t seq; /* number of the collective in progress on the slot's team; 0: none */
    struct coll_team *team;
    const char *r; /* the routine, or NULL: named from kind and op */
    int kind, op;
};
struct coll_fin_state {
    uint64_t *cnt;          /* symmetric when board is: per slot, collectives called */
    uint64_t *board;        /* symmetric, per PE: 0, or 1 + its world number once it finalizes */
    struct coll_live *live; /* per slot */
    int nslots;
};
extern struct coll_fin_state coll_fin OFS_HIDDEN;
ofs_status_t coll_fin_init(int nslots) OFS_HIDDEN; /* collective (symmetric blocks) */
size_t coll_fin_heap_need(int nslots) OFS_HIDDEN;
void coll_fin_fini(void) OFS_HIDDEN;
/* a team takes the slot: its numbers start at 0 */
void coll_fin_slot_reset(int id) OFS_HIDDEN;

/* The number of a new collective of t (a non-blocking post too: one order per team) */
static inline uint64_t coll_live_count(struct coll_team *t)
{
    uint64_t s = coll_fin.cnt[t->id] + 1;

    __atomic_store_n(&coll_fin.cnt[t->id], s, __ATOMIC_RELAXED);
    return s;
}

/* A blocking collective of t starts (r: the routine, or NULL; kind: enum coll_nbc_kind;
 * op: the reduction's) and returns.  In between this thread polls whenever it waits:
 * it holds an attend for the whole collective (comm_attend_hold), so that the OFI
 * progress thread stands by rather than compete with it for the CPU and the endpoint
 * between its waits. */
static inline void coll_live_enter(struct coll_team *t, const char *r, int kind, int op)
{
    struct coll_live *l = &coll_fin.live[t->id];
    uint64_t s = coll_live_count(t);

    l->team = t;
    l->r = r;
    l->kind = kind;
    l->op = op;
    __atomic_store_n(&l->seq, s, __ATOMIC_RELEASE);
    comm_attend_hold();
}
static inline void coll_live_leave(struct coll_team *t)
{
    __atomic_store_n(&coll_fin.live[t->id].seq, 0, __ATOMIC_RELAXED);
    comm_attend_release();
}
/* A wait for the non-blocking collective number seq of t (routine r) starts: nonzero
 * when it is now the team's live one (none was: another thread's blocking collective
 * keeps its place), to be left with coll_live_leave. */
static inline int coll_live_wait(struct coll_team *t, const char *r, int kind, uint64_t seq)
{
    struct coll_live *l = &coll_fin.live[t->id];

    if (__atomic_load_n(&l->seq, __ATOMIC_RELAXED) != 0)
        return 0;
    l->team = t;
    l->r = r;
    l->kind = kind;
    l->op = 0;
    __atomic_store_n(&l->seq, seq, __ATOMIC_RELEASE);
    return 1;
}

/* SHMEM_DEBUG's check of mismatched collectives (coll_check.c): each entry point of a
 * collective calls COLL_CHECK (a team), COLL_CHECK_ASET (an active set) or
 * COLL_CHECK_NBC (a post) first, with the arguments the members must pass alike; a
 * member whose neighbour called something else as the same collective of the group ends
 * the job naming both calls (r: the routine; NULL: "shmem_" and the kind's name).  Off,
 * it costs one test of SHMEM_DEBUG. */
ofs_status_t coll_check_init(int nslots) OFS_HIDDEN;
size_t coll_check_heap_need(int nslots) OFS_HIDDEN;
void coll_check_fini(void) OFS_HIDDEN;
void coll_check_team(const char *r, struct coll_team *team, const struct coll_sig *s) OFS_HIDDEN;
void coll_check_nbc(const char *r, struct coll_team *team, const struct coll_nbc_args *a)
    OFS_HIDDEN;
void coll_check_aset(const char *r, const struct coll_grp *g, const struct coll_sig *s) OFS_HIDDEN;
/* shmem_team_destroy: the slot's numbers start again with its next team */
void coll_check_team_forget(struct coll_team *team) OFS_HIDDEN;
/* The always-on check (coll_check.c, docs/collectives.md "Mismatched collectives"):
 * COLL_CHECK and COLL_CHECK_ASET also hash the signature, with the collective's number
 * on the team, into the group's sig, which the algorithms carry in words they already
 * write (the value a signal adds, the shm barrier's arrival and release words, the
 * inline and ring broadcast entries); a reader whose own differs calls coll_sig_fail. */
void coll_sig_team(const char *r, struct coll_team *team, const struct coll_sig *s) OFS_HIDDEN;
void coll_sig_aset(const char *r, struct coll_grp *g, const struct coll_sig *s) OFS_HIDDEN;
/* a mismatch seen on g: from the member of world PE pe (-1: not known), whose signature
 * was theirs (have_theirs 0: not known); ends the job naming both calls */
OFS_NORETURN void coll_sig_fail(struct coll_grp *g, int pe, uint32_t theirs, int have_theirs)
    OFS_HIDDEN;
/* a wait of g goes long (a nap): a member whose published collective of the same number
 * is another one ends the job (one that waits on another word than mine would hang) */
void coll_sig_look(struct coll_grp *g) OFS_HIDDEN;
/* The same for the waits on counters, which have no nap: in their condition,
 * COLL_SIG_WATCH(g, n) (n: an unsigned counter of the wait, from 0) calls coll_sig_watch
 * every 64th look that failed; once the wait took COLL_SIG_WATCH_NS it looks (with gets
 * where the members' memory is not mapped) every COMM_WATCH_NS.  Returns 0. */
#define COLL_SIG_WATCH_NS 100000000ULL
int coll_sig_watch(struct coll_grp *g, unsigned n) OFS_HIDDEN;
#define COLL_SIG_WATCH(g, n) (OFS_UNLIKELY((++(n)&63) == 0) && coll_sig_watch(g, n))

/* Counting signals carry the signature: a signal adds 1 + (sig << COLL_CNT_BITS), the
 * count in the low COLL_CNT_BITS bits; a wait that reaches its count exactly compares the
 * high bits with the sum of its own signatures (seen[] keeps the whole expected value) */
#define COLL_CNT_BITS 40
#define COLL_CNT_MASK ((1ull << COLL_CNT_BITS) - 1)
/* what a signal adds: a count of 1 and 24 bits of signature h (the non-blocking
 * collectives' signals too: nbc.h) */
static inline uint64_t coll_cnt_unit(uint32_t h)
{
    return 1 + ((uint64_t)(h & 0xffffffu) << COLL_CNT_BITS);
}
static inline uint64_t coll_sig_unit(const struct coll_grp *g)
{
    return coll_cnt_unit(g->sig);
}
/* the count of v reached that of t (modulo 2^COLL_CNT_BITS) */
static inline int coll_cnt_reached(uint64_t v, uint64_t t)
{
    return (int64_t)((v - t) << (64 - COLL_CNT_BITS)) >= 0;
}
static inline int coll_cnt_same(uint64_t v, uint64_t t)
{
    return ((v ^ t) & COLL_CNT_MASK) == 0;
}

#define COLL_CHECK(r, team, ...)                         \
    do {                                                 \
        const struct coll_sig coll_s_ = { __VA_ARGS__ }; \
        coll_sig_team(r, team, &coll_s_);                \
        if (OFS_UNLIKELY(OFS_DEBUG_ON))                  \
            coll_check_team(r, team, &coll_s_);          \
    } while (0)
#define COLL_CHECK_ASET(r, grp, ...)                     \
    do {                                                 \
        const struct coll_sig coll_s_ = { __VA_ARGS__ }; \
        coll_sig_aset(r, grp, &coll_s_);                 \
        if (OFS_UNLIKELY(OFS_DEBUG_ON))                  \
            coll_check_aset(r, grp, &coll_s_);           \
    } while (0)
#define COLL_CHECK_NBC(r, team, a)      \
    do {                                \
        if (OFS_UNLIKELY(OFS_DEBUG_ON)) \
            coll_check_nbc(r, team, a); \
    } while (0)

#endif
