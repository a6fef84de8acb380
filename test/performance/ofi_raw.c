/*
 * ofi_raw: the raw-libfabric yardstick for ofishmem's OFI route.  Libfabric + PMIx
 * only (no libsma), 2 processes started by scripts/oshrun or mpiexec.  It runs the
 * patterns of perf_lat, perf_bw, perf_rate and perf_pingpong under the same test
 * names, written with the fewest libfabric calls that give the same guarantees:
 *
 *   put8_quiet / int_p_quiet  8/4-byte write, then wait until it is in the target's
 *                      memory: fi_writemsg(FI_INJECT|FI_DELIVERY_COMPLETE) + counter
 *                      wait where delivery completion is usable; on shm (writes
 *                      by CMA) fi_inject_write + counter; otherwise
 *                      fi_inject_write + one fi_fetch_atomic(FI_ATOMIC_READ) of the
 *                      target (executed there after the write) + counter wait
 *   get8 / int_g       fi_read + counter wait
 *   fetch_add          fi_fetch_atomic(FI_SUM, FI_INT64) + counter wait
 *   add_quiet          fi_inject_atomic (+ flush read as above) / fi_atomicmsg with
 *                      FI_INJECT|FI_DELIVERY_COMPLETE + counter wait
 *   put8_pingpong_rtt  the two processes take turns: put 8 B into the peer's word (as
 *   put8_pingpong_wait put8_quiet), then poll their own word, driving progress (one
 *                      measurement, two names: perf_lat's forms that wait outside and
 *                      inside the library)
 *   put_bw / get_bw    a stream of blocking puts/gets (1 KiB .. --max): as put8_quiet
 *                      up to the inject size, else fi_write (default completion: the
 *                      source is reusable) / fi_read + counter wait; at the end the
 *                      flush read where a write was not delivery-complete
 *   put8_rate, add_rate  windows of 64 fi_inject_write / fi_inject_atomic + completion
 *   fetch_add_rate     fetch-adds one after the other on 64 words
 *   putsig_pingpong    perf_pingpong's message ping-pong (1 B .. --max): the data as
 *                      put_bw, then (after completing it where the provider does not
 *                      order writes after writes) an 8-byte signal written like
 *                      put8_quiet's, the peer polling its signal word; usec per
 *                      transfer (half a round trip), best of 10 bursts
 *
 * The target process drives progress by polling its CQ (it spins: this is the best
 * raw libfabric can do; ofishmem's target sleeps in a barrier or computes and relies
 * on its progress thread).  Every timed value is the best of 3 runs (bursts for the
 * ping-pong), like the library's benchmarks; output is bench.h's table and --csv.
 *
 * Provider: --provider NAME, else $SHMEM_OFI_PROVIDER, else $FI_PROVIDER, else the
 * first one libfabric offers.  --complete flush|delivery forces the completion method.
 * --target-wait fd opens the CQ with a wait fd, as ofishmem's target endpoint has one
 * (so that a PE can sleep until an operation aimed at it arrives): the process still
 * spins, the provider's cost of keeping the wait object is what it measures.
 * --endpoints 2 shapes it like ofishmem: operations go out through one endpoint and
 * arrive at the peer's other one (the target endpoint, whose address is the one
 * exchanged; with --target-wait fd it is the target's CQ that has the wait fd), and
 * polling reads both CQs.  Not with providers that need FI_MR_ENDPOINT.
 * --target-sleep waits as ofishmem must (the rule that passive progress never spins):
 * the waits for the peer back off as ofishmem's do and sleep on the receiving CQ's
 * wait fd (with --target-wait fd; else by nanosleep), the waits for its own completions
 * back off as ofishmem's context waits do, and a progress thread, standing by while the
 * process waits, serves while it does not (the ping-pong polling memory: its rtt row);
 * FI_RMA_EVENT is asked for where the provider has it (its counter restarts the
 * spinning, as ofishmem's traffic check does).  Needs --threading safe; with
 * --endpoints 2 it is shaped as ofishmem is (only the target CQ wakes the thread).
 * --threading safe opens the domain FI_THREAD_SAFE (as ofishmem does) instead of
 * FI_THREAD_DOMAIN: the provider's own locking, which ofishmem pays on every call;
 * --threading completion or endpoint asks for those levels (libfabric 1.17, one run
 * each of the latency and rate tests: no level differed from another beyond the
 * run-to-run spread, over shm or tcp;ofi_rxm).
 */
#include "bench.h"

#include <pmix.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WINDOW 64
#define CTRL 4096 /* control words at the start of the registered region */

/* control words: ping-pong, atomics, put/get target, flush and fetch results, a
 * registered 8-byte source, the barrier, the rate test's 64 words */
enum {
    W_PP = 0,
    W_AMO = 8,
    W_DATA = 16,
    W_FLUSH = 24,
    W_FRES = 32,
    W_SRC = 40,
    W_SEQ = 48,
    W_RATE = 64
};

struct peer_info {
    uint64_t base, key;
    uint32_t namelen;
    char name[256];
};

