/*
 * Two-sided messages at their edges (shmemx_send family, docs/messages.md): what a
 * stranger to the library tries.  usage: msg_edge [edge]   (an even number of PEs; pairs
 * me and me + n/2)
 *   zero lengths with NULL buffers (a truncated one too), NULL and ignored statuses,
 *   the largest tag, a handle waited for twice and tested once released, one receive
 *   buffer and one send buffer reused right after each wait (the send buffer scribbled
 *   over at once: a library that read it after completing would deliver garbage), sizes
 *   around the eager and stage boundaries from private and symmetric buffers, sends to
 *   this PE itself (blocking send then receive at every size, isend + recv, irecv +
 *   send); last, messages left in flight at shmem_finalize: requests never waited for,
 *   and one PE of a pair blocked in sends its partner never receives (a long staged one
 *   and more eager ones than the ring holds) while the partner is in shmem_finalize;
 *   the partner's message sent just before its finalize is still received.  Success
 *   is the job ending (no hang, no crash) with no failure reported.
 * Sizes are read from SHMEM_MSG_EAGER_SIZE / SHMEM_MSG_STAGE_SIZE when set.
 */
#include <limits.h>
#include <shmemx.h>
#include <stdint.h>
#include <string.h>

#include "tests.h"
#include "msg_test.h"

static int st_is(const shmemx_status_t *st, int src, int tag, size_t len, int err)
{
    return st->source == src && st->tag == tag && st->length == len && st->error == err;
}

/* NULL with length 0, statuses to ignore, the largest tag, handles released twice. */
static void edge_small(int me, int peer)
{
    shmemx_msg_h h[2], c;
    shmemx_status_t st;
    unsigned char b[16];
    int flag = 0;

    CHECK(shmemx_isend(peer, 1, NULL, 0, &h[0]) == 0);
    CHECK(shmemx_irecv(peer, 1, NULL, 0, &h[1]) == 0);
    CHECK(shmemx_msg_wait(&h[1], &st) == 0 && st_is(&st, peer, 1, 0, SHMEMX_MSG_OK));
    CHECK(shmemx_msg_wait(&h[0], NULL) == 0 && h[0] == SHMEMX_MSG_H_NULL);
    CHECK(shmemx_send(peer, 2, NULL, 0) == 0);
    CHECK(shmemx_recv(peer, 2, NULL, 0, NULL) == 0);
    /* a message into no buffer at all: truncated, its length reported */
    fill(b, 10, me, 3);
    CHECK(shmemx_send(peer, 3, b, 10) == 0);
    CHECK(shmemx_recv(peer, 3, NULL, 0, &st) == SHMEMX_MSG_TRUNCATED &&
          st_is(&st, peer, 3, 10, SHMEMX_MSG_TRUNCATED));
    /* tags: 0 and INT_MAX are ordinary; SHMEMX_STATUS_IGNORE */
    CHECK(shmemx_send(peer, INT_MAX, b, 4) == 0 && shmemx_send(peer, 0, b, 5) == 0);
    CHECK(shmemx_recv(peer, SHMEMX_ANY_TAG, b, sizeof(b), &st) == 0 &&
          st_is(&st, peer, INT_MAX, 4, 0));
    CHECK(shmemx_recv(SHMEMX_ANY_SOURCE, 0, b, sizeof(b), SHMEMX_STATUS_IGNORE) == 0);
    /* waiting twice on one handle: the first wait sets it to SHMEMX_MSG_H_NULL, the
     * second returns at once with an empty status; a test of the null handle says done */
    fill(b, 8, me, 4);
    CHECK(shmemx_isend(peer, 4, b, 8, &h[0]) == 0 && shmemx_irecv(peer, 4, b + 8, 8, &h[1]) == 0);
    c = h[1];
    CHECK(c != SHMEMX_MSG_H_NULL);
    do
        CHECK(shmemx_msg_test(&h[1], &flag, &st) == 0);
    while (!flag);
    CHECK(h[1] == SHMEMX_MSG_H_NULL && st_is(&st, peer, 4, 8, 0) && good(b + 8, 8, peer, 4));
    CHECK(shmemx_msg_wait(&h[1], &st) == 0 &&
          st_is(&st, SHMEMX_ANY_SOURCE, SHMEMX_ANY_TAG, 0, SHMEMX_MSG_OK));
    flag = 0;
    CHECK(shmemx_msg_test(&h[1], &flag, NULL) == 0 && flag == 1);
    /* a send's status is empty */
    CHECK(shmemx_msg_wait(&h[0], &st) == 0 && shmemx_msg_wait(&h[0], NULL) == 0);
    CHECK(st_is(&st, SHMEMX_ANY_SOURCE, SHMEMX_ANY_TAG, 0, SHMEMX_MSG_OK));
}

