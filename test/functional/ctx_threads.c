/*
 * Many contexts under SHMEM_THREAD_MULTIPLE (the SOS web pattern): NT threads each
 * create CPT contexts, of each option in turn.  The contexts that are neither private
 * nor serialized go into a list every thread uses at once; each thread uses its own
 * private and serialized ones alone.  Each use is a put, a fetch-add and a get to the
 * next PE, then a quiet, on words of the thread's own (a get after a put to the same
 * address on one context returns the put's value: ordered, 1.5 section 9.5).  Then the
 * threads destroy their contexts with a non-blocking put pending (destroy completes it)
 * and create them again, twice.  The totals are exact at the end.
 *
 * Over OFI the non-private contexts share at most SHMEM_OFI_CTX_ENDPOINTS endpoints:
 * with argument "fds", the descriptors the shared contexts add may not exceed what that
 * many endpoints of their own would (one private context's cost, measured first).
 * Usage: ctx_threads [fds].
 */
#include "tests.h"

#include <dirent.h>
#include <pthread.h>
#include <string.h>

int shmem_init_thread(int requested, int *provided);

#define NT 4
#define CPT 4 /* contexts per thread */
#define ITERS 8
#define CYCLES 2

static long data[NT][CPT];     /* written by the previous PE's thread t through context k */
static long counts[NT];        /* fetch-adds of the previous PE's thread t */
static long nbi_data[NT][CPT]; /* the put pending at destroy */
static long nbi_src[NT][CPT];

static const long opts[4] = { 0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE };
static shmem_ctx_t ctx[NT][CPT];
static shmem_ctx_t shared[NT * CPT]; /* the contexts every thread may use */
static int nshared;
static pthread_barrier_t bar;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static int me, npes, next, prev;

static int is_shared(long o)
{
    return !(o & (SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED));
}

static void use(shmem_ctx_t c, int t, int k, long v)
{
    shmem_ctx_long_p(c, &data[t][k], v, next);
    long old = shmem_ctx_long_atomic_fetch_add(c, &counts[t], 1, next);
    CHECK(old >= 0);
    CHECK(shmem_ctx_long_g(c, &data[t][k], next) == v);
    shmem_ctx_quiet(c);
}

static void create_all(int t, int cycle)
{
    for (int k = 0; k < CPT; k++) {
        long o = opts[(k + cycle) % 4];
        CHECK(shmem_ctx_create(o, &ctx[t][k]) == 0);
        if (is_shared(o)) {
            pthread_mutex_lock(&shared_lock);
            shared[nshared++] = ctx[t][k];
            pthread_mutex_unlock(&shared_lock);
        }
    }
}

static void *thread_main(void *arg)
{
    int t = (int)(long)arg;
    unsigned seed = (unsigned)(me * 97 + t);

    for (int cycle = 0; cycle < CYCLES; cycle++) {
        create_all(t, cycle);
        pthread_barrier_wait(&bar); /* the shared list is complete */
        for (int i = 0; i < ITERS; i++) {
            int k = (int)(rand_r(&seed) % CPT);
            shmem_ctx_t c = ctx[t][k];
            if (is_shared(opts[(k + cycle) % 4]))
                c = shared[rand_r(&seed) % (unsigned)nshared];
            use(c, t, k, 1000000L * cycle + 1000L * me + 10L * i + t);
        }
        pthread_barrier_wait(&bar); /* nobody uses another thread's context any more */
        if (t == 0)
            nshared = 0;
        for (int k = 0; k < CPT; k++) {
            nbi_src[t][k] = 7000000L * (cycle + 1) + 1000L * me + 10L * k + t;
            shmem_ctx_long_put_nbi(ctx[t][k], &nbi_data[t][k], &nbi_src[t][k], 1, next);
            shmem_ctx_destroy(ctx[t][k]);
        }
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

static int count_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* the descriptors a context adds once it reached every PE */
static int ctx_fds(long options, int n)
{
    static shmem_ctx_t c[NT * CPT];
    static long word;
    int before = count_fds();
    for (int i = 0; i < n; i++) {
        CHECK(shmem_ctx_create(options, &c[i]) == 0);
        for (int pe = 0; pe < npes; pe++)
            shmem_ctx_long_atomic_fetch_add(c[i], &word, 1, pe);
        shmem_ctx_quiet(c[i]);
    }
    int added = count_fds() - before;
    for (int i = 0; i < n; i++)
        shmem_ctx_destroy(c[i]);
    return added;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[NT];

    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0);
    CHECK(provided == SHMEM_THREAD_MULTIPLE);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    next = (me + 1) % npes;
    prev = (me + npes - 1) % npes;

    if (argc > 1 && strcmp(argv[1], "fds") == 0) {
        /* destroyed endpoints are kept for the next context: measure with fresh ones,
         * the private first (its endpoint then serves as a spare for the shared ones) */
        const char *e = getenv("SHMEM_OFI_CTX_ENDPOINTS");
        int max = e ? atoi(e) : 0, one = ctx_fds(SHMEM_CTX_PRIVATE, 1), many = ctx_fds(0, NT * CPT);
        if (me == 0)
            printf("one private context: %d descriptors; %d shared ones: %d (at most %d "
                   "endpoints)\n",
                   one, NT * CPT, many, max);
        if (one > 0 && max > 0)
            CHECK(many <= one * max);
        shmem_barrier_all();
    }

    pthread_barrier_init(&bar, NULL, NT);
    for (int t = 0; t < NT; t++)
        CHECK(pthread_create(&th[t], NULL, thread_main, (void *)(long)t) == 0);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&bar);

    shmem_barrier_all();
    for (int t = 0; t < NT; t++) {
        CHECK(counts[t] == (long)ITERS * CYCLES);
        for (int k = 0; k < CPT; k++)
            CHECK(nbi_data[t][k] == 7000000L * CYCLES + 1000L * prev + 10L * k + t);
    }
    return test_finish("ctx_threads");
}
