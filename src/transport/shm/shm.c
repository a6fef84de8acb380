/*
 * The same-node transport: every same-node peer's segments are mapped once at
 * connect; puts and gets are memcpy, atomics are CPU atomics on the mapped word,
 * fence/quiet are memory barriers.  Signals are stored after their data with
 * release semantics.
 *
 * No CMA (process_vm_writev/readv) path: a mapped store beats it at every size
 * (test/performance/perf_cma; figures in docs/performance.md and ofishmem_shm(7)), and
 * CMA can do neither atomics nor shmem_ptr.  Static data is therefore remapped onto
 * shared memory at init (src/heap/heap_seg.c).
 */
#define _GNU_SOURCE
#include "transport.h"
#include "heap.h"
#include "rt.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct shm_state {
    unsigned char *peers;    /* n_pes: mapped */
    char **base[HEAP_NSEGS]; /* n_pes each: peer segment base in our address space */
};
static struct shm_state shm;

static ofs_status_t shm_init(const unsigned char *peers)
{
    shm.peers = calloc(ofs_g.n_pes, 1);
    for (int s = 0; s < HEAP_NSEGS; s++)
        shm.base[s] = calloc(ofs_g.n_pes, sizeof(char *));
    if (!shm.peers || !shm.base[0] || !shm.base[1])
        return OFS_ERR_NOMEM;
    memcpy(shm.peers, peers, ofs_g.n_pes);
    return OFS_OK;
}

static ofs_status_t shm_map_peer(int pe, int seg)
{
    char name[sizeof(heap_g.seg[0].name)];
    size_t len = heap_g.seg[seg].len; /* same executable, same heap size on every PE */
    ofs_status_t st;
    int fd;
    void *p;

    st = heap_peer_name(pe, seg, name, sizeof(name));
    if (st != OFS_OK)
        return st;
    fd = heap_obj_open(name, O_RDWR, 0);
    if (fd < 0) {
        ofs_log_error("shm: cannot open PE %d's segment %s: %m", pe, name);
        return OFS_ERR_IO;
    }
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        ofs_log_error("shm: mmap of PE %d's segment %s (%zu bytes) failed: %m", pe, name, len);
        return OFS_ERR_NOMEM;
    }
    shm.base[seg][pe] = p;
    return OFS_OK;
}

static ofs_status_t shm_connect(void)
{
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        if (!shm.peers[pe])
            continue;
        for (int s = 0; s < HEAP_NSEGS; s++) {
            if (pe == ofs_g.my_pe) {
                shm.base[s][pe] = heap_g.seg[s].base;
                continue;
            }
            ofs_status_t st = shm_map_peer(pe, s);
            if (st != OFS_OK)
                return st;
        }
    }
    return OFS_OK;
}

static void shm_fini(void)
{
    for (int pe = 0; shm.peers && pe < ofs_g.n_pes; pe++) {
        if (!shm.peers[pe] || pe == ofs_g.my_pe)
            continue;
        for (int s = 0; s < HEAP_NSEGS; s++)
            if (shm.base[s][pe])
                munmap(shm.base[s][pe], heap_g.seg[s].len);
    }
    for (int s = 0; s < HEAP_NSEGS; s++) {
        free(shm.base[s]);
        shm.base[s] = NULL;
    }
    free(shm.peers);
    shm.peers = NULL;
}

static ofs_status_t shm_ctx_create(struct comm_ctx *ctx)
{
    ctx->tp[COMM_TP_SHM] = NULL;
    return OFS_OK;
}

static void shm_ctx_destroy(struct comm_ctx *ctx)
{
    (void)ctx;
}

static inline char *shm_addr(int seg, size_t off, int pe)
{
    return shm.base[seg][pe] + off;
}

static void shm_put(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len, int pe)
{
    memcpy(shm_addr(seg, off, pe), src, len);
}

static void shm_get(struct comm_ctx *ctx, void *dst, int seg, size_t off, size_t len, int pe)
{
    memcpy(dst, shm_addr(seg, off, pe), len);
}