/* One receive buffer and one send buffer reused in a loop, each scribbled over right
 * after its wait; blocking and non-blocking, receive posted first or not, private and
 * symmetric send buffers, sizes around the protocol boundaries. */
static void edge_reuse(int me, int peer)
{
    size_t sizes[] = { 0, 1, 64, eager - 1, eager, eager + 1, 70000, 300000, 2 * stage + 5 };
    int ns = (int)(sizeof(sizes) / sizeof(sizes[0]));
    size_t maxl = 300000 > sizes[ns - 1] ? 300000 : sizes[ns - 1];
    unsigned char *priv = malloc(maxl), *sym = shmem_malloc(maxl), *rb = malloc(maxl);
    shmemx_msg_h hs, hr;
    shmemx_status_t st;

    for (int i = 0; i < 4 * ns; i++) {
        size_t len = sizes[i % ns];
        unsigned char *sb = (i / ns) % 2 ? sym : priv;
        fill(sb, len, me, i);
        switch (i / ns / 2) {
        case 0: /* blocking: send first, then receive (unexpected on both sides) */
            CHECK(shmemx_send(peer, i, sb, len) == 0);
            memset(sb, 0xee, len);
            CHECK(shmemx_recv(peer, i, rb, maxl, &st) == 0 && st_is(&st, peer, i, len, 0));
            break;
        default: /* requests: the receive posted first on one PE of the pair */
            if (me < peer)
                CHECK(shmemx_irecv(peer, i, rb, maxl, &hr) == 0);
            CHECK(shmemx_isend(peer, i, sb, len, &hs) == 0);
            if (me > peer)
                CHECK(shmemx_irecv(peer, i, rb, maxl, &hr) == 0);
            CHECK(shmemx_msg_wait(&hs, NULL) == 0);
            memset(sb, 0xee, len);
            CHECK(shmemx_msg_wait(&hr, &st) == 0 && st_is(&st, peer, i, len, 0));
        }
        CHECK(good(rb, len, peer, i));
        memset(rb, 0x55, len);
    }
    free(priv);
    free(rb);
    shmem_barrier_all();
    shmem_free(sym);
}

/* Messages to this PE itself, every size: a blocking send completes before its
 * receive is posted (the wait copies the message out of the way). */
