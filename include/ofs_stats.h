/*
 * ofs_stats.h: per-PE statistics (SHMEM_STATS; docs/stats.md), a util contract that
 * every layer may count through.  Each thread counts into a block of its own (created
 * on its first count and kept in a list, so that a dump sums them); nothing is shared
 * on the hot path.  With SHMEM_STATS unset the layers pay one test of a global flag,
 * placed where the path already branches, or nothing (the comm layer swaps its route
 * tables for counting ones at init only when the flag is set: src/comm/comm_stats.c).
 *
 * The counters form one flat array of OFS_STATS_N uint64_t, named by
 * ofs_stats_name() ("put.shm.ops", "coll.broadcast.ns", ...): it is what a dump
 * gathers and what the JSON document lists.
 */
#ifndef OFS_STATS_H
#define OFS_STATS_H

#include "ofs.h"

/* one-sided kinds counted by route */
enum ofs_stats_kind {
    OFS_STATS_PUT,
    OFS_STATS_GET,
    OFS_STATS_AMO,
    OFS_STATS_SIGNAL,
    OFS_STATS_NKIND
};
enum ofs_stats_route { OFS_STATS_SHM, OFS_STATS_OFI, OFS_STATS_NROUTE };
/* put protocols of the OFI route (ofi_put_proto_select) */
enum ofs_stats_proto { OFS_STATS_INJECT, OFS_STATS_BOUNCE, OFS_STATS_ZCOPY, OFS_STATS_NPROTO };
/* two-sided messages (src/msg): OFS_STATS_MSG(OFS_STATS_SEND, len) */
enum ofs_stats_msg { OFS_STATS_SEND, OFS_STATS_RECV, OFS_STATS_NMSG };
/* collectives by kind; OFS_STATS_C_NONE marks library work that is not one (shmem_malloc's
 * barriers): its traffic is not the program's puts and AMOs, and it counts nothing */
enum ofs_stats_coll {
    OFS_STATS_C_BARRIER,
    OFS_STATS_C_SYNC,
    OFS_STATS_C_BROADCAST,
    OFS_STATS_C_COLLECT,
    OFS_STATS_C_FCOLLECT,
    OFS_STATS_C_ALLTOALL,
    OFS_STATS_C_ALLTOALLS,
    OFS_STATS_C_REDUCE,
    OFS_STATS_C_SCAN,
    OFS_STATS_NCOLL,
    OFS_STATS_C_NONE = OFS_STATS_NCOLL,
    OFS_STATS_C_QUIET /* a quiet of the program: counted (ops, ns), not a collective */
};

/* The flat counter array: index of each counter. */
#define OFS_STATS_I_RMA(kind, route, bytes) ((((kind)*OFS_STATS_NROUTE + (route)) << 1) | (bytes))
#define OFS_STATS_I_INTERNAL(route, bytes) \
    OFS_STATS_I_RMA(OFS_STATS_NKIND, route, bytes) /* library traffic of collectives */
#define OFS_STATS_I_PROTO0 OFS_STATS_I_RMA(OFS_STATS_NKIND + 1, 0, 0)
#define OFS_STATS_I_PROTO(p, bytes) (OFS_STATS_I_PROTO0 + ((p) << 1) + (bytes))
#define OFS_STATS_I_MSG0 OFS_STATS_I_PROTO(OFS_STATS_NPROTO, 0)
#define OFS_STATS_I_MSG(d, bytes) (OFS_STATS_I_MSG0 + ((d) << 1) + (bytes))
#define OFS_STATS_I_COLL0 OFS_STATS_I_MSG(OFS_STATS_NMSG, 0)
/* what: 0 calls, 1 bytes (the call's nelems x element size), 2 ns inside the call */
#define OFS_STATS_I_COLL(c, what) (OFS_STATS_I_COLL0 + (c)*3 + (what))
#define OFS_STATS_I_QUIET_OPS OFS_STATS_I_COLL(OFS_STATS_NCOLL, 0)
#define OFS_STATS_I_QUIET_NS (OFS_STATS_I_QUIET_OPS + 1)
#define OFS_STATS_I_WAIT_OPS (OFS_STATS_I_QUIET_OPS + 2) /* waits that waited (not in a coll) */
#define OFS_STATS_I_WAIT_NS (OFS_STATS_I_QUIET_OPS + 3)
#define OFS_STATS_I_TEST_MISS (OFS_STATS_I_QUIET_OPS + 4) /* shmem_test looks that found nothing */
#define OFS_STATS_N (OFS_STATS_I_QUIET_OPS + 5)

/* top target PEs by bytes (puts, gets, AMOs, signals outside collectives): exact for
 * jobs of up to OFS_STATS_PE_EXACT PEs, else a heavy-hitters table of OFS_STATS_TOP */
#define OFS_STATS_PE_EXACT 1024
#define OFS_STATS_TOP 16

struct ofs_stats_block {
    uint64_t v[OFS_STATS_N];        /* the .ns ones in clock ticks until ofs_stats_snapshot */
    uint64_t *pe_bytes;             /* n_pes entries (n_pes <= OFS_STATS_PE_EXACT) */
    uint64_t top_pe[OFS_STATS_TOP]; /* else: the heavy hitters (pe, bytes) */
    uint64_t top_bytes[OFS_STATS_TOP];
    int depth;        /* inside a collective or quiet scope */
    uint64_t wait_t0; /* a point-to-point wait's start (0: none) */
    struct ofs_stats_block *next;
};

