/* SHMEM_THREAD_MULTIPLE over OFI: threads share the default context (serialised by
 * the transport) and each also uses a private context of its own; totals exact.
 * Each thread also sends put-with-signal adds to the next PE through a shareable
 * context of its own: their messages leave from the PE's target endpoint together
 * (SHMEM_OFI_AM_EP=target, ofi_am.c), the longer ones through its shared bounce
 * buffers; every add counted, each thread's last data in place. */
#include "ofi_test.h"

#include <pthread.h>

int shmem_init_thread(int requested, int *provided);
#define NTHREADS 3
#define ITERS 200

static long shared_counter, private_counter;
static unsigned char landing[NTHREADS][4096];
static uint64_t sig_count;
#define SIG_ITERS 60
#define SIG_MAX 16385 /* past tcp;ofi_rxm's message limit: written, then signalled */
static unsigned char sig_landing[NTHREADS][SIG_MAX];
static const size_t sig_lens[] = { 8, 100, 4097, 9000, SIG_MAX, 0 };
#define SIG_NLENS (sizeof(sig_lens) / sizeof(sig_lens[0]))

static void put_signals(int t, int me, int n)
{
    static unsigned char bufs[NTHREADS][SIG_MAX];
    unsigned char *buf = bufs[t];
    struct comm_ctx *sctx;

    CHECK(comm_ctx_create(0 /* shareable */, NULL, &sctx) == OFS_OK);
    for (size_t k = 0; k < SIG_MAX; k++)
        buf[k] = pat(me, SIG_MAX, k, t + 10);
    for (int i = 0; i < SIG_ITERS; i++)
        comm_put_signal(i % 3 ? sctx : COMM_CTX_DEFAULT, sig_landing[t], buf,
                        sig_lens[i % SIG_NLENS], &sig_count, 1, COMM_SIG_ADD, (me + 1) % n, 0);
    comm_quiet(sctx);
    comm_ctx_destroy(sctx);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg, me = shmem_my_pe(), n = shmem_n_pes();
    struct comm_ctx *pctx;
    long one = 1, old;
    unsigned char buf[4096];

    CHECK(comm_ctx_create(1 /* SHMEM_CTX_PRIVATE */, NULL, &pctx) == OFS_OK);
    fill(buf, me, sizeof(buf), t);
    for (int i = 0; i < ITERS; i++) {
        int pe = (me + i) % n;
        comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_I64, &shared_counter, &one, NULL,
                 i & 1 ? &old : NULL, pe, 0);
        comm_amo(pctx, COMM_AMO_ADD, COMM_DT_I64, &private_counter, &one, NULL, NULL, pe, 0);
        comm_put_nbi(COMM_CTX_DEFAULT, landing[t], buf, i == 0 ? 4096 : (size_t)(i * 37) % 4096 + 1,
                     (me + 1) % n);
    }
    comm_quiet(pctx);
    comm_ctx_destroy(pctx);
    put_signals(t, me, n);
    comm_quiet(COMM_CTX_DEFAULT);
    return NULL;
}

int main(void)
{
    int provided = -1;
    pthread_t th[NTHREADS];

    shmem_init_thread(3 /* SHMEM_THREAD_MULTIPLE */, &provided);
    CHECK(provided == 3);
    shmem_barrier_all();
    for (long t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    /* one increment per PE per i, spread over PEs: each PE gets ITERS per thread */
    CHECK(shared_counter == (long)NTHREADS * ITERS);
    CHECK(private_counter == (long)NTHREADS * ITERS);
    int left = (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes();
    for (int t = 0; t < NTHREADS; t++)
        CHECK_BUF(landing[t], left, 4096, t, "threaded put");
    CHECK(sig_count == (uint64_t)NTHREADS * SIG_ITERS);
    /* every put-with-signal of a thread wrote a prefix of the same bytes */
    for (int t = 0; t < NTHREADS; t++)
        for (size_t k = 0; k < SIG_MAX; k++)
            if (sig_landing[t][k] != pat(left, SIG_MAX, k, t + 10)) {
                CHECK(!"threaded put-with-signal data");
                break;
            }
    return test_finish("ofi_threads");
}
