/*
 * nbc.h: the schedule engine of the non-blocking collectives (private to src/coll).
 *
 * A schedule is an array of operations in a topological order: each names the earlier
 * operations it depends on (AND: it starts once all of them completed).  The engine
 * (nbc_engine.c) runs, on each pass, every operation whose dependencies completed; a
 * wait completes when its counter reached its target, every other operation completes
 * when it has been issued (puts and gets are blocking on the engine's own context, so
 * their buffers are free or filled then).  Builders (nbc_build.c) emit one schedule per
 * request for (team, sizes, root, op).
 *
 * Signals are counting, on symmetric counters of the team's slot that no blocking
 * collective uses: one counter per (class, source member) on each PE.  Requests of one
 * team run one after the other in posting order on every PE, and each builder's signals
 * are symmetric (every signal sent is waited for by its receiver in the same request),
 * so the target of each wait is known when the schedule is built (nbc_team.seen) and a
 * count never mixes two requests whose order matters:
 *   READY  "my source is posted: read it" (then also my published length)
 *   DATA   "I finished reading your source" (or: the data I put is there)
 *   SYNC   team_sync rounds (no data)
 *   RED    a small reduction's block in my reduction landing area (nbc_rland): no answer
 * A DATA signal of request k+1 from j needs my READY of k+1, sent only after my request k
 * completed, so it cannot stand in for one of request k still in flight.
 */
#ifndef OFS_NBC_H
#define OFS_NBC_H

#include "coll_internal.h"

enum nbc_cls { NBC_C_READY, NBC_C_DATA, NBC_C_SYNC, NBC_C_RED, NBC_NCLS };

/* A signal adds 1 to the low NBC_CNT_BITS of its counter (the count the waits compare with
 * their targets) and its request's hash (the h of its nbc_sched: 24 bits of its number on the
 * team and what it is) to the high bits.  The receiver knows the sum its own requests
 * predict at each count (nbc_expect): a member that posted the team's requests in another
 * order, or another collective, is named (nbc_verify) instead of a hang or a silent mix,
 * at no cost in messages. */
#define NBC_CNT_BITS COLL_CNT_BITS /* the blocking collectives' counted signals' layout */
#define NBC_CNT(v) ((v)&COLL_CNT_MASK)
#define NBC_HSUM(v) ((uint32_t)((v) >> NBC_CNT_BITS) & 0xffffffu)
#define NBC_SIG_ADD(h) coll_cnt_unit(h)
#define NBC_XHIST 64 /* counts remembered per counter (nbc_team.xhist) */
/* Signals of one member's consecutive requests may land out of order (the fabric orders
 * nothing without a fence): a sum that disagrees counts only once it disagreed this long,
 * where a late signal would have put it right (a mismatch never comes right again). */
#define NBC_XBAD_NS 250000000ULL

enum nbc_op_kind {
    NBC_OP_SIG,    /* signal class cls on member peer */
    NBC_OP_WAIT,   /* counter (cls, peer) reaches target */
    NBC_OP_PUT,    /* len bytes from src to dst (symmetric) on member peer */
    NBC_OP_PUTSIG, /* the same, then a signal of class cls ordered after it */
    NBC_OP_GET,    /* len bytes from src (symmetric) on member peer into dst */
    NBC_OP_IGET,   /* strided: nel elements of es bytes, strides dstr/sstr (elements) */
    NBC_OP_GETV,   /* collect: member peer's block; lens[] in elements, offset computed */
    NBC_OP_CHECK,  /* collect: dest against the total of lens[] (the API's check) */
    NBC_OP_COPY,   /* local memmove */
    NBC_OP_REDUCE, /* dst[i] = dst[i] op src[i], nel elements of type; with cls = 1, src
                    * is symmetric on member peer: read in place where it is mapped (shm),
                    * else fetched into buf first */
    NBC_OP_SHMRED, /* every member mapped: nel elements at symmetric src folded over the
                    * members in order (read in place), the result stored at symmetric
                    * dst of every member, a block at a time (source may be dest) */
};