#define SHM_AMO_INT(T)                                                                       \
    static void shm_amo_##T(enum comm_amo_op op, T *p, const T *v, const T *c, T *r)         \
    {                                                                                        \
        T old;                                                                               \
        switch (op) {                                                                        \
        case COMM_AMO_SET: old = __atomic_exchange_n(p, *v, __ATOMIC_SEQ_CST); break;        \
        case COMM_AMO_ADD: old = __atomic_fetch_add(p, *v, __ATOMIC_SEQ_CST); break;         \
        case COMM_AMO_AND: old = __atomic_fetch_and(p, *v, __ATOMIC_SEQ_CST); break;         \
        case COMM_AMO_OR: old = __atomic_fetch_or(p, *v, __ATOMIC_SEQ_CST); break;           \
        case COMM_AMO_XOR: old = __atomic_fetch_xor(p, *v, __ATOMIC_SEQ_CST); break;         \
        case COMM_AMO_FETCH: old = __atomic_load_n(p, __ATOMIC_SEQ_CST); break;              \
        case COMM_AMO_CSWAP:                                                                 \
            old = *c;                                                                        \
            __atomic_compare_exchange_n(p, &old, *v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
            break;                                                                           \
        default: ofs_fatal(1, "shm: atomic op %d unsupported", (int)op);                     \
        }                                                                                    \
        if (r)                                                                               \
            *r = old;                                                                        \
    }
SHM_AMO_INT(uint32_t)
SHM_AMO_INT(uint64_t)

/* Floating-point atomics: set/fetch/swap/cswap on the bit pattern, add by CAS loop. */
#define SHM_AMO_FP(T, U)                                                                       \
    static void shm_amo_##T(enum comm_amo_op op, T *p, const T *v, const T *c, T *r)           \
    {                                                                                          \
        U *w = (U *)p, old, nv;                                                                \
        T f;                                                                                   \
        if (op != COMM_AMO_ADD) {                                                              \
            shm_amo_##U(op, w, (const U *)v, (const U *)c, (U *)r);                            \
            return;                                                                            \
        }                                                                                      \
        old = __atomic_load_n(w, __ATOMIC_RELAXED);                                            \
        do {                                                                                   \
            memcpy(&f, &old, sizeof(f));                                                       \
            f += *v;                                                                           \
            memcpy(&nv, &f, sizeof(f));                                                        \
        } while (                                                                              \
            !__atomic_compare_exchange_n(w, &old, nv, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)); \
        if (r)                                                                                 \
            memcpy(r, &old, sizeof(old));                                                      \
    }
SHM_AMO_FP(float, uint32_t)
SHM_AMO_FP(double, uint64_t)

static void shm_amo(struct comm_ctx *ctx, enum comm_amo_op op, enum comm_dtype dt, int seg,
                    size_t off, const void *operand, const void *cmp, void *result, int pe, int nbi)
{
    void *p = shm_addr(seg, off, pe);

    switch (dt) {
    case COMM_DT_I32:
    case COMM_DT_U32: shm_amo_uint32_t(op, p, operand, cmp, result); break;
    case COMM_DT_I64:
    case COMM_DT_U64: shm_amo_uint64_t(op, p, operand, cmp, result); break;
    case COMM_DT_FLOAT: shm_amo_float(op, p, operand, cmp, result); break;
    case COMM_DT_DOUBLE: shm_amo_double(op, p, operand, cmp, result); break;
    default: ofs_fatal(1, "shm: atomic type %d unsupported", (int)dt);
    }
}

static void shm_put_signal(struct comm_ctx *ctx, int seg, size_t off, const void *src, size_t len,
                           int sig_seg, size_t sig_off, uint64_t signal, int sig_op, int pe,
                           int nbi)
{
    uint64_t *sig = (uint64_t *)shm_addr(sig_seg, sig_off, pe);

    memcpy(shm_addr(seg, off, pe), src, len);
    if (sig_op & COMM_SIG_ADD)
        __atomic_fetch_add(sig, signal, __ATOMIC_RELEASE);
    else
        __atomic_store_n(sig, signal, __ATOMIC_RELEASE);
}

static void shm_fence(struct comm_ctx *ctx)
{
    atomic_thread_fence(memory_order_release);
}

static void shm_quiet(struct comm_ctx *ctx)
{
    atomic_thread_fence(memory_order_seq_cst);
}

static void *shm_ptr(int seg, size_t off, int pe)
{
    return shm.peers && shm.peers[pe] ? shm_addr(seg, off, pe) : NULL;
}

const struct transport_ops shm_transport_ops = {
    .name = "shm",
    .init = shm_init,
    .connect = shm_connect,
    .fini = shm_fini,
    .ctx_create = shm_ctx_create,
    .ctx_destroy = shm_ctx_destroy,
    .put = shm_put,
    .put_nbi = shm_put,
    .get = shm_get,
    .get_nbi = shm_get,
    .put_signal = shm_put_signal,
    .amo = shm_amo,
    .fence = shm_fence,
    .quiet = shm_quiet,
    .ptr = shm_ptr,
    .progress = NULL,
    .traffic = NULL,
    .wait_sleep = NULL,
    .attend = NULL,
};