static void edge_self(int me)
{
    size_t sizes[] = { 8, eager, eager + 1, 100000, 2 * stage + 3 };
    size_t maxl = 100000 > 2 * stage + 3 ? 100000 : 2 * stage + 3;
    unsigned char *priv = malloc(maxl), *sym = shmem_malloc(maxl), *rb = malloc(maxl);
    shmemx_msg_h h;
    shmemx_status_t st;

    for (int i = 0; i < 10; i++) {
        size_t len = sizes[i % 5];
        unsigned char *sb = i < 5 ? priv : sym;
        int tag = 100 + i;
        fill(sb, len, me, tag);
        CHECK(shmemx_send(me, tag, sb, len) == 0);
        CHECK(shmemx_recv(me, tag, rb, maxl, &st) == 0 && st_is(&st, me, tag, len, 0));
        CHECK(good(rb, len, me, tag));
        memset(rb, 0, len);
        CHECK(shmemx_isend(me, tag, sb, len, &h) == 0);
        CHECK(shmemx_recv(SHMEMX_ANY_SOURCE, tag, rb, maxl, &st) == 0 &&
              st_is(&st, me, tag, len, 0));
        CHECK(shmemx_msg_wait(&h, NULL) == 0 && good(rb, len, me, tag));
        memset(rb, 0, len);
        CHECK(shmemx_irecv(me, SHMEMX_ANY_TAG, rb, maxl, &h) == 0);
        CHECK(shmemx_send(me, tag, sb, len) == 0);
        CHECK(shmemx_msg_wait(&h, &st) == 0 && st_is(&st, me, tag, len, 0));
        CHECK(good(rb, len, me, tag));
    }
    free(priv);
    free(rb);
    shmem_barrier_all();
    shmem_free(sym);
}

/* Messages in flight at shmem_finalize (docs/messages.md, "Finalize"). */
static void edge_finalize(int me, int peer)
{
    size_t big = 3 * stage + 7 > 600000 ? 3 * stage + 7 : 600000;
    unsigned char *priv = malloc(big), *sym = shmem_malloc(big), small[256];
    shmemx_msg_h h;
    shmemx_status_t st;

    fill(priv, big, me, 7);
    fill(sym, big, me, 8);
    /* never received, never waited for: an eager, a staged and a symmetric one */
    shmemx_isend(peer, 90, priv, 100, &h);
    shmemx_isend(peer, 91, priv, 200000, &h);
    shmemx_isend(peer, 92, sym, 200000, &h);
    shmemx_irecv(peer, 93, small, sizeof(small), &h); /* never matched */
    if (me < peer) {
        /* blocked in sends the partner never receives: it gets to shmem_finalize */
        CHECK(shmemx_send(peer, 94, priv, big) == 0);
        for (int i = 0; i < 2000; i++)
            CHECK(shmemx_send(peer, 95, priv, 1000) == 0);
        /* sent by the partner just before its finalize: still here */
        CHECK(shmemx_recv(peer, 77, priv, big, &st) == 0 && st_is(&st, peer, 77, 100000, 0));
        CHECK(good(priv, 100000, peer, 77));
    } else {
        /* the partner serves this while it waits in its own sends */
        CHECK(shmemx_isend(peer, 96, sym, 600000, &h) == 0 && shmemx_msg_wait(&h, NULL) == 0);
        fill(priv, 100000, me, 77);
        CHECK(shmemx_send(peer, 77, priv, 100000) == 0);
    }
    if (test_failures)
        printf("msg_edge: PE %d: %d failures in the finalize part\n", me, (int)test_failures);
    shmem_finalize();
    free(priv);
    exit(test_failures != 0);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "edge";
    static long fails;
    int me, n, peer;

    eager = env_size("SHMEM_MSG_EAGER_SIZE", eager);
    stage = env_size("SHMEM_MSG_STAGE_SIZE", stage);
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    peer = (me + n / 2) % n; /* across the two simulated nodes of SHMEM_SIM_PES_PER_NODE=n/2 */
    if (strcmp(mode, "edge") != 0 || n < 2 || n % 2) {
        if (me == 0)
            fprintf(stderr, "usage: msg_edge [edge], at an even number of PEs\n");
        shmem_finalize();
        return 2;
    }
    edge_small(me, peer);
    edge_reuse(me, peer);
    edge_self(me);
    /* what failed so far, before the part that leaves messages in flight */
    fails = test_failures;
    shmem_barrier_all();
    if (me == 0) {
        long total = 0, v;
        for (int pe = 0; pe < n; pe++) {
            shmem_getmem(&v, &fails, sizeof(v), pe);
            total += v;
        }
        printf("msg_edge: %s (%d PEs, %ld failures before finalize)\n", total ? "FAILED" : "ok", n,
               total);
    }
    edge_finalize(me, peer);
    return 0;
}