struct nbc_op {
    uint8_t kind, cls, done, rop;
    uint8_t rtype;
    uint8_t issued;       /* GET, GETV: issued (comm_get_nbi), done once the context's gets are */
    int peer;             /* team member index */
    uint32_t ndeps, dep0; /* dependencies: deps[dep0 .. dep0 + ndeps) of the schedule */
    uint64_t target;      /* WAIT */
    char *dst;
    const char *src;
    size_t len;
    size_t nel, es; /* IGET, GETV, REDUCE */
    ptrdiff_t dstr, sstr;
    const uint64_t *lens;      /* GETV (with cls = 1, the locations follow the lengths) */
    char *buf;                 /* REDUCE from a member without a mapping */
    coll_total_check_fn check; /* CHECK, with the routine's name r */
    const char *r;
};

/* Bytes an operation moves or folds.  A post that leaves NBC_HEAVY_MIN bytes or more of
 * a request undone wakes the engine thread at once where it has a spare CPU
 * (nbc_thread_kick). */
#define NBC_HEAVY_MIN 65536
static inline size_t nbc_op_bytes(const struct nbc_op *op)
{
    switch (op->kind) {
    case NBC_OP_PUT:
    case NBC_OP_PUTSIG:
    case NBC_OP_GET:
    case NBC_OP_COPY: return op->len;
    case NBC_OP_IGET: return op->nel * op->es;
    case NBC_OP_REDUCE:
    case NBC_OP_SHMRED: return op->nel * coll_type_size((enum coll_type)op->rtype);
    default: return 0;
    }
}

/* per-team engine state (local), by the team's slot */
struct nbc_team {
    struct coll_team *team;
    struct coll_nbc_req *head, *tail; /* requests in posting order; head runs */
    struct nbc_team *anext;           /* the engine's list of teams with requests */
    int active;                       /* on that list */
    int nreq;                         /* requests of the team not yet freed */
    uint64_t *seen;                   /* NBC_NCLS x size: targets handed out */
    uint64_t *owed;  /* by member: DATA answers to my eager puts not yet waited for */
    uint64_t *esent; /* by member: eager blocks sent to it */
    uint64_t *erecv; /* by member: the unit of my landing area where its next block lands */
    uint64_t *ecur;  /* by member: the unit of its landing area where my next block goes */
    uint64_t *eunit; /* by member, NBC_EAGER_UNITS each: 1 + my block last put in that unit */
    uint64_t nred;   /* small reductions through the reduction landing area (nbc_rland) */
    /* the order check (NBC_CNT_BITS): requests of the schedules posted on the team, the
     * hash of the one being built, then per (class, member): signals expected so far, the
     * sum of their hashes, and the last NBC_XHIST (count << 24 | sum) */
    uint64_t nsched;
    uint32_t hcur;
    unsigned idle; /* passes that moved nothing on the team (a scan every 16) */
    uint64_t *xcnt;
    uint32_t *xsum;
    uint64_t *xhist;
    uint64_t *xbad; /* per (class, member): since when its sum disagrees (ns; 0: it agrees) */
    /* the same-node fast path (nbc_shm.c): its requests, in posting order, apart from the
     * schedules' (they share no memory and complete in their own order) */
    struct coll_nbc_req *fhead, *ftail;
    uint64_t fseq;   /* ring entries taken by the fast requests posted */
    uint64_t fdone;  /* the last entry of the fast requests completed (in order) */
    uint64_t ffree;  /* every member completed this many entries (a lower bound, cached) */
    char **fring;    /* by member: its ring for this team's slot, mapped here (NULL: none),
                      * then (fring[size + j]) its bell */
    int ftried;      /* fring was looked for */
    uint32_t fdepth; /* entries of a member's ring: NBC_SHM_DEPTH (the world team's: _WORLD) */
    int fdirect;     /* direct requests among the fast ones not completed */
    int funpub;      /* fast requests posted whose part is not in my entries yet */
};

