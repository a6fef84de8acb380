/*
 * Symmetric allocation routines end in a barrier, after which every PE may use the new
 * block on every other PE at once: no PE may still be writing its own copy (zeroing it
 * for shmem_calloc, copying the old contents for shmem_realloc) after that barrier, or
 * the update of a faster PE is wiped.  Each PE, right after the allocating call returns,
 * adds to, sets and puts into the block on every PE, then checks its own copy.
 *
 *   heap_race [max_bytes [rounds]]   every routine, sizes 8 B .. max_bytes (default 64M)
 *   heap_race flags                  the report's program: calloc a flags array, set
 *                                    flags[me] on every PE, wait for all (10 s limit)
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int me, npes, failures;

static void fail(const char *what, size_t bytes, size_t idx, long got, long want)
{
    if (failures++ < 10)
        fprintf(stderr, "PE %d: %s of %zu bytes: element %zu is %ld, expected %ld\n", me, what,
                bytes, idx, got, want);
}

/* Right after the block exists everywhere: every PE adds 1 to p[me % n] (AMO), and
 * where the block has room sets p[n/2 + me] (AMO) and puts to p[n - 1 - me] on every
 * PE.  The routine owes p[i] = i for i < kept (shmem_realloc's old contents) and, with
 * zeroed, 0 everywhere else; otherwise the rest is undefined and not checked. */
static void touch_and_check(const char *what, long *p, size_t n, size_t kept, int zeroed)
{
    int room = n >= 4 * (size_t)npes;

    for (int k = 0; k < npes; k++) {
        int pe = (me + k) % npes;
        shmem_long_atomic_add(&p[me % n], 1, pe);
        if (room) {
            long v = 1000 + me;
            shmem_long_atomic_set(&p[n / 2 + me], v, pe);
            shmem_long_put(&p[n - 1 - me], &v, 1, pe);
        }
    }
    shmem_quiet();
    shmem_barrier_all();
    for (size_t i = 0; i < n; i++) {
        long want = i < kept ? (long)i : 0;
        int known = zeroed || i < kept;
        if (i < (size_t)npes && !known)
            continue;
        if (i < (size_t)npes)
            for (int q = 0; q < npes; q++)
                want += (size_t)q % n == i;
        else if (room && i >= n / 2 && i < n / 2 + npes)
            want = 1000 + (long)(i - n / 2);
        else if (room && i > n - 1 - npes)
            want = 1000 + (long)(n - 1 - i);
        else if (!known)
            continue;
        if (p[i] != want) {
            fail(what, n * sizeof(long), i, p[i], want);
            break;
        }
    }
    shmem_barrier_all(); /* nobody still checks when the block goes */
}

static int flags_mode(void)
{
    int *flags = shmem_calloc(npes, sizeof(int));
    struct timespec t0, t;

    for (int k = 0; k < npes; k++)
        shmem_int_atomic_set(&flags[me], 1, (me + k) % npes);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!shmem_int_test_all(flags, npes, NULL, SHMEM_CMP_EQ, 1)) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 10) {
            for (int i = 0; i < npes; i++)
                if (flags[i] != 1)
                    fprintf(stderr, "PE %d: flags[%d] = %d after 10 s: the set was lost\n", me, i,
                            flags[i]);
            shmem_global_exit(1);
        }
    }
    shmem_barrier_all();
    shmem_free(flags);
    return 0;
}

int main(int argc, char **argv)
{
    size_t max = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)64 << 20;
    int rounds = argc > 2 ? atoi(argv[2]) : 1;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1 && strcmp(argv[1], "flags") == 0) {
        for (int r = 0; r < 100; r++)
            flags_mode();
        if (me == 0)
            printf("heap_race flags: ok (%d PEs)\n", npes);
        shmem_finalize();
        return 0;
    }
    for (int r = 0; r < rounds; r++) {
        /* 8 B, 64 B, ... 16 MiB, then max itself (64 MiB) */
        for (size_t bytes = 8; bytes <= max;
             bytes = bytes < max && bytes * 8 > max ? max : bytes * 8) {
            size_t n = bytes / sizeof(long);
            /* small blocks many times: the window is short */
            int reps = bytes <= 4096 ? 50 : bytes <= ((size_t)1 << 20) ? 5 : 1;

            for (int k = 0; k < reps; k++) {
                long *p = shmem_calloc(n, sizeof(long));
                if (!p) {
                    fail("shmem_calloc returned NULL", bytes, 0, 0, 0);
                    continue;
                }
                touch_and_check("shmem_calloc", p, n, 0, 1);
                shmem_free(p);

                /* realloc: old contents i at p[i], grown 8x (moved: a block sits behind) */
                size_t m = n > 1 ? n / 8 : 1;
                long *q = shmem_malloc(m * sizeof(long));
                long *plug = shmem_malloc(64);
                for (size_t i = 0; q && i < m; i++)
                    q[i] = (long)i;
                p = shmem_realloc(q, n * sizeof(long));
                if (!p) {
                    fail("shmem_realloc returned NULL", bytes, 0, 0, 0);
                    shmem_free(q);
                    shmem_free(plug);
                    continue;
                }
                touch_and_check("shmem_realloc", p, n, m, 0);
                shmem_free(plug);
                shmem_free(p);

                p = shmem_align(4096, n * sizeof(long));
                if (p) {
                    memset(p, 0, n * sizeof(long));
                    shmem_barrier_all(); /* the user's own zeroing, then the barrier */
                    touch_and_check("shmem_align", p, n, 0, 1);
                    shmem_free(p);
                }
            }
        }
    }
    static int total;
    static int mine;
    mine = failures;
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        total += shmem_int_g(&mine, pe);
    if (me == 0)
        printf("heap_race: %s (%d PEs, %d failures)\n", total ? "FAILED" : "ok", npes, total);
    shmem_finalize();
    return total != 0;
}
