/*
 * Two-sided messages (shmemx_send family): one program, several modes, so that each
 * launch checks a lot.  usage: msg_basic [all|basic|flood|exchange|private]
 *   basic     PE 0 -> PE 1: order, sizes around the eager and stage boundaries, private
 *             and symmetric buffers, wildcards, truncation, zero length, probe, requests
 *   flood     many-to-one (every PE to PE 0, any source) and all-to-all (isend/irecv)
 *   exchange  pairs send each other large messages with blocking sends at once
 *   private   pairs exchange long requests from private memory (read by CMA on one node
 *             unless SHMEM_MSG_CMA=0, else staged; pairs me^1, then me+n/2 at 4+ PEs):
 *             unexpected ones pulled while waiting,
 *             order with a wildcard tag, any source, truncation of a posted receive
 *   cmafail   (SHMEM_MSG_CMA=1, or auto with a 64K stage: pairs on one node) each PE of a
 *             pair sends a long isend from memory it has made partly unreadable
 *             (PROT_NONE from 128 KiB on), so that the peer's
 *             process_vm_readv fails after the probe passed; the message must come
 *             staged (the sender's copy faults, the handler makes the memory readable
 *             again, during the wait): unexpected and truncated one way, posted the other
 *             with a staged message sent behind it
 * Sizes are read from SHMEM_MSG_EAGER_SIZE / SHMEM_MSG_STAGE_SIZE when set.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include <shmemx.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tests.h"
#include "msg_test.h"

static void mode_basic(void)
{
    int me = shmem_my_pe();
    size_t sizes[] = { 0,
                       1,
                       8,
                       eager ? eager - 1 : 2,
                       eager,
                       eager + 1,
                       65536,
                       stage / 4,
                       stage / 4 + 1,
                       stage + 3,
                       3 * stage + 5 };
    int ns = (int)(sizeof(sizes) / sizeof(sizes[0]));
    size_t big = 3 * stage + 5 > 65536 ? 3 * stage + 5 : 65536;
    unsigned char *priv = malloc(big), *sym = shmem_malloc(big);
    shmemx_status_t st;

    CHECK(priv && sym);
    if (me == 0) {
        /* each size from a private and from a symmetric buffer, one tag: order kept */
        for (int i = 0; i < ns; i++) {
            fill(priv, sizes[i], 0, i);
            CHECK(shmemx_send(1, 5, sizes[i] ? priv : NULL, sizes[i]) == SHMEMX_MSG_OK);
            fill(sym, sizes[i], 0, i + 100);
            CHECK(shmemx_send(1, 5, sym, sizes[i]) == SHMEMX_MSG_OK);
        }
        /* tags out of order: the receiver takes tag 2 first */
        fill(priv, 100, 0, 1);
        shmemx_send(1, 1, priv, 100);
        fill(priv, 200, 0, 2);
        shmemx_send(1, 2, priv, 200);
        /* truncation: eager and rendezvous */
        fill(priv, 1000, 0, 9);
        shmemx_send(1, 9, priv, 1000);
        fill(priv, 2 * stage, 0, 9);
        shmemx_send(1, 9, priv, 2 * stage);
        /* probe then receive; request handles */
        fill(priv, 300, 0, 11);
        shmemx_send(1, 11, priv, 300);
        shmemx_msg_h h[3];
        fill(sym, big, 0, 12);
        shmemx_isend(1, 12, sym, big, &h[0]);
        shmemx_isend(1, 12, NULL, 0, &h[1]);
        shmemx_isend(1, 13, sym, 10, &h[2]);
        for (int i = 0; i < 3; i++)
            CHECK(shmemx_msg_wait(&h[i], &st) == SHMEMX_MSG_OK);
        CHECK(shmemx_msg_wait(&(shmemx_msg_h){ SHMEMX_MSG_H_NULL }, NULL) == SHMEMX_MSG_OK);
        /* to self */
        shmemx_msg_h hs;
        unsigned char self[64];
        fill(priv, 64, 0, 14);
        shmemx_irecv(0, 14, self, sizeof(self), &hs);
        shmemx_send(0, 14, priv, 64);
        CHECK(shmemx_msg_wait(&hs, &st) == 0 && st.length == 64 && good(self, 64, 0, 14));
    } else if (me == 1) {
        for (int i = 0; i < ns; i++) {
            memset(priv, 0xee, sizes[i]);
            CHECK(shmemx_recv(0, 5, priv, sizes[i], &st) == SHMEMX_MSG_OK);
            CHECK(st.source == 0 && st.tag == 5 && st.length == sizes[i] && st.error == 0);
            CHECK(good(priv, sizes[i], 0, i));
            memset(sym, 0xee, sizes[i]);
            CHECK(shmemx_recv(SHMEMX_ANY_SOURCE, SHMEMX_ANY_TAG, sym, big, &st) == 0);
            CHECK(st.length == sizes[i] && good(sym, sizes[i], 0, i + 100));
        }
        CHECK(shmemx_recv(0, 2, priv, 1000, &st) == 0 && st.length == 200 && good(priv, 200, 0, 2));
        CHECK(shmemx_recv(SHMEMX_ANY_SOURCE, SHMEMX_ANY_TAG, priv, 1000, &st) == 0 && st.tag == 1 &&
              st.length == 100 && good(priv, 100, 0, 1));
        memset(priv, 0, 1000);
        CHECK(shmemx_recv(0, 9, priv, 10, &st) == SHMEMX_MSG_TRUNCATED);
        CHECK(st.length == 1000 && st.error == SHMEMX_MSG_TRUNCATED && good(priv, 10, 0, 9) &&
              priv[10] == 0);
        memset(priv, 0, 2 * stage);
        CHECK(shmemx_recv(0, 9, priv, stage + 1, &st) == SHMEMX_MSG_TRUNCATED);
        CHECK(st.length == 2 * stage && good(priv, stage + 1, 0, 9) && priv[stage + 1] == 0);
        shmemx_probe(SHMEMX_ANY_SOURCE, 11, &st);
        CHECK(st.source == 0 && st.tag == 11 && st.length == 300);
        CHECK(shmemx_iprobe(0, 11, &st) == 1);
        CHECK(shmemx_iprobe(0, 77, &st) == 0);
        CHECK(shmemx_recv(0, 11, priv, 300, NULL) == 0 && good(priv, 300, 0, 11));
        /* irecv posted before and after arrival; test until done */
        shmemx_msg_h h[3];
        unsigned char small[16];
        shmemx_irecv(0, SHMEMX_ANY_TAG, sym, big, &h[0]);
        shmemx_irecv(0, 12, NULL, 0, &h[1]);
        shmemx_irecv(0, 13, small, sizeof(small), &h[2]);
        int flag = 0;
        while (!flag)
            CHECK(shmemx_msg_test(&h[0], &flag, &st) == 0);
        CHECK(st.tag == 12 && st.length == big && good(sym, big, 0, 12));
        CHECK(shmemx_msg_wait(&h[1], &st) == 0 && st.length == 0 && st.tag == 12);
        CHECK(shmemx_msg_wait(&h[2], &st) == 0 && st.length == 10 && small[0] == pat(0, 12, 0));
    }
    shmem_barrier_all();
    free(priv);
    shmem_free(sym);
}