struct nbc_sched {
    struct nbc_op *ops;
    uint32_t nops, cap;
    uint32_t *deps;
    uint32_t ndeps, dcap;
    uint32_t first; /* ops before it all completed */
    uint32_t h;     /* its hash: what its signals add above NBC_CNT_BITS */
    size_t bytes;   /* data the schedule moves or folds (the engine thread's kick) */
    void *tmp;      /* private buffers of the request (from nbc_tmp_get) */
    size_t tmp_len;
    size_t mem;   /* bytes held (SHMEM_NBC_MEM_MAX) */
    uint64_t sig; /* what it is (nbc_sig_of), for the order check's message */
};

#define NBC_REQ_LIVE 0x6f6e6263u /* "onbc" */
#define NBC_REQ_SLOT 128

/* a request of the same-node fast path: what its completion needs */
struct nbc_fast {
    uint64_t seq; /* the number of its first ring entry among the team's (1, 2, ...) */
    char *dest;
    size_t nelems, es;
    ptrdiff_t dst; /* alltoalls: dest's stride, in elements */
    int root;
    uint8_t kind, op, type, exclusive;
    uint8_t counted; /* in nbc_outstanding (it did not complete at its post) */
    uint8_t k;       /* entries it takes: seq .. seq + k - 1 */
    uint8_t direct;  /* no data in the ring: copied between the members' own buffers */
    uint8_t unpub;   /* my part not in my entries yet: they were not free at the post */
    const char *src; /* my source (direct: the members' at the same symmetric address) */
    ptrdiff_t sst;   /* alltoalls: source's stride, in elements */
    uint64_t sig;    /* kind, root, bytes, op and type, next to the sequence word of each
                      * entry (a member that posted something else is named, not waited for) */
};

struct coll_nbc_req {
    uint32_t magic; /* NBC_REQ_LIVE while the program may wait for it */
    int state;      /* NBC_S_* (atomic) */
    const char *routine;
    struct nbc_team *nt;
    uint64_t fin_seq;          /* its number on the team (coll_fin.c) */
    struct coll_nbc_req *next; /* in the team's queue (fast: its fast queue) */
    int fast;                  /* the same-node fast path: f, not s */
    union {
        struct nbc_sched s;
        struct nbc_fast f;
    };
};
enum { NBC_S_QUEUED, NBC_S_RUNNING, NBC_S_DONE };

/* ---- building (nbc_build.c) ---- */
/* Append an operation depending on the ndep operations deps (indices returned by earlier
 * appends; -1 entries are skipped); returns its index. */
int nbc_add(struct nbc_sched *s, const struct nbc_op *op, int ndep, const int *deps) OFS_HIDDEN;
/* A wait for the next signal of class cls from member peer (target from nt->seen; a DATA
 * wait also waits for the answers owed to earlier eager puts). */
int nbc_add_wait(struct nbc_sched *s, struct nbc_team *nt, int cls, int peer, int ndep,
                 const int *deps) OFS_HIDDEN;
/* One more signal of class cls from member peer expected, in the request being built
 * (nt->hcur); every count a wait's target passes over is expected once, in posting order. */
void nbc_expect(struct nbc_team *nt, int cls, int peer) OFS_HIDDEN;
/* Fill the schedule of a request; OFS_ERR_NOMEM when host memory is short. */
ofs_status_t nbc_build(struct coll_nbc_req *q, const struct coll_nbc_args *a) OFS_HIDDEN;

/* ---- engine (nbc_engine.c) ---- */
/* len bytes of private memory for s->tmp (s->tmp_len set): a buffer that an earlier
 * request released is reused (a fresh large malloc costs page faults every time) */
void *nbc_tmp_get(struct nbc_sched *s, size_t len) OFS_HIDDEN;
/* Eager (broadcasts): a block of up to nbc_eager_len() bytes goes with its READY signal
 * into the receiver's landing area, in the sender's part (the same addresses on every PE);
 * the receiver copies it out and answers DATA.  The sender does not wait for the answer
 * in that request (owed): its eager put that reuses the place waits for it, as does its
 * next DATA wait for that member, so a request completes after one message per pair.
 * A part is NBC_EAGER_UNITS units of nbc_eager_len() / NBC_EAGER_SUB bytes used in turn:
 * a block that fits in a unit takes one, a larger one NBC_EAGER_SUB aligned units, so a
 * sender (a broadcast's root) runs up to NBC_EAGER_UNITS small requests ahead of a slow
 * member, NBC_EAGER_DEPTH large ones. */