/* Nonzero while counting (SHMEM_STATS=1 after init; 0 during a dump). */
extern int ofs_stats_on OFS_HIDDEN;
/* SHMEM_STATS was set at init (the dump's own traffic pauses ofs_stats_on). */
extern int ofs_stats_enabled OFS_HIDDEN;
/* initial-exec: one pointer of the static TLS surplus that glibc keeps for dlopen, read
 * without a call to __tls_get_addr */
extern __thread struct ofs_stats_block *ofs_stats_tls OFS_HIDDEN
    __attribute__((tls_model("initial-exec")));

struct ofs_stats_block *ofs_stats_block_new(void) OFS_HIDDEN;
static inline struct ofs_stats_block *ofs_stats_me(void)
{
    struct ofs_stats_block *b = ofs_stats_tls;
    return OFS_LIKELY(b != NULL) ? b : ofs_stats_block_new();
}

/* ---- the hooks: one line each, all behind ofs_stats_on ---- */

/* A put/get/AMO/signal of len bytes to pe by route (the comm layer's counting routes). */
void ofs_stats_top_add(struct ofs_stats_block *b, int pe, uint64_t len) OFS_HIDDEN;
static inline void ofs_stats_rma(int kind, int route, size_t len, int pe)
{
    struct ofs_stats_block *b = ofs_stats_me();

    if (OFS_UNLIKELY(b->depth)) {
        b->v[OFS_STATS_I_INTERNAL(route, 0)]++;
        b->v[OFS_STATS_I_INTERNAL(route, 1)] += len;
        return;
    }
    b->v[OFS_STATS_I_RMA(kind, route, 0)]++;
    b->v[OFS_STATS_I_RMA(kind, route, 1)] += len;
    if (OFS_LIKELY(b->pe_bytes != NULL))
        b->pe_bytes[pe] += len;
    else
        ofs_stats_top_add(b, pe, len);
}
/* An OFI put sent by protocol p (outside collectives). */
#define OFS_STATS_PROTO(p, len)          \
    do {                                 \
        if (OFS_UNLIKELY(ofs_stats_on))  \
            ofs_stats_proto_add(p, len); \
    } while (0)
void ofs_stats_proto_add(int p, size_t len) OFS_HIDDEN;
/* For src/msg: a message sent or received (d: OFS_STATS_SEND, OFS_STATS_RECV). */
#define OFS_STATS_MSG(d, len)                                          \
    do {                                                               \
        if (OFS_UNLIKELY(ofs_stats_on)) {                              \
            struct ofs_stats_block *ofs_stats_b_ = ofs_stats_me();     \
            ofs_stats_b_->v[OFS_STATS_I_MSG(d, 0)]++;                  \
            ofs_stats_b_->v[OFS_STATS_I_MSG(d, 1)] += (uint64_t)(len); \
        }                                                              \
    } while (0)
/* Count one event (a counter index). */
#define OFS_STATS_COUNT(i)              \
    do {                                \
        if (OFS_UNLIKELY(ofs_stats_on)) \
            ofs_stats_me()->v[i]++;     \
    } while (0)

/* A wait loop (COMM_WAIT_UNTIL) starts to wait / has ended (comm_wait.c). */
void ofs_stats_wait_begin(void) OFS_HIDDEN;
void ofs_stats_wait_end_(void) OFS_HIDDEN;
static inline void ofs_stats_wait_end(void)
{
    if (OFS_UNLIKELY(ofs_stats_on))
        ofs_stats_wait_end_();
}

/* OFS_STATS_SCOPE(c, bytes, timed): count the enclosing block, to its end, as
 * collective c (or a quiet, or OFS_STATS_C_NONE) of bytes, timed when timed is nonzero;
 * traffic and waits inside it count as the collective's, not the program's.  The
 * arguments are evaluated only while counting. */
uint64_t ofs_stats_scope_begin(int c, size_t bytes, int timed) OFS_HIDDEN;
void ofs_stats_scope_end_(uint64_t s) OFS_HIDDEN;
static inline void ofs_stats_scope_end(uint64_t *s)
{
    if (OFS_UNLIKELY(*s))
        ofs_stats_scope_end_(*s);
}
#define OFS_STATS_SCOPE(c, bytes, timed)                                              \
    uint64_t ofs_stats_scope_ __attribute__((cleanup(ofs_stats_scope_end), unused)) = \
        OFS_UNLIKELY(ofs_stats_on) ? ofs_stats_scope_begin(c, bytes, timed) : 0

/* ---- set-up and reading ---- */
/* At init (n_pes known): counting on if on. */
void ofs_stats_start(int on) OFS_HIDDEN;
/* Sum every thread's block into v[OFS_STATS_N], and this PE's top targets (by bytes,
 * descending) into pe[ntop], bytes[ntop] (pe -1: none). */
void ofs_stats_snapshot(uint64_t *v, int64_t *pe, uint64_t *bytes, int ntop) OFS_HIDDEN;
/* Zero every thread's counters. */
void ofs_stats_reset(void) OFS_HIDDEN;
/* The name of counter i ("put.shm.ops"). */
const char *ofs_stats_name(int i) OFS_HIDDEN;
/* A counter of nanoseconds (printed as seconds in the table). */
int ofs_stats_is_ns(int i) OFS_HIDDEN;
/* Write the table of n_pes rows of vals (each OFS_STATS_N + 2 * ntop) to out, and the
 * JSON document to json (may be NULL). */
void ofs_stats_print(FILE *out, FILE *json, int n_pes, uint64_t *vals, int ntop) OFS_HIDDEN;

#endif
