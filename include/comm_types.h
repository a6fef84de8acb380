/*
 * comm_types.h: the types shared by the comm layer and the transports.
 */
#ifndef OFS_COMM_TYPES_H
#define OFS_COMM_TYPES_H

#include "ofs.h"
#include <pthread.h>

/* Element types of atomic operations, by width and kind. */
enum comm_dtype {
    COMM_DT_I32,
    COMM_DT_I64,
    COMM_DT_U32,
    COMM_DT_U64,
    COMM_DT_FLOAT,
    COMM_DT_DOUBLE,
    COMM_DT_COUNT
};
static inline size_t comm_dtype_size(enum comm_dtype dt)
{
    return (dt == COMM_DT_I32 || dt == COMM_DT_U32 || dt == COMM_DT_FLOAT) ? 4 : 8;
}

/* Atomic operations.  Any op with a non-NULL result also fetches the old value:
 * SET+result is swap, ADD+result fetch-add, FETCH is an atomic read, CSWAP always fetches. */
enum comm_amo_op {
    COMM_AMO_SET,
    COMM_AMO_ADD,
    COMM_AMO_AND,
    COMM_AMO_OR,
    COMM_AMO_XOR,
    COMM_AMO_FETCH,
    COMM_AMO_CSWAP,
    COMM_AMO_COUNT
};

/* put_signal operations (values equal SHMEM_SIGNAL_SET / SHMEM_SIGNAL_ADD). */
enum comm_sig_op { COMM_SIG_SET = 0, COMM_SIG_ADD = 1 };
/* Or'd into the operation by the collectives: a signal whose target waits for it, which
 * no later quiet or fence of the sender needs applied (a transport that applies
 * signals at the target then does not track it: the OFI signal messages) */
#define COMM_SIG_COLL 2

/* Point-to-point comparisons of comm_test_cmp (values equal SHMEM_CMP_EQ..SHMEM_CMP_GE). */
enum comm_cmp {
    COMM_CMP_EQ = 1,
    COMM_CMP_NE = 2,
    COMM_CMP_GT = 3,
    COMM_CMP_LE = 4,
    COMM_CMP_LT = 5,
    COMM_CMP_GE = 6
};

/* Which transport carries a route. */
enum comm_tp_id { COMM_TP_SHM = 0, COMM_TP_OFI = 1, COMM_NTP = 2 };

struct coll_team;
struct comm_ctx_pool;

/* A communication context (shmem_ctx_t points at one).  Each transport keeps its
 * per-context state in tp[] (created by its ctx_create).  Every context but the
 * default one lives in a slot of comm_g.ctxs (ofs_handle.h): magic first.  Written by
 * the comm layer only; the layers above read team. */
/* ctx->options: a context of shmem_ctx_create, which a transport may back with resources
 * shared with other such contexts (not a SHMEM_CTX_* bit) */
#define COMM_CTX_USER (1L << 40)

struct comm_ctx {
    uint32_t magic;             /* COMM_CTX_LIVE while the program may use it */
    long options;               /* SHMEM_CTX_* bits (the transports serialise on them) */
    struct coll_team *team;     /* team it was created on */
    struct comm_ctx_pool *pool; /* its team's SHMEM_TEAM_NUM_CONTEXTS pool, if any */
    void *tp[COMM_NTP];
    struct comm_ctx *next; /* list of live contexts */
};

#endif