#define NBC_EAGER_DEPTH 4 /* landing slots of nbc_eager_len() bytes per sender */
/* eager through shared memory only up to this: beyond it the second copy (out of the
 * landing area) costs more than the handshake it saves (docs/nbc.md); so no larger
 * landing slots are reserved when signals go by CPU atomics */
#define NBC_EAGER_SHM_MAX 1024
#define NBC_EAGER_SUB 4 /* units per slot */
#define NBC_EAGER_UNITS (NBC_EAGER_DEPTH * NBC_EAGER_SUB)
size_t nbc_eager_len(void) OFS_HIDDEN;
/* unit of member's part of the landing area */
char *nbc_land(struct nbc_team *nt, int member, uint32_t unit) OFS_HIDDEN;
/* Small reductions (every member's result needs every member's source) land in a second
 * area, 2 parities of nbc_rland_len() bytes per team slot: in the team's r-th small
 * reduction, part r mod 2 of member i's area holds the blocks sent to i, each at an
 * offset that one sender uses in that reduction (all to all: j x len for member j;
 * recursive doubling: by round), and nobody answers.  A member runs reduction r only
 * after it completed r - 1, which took a block of every member's r - 1 (directly or
 * folded in), sent after that member completed r - 2, so the blocks of r - 2 that r
 * overwrites have been read. */
size_t nbc_rland_len(void) OFS_HIDDEN; /* n_pes x nbc_eager_len() */
char *nbc_rland(struct nbc_team *nt, uint64_t r, size_t off) OFS_HIDDEN;
/* the two published words of my copy of the team's slot (collect): the length, and where
 * the source lies, NBC_LOC(segment, offset) (a member whose own source is NULL, giving
 * nothing, reads the others' blocks from there: GETV with cls = 1) */
uint64_t *nbc_pub(struct nbc_team *nt) OFS_HIDDEN;
#define NBC_LOC(seg, off) ((uint64_t)(seg) << 56 | (uint64_t)(off))
#define NBC_LOC_SEG(loc) ((int)((loc) >> 56))
#define NBC_LOC_OFF(loc) ((size_t)((loc) & ((1ULL << 56) - 1)))
/* passes until nothing moves, unless another thread runs one (the progress hook) */
void nbc_progress(void) OFS_HIDDEN;
/* shared with the engine thread: requests not completed, application threads in
 * shmemx_req_wait, passes that moved something (all atomic) */
extern int nbc_outstanding OFS_HIDDEN;
extern int nbc_waiters OFS_HIDDEN;
extern unsigned nbc_moves OFS_HIDDEN;
/* Calls of the application into the engine (posts, waits, tests), counted without a lock:
 * a hint for the engine thread, which stands by while they keep coming (nbc_thread.c) */
