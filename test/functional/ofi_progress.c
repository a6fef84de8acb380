/* Passive-target progress (DESIGN rule 2): the last PE computes without calling the
 * library while PE 0 does 100 gets, 100 fetch-adds, 100 put+quiet and 100
 * put-with-signal+quiet aimed at it (a put-with-signal may be a message that the target
 * applies: its quiet waits for that), then puts a word the target reads by load.  The
 * target computes until it sees that word (or 20 s, 10 s in the later rounds: a target
 * without passive progress never sees it) and records the wall clock when it re-enters
 * the library, the origin when it finished; the origin must have finished first.  (Both
 * clocks are CLOCK_REALTIME on one machine.)  Other PEs only take part in the barriers.
 *
 * Four times: after a barrier, then right after a conversation, a ping-pong of
 * shmem_long_p and shmem_long_wait_until between the two, whose waits leave the progress
 * thread standing by (see ofi_attend) until it notices that the target stopped waiting,
 * then after one in which the target polls with shmem_long_test, which counts likewise
 * (comm_test_poll), then right after 2000 barriers of every PE back to back (a blocking
 * collective holds the thread standing by from its start to its end, comm_attend_hold:
 * a loop of them is a conversation too). */
#include "ofi_test.h"

#include <time.h>

/* public calls of the conversation (see ofi_test.h for why not shmem.h) */
void shmem_long_p(long *dest, long value, int pe);
void shmem_long_wait_until(long *ivar, int cmp, long cmp_value);
int shmem_long_test(long *ivar, int cmp, long cmp_value);
#define SHMEM_CMP_EQ 1

#define NOPS 100
#define COMPUTE_NS 20000000000LL /* the deadline; a round ends when PE 0 is done */

static long counter;
static long data[NOPS];
static long sdata[NOPS];
static uint64_t sigw;
static int64_t reentry_ns;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long word[2]; /* the ping-pong: [0] written by PE 0, [1] by the target */

static long fin; /* PE 0 puts 1 here once its operations are done */

/* the target's side of one round: compute, no library call, until PE 0 says it is done
 * (read by load) or the deadline: a loaded machine may take long to serve the operations,
 * a target without passive progress never does */
static void compute(int64_t ns)
{
    volatile double x = 1.0;
    int64_t end = now_ns() + ns;
    while (now_ns() < end && !__atomic_load_n(&fin, __ATOMIC_ACQUIRE))
        for (int k = 0; k < 1000; k++)
            x = x * 1.0000001 + 1e-9;
    reentry_ns = now_ns();
}

static void round_trip(int me, int target, int conversation, int64_t compute_ns, const char *what)
{
    int64_t done_ns = 0;

    for (int i = 0; i < NOPS; i++)
        data[i] = 1000 + i;
    counter = 0;
    sigw = 0;
    memset(sdata, 0, sizeof(sdata));
    word[0] = word[1] = 0;
    fin = 0;
    shmem_barrier_all();
    if (conversation == 3)
        for (int i = 0; i < 2000; i++)
            shmem_barrier_all();
    else if (conversation && (me == 0 || me == target)) {
        for (long i = 1; i <= 2000; i++) {
            if (me == 0) {
                shmem_long_p(&word[1], i, target);
                shmem_long_wait_until(&word[0], SHMEM_CMP_EQ, i);
            } else {
                if (conversation == 2)
                    while (!shmem_long_test(&word[1], SHMEM_CMP_EQ, i))
                        ;
                else
                    shmem_long_wait_until(&word[1], SHMEM_CMP_EQ, i);
                shmem_long_p(&word[0], i, 0);
            }
        }
    }
    if (me == target) {
        compute(compute_ns);
    } else if (me == 0) {
        long v, one = 1, old;
        for (int i = 0; i < NOPS; i++) {
            comm_get(COMM_CTX_DEFAULT, &v, &data[i], sizeof(v), target);
            CHECK(v == 1000 + i);
        }
        for (int i = 0; i < NOPS; i++) {
            comm_amo(COMM_CTX_DEFAULT, COMM_AMO_ADD, COMM_DT_I64, &counter, &one, NULL, &old,
                     target, 0);
            CHECK(old == i);
        }
        for (int i = 0; i < NOPS; i++) {
            v = 5000 + i;
            comm_put(COMM_CTX_DEFAULT, &data[i], &v, sizeof(v), target);
            comm_quiet(COMM_CTX_DEFAULT);
        }
        for (int i = 0; i < NOPS; i++) {
            v = 7000 + i;
            comm_put_signal(COMM_CTX_DEFAULT, &sdata[i], &v, sizeof(v), &sigw, 1, COMM_SIG_ADD,
                            target, 0);
            comm_quiet(COMM_CTX_DEFAULT);
        }
        done_ns = now_ns();
        v = 1;
        comm_put(COMM_CTX_DEFAULT, &fin, &v, sizeof(v), target);
        comm_quiet(COMM_CTX_DEFAULT);
    }
    shmem_barrier_all();
    if (me == target) {
        CHECK(counter == NOPS);
        for (int i = 0; i < NOPS; i++)
            CHECK(data[i] == 5000 + i);
        CHECK(__atomic_load_n(&sigw, __ATOMIC_ACQUIRE) == NOPS);
        for (int i = 0; i < NOPS; i++)
            CHECK(sdata[i] == 7000 + i);
    }
    if (me == 0) {
        int64_t t;
        comm_get(COMM_CTX_DEFAULT, &t, &reentry_ns, sizeof(t), target);
        if (!(done_ns < t))
            fprintf(stderr,
                    "PE 0 (%s): the operations finished %.3f s after the target re-entered "
                    "the library: no passive progress\n",
                    what, (double)(done_ns - t) / 1e9);
        else
            printf("ofi_progress (%s): done %.3f s before the target re-entered the library\n",
                   what, (double)(t - done_ns) / 1e9);
        CHECK(done_ns < t);
    }
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), target = n - 1;

    round_trip(me, target, 0, COMPUTE_NS, "after a barrier");
    round_trip(me, target, 1, COMPUTE_NS / 2, "after a conversation");
    round_trip(me, target, 2, COMPUTE_NS / 2, "after a conversation polled with test");
    round_trip(me, target, 3, COMPUTE_NS / 2, "after 2000 barriers");
    return test_finish("ofi_progress");
}