static struct {
    int me;
    pmix_proc_t proc;
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_ep *ep;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *tep; /* --endpoints 2: the target endpoint (else NULL) */
    struct fid_cq *tcq;
    struct fid_cntr *pcntr, *gcntr;
    struct fid_mr *mr;
    void *desc;
    char *mem; /* CTRL bytes of words, the target buffer, the source buffer */
    size_t max;
    fi_addr_t peer;
    uint64_t rbase, rkey;
    uint64_t put_issued, get_issued;
    int dc;          /* writes and non-fetching atomics complete on delivery */
    int put_visible; /* a completed write is in the target's memory (shm: CMA) */
    int need_flush;  /* transmit-complete writes since the last completion */
    int ordered_waw; /* the provider orders writes after writes */
    size_t inject;
    /* --target-sleep */
    int sleep;
    int cq_fd;              /* the wait fd of the CQ that receives (-1: none) */
    struct fid_cq *rcq;     /* that CQ */
    struct fid_cntr *rcntr; /* FI_RMA_EVENT counter of remote accesses (NULL: none) */
    uint64_t rseen;
} R = { .cq_fd = -1 };

#define DIE(...)                                \
    do {                                        \
        fprintf(stderr, "ofi_raw[%d]: ", R.me); \
        fprintf(stderr, __VA_ARGS__);           \
        fprintf(stderr, "\n");                  \
        exit(1);                                \
    } while (0)
