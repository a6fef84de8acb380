/*
 * Small operations on every kind of context reach their target without a quiet of the
 * sender: each PE sends one to the next (to itself at 1 PE) and waits, up to 10 s, for
 * the one its previous neighbour sent, before anybody quiets.  The specification's flag
 * idiom (put, fence, p of the flag; a put-with-signal) relies on it.  Over sockets a
 * context with an endpoint of its own (a team context; shmem_ctx_create's with
 * SHMEM_OFI_CTX_SHARE=0) delivered p, atomic_set/inc/add, signal_set/add and 0-byte
 * put-with-signal only at its next quiet (found by a randomized test of the RMA API).
 * Contexts: SHMEM_CTX_DEFAULT, shmem_ctx_create with 0, PRIVATE and SERIALIZED, team
 * contexts of the world and of a split team (every PE but the last) with the same options.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tests.h"

#define EXPECT(cond, ...)                                           \
    do {                                                            \
        if (!(cond)) {                                              \
            fprintf(stderr, "PE %d: ctx_deliver: ", shmem_my_pe()); \
            fprintf(stderr, __VA_ARGS__);                           \
            fputc('\n', stderr);                                    \
            test_failures++;                                        \
        }                                                           \
    } while (0)

enum {
    OP_P,
    OP_SET,
    OP_INC,
    OP_ADD,
    OP_SIG_SET,
    OP_SIG_ADD,
    OP_PUTSIG0,
    OP_PUTSIG8,
    OP_FENCE,
    NOPS
};
static const char *const op_name[NOPS] = { "p",
                                           "atomic_set",
                                           "atomic_inc",
                                           "atomic_add",
                                           "signal_set",
                                           "signal_add",
                                           "putmem_signal of 0 bytes",
                                           "putmem_signal of 8 bytes",
                                           "putmem, fence, p" };

static uint64_t word, data[4];
static long src8 = 42;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void send_op(shmem_ctx_t ctx, int op, int to)
{
    switch (op) {
    case OP_P: shmem_ctx_uint64_p(ctx, &word, 1, to); break;
    case OP_SET: shmem_ctx_uint64_atomic_set(ctx, &word, 1, to); break;
    case OP_INC: shmem_ctx_uint64_atomic_inc(ctx, &word, to); break;
    case OP_ADD: shmem_ctx_uint64_atomic_add(ctx, &word, 1, to); break;
    case OP_SIG_SET: shmem_ctx_signal_set(ctx, &word, 1, to); break;
    case OP_SIG_ADD: shmem_ctx_signal_add(ctx, &word, 1, to); break;
    case OP_PUTSIG0:
        shmem_ctx_putmem_signal(ctx, NULL, NULL, 0, &word, 1, SHMEM_SIGNAL_SET, to);
        break;
    case OP_PUTSIG8:
        shmem_ctx_putmem_signal(ctx, data, &src8, sizeof(src8), &word, 1, SHMEM_SIGNAL_ADD, to);
        break;
    default:
        shmem_ctx_putmem(ctx, data, &src8, sizeof(src8), to);
        shmem_ctx_fence(ctx);
        shmem_ctx_uint64_p(ctx, &word, 1, to);
        break;
    }
}

/* one round, every PE: every member of t sends op on ctx to its next member (team
 * numbering of t; t is SHMEM_TEAM_INVALID on a PE outside it) */
static void round_on(shmem_ctx_t ctx, shmem_team_t t, const char *what, int op)
{
    int in = t != SHMEM_TEAM_INVALID;
    int tn = in ? shmem_team_n_pes(t) : 0, tme = in ? shmem_team_my_pe(t) : -1;
    double until;

    word = 0;
    memset(data, 0, sizeof(data));
    shmem_barrier_all();
    if (tme >= 0) {
        send_op(ctx, op, (tme + 1) % tn);
        until = now_s() + 10;
        while (shmem_signal_fetch(&word) != 1 && now_s() < until)
            ;
        EXPECT(shmem_signal_fetch(&word) == 1,
               "%s on %s: not delivered within 10 s without a quiet (the word holds %llu)",
               op_name[op], what, (unsigned long long)shmem_signal_fetch(&word));
        if (op == OP_PUTSIG8 || op == OP_FENCE)
            EXPECT(data[0] == 42, "%s on %s: the flag came, the data did not (%llu)", op_name[op],
                   what, (unsigned long long)data[0]);
        shmem_ctx_quiet(ctx);
    }
    shmem_barrier_all();
}

int main(void)
{
    static const long opts[] = { 0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED };
    static const char *const opt_name[] = { "0", "PRIVATE", "SERIALIZED" };
    shmem_team_t split = SHMEM_TEAM_INVALID;
    int n, me, provided;

    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    n = shmem_n_pes();
    me = shmem_my_pe();
    if (n > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n - 1, NULL, 0, &split);
    for (int op = 0; op < NOPS; op++)
        round_on(SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD, "SHMEM_CTX_DEFAULT", op);
    for (int o = 0; o < 3; o++) {
        shmem_ctx_t c, tc, sc = SHMEM_CTX_INVALID;
        char what[96];

        EXPECT(shmem_ctx_create(opts[o], &c) == 0, "shmem_ctx_create(%s) failed", opt_name[o]);
        EXPECT(shmem_team_create_ctx(SHMEM_TEAM_WORLD, opts[o], &tc) == 0,
               "shmem_team_create_ctx(WORLD, %s) failed", opt_name[o]);
        if (split != SHMEM_TEAM_INVALID)
            EXPECT(shmem_team_create_ctx(split, opts[o], &sc) == 0,
                   "shmem_team_create_ctx(split, %s) failed", opt_name[o]);
        for (int op = 0; op < NOPS; op++) {
            snprintf(what, sizeof(what), "a context of shmem_ctx_create(%s)", opt_name[o]);
            round_on(c, SHMEM_TEAM_WORLD, what, op);
            snprintf(what, sizeof(what), "a team context of the world (%s)", opt_name[o]);
            round_on(tc, SHMEM_TEAM_WORLD, what, op);
            if (n > 1) { /* every PE: the barriers of the round */
                snprintf(what, sizeof(what), "a team context of PEs 0..%d (%s)", n - 2,
                         opt_name[o]);
                round_on(sc, split, what, op);
            }
        }
        shmem_ctx_destroy(c);
        shmem_ctx_destroy(tc);
        if (sc != SHMEM_CTX_INVALID)
            shmem_ctx_destroy(sc);
    }
    if (split != SHMEM_TEAM_INVALID)
        shmem_team_destroy(split);
    if (me == 0 && !test_failures)
        printf("ctx_deliver: %d PEs, every context and operation delivered without a quiet\n", n);
    shmem_finalize();
    return test_failures != 0;
}