/* a mix of sizes: mostly eager, some rendezvous */
static size_t flood_len(int i)
{
    return i % 7 == 3 ? eager * 3 + (size_t)i : (size_t)(i * 37) % (eager + 1);
}

static void mode_flood(int nmsg)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    size_t maxl = eager * 3 + (size_t)nmsg;
    unsigned char *b = malloc(maxl * (size_t)n);
    shmemx_status_t st;

    /* many-to-one: the sequence number is the tag; per-source order must hold */
    if (me == 0) {
        int *next = calloc((size_t)n, sizeof(int));
        for (int k = 0; k < nmsg * (n - 1); k++) {
            CHECK(shmemx_recv(SHMEMX_ANY_SOURCE, SHMEMX_ANY_TAG, b, maxl, &st) == 0);
            CHECK(st.source > 0 && st.tag == next[st.source]);
            CHECK(st.length == flood_len(st.tag) && good(b, st.length, st.source, st.tag));
            next[st.source]++;
        }
        free(next);
    } else {
        for (int i = 0; i < nmsg; i++) {
            fill(b, flood_len(i), me, i);
            shmemx_send(0, i, b, flood_len(i));
        }
    }
    shmem_barrier_all();

    /* all-to-all with requests: every PE sends nmsg/4 messages to every PE */
    int m = nmsg / 4 ? nmsg / 4 : 1;
    shmemx_msg_h *rq = malloc(sizeof(*rq) * (size_t)(2 * n * m));
    unsigned char *out = malloc(maxl * (size_t)m), *in = malloc(maxl * (size_t)(n * m));
    int k = 0;
    for (int i = 0; i < m; i++)
        fill(out + (size_t)i * maxl, flood_len(i), me, i);
    for (int p = 0; p < n; p++)
        for (int i = 0; i < m; i++)
            shmemx_irecv(p, i, in + ((size_t)p * m + i) * maxl, maxl, &rq[k++]);
    for (int d = 1; d <= n; d++)
        for (int i = 0; i < m; i++)
            shmemx_isend((me + d) % n, i, out + (size_t)i * maxl, flood_len(i), &rq[k++]);
    for (int j = 0; j < k; j++)
        CHECK(shmemx_msg_wait(&rq[j], &st) == 0);
    for (int p = 0; p < n; p++)
        for (int i = 0; i < m; i++)
            CHECK(good(in + ((size_t)p * m + i) * maxl, flood_len(i), p, i));
    shmem_barrier_all();
    free(rq);
    free(out);
    free(in);
    free(b);
}

