/* Collectives of one team back to back with no synchronisation of the program's own,
 * the way a program reuses its buffers: two dests take turns (the specification wants a
 * dest ready on every PE before any PE calls a collective that writes it; a dest is
 * written again two calls later, after every PE called the call between), each checked
 * in full right after its call returns and written again by this PE (an in-place call's
 * input) only then, so a member still writing an earlier call's result into it, or one
 * that pushes a later call's data too early, shows as a wrong element; the source is
 * rewritten as soon as the call returns.  Kinds and sizes come from a sequence every PE
 * draws alike: broadcast (rotating root), fcollect, collect (blocks of different
 * lengths), alltoall, sum reduction and inclusive scan (in place and not), blocks and
 * vectors across the algorithms' thresholds (8 B to 300 KB).
 * Usage: coll_chain [iterations [team]] (default 60 calls on SHMEM_TEAM_WORLD; team
 * "all": a team of every PE split from it, with a pool slot's small scratch; "mix": each
 * call on one of the two, drawn alike by every PE). */
#include "tests.h"

#include <string.h>

#define MAXB 300000 /* bytes per member's block or per vector at most */

enum kind { BCAST, FCOLLECT, COLLECT, ALLTOALL, REDUCE, REDUCE_IN, SCAN, SCAN_IN, NKINDS };
static const char *names[] = { "broadcast", "fcollect",        "collect", "alltoall",
                               "reduce",    "reduce in place", "inscan",  "inscan in place" };

static int val(int it, int pe, size_t i)
{
    return (int)((unsigned)it * 1000003u + (unsigned)pe * 7919u + (unsigned)i);
}

/* small values: sums over a few PEs stay exact */
static int sval(int it, int pe, size_t i)
{
    return (int)(((unsigned)it + (unsigned)pe * 3u + (unsigned)i) % 97u);
}

static unsigned long long rng = 88172645463325252ULL;
static unsigned draw(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 8, 120, 4096, 40000, MAXB };
    int iters = argc > 1 ? atoi(argv[1]) : 60;
    int me, npes;
    shmem_team_t all = SHMEM_TEAM_INVALID;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    /* dest: a block of MAXB + npes ints per member (collect's blocks grow with the rank) */
    size_t dcap = (size_t)npes * (MAXB / sizeof(int) + (size_t)npes);
    int *s = shmem_malloc(dcap * sizeof(int)), *dd[2];
    dd[0] = shmem_malloc(dcap * sizeof(int));
    dd[1] = shmem_malloc(dcap * sizeof(int));
    CHECK(s && dd[0] && dd[1]);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all) == 0);
    int mix = argc > 2 && strcmp(argv[2], "mix") == 0;
    shmem_team_t team = argc > 2 && strcmp(argv[2], "all") == 0 ? all : SHMEM_TEAM_WORLD;
    for (int it = 0; it < iters; it++) {
        enum kind k = (enum kind)draw(NKINDS);
        size_t bytes = sizes[draw(sizeof(sizes) / sizeof(sizes[0]))], c = bytes / sizeof(int);
        int *d = dd[it % 2];
        if (mix)
            team = draw(2) ? all : SHMEM_TEAM_WORLD;
        int root = (int)draw((unsigned)npes);
        size_t total = 0;
        long bad = -1;
        int got = 0, want = 0;

        /* this PE's source (or, in place, its dest) for this call */
        switch (k) {
        case BCAST:
        case FCOLLECT:
        case COLLECT: /* collect's blocks grow with the rank */
            for (size_t i = 0; i < c + (k == COLLECT ? (size_t)me : 0); i++)
                s[i] = val(it, me, i);
            break;
        case ALLTOALL:
            for (int j = 0; j < npes; j++)
                for (size_t i = 0; i < c; i++)
                    s[(size_t)j * c + i] = val(it, me, (size_t)j * 65536 + i);
            break;
        case REDUCE:
        case SCAN:
        case REDUCE_IN:
        case SCAN_IN: {
            int *in = k == REDUCE_IN || k == SCAN_IN ? d : s;
            for (size_t i = 0; i < c; i++)
                in[i] = sval(it, me, i);
            break;
        }
        default: break;
        }
        switch (k) {
        case BCAST: CHECK(shmem_int_broadcast(team, d, s, c, root) == 0); break;
        case FCOLLECT: CHECK(shmem_int_fcollect(team, d, s, c) == 0); break;
        case COLLECT: CHECK(shmem_int_collect(team, d, s, c + (size_t)me) == 0); break;
        case ALLTOALL: CHECK(shmem_int_alltoall(team, d, s, c) == 0); break;
        case REDUCE: CHECK(shmem_int_sum_reduce(team, d, s, c) == 0); break;
        case REDUCE_IN: CHECK(shmem_int_sum_reduce(team, d, d, c) == 0); break;
        case SCAN: CHECK(shmem_int_sum_inscan(team, d, s, c) == 0); break;
        case SCAN_IN: CHECK(shmem_int_sum_inscan(team, d, d, c) == 0); break;
        default: break;
        }
        /* the whole dest, right away */
        switch (k) {
        case BCAST:
            for (size_t i = 0; i < c && bad < 0; i++)
                if ((got = d[i]) != (want = val(it, root, i)))
                    bad = (long)i;
            break;
        case FCOLLECT:
        case ALLTOALL:
            for (int m = 0; m < npes && bad < 0; m++)
                for (size_t i = 0; i < c && bad < 0; i++) {
                    want = k == FCOLLECT ? val(it, m, i) : val(it, m, (size_t)me * 65536 + i);
                    if ((got = d[(size_t)m * c + i]) != want)
                        bad = (long)((size_t)m * c + i);
                }
            break;
        case COLLECT:
            for (int m = 0; m < npes && bad < 0; m++) {
                for (size_t i = 0; i < c + (size_t)m && bad < 0; i++)
                    if ((got = d[total + i]) != (want = val(it, m, i)))
                        bad = (long)(total + i);
                total += c + (size_t)m;
            }
            break;
        default: /* sums over every member (reduce) or members 0..me (scan) */
            for (size_t i = 0; i < c && bad < 0; i++) {
                int last = k == REDUCE || k == REDUCE_IN ? npes - 1 : me;
                want = 0;
                for (int m = 0; m <= last; m++)
                    want += sval(it, m, i);
                if ((got = d[i]) != want)
                    bad = (long)i;
            }
            break;
        }
        if (bad >= 0)
            fprintf(stderr, "PE %d: call %d, %s of %zu bytes on %s: element %ld is %d, not %d\n",
                    me, it, names[k], bytes, team == all ? "a team of all" : "SHMEM_TEAM_WORLD",
                    bad, got, want);
        CHECK(bad < 0);
    }
    shmem_barrier_all();
    shmem_team_destroy(all);
    shmem_free(dd[1]);
    shmem_free(dd[0]);
    shmem_free(s);
    return test_finish("coll_chain");
}