extern unsigned nbc_calls OFS_HIDDEN;
static inline void nbc_app_call(void)
{
    __atomic_store_n(&nbc_calls, __atomic_load_n(&nbc_calls, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}

/* ---- the same-node fast path (nbc_shm.c) ----
 * On a team whose members are all mapped (one node, signals by CPU atomics), a small
 * request goes through the team's ring of NBC_SHM_DEPTH entries per member in shared
 * memory instead of a schedule: the post writes my contribution (a broadcast root's block,
 * my block or source, an alltoall's n blocks; nothing for a sync) into my entries of the
 * request's numbers (up to NBC_SHM_PIECES) and publishes the numbers in the entries'
 * sequence words; completion reads the members' entries once their words show them,
 * copies (or folds) them out, then stores the last number in my completion word.  An
 * entry is written again NBC_SHM_DEPTH entries later, once every member's completion word
 * shows the request that used it (so a member runs up to NBC_SHM_DEPTH entries ahead).
 * Fast requests of a team complete in posting order; they touch nothing the schedules
 * use.  A direct request (an fcollect, alltoall or reduction too large for the ring) takes one
 * entry for its number, signature, claim word and count; its blocks go straight between
 * the members' buffers (nbc_shm.c, "Direct requests"). */
#define NBC_SHM_DEPTH 16
/* the world team's ring (its slot alone): a broadcast root of 4 KiB blocks (4 entries
 * each) runs 16 requests ahead rather than 4, which 4 PEs on 2 cores need (docs/nbc.md) */
#define NBC_SHM_DEPTH_WORLD 64
#define NBC_SHM_PIECES 4  /* entries a request may take (its contribution in pieces) */
#define NBC_DIRECT_PES 64 /* direct requests: members of a team, one claim bit each */
ofs_status_t nbc_shm_init(void) OFS_HIDDEN;
size_t nbc_shm_heap_need(void) OFS_HIDDEN; /* coll_nbc_heap_need's part */
void nbc_shm_fini(void) OFS_HIDDEN;
/* the team's fast state (nt->fring), at its first post; 0 when it has no ring */
int nbc_shm_team(struct nbc_team *nt) OFS_HIDDEN;
void nbc_shm_team_free(struct nbc_team *nt) OFS_HIDDEN;
/* what a request is, the same on every member that posted the same call (kind, root,
 * block bytes, operator, type), and its description for a message */
uint64_t nbc_sig_of(const struct coll_nbc_args *a) OFS_HIDDEN;
void nbc_sig_describe(char *buf, size_t len, uint64_t sig) OFS_HIDDEN;
/* a (the same on every member) qualifies */
int nbc_shm_fits(struct nbc_team *nt, const struct coll_nbc_args *a) OFS_HIDDEN;
/* under the engine's lock: queue q and publish my part of it, or, while its entries are
 * not free (a member has not completed the requests that used them last: it may not have
 * posted them yet), leave that to nbc_shm_advance; then complete what can be */
void nbc_shm_post(struct coll_nbc_req *q, const struct coll_nbc_args *a) OFS_HIDDEN;
/* without the lock: the entries that q reads are there (a waiter's look before it takes
 * the lock to complete it; the team's earlier fast requests may still need others) */
int nbc_shm_ready(const struct coll_nbc_req *q) OFS_HIDDEN;
/* under the engine's lock: publish the parts that their entries now have room for and
 * complete the team's fast requests that can be, in order (each completed one: state
 * DONE, nbc_outstanding down if it was counted); 1 if any */
int nbc_shm_advance(struct nbc_team *nt) OFS_HIDDEN;
/* shmem_team_destroy, before its barrier: every member has read my entries (its
 * completion word shows my last fast request); after the barrier: my ring of the slot
 * back to zero for its next team */
void nbc_shm_team_drain(struct nbc_team *nt) OFS_HIDDEN;
void nbc_shm_slot_reset(int slot) OFS_HIDDEN;
/* a completed request of the engine: state DONE, outstanding count, waiters (nbc_engine.c) */
void nbc_req_complete(struct coll_nbc_req *q, int counted) OFS_HIDDEN;

/* ---- the engine thread and the bell (nbc_thread.c) ----
 * The bell is a symmetric word per PE: bit 0 says somebody sleeps on it (futex); whoever
 * clears that bit (adding 1) wakes the sleepers.  Every signal sent through shared memory
 * looks at its receiver's bell after the counter's update, and a sleeper sets the bit
 * before its last look at the counters, so one of the two sees the other. */
extern uint64_t *nbc_bell OFS_HIDDEN;
/* after a signal (sequentially consistent) through shared memory to bell's owner */
void nbc_bell_ring(uint64_t *bell) OFS_HIDDEN;
/* Sleep on my bell (at most COLL_NAP_MAX_NS) unless done() holds once the bit is set,
 * or the bell changed since. */
void nbc_bell_nap(int (*done)(void *), void *arg) OFS_HIDDEN;
/* A request was posted and not completed at once: start the thread (first time), wake it
 * from its deep sleep, and, for a request moving at least NBC_HEAVY_MIN bytes where the
 * thread has a CPU beside its PE's (ofs_g.cpu_spare), at once from its linger (so that it
 * moves the request while the program computes). */
void nbc_thread_kick(size_t bytes) OFS_HIDDEN;
void nbc_thread_stop(void) OFS_HIDDEN;

#endif