static void mode_exchange(void)
{
    int me = shmem_my_pe(), n = shmem_n_pes(), peer = me ^ 1;
    size_t len = 2 * stage + 4 * eager + 1;
    unsigned char *a = malloc(len), *b = malloc(len), *s = shmem_malloc(len);
    shmemx_status_t st;

    if (peer < n) {
        /* large messages both ways at once: blocking send from private memory, then a
         * request from symmetric memory waited for before either side receives */
        fill(a, len, me, 1);
        CHECK(shmemx_send(peer, 1, a, len) == 0);
        /* symmetric: isend pulls from it (no copy); wait before receiving */
        shmemx_msg_h h;
        fill(s, len, me, 2);
        CHECK(shmemx_isend(peer, 2, s, len, &h) == 0 && shmemx_msg_wait(&h, NULL) == 0 &&
              h == SHMEMX_MSG_H_NULL);
        CHECK(shmemx_recv(peer, 1, b, len, &st) == 0 && good(b, len, peer, 1));
        CHECK(shmemx_recv(peer, 2, b, len, &st) == 0 && good(b, len, peer, 2));
    }
    shmem_barrier_all();
    free(a);
    free(b);
    shmem_free(s);
}

static void mode_private(int peer)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    size_t l1 = 4 * eager + 3, l2 = 2 * stage + 1, half = l1 / 2;
    unsigned char *a = malloc(l2), *a2 = malloc(l2), *b = malloc(l2 + 1);
    shmemx_msg_h h[3];
    shmemx_status_t st;

    CHECK(a && a2 && b);
    if (peer < n) {
        for (int round = 0; round < 2; round++) { /* the first may go staged */
            /* both ways at once, waited for before either side receives: the waits pull
             * the unexpected data into private memory */
            fill(a, l1, me, 1);
            fill(a2, l2, me, 2);
            shmemx_isend(peer, 1, a, l1, &h[0]);
            shmemx_isend(peer, 1, a2, l2, &h[1]);
            shmemx_isend(peer, 2, a, 10, &h[2]);
            for (int i = 0; i < 3; i++)
                CHECK(shmemx_msg_wait(&h[i], NULL) == 0);
            CHECK(shmemx_recv(SHMEMX_ANY_SOURCE, 1, b, l2, &st) == 0 && st.source == peer &&
                  st.length == l1 && good(b, l1, peer, 1));
            CHECK(shmemx_recv(peer, SHMEMX_ANY_TAG, b, l2, &st) == 0 && st.tag == 1 &&
                  st.length == l2 && good(b, l2, peer, 2));
            CHECK(shmemx_recv(peer, 2, b, l2, &st) == 0 && st.length == 10 && good(b, 10, peer, 1));
            /* to itself: sent first, received after */
            shmemx_isend(me, 5, a2, l2, &h[0]);
            CHECK(shmemx_recv(me, 5, b, l2, &st) == 0 && st.length == l2 && good(b, l2, me, 2));
            CHECK(shmemx_msg_wait(&h[0], NULL) == 0);
            /* a posted receive shorter than the message: only maxlen bytes land */
            memset(b, 0xee, half + 1);
            shmemx_irecv(peer, 3, b, half, &h[0]);
            shmemx_send(peer, 4, NULL, 0); /* posted: the peer's message finds it */
            shmemx_recv(peer, 4, NULL, 0, NULL);
            fill(a, l1, me, 3);
            shmemx_isend(peer, 3, a, l1, &h[1]);
            CHECK(shmemx_msg_wait(&h[1], NULL) == 0);
            CHECK(shmemx_msg_wait(&h[0], &st) == SHMEMX_MSG_TRUNCATED && st.length == l1 &&
                  good(b, half, peer, 3) && b[half] == 0xee);
        }
    }
    shmem_barrier_all();
    free(a);
    free(a2);
    free(b);
}

static char *prot_lo, *prot_hi;
static volatile sig_atomic_t in_wait, faults, faults_in_wait;

/* a fault in the protected buffer (the library's staged copy): make it readable */
static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    char *a = si->si_addr;

    (void)ctx;
    if (a >= prot_lo && a < prot_hi) {
        mprotect(prot_lo, (size_t)(prot_hi - prot_lo), PROT_READ | PROT_WRITE);
        faults++;
        faults_in_wait += in_wait;
        return;
    }
    signal(sig, SIG_DFL); /* anything else: crash as usual */
}

