/* Thread levels.  shmem_init_thread(TEST_THREAD_LEVEL, default MULTIPLE) provides the
 * level asked for.  Under MULTIPLE, NT threads per PE put and fetch-add concurrently,
 * half on their own private contexts and half on the default context, each into its
 * own region on the next PE; every byte and every count is verified.  Under
 * SERIALIZED the same threads take turns through a mutex; below, the main thread
 * does all of it. */
#include "tests.h"
#include <pthread.h>
#include <string.h>

#define NT 4
#define ITERS 200
#define LEN 1000

static unsigned char buf[NT][ITERS % 7 + 1][LEN];
static long counter;
static int level;
static pthread_mutex_t serial = PTHREAD_MUTEX_INITIALIZER;

static unsigned char pat(int pe, int t, int it, int i)
{
    return (unsigned char)(pe * 31 + t * 7 + it * 3 + i);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg, me = shmem_my_pe(), right = (me + 1) % shmem_n_pes();
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    unsigned char src[LEN], back[LEN];
    int fails = 0;

    if (level == SHMEM_THREAD_SERIALIZED)
        pthread_mutex_lock(&serial);
    if (t % 2 == 0 && shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
        fails++;
    for (int it = 0; it < ITERS; it++) {
        int slot = it % (ITERS % 7 + 1);
        for (int i = 0; i < LEN; i++)
            src[i] = pat(me, t, it, i);
        shmem_ctx_putmem(ctx, buf[t][slot], src, LEN, right);
        shmem_ctx_long_atomic_add(ctx, &counter, 1, right);
        shmem_ctx_quiet(ctx);
        shmem_ctx_getmem(ctx, back, buf[t][slot], LEN, right);
        if (memcmp(back, src, LEN) != 0)
            fails++;
        (void)shmem_ctx_long_atomic_fetch_add(ctx, &counter, 1, right);
    }
    shmem_ctx_quiet(ctx);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    if (level == SHMEM_THREAD_SERIALIZED)
        pthread_mutex_unlock(&serial);
    return (void *)(long)fails;
}

int main(void)
{
    const char *want = getenv("TEST_THREAD_LEVEL");
    int provided = -1, q = -1, me, left, npes;
    pthread_t th[NT];

    level = want ? atoi(want) : SHMEM_THREAD_MULTIPLE;
    if (shmem_init_thread(level, &provided) != 0)
        return 1;
    shmem_query_thread(&q);
    CHECK(provided == level && q == level);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me - 1 + npes) % npes;
    if (level >= SHMEM_THREAD_SERIALIZED) {
        for (long t = 0; t < NT; t++)
            CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0);
        for (int t = 0; t < NT; t++) {
            void *r;
            pthread_join(th[t], &r);
            CHECK(r == NULL);
        }
    } else {
        for (long t = 0; t < NT; t++)
            CHECK(worker((void *)t) == NULL);
    }
    shmem_barrier_all();
    CHECK(counter == 2L * NT * ITERS);
    for (int t = 0; t < NT; t++) {
        for (int slot = 0; slot < ITERS % 7 + 1; slot++) {
            int it = ITERS - 1;
            while (it % (ITERS % 7 + 1) != slot)
                it--;
            for (int i = 0; i < LEN; i++)
                if (buf[t][slot][i] != pat(left, t, it, i)) {
                    CHECK(buf[t][slot][i] == pat(left, t, it, i));
                    break;
                }
        }
    }
    return test_finish("coll_thread");
}