#define CK(call)                                                     \
    do {                                                             \
        ssize_t rc_ = (call);                                        \
        if (rc_)                                                     \
            DIE("%s: %s (%zd)", #call, fi_strerror((int)-rc_), rc_); \
    } while (0)
/* post an operation, driving progress while the provider says EAGAIN */
#define POST(call)                                                   \
    do {                                                             \
        ssize_t rc_;                                                 \
        while ((rc_ = (call)) == -FI_EAGAIN)                         \
            progress();                                              \
        if (rc_)                                                     \
            DIE("%s: %s (%zd)", #call, fi_strerror((int)-rc_), rc_); \
    } while (0)

static void poll_cq(struct fid_cq *cq, const char *what)
{
    struct fi_cq_entry e[4];
    ssize_t n = fi_cq_read(cq, e, 4);

    if (n < 0 && n != -FI_EAGAIN) {
        struct fi_cq_err_entry err = { 0 };
        fi_cq_readerr(cq, &err, 0);
        DIE("fi_cq_read (%s): %s (err %d: %s)", what, fi_strerror((int)-n), err.err,
            fi_strerror(err.err));
    }
}

static void progress(void)
{
    poll_cq(R.cq, "endpoint");
    if (R.tcq) /* only ever holds errors */
        poll_cq(R.tcq, "target endpoint");
}

/* --target-sleep also has the waits for this process's own completions back off as
 * ofishmem's do (ofi_ctx_wait: 64 looks spinning, 256 yielding, then sleeps of 1 us
 * doubling to 100 us; past the spinning the progress thread stands by): a waiter that
 * spins holds a CPU that the peer may need */
static int own_backoff;
static void app_wait(int on);

static void wait_cntr(struct fid_cntr *c, uint64_t v)
{
    unsigned i = 0;

    while (fi_cntr_read(c) < v) {
        if (fi_cntr_readerr(c))
            DIE("counter error");
        if (!own_backoff || i++ < 64)
            continue;
        if (i == 65)
            app_wait(1);
        if (i < 64 + 256) {
            sched_yield();
        } else {
            unsigned shift = i - 64 - 256;
            struct timespec ts = { 0, shift < 7 ? 1000L << shift : 100000L };
            nanosleep(&ts, NULL);
        }
    }
    if (own_backoff && i > 64)
        app_wait(0);
}

/* --target-sleep: the waits for the peer (the barrier, the ping-pong's waits) back off
 * as ofishmem's waits over OFI do (include/ofs_backoff.h, comm_wait_backoff; 2 PEs with
 * a CPU each): each look drives progress; 64 looks spin, 256 yield, then the waiter
 * sleeps 1 us doubling to 100 us, on the receiving CQ's wait fd where it has one
 * (fi_trywait + ppoll; woken by traffic it spins again), else by nanosleep; remote
 * accesses seen on the FI_RMA_EVENT counter (where the provider has one) restart the
 * spinning.  A progress thread (below) serves while the process is in no wait, as
 * ofishmem's does: it sleeps on the CQ's wait fd (at most 1 ms:
 * SHMEM_OFI_PROGRESS_INTERVAL), or without one for a quarter of the time since the
 * last remote access, between 100 us and 1 ms.  Without the option the waits spin. */
#define SPINS 64
#define YIELDS 256
#define NAP_MAX_NS 1000000L
#define NAP_MIN_NS 100000L
#define MAX_SLEEP_NS 100000L

static int traffic(void)
{
    uint64_t v;

    if (!R.rcntr)
        return 0;
    v = fi_cntr_read(R.rcntr);
    if (v == R.rseen)
        return 0;
    R.rseen = v;
    return 1;
}

/* one sleep of the progress thread (ofi_progress_main); *last: when traffic was last seen */
static void nap(int64_t *last, int stop_fd)
{
    struct pollfd pfd[2] = { { .fd = R.cq_fd, .events = POLLIN },
                             { .fd = stop_fd, .events = POLLIN } };
    int64_t now = (int64_t)(bench_now_us() * 1000), ns = NAP_MAX_NS;
    struct timespec ts;

    if (traffic() || *last == 0)
        *last = now;
    if (R.cq_fd >= 0) {
        struct fid *f = &R.rcq->fid;
        if (fi_trywait(R.fabric, &f, 1) != FI_SUCCESS)
            return; /* events pending */
    } else {
        ns = (now - *last) / 4;
        ns = ns < NAP_MIN_NS ? NAP_MIN_NS : ns > NAP_MAX_NS ? NAP_MAX_NS : ns;
    }
    ts.tv_sec = 0;
    ts.tv_nsec = ns;
    if (R.cq_fd >= 0)
        ppoll(pfd, stop_fd >= 0 ? 2 : 1, &ts, NULL);
    else if (stop_fd >= 0)
        ppoll(pfd + 1, 1, &ts, NULL);
    else
        nanosleep(&ts, NULL);
}

/* The progress thread (--target-sleep) stands by while the main thread polls in a
 * wait (app_waiting), as ofishmem's does (ofi_attend) */
static int app_waiting;

static void futex_wait(void *w, uint32_t v, long ns)
{
    struct timespec ts = { 0, ns };
    syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, &ts, NULL, 0);
}
static void futex_wake(void *w)
{
    syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
static void app_wait(int on)
{
    __atomic_store_n(&app_waiting, on, __ATOMIC_SEQ_CST);
    if (!on)
        futex_wake(&app_waiting);
}
static int word_holds(volatile uint64_t *w, uint64_t v, int eq)
{
    uint64_t x = *w;
    return eq ? x == v : x >= v;
}

/* wait until *w == v (eq) or *w >= v, driving progress (the ping-pong's and the
 * barrier's waits): spinning, or with --target-sleep as ofishmem's waits do */
static void wait_word(volatile uint64_t *w, uint64_t v, int eq)
{
    unsigned i = 0;

    if (R.sleep)
        app_wait(1);
    while (!word_holds(w, v, eq)) {
        progress();
        if (!R.sleep)
            continue;
        if (i >= SPINS && traffic()) {
            i = 1;
            continue;
        }
        if (i < SPINS) {
            i++;
            continue;
        }
        if (i < SPINS + YIELDS) {
            i++;
            sched_yield();
            continue;
        }
        /* sleep on the wait fd (woken by traffic: spin again), or for that long */
        unsigned shift = i++ - SPINS - YIELDS;
        long ns = shift < 7 ? 1000L << shift : MAX_SLEEP_NS;
        struct timespec ts = { 0, ns < MAX_SLEEP_NS ? ns : MAX_SLEEP_NS };
        if (R.cq_fd >= 0) {
            struct fid *f = &R.rcq->fid;
            struct pollfd pfd = { .fd = R.cq_fd, .events = POLLIN };
            if (fi_trywait(R.fabric, &f, 1) != FI_SUCCESS || ppoll(&pfd, 1, &ts, NULL) > 0)
                i = 0;
        } else
            nanosleep(&ts, NULL);
    }
    if (R.sleep)
        app_wait(0);
}

static int pt_stop_fd = -1;
static volatile int pt_stop;

static void *progress_thread(void *arg)
{
    int64_t last = 0;

    (void)arg;
    while (!pt_stop) {
        if (__atomic_load_n(&app_waiting, __ATOMIC_SEQ_CST)) {
            futex_wait(&app_waiting, 1, NAP_MAX_NS); /* stand by */
            continue;
        }
        poll_cq(R.rcq, "progress thread");
        nap(&last, pt_stop_fd);
    }
    return NULL;
}

static uint64_t raddr(size_t off)
{
    return ((R.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? R.rbase : 0) + off;
}

/* ---- the operations ---- */
static void put_small(size_t off, const void *src, size_t len)
{
    if (R.dc) {
        struct iovec iov = { (void *)src, len };
        struct fi_rma_iov riov = { raddr(off), len, R.rkey };
        struct fi_msg_rma msg = { .msg_iov = &iov,
                                  .desc = &R.desc,
                                  .iov_count = 1,
                                  .addr = R.peer,
                                  .rma_iov = &riov,
                                  .rma_iov_count = 1 };
        POST(fi_writemsg(R.ep, &msg, FI_INJECT | FI_DELIVERY_COMPLETE));
        R.put_issued++;
    } else {
        POST(fi_inject_write(R.ep, src, len, R.peer, raddr(off), R.rkey));
        R.put_issued++;
        R.need_flush |= !R.put_visible;
    }
}

/* everything issued is complete, and writes are in the target's memory */
static void complete(void)
{
    if (R.need_flush) {
        uint64_t *res = (uint64_t *)(R.mem + W_FLUSH);
        POST(fi_fetch_atomic(R.ep, res, 1, R.desc, res, R.desc, R.peer, raddr(W_FLUSH), R.rkey,
                             FI_UINT64, FI_ATOMIC_READ, NULL));
        R.get_issued++;
        R.need_flush = 0;
    }
    wait_cntr(R.pcntr, R.put_issued);
    wait_cntr(R.gcntr, R.get_issued);
}

static void put_blocking(size_t off, const void *src, size_t len)
{
    if (len <= R.inject) {
        put_small(off, src, len);
        return;
    }
    /* the endpoint's default completion (op flags without FI_DELIVERY_COMPLETE): the
     * source is reusable, the data may still be on its way: complete() flushes */
    POST(fi_write(R.ep, src, len, R.desc, R.peer, raddr(off), R.rkey, NULL));
    R.put_issued++;
    R.need_flush |= !R.put_visible;
    wait_cntr(R.pcntr, R.put_issued); /* the source may be reused on return */
}

static void get_blocking(void *dst, size_t off, size_t len)
{
    POST(fi_read(R.ep, dst, len, R.desc, R.peer, raddr(off), R.rkey, NULL));
    wait_cntr(R.gcntr, ++R.get_issued);
}

static int64_t fetch_add(size_t off, int64_t v)
{
    int64_t *res = (int64_t *)(R.mem + W_FRES);
    POST(fi_fetch_atomic(R.ep, &v, 1, R.desc, res, R.desc, R.peer, raddr(off), R.rkey, FI_INT64,
                         FI_SUM, NULL));
    wait_cntr(R.gcntr, ++R.get_issued);
    return *res;
}

static void add_nbi(size_t off, int64_t v)
{
    if (R.dc) {
        struct fi_ioc ioc = { &v, 1 };
        struct fi_rma_ioc rioc = { raddr(off), 1, R.rkey };
        struct fi_msg_atomic msg = { .msg_iov = &ioc,
                                     .desc = &R.desc,
                                     .iov_count = 1,
                                     .addr = R.peer,
                                     .rma_iov = &rioc,
                                     .rma_iov_count = 1,
                                     .datatype = FI_INT64,
                                     .op = FI_SUM };
        POST(fi_atomicmsg(R.ep, &msg, FI_INJECT | FI_DELIVERY_COMPLETE));
    } else {
        POST(fi_inject_atomic(R.ep, &v, 1, R.peer, raddr(off), R.rkey, FI_INT64, FI_SUM));
        R.need_flush = 1;
    }
    R.put_issued++;
}

/* ---- setup ---- */
static void pmix_exchange(struct peer_info *mine, struct peer_info *theirs)
{
    pmix_value_t v, *pv = NULL;
    pmix_proc_t p;
    pmix_info_t info;
    bool collect = true;

    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)mine;
    v.data.bo.size = sizeof(*mine);
    if (PMIx_Put(PMIX_GLOBAL, "ofi_raw", &v) != PMIX_SUCCESS || PMIx_Commit() != PMIX_SUCCESS)
        DIE("PMIx_Put/Commit failed");
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    if (PMIx_Fence(NULL, 0, &info, 1) != PMIX_SUCCESS)
        DIE("PMIx_Fence failed");
    PMIX_INFO_DESTRUCT(&info);
    PMIX_PROC_CONSTRUCT(&p);
    PMIX_LOAD_PROCID(&p, R.proc.nspace, (pmix_rank_t)(1 - R.me));
    if (PMIx_Get(&p, "ofi_raw", NULL, 0, &pv) != PMIX_SUCCESS || !pv ||
        pv->type != PMIX_BYTE_OBJECT || pv->data.bo.size != sizeof(*theirs))
        DIE("PMIx_Get of the peer's address failed");
    memcpy(theirs, pv->data.bo.bytes, sizeof(*theirs));
    PMIX_VALUE_RELEASE(pv);
}

static void fence(void)
{
    if (PMIx_Fence(NULL, 0, NULL, 0) != PMIX_SUCCESS)
        DIE("PMIx_Fence failed");
}

static struct fid_cq *open_cq(struct fi_cq_attr *attr, int wait_fd)
{
    struct fid_cq *cq;
    int ret;

    attr->wait_obj = wait_fd ? FI_WAIT_FD : FI_WAIT_NONE;
    ret = fi_cq_open(R.domain, attr, &cq, NULL);
    if (ret && wait_fd)
        DIE("--target-wait fd: %s has no CQ with a wait fd: %s", R.info->fabric_attr->prov_name,
            fi_strerror(-ret));
    if (ret)
        DIE("fi_cq_open: %s (%d)", fi_strerror(-ret), ret);
    return cq;
}

/* --threading: the domain's threading level, an enum fi_threading (0: FI_THREAD_DOMAIN;
 * "safe": FI_THREAD_SAFE, as ofishmem's is, since its progress thread and the
 * application's threads call in at once) */
static int threading;

static void setup(const char *prov, const char *complete_mode, int wait_fd, int two_ep)
{
    struct fi_info *h = fi_allocinfo(), *res = NULL;
    struct fi_av_attr av_attr = { .type = FI_AV_TABLE, .count = 2 };
    struct fi_cq_attr cq_attr = { .format = FI_CQ_FORMAT_CONTEXT, .size = 256 };
    struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP };
    struct peer_info mine = { 0 }, theirs;
    fi_addr_t addrs[2];
    size_t len;
    int is_shm;

    h->caps = FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    h->ep_attr->type = FI_EP_RDM;
    h->domain_attr->mr_mode =
        FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_LOCAL | FI_MR_ENDPOINT;
    h->domain_attr->threading = threading ? (enum fi_threading)threading : FI_THREAD_DOMAIN;
    h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    if (prov && *prov)
        h->fabric_attr->prov_name = strdup(prov);
    /* --target-sleep: ofishmem asks for FI_RMA_EVENT first (a counter of remote
     * accesses tells its waits and progress thread that traffic is coming) */
    for (int ev = R.sleep; ev >= 0 && !res; ev--) {
        h->caps = (h->caps & ~(uint64_t)FI_RMA_EVENT) | (ev ? FI_RMA_EVENT : 0);
        h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
        if (fi_getinfo(FI_VERSION(1, 5), NULL, NULL, 0, h, &res) || !res) {
            res = NULL;
            h->tx_attr->op_flags = 0;
            if (ev && (fi_getinfo(FI_VERSION(1, 5), NULL, NULL, 0, h, &res) || !res))
                res = NULL;
            else if (!ev)
                CK(fi_getinfo(FI_VERSION(1, 5), NULL, NULL, 0, h, &res));
        }
    }
    R.info = res;
    fi_freeinfo(h);
    is_shm = strcmp(res->fabric_attr->prov_name, "shm") == 0;
    /* shm 1.17 accepts FI_DELIVERY_COMPLETE but breaks with it on atomics and inject
     * (see ofishmem_ofi(7)): transmit completion + an ordered atomic read there */
    R.dc = (res->tx_attr->op_flags & FI_DELIVERY_COMPLETE) && !is_shm;
    /* shm 1.17 writes by CMA from the initiator (its "fast RMA": virtual addresses, no
     * RMA ordering asked for): a completed write is in place, only atomics need the
     * flush (ofishmem checks CMA to every peer before relying on this) */
    R.put_visible = is_shm && (res->domain_attr->mr_mode & FI_MR_VIRT_ADDR);
    if (complete_mode && strcmp(complete_mode, "flush") == 0)
        R.dc = R.put_visible = 0;
    else if (complete_mode && strcmp(complete_mode, "delivery") == 0)
        R.dc = 1;
    res->tx_attr->op_flags &= ~(uint64_t)FI_DELIVERY_COMPLETE;
    R.inject = res->tx_attr->inject_size;
    R.ordered_waw = (res->tx_attr->msg_order & FI_ORDER_WAW) != 0;

    CK(fi_fabric(res->fabric_attr, &R.fabric, NULL));
    CK(fi_domain(R.fabric, res, &R.domain, NULL));
    if (two_ep && (res->domain_attr->mr_mode & FI_MR_ENDPOINT))
        DIE("--endpoints 2: %s needs FI_MR_ENDPOINT, not done here", res->fabric_attr->prov_name);
    CK(fi_endpoint(R.domain, res, &R.ep, NULL));
    if (R.sleep && (res->caps & FI_RMA_EVENT))
        CK(fi_cntr_open(R.domain, &cntr_attr, &R.rcntr, NULL));
    CK(fi_av_open(R.domain, &av_attr, &R.av, NULL));
    if (two_ep) {
        /* the target endpoint: its own CQ, the same AV (peers' target addresses) */
        CK(fi_endpoint(R.domain, res, &R.tep, NULL));
        R.tcq = open_cq(&cq_attr, wait_fd);
        CK(fi_ep_bind(R.tep, &R.av->fid, 0));
        CK(fi_ep_bind(R.tep, &R.tcq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION));
        if (R.rcntr)
            CK(fi_ep_bind(R.tep, &R.rcntr->fid, FI_REMOTE_WRITE | FI_REMOTE_READ));
        CK(fi_enable(R.tep));
        R.cq = open_cq(&cq_attr, 0);
    } else
        R.cq = open_cq(&cq_attr, wait_fd);
    CK(fi_cntr_open(R.domain, &cntr_attr, &R.pcntr, NULL));
    CK(fi_cntr_open(R.domain, &cntr_attr, &R.gcntr, NULL));
    CK(fi_ep_bind(R.ep, &R.av->fid, 0));
    CK(fi_ep_bind(R.ep, &R.cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION));
    CK(fi_ep_bind(R.ep, &R.pcntr->fid, FI_WRITE));
    CK(fi_ep_bind(R.ep, &R.gcntr->fid, FI_READ));
    R.rcq = R.tcq ? R.tcq : R.cq;
    if (R.rcntr && !two_ep)
        CK(fi_ep_bind(R.ep, &R.rcntr->fid, FI_REMOTE_WRITE | FI_REMOTE_READ));
    CK(fi_enable(R.ep));
    if (wait_fd)
        CK(fi_control(&R.rcq->fid, FI_GETWAIT, &R.cq_fd));

    len = CTRL + 2 * R.max;
    if (posix_memalign((void **)&R.mem, 4096, len))
        DIE("cannot allocate %zu bytes", len);
    memset(R.mem, 0, len);
    CK(fi_mr_reg(R.domain, R.mem, len, FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 1,
                 0, &R.mr, NULL));
    if (res->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        CK(fi_mr_bind(R.mr, &R.ep->fid, 0));
        CK(fi_mr_enable(R.mr));
    }
    R.desc = fi_mr_desc(R.mr);
    mine.base = (uint64_t)(uintptr_t)R.mem;
    mine.key = fi_mr_key(R.mr);
    len = sizeof(mine.name);
    CK(fi_getname(R.tep ? &R.tep->fid : &R.ep->fid, mine.name, &len));
    mine.namelen = (uint32_t)len;
    pmix_exchange(&mine, &theirs);
    {
        struct peer_info *both[2];
        both[R.me] = &mine;
        both[1 - R.me] = &theirs;
        for (int r = 0; r < 2; r++)
            if (fi_av_insert(R.av, both[r]->name, 1, &addrs[r], 0, NULL) != 1)
                DIE("fi_av_insert failed");
    }
    R.peer = addrs[1 - R.me];
    R.rbase = theirs.base;
    R.rkey = theirs.key;
    if (R.me == 0) {
        printf("# ofi_raw: provider %s, %s completion, inject <= %zu B, %s%s%s%s\n",
               res->fabric_attr->prov_name, R.dc ? "delivery" : "transmit + flush read", R.inject,
               R.tep ? "initiator and target endpoints" : "one endpoint",
               wait_fd ? ", target CQ with a wait fd" : "",
               R.sleep
                   ? (R.rcntr ? ", target sleeping (FI_RMA_EVENT counter)" : ", target sleeping")
                   : "",
               threading == FI_THREAD_SAFE         ? ", FI_THREAD_SAFE"
               : threading == FI_THREAD_COMPLETION ? ", FI_THREAD_COMPLETION"
               : threading == FI_THREAD_ENDPOINT   ? ", FI_THREAD_ENDPOINT"
                                                   : "");
        fflush(stdout);
    }
}

/* ---- a barrier over the fabric that drives progress while it waits: PMIx_Fence
 * would not, and a peer still completing (a flush read aimed at us) would hang */
static void barrier(void)
{
    static uint64_t n;
    volatile uint64_t *w = (volatile uint64_t *)(R.mem + W_SEQ);

    n++;
    POST(fi_inject_write(R.ep, &n, 8, R.peer, raddr(W_SEQ), R.rkey));
    R.put_issued++;
    wait_word(w, n, 0);
    wait_cntr(R.pcntr, R.put_issued);
}

typedef void (*op_fn)(void);
static char *src_small;
static void op_put8(void)
{
    put_small(W_DATA, src_small, 8);
    complete();
}
static void op_get8(void)
{
    get_blocking(src_small, W_DATA, 8);
}
static void op_p(void)
{
    put_small(W_DATA, src_small, 4);
    complete();
}
static void op_g(void)
{
    get_blocking(src_small, W_DATA, 4);
}
static void op_fadd(void)
{
    (void)fetch_add(W_AMO, 1);
}
static void op_add(void)
{
    add_nbi(W_AMO, 1);
    complete();
}

static const struct {
    const char *name;
    op_fn fn;
} ops[] = {
    { "put8_quiet", op_put8 }, { "get8", op_get8 },      { "int_p_quiet", op_p },
    { "int_g", op_g },         { "fetch_add", op_fadd }, { "add_quiet", op_add },
};

/* wait until the peer's ping arrives: polling memory only (the progress thread
 * serves), or driving progress as a wait in the library */
static void pp_wait(volatile uint64_t *w, uint64_t v, int on_memory)
{
    if (on_memory) {
        for (unsigned spins = 0; *w != v; spins++) /* perf_lat's wait_for */
            if (spins > 2000)
                sched_yield();
        return;
    }
    wait_word(w, v, 1);
}

static double pingpong_run(long burst, int on_memory)
{
    volatile uint64_t *w = (volatile uint64_t *)(R.mem + W_PP);
    static uint64_t v;
    double best = 1e9;

    barrier();
    for (int b = 0; b < 21; b++) {
        double t0 = bench_now_us();
        for (long i = 0; i < burst; i++) {
            v++;
            if (R.me == 0) {
                put_small(W_PP, &v, 8);
                complete();
                pp_wait(w, v, on_memory);
            } else {
                pp_wait(w, v, on_memory);
                put_small(W_PP, &v, 8);
                complete();
            }
        }
        double t = (bench_now_us() - t0) / burst;
        if (b > 0 && t < best)
            best = t;
    }
    barrier();
    return best;
}

/* perf_lat's two forms: a wait on memory (rtt), a wait in the library (wait).  Raw
 * libfabric spinning in its CQ is both; with --target-sleep the first polls memory
 * with a progress thread serving, the second drives progress and backs off. */
static void pingpong(const struct bench_opts *o, long iters)
{
    long burst = iters / 20 > 100 ? iters / 20 : 100;
    double rtt, wait;

    if (R.sleep) {
        wait = pingpong_run(burst, 0);
        rtt = pingpong_run(burst, 1);
    } else
        rtt = wait = pingpong_run(burst, 0);
    if (R.me == 0) {
        bench_row(o, "put8_pingpong_rtt", 8, 2, 20 * burst, rtt);
        bench_row(o, "put8_pingpong_wait", 8, 2, 20 * burst, wait);
    }
}

/* perf_pingpong's message ping-pong: len bytes, then an 8-byte signal that must not
 * overtake them (providers that do not order writes after writes complete the data
 * first), the peer waiting on the signal word while it polls.  usec per transfer. */
static void putsig_pingpong(const struct bench_opts *o, size_t len)
{
    volatile uint64_t *w = (volatile uint64_t *)(R.mem + W_PP);
    const char *src = R.mem + CTRL + R.max;
    long iters = bench_iters(o, len, 10000) / 10;
    double best = 1e9;
    static uint64_t v;

    iters = iters < 10 ? 10 : iters;
    barrier();
    for (int b = 0; b < 11; b++) { /* the first burst warms up */
        double t0 = bench_now_us();
        for (long i = 0; i < iters; i++) {
            v++;
            if (R.me == 1)
                pp_wait(w, v, 0);
            if (len <= R.inject)
                put_small(CTRL, src, len);
            else
                put_blocking(CTRL, src, len);
            if (!R.ordered_waw)
                complete();
            put_small(W_PP, &v, 8);
            if (R.me == 0)
                pp_wait(w, v, 0);
        }
        double t = (bench_now_us() - t0) / (2.0 * iters);
        if (b > 0 && t < best)
            best = t;
    }
    complete();
    if (R.me == 0)
        bench_row(o, "putsig_pingpong", len, 2, 10 * iters, best);
    barrier();
}

int main(int argc, char **argv)
{
    struct bench_opts o;
    const char *prov = getenv("SHMEM_OFI_PROVIDER"), *cmode = NULL;
    char *args[16];
    int nargs = 0, do_lat = 1, do_bw = 1, do_rate = 1, do_pp = 1, wait_fd = 0, two_ep = 0;

    if (!prov || !*prov)
        prov = getenv("FI_PROVIDER");
    /* our own options first; bench.h parses the rest */
    args[nargs++] = argv[0];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--provider") == 0 && i + 1 < argc)
            prov = argv[++i];
        else if (strcmp(argv[i], "--complete") == 0 && i + 1 < argc)
            cmode = argv[++i];
        else if (strcmp(argv[i], "--target-wait") == 0 && i + 1 < argc) {
            if (strcmp(argv[++i], "fd") != 0)
                DIE("--target-wait %s: only 'fd' is known", argv[i]);
            wait_fd = 1;
        } else if (strcmp(argv[i], "--target-sleep") == 0) {
            R.sleep = own_backoff = 1;
        } else if (strcmp(argv[i], "--endpoints") == 0 && i + 1 < argc) {
            if (strcmp(argv[++i], "1") != 0 && strcmp(argv[i], "2") != 0)
                DIE("--endpoints %s: 1 or 2", argv[i]);
            two_ep = argv[i][0] == '2';
        } else if (strcmp(argv[i], "--threading") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            threading = strcmp(t, "safe") == 0         ? FI_THREAD_SAFE
                        : strcmp(t, "completion") == 0 ? FI_THREAD_COMPLETION
                        : strcmp(t, "endpoint") == 0   ? FI_THREAD_ENDPOINT
                        : strcmp(t, "domain") == 0     ? 0
                                                       : -1;
            if (threading < 0)
                DIE("--threading %s: safe, completion, endpoint or domain", t);
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            const char *w = argv[++i];
            do_lat = strstr(w, "lat") != NULL;
            do_bw = strstr(w, "bw") != NULL;
            do_rate = strstr(w, "rate") != NULL;
            do_pp = strstr(w, "pingpong") != NULL;
        } else if (nargs < 15)
            args[nargs++] = argv[i];
    }
    if (bench_parse(nargs, args, &o) != 0) {
        fprintf(stderr, "  ofi_raw also takes --provider NAME, --complete flush|delivery, "
                        "--target-wait fd, --target-sleep, --endpoints 1|2, --threading "
                        "safe|completion|endpoint|domain, "
                        "--only lat,bw,rate,pingpong\n");
        return 2;
    }
    if (PMIx_Init(&R.proc, NULL, 0) != PMIX_SUCCESS)
        DIE("PMIx_Init failed: start with scripts/oshrun -np 2 or mpiexec -np 2");
    R.me = (int)R.proc.rank;
    {
        pmix_value_t *pv = NULL;
        pmix_proc_t wild;
        PMIX_PROC_CONSTRUCT(&wild);
        PMIX_LOAD_PROCID(&wild, R.proc.nspace, PMIX_RANK_WILDCARD);
        if (PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &pv) != PMIX_SUCCESS || !pv ||
            pv->data.uint32 != 2)
            DIE("run with exactly 2 processes");
        PMIX_VALUE_RELEASE(pv);
    }
    if (R.sleep && threading != FI_THREAD_SAFE)
        DIE("--target-sleep: its progress thread needs --threading safe");
    R.max = o.max_size < 8 ? 8 : o.max_size;
    setup(prov, cmode, wait_fd, two_ep);
    pthread_t pt;
    if (R.sleep) {
        pt_stop_fd = eventfd(0, EFD_CLOEXEC);
        if (pt_stop_fd < 0 || pthread_create(&pt, NULL, progress_thread, NULL))
            DIE("cannot start the progress thread");
    }
    src_small = R.mem + W_SRC; /* registered, for FI_MR_LOCAL providers */
    char *tbuf = R.mem + CTRL, *sbuf = R.mem + CTRL + R.max;
    memset(sbuf, R.me + 1, R.max);
    bench_warmup(300);
    fence();
    barrier();

    if (do_lat) {
        long iters = o.iters > 0 ? o.iters : 200000;
        if (R.me == 0)
            bench_header("raw libfabric latency: rank 0 -> rank 1, one operation (usec)");
        for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
            if (R.me == 0) {
                double best = 1e9;
                for (long i = 0; i < iters / 10; i++)
                    ops[k].fn();
                for (int r = 0; r < 3; r++) {
                    double t0 = bench_now_us();
                    for (long i = 0; i < iters; i++)
                        ops[k].fn();
                    double v = (bench_now_us() - t0) / iters;
                    best = v < best ? v : best;
                }
                bench_row(&o, ops[k].name, 8, 2, iters, best);
            }
            barrier();
        }
        pingpong(&o, iters / 4);
    }
    if (do_bw) {
        if (R.me == 0)
            bench_header("raw libfabric bandwidth: rank 0 -> rank 1 (MB/s = bytes/usec)");
        for (int dir = 0; dir < 2; dir++) {
            for (size_t len = 1024; len <= R.max; len *= 2) {
                if (R.me == 0) {
                    long iters = bench_iters(&o, len, 20000);
                    double best = 1e9;
                    for (int r = 0; r < 3; r++) {
                        double t0 = bench_now_us();
                        for (long i = 0; i < iters; i++) {
                            if (dir == 0)
                                put_blocking(CTRL, sbuf, len);
                            else
                                get_blocking(sbuf, CTRL, len);
                        }
                        complete();
                        double v = (bench_now_us() - t0) / iters;
                        best = v < best ? v : best;
                    }
                    bench_row(&o, dir == 0 ? "put_bw" : "get_bw", len, 2, iters, best);
                }
                barrier();
            }
        }
        (void)tbuf;
    }
    if (do_rate) {
        long windows = (o.iters > 0 ? o.iters : 1000000) / WINDOW;
        if (R.me == 0) {
            double best = 1e9;
            bench_header("raw libfabric message rate: 8-byte puts and atomics, rank 0 -> rank 1");
            for (int r = 0; r < 3; r++) {
                double t0 = bench_now_us();
                for (long w = 0; w < windows; w++) {
                    for (int i = 0; i < WINDOW; i++)
                        put_small(W_RATE + 8 * i, src_small, 8);
                    complete();
                }
                double v = (bench_now_us() - t0) / (windows * WINDOW);
                best = v < best ? v : best;
            }
            bench_row(&o, "put8_rate", 8, 2, windows * WINDOW, best);
            best = 1e9;
            for (int r = 0; r < 3; r++) {
                double t0 = bench_now_us();
                for (long w = 0; w < windows; w++) {
                    for (int i = 0; i < WINDOW; i++)
                        add_nbi(W_RATE + 8 * i, 1);
                    complete();
                }
                double v = (bench_now_us() - t0) / (windows * WINDOW);
                best = v < best ? v : best;
            }
            bench_row(&o, "add_rate", 8, 2, windows * WINDOW, best);
            best = 1e9;
            for (int r = 0; r < 3; r++) {
                int64_t sink = 0;
                double t0 = bench_now_us();
                for (long w = 0; w < windows / 4; w++)
                    for (int i = 0; i < WINDOW; i++)
                        sink += fetch_add(W_RATE + 8 * i, 1);
                double v = (bench_now_us() - t0) / (windows / 4 * WINDOW);
                best = v < best ? v : best;
                *(int64_t *)src_small = sink;
            }
            bench_row(&o, "fetch_add_rate", 8, 2, windows / 4 * WINDOW, best);
        }
        barrier();
    }
    if (do_pp) {
        static const size_t small[] = { 1, 8, 64, 256 };
        if (R.me == 0)
            bench_header(
                "raw libfabric put-with-signal ping-pong: usec per transfer (half round trip)");
        for (size_t k = 0; k < 4 && small[k] <= R.max; k++)
            putsig_pingpong(&o, small[k]);
        for (size_t len = 1024; len <= R.max; len *= 4)
            putsig_pingpong(&o, len);
    }
    barrier();
    if (R.sleep) {
        uint64_t one = 1;
        pt_stop = 1;
        if (write(pt_stop_fd, &one, sizeof(one)) != sizeof(one))
            DIE("cannot wake the progress thread");
        futex_wake(&app_waiting);
        pthread_join(pt, NULL);
        close(pt_stop_fd);
    }
    fence();
    fi_close(&R.mr->fid);
    fi_close(&R.ep->fid);
    if (R.tep) {
        fi_close(&R.tep->fid);
        fi_close(&R.tcq->fid);
    }
    if (R.rcntr)
        fi_close(&R.rcntr->fid);
    fi_close(&R.pcntr->fid);
    fi_close(&R.gcntr->fid);
    fi_close(&R.cq->fid);
    fi_close(&R.av->fid);
    fi_close(&R.domain->fid);
    fi_close(&R.fabric->fid);
    fi_freeinfo(R.info);
    free(R.mem);
    PMIx_Finalize(NULL, 0);
    return 0;
}