static void mode_cmafail(void)
{
    int me = shmem_my_pe(), peer = me ^ 1;
    size_t len = 256 * 1024 + 3, maplen = (len + 4095) & ~(size_t)4095;
    unsigned char *a, *b = malloc(len);
    struct sigaction sa;
    shmemx_msg_h h;
    shmemx_status_t st;
    uint64_t probe = 42, got = 0;
    struct iovec l = { &got, 8 }, r = { &probe, 8 };

    if (process_vm_readv(getpid(), &l, 1, &r, 1, 0) != 8) {
        printf("msg_basic cmafail: no CMA here, nothing to test\n");
        shmem_finalize();
        exit(77);
    }
    a = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(a != MAP_FAILED && b);
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    /* only the part from 128 KiB on: a read of the whole message fails there (CMA=1), and
     * so does the CMA read of its rest once a small stage is full (auto: SHMEM_MSG_STAGE_SIZE
     * of 64K, the first pieces staged) */
    prot_lo = (char *)a + (128 << 10);
    prot_hi = (char *)a + maplen;
    if (peer < shmem_n_pes()) {
        /* two exchanges: each PE has seen a record of the other's and published its CMA
         * verdict before the other reads it */
        for (int i = 0; i < 2; i++) {
            shmemx_send(peer, 20, NULL, 0);
            shmemx_recv(peer, 20, NULL, 0, NULL);
        }
        for (int dir = 0; dir < 2; dir++) {
            if ((me & 1) == dir) { /* the sender */
                fill(a, len, me, dir);
                if (dir == 1)
                    shmemx_recv(peer, 22, NULL, 0, NULL); /* the receive is posted */
                faults = faults_in_wait = 0;
                mprotect(prot_lo, (size_t)(prot_hi - prot_lo), PROT_NONE);
                shmemx_isend(peer, 21, a, len, &h);
                in_wait = 1;
                if (dir == 1) { /* pieces of another message around the ones sent again */
                    fill(b, len, me, 24);
                    shmemx_send(peer, 24, b, len);
                }
                CHECK(shmemx_msg_wait(&h, NULL) == 0);
                in_wait = 0;
                /* copied by the library after the isend returned: after a refused read */
                CHECK(faults == 1 && faults_in_wait == 1);
            } else if (dir == 0) { /* unexpected, pulled while probing, truncated */
                shmemx_probe(peer, 21, &st);
                CHECK(st.length == len);
                memset(b, 0xee, len);
                CHECK(shmemx_recv(peer, 21, b, len / 2, &st) == SHMEMX_MSG_TRUNCATED &&
                      st.length == len && good(b, len / 2, peer, dir) && b[len / 2] == 0xee);
            } else { /* posted, and a staged message sent behind it */
                unsigned char *c = malloc(len);
                CHECK(c != NULL);
                shmemx_irecv(peer, 21, b, len, &h);
                shmemx_send(peer, 22, NULL, 0);
                CHECK(shmemx_recv(peer, 24, c, len, &st) == 0 && good(c, len, peer, 24));
                CHECK(shmemx_msg_wait(&h, &st) == 0 && st.length == len && good(b, len, peer, dir));
                free(c);
            }
        }
        /* CMA is off between the pair now: a long isend is staged, and still arrives */
        fill(a, len, me, 9);
        shmemx_isend(peer, 23, a, len, &h);
        CHECK(shmemx_recv(peer, 23, b, len, &st) == 0 && good(b, len, peer, 9));
        CHECK(shmemx_msg_wait(&h, NULL) == 0);
    }
    shmem_barrier_all();
    signal(SIGSEGV, SIG_DFL);
    munmap(a, maplen);
    free(b);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    int all = !strcmp(mode, "all");

    shmem_init();
    eager = env_size("SHMEM_MSG_EAGER_SIZE", eager);
    stage = env_size("SHMEM_MSG_STAGE_SIZE", stage);
    if (stage < 4096)
        stage = 4096;
    if (shmem_n_pes() < 2) {
        shmem_finalize();
        return 77;
    }
    if (all || !strcmp(mode, "basic"))
        mode_basic();
    if (all || !strcmp(mode, "flood"))
        mode_flood(shmem_n_pes() > 4 ? 24 : 40);
    if (all || !strcmp(mode, "exchange"))
        mode_exchange();
    if (all || !strcmp(mode, "private")) {
        int me = shmem_my_pe(), n = shmem_n_pes();
        mode_private(me ^ 1);
        if (n % 2 == 0 && n >= 4) /* other pairs: across the nodes of SHMEM_SIM_PES_PER_NODE=n/2 */
            mode_private((me + n / 2) % n);
    }
    if (!strcmp(mode, "cmafail")) /* not in all: needs SHMEM_MSG_CMA=1 on one node */
        mode_cmafail();
    return test_finish("msg_basic");
}
