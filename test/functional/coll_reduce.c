/* Reductions of every type of the spec's tables with every op it allows, through
 * coll_reduce (the typed wrappers are one call to it) on SHMEM_TEAM_WORLD and a
 * strided team of odd size, counts 0, 1, odd and several chunks, in place and not;
 * plus the active-set backend coll_reduce_aset.  Values are small integers so every
 * result is exact in every type.  "big": an odd count of several chunks of
 * SHMEM_TEAM_WORLD's own (larger) reduction scratch, in place and not, then on a team of
 * every PE and one of all but the last, whose pool slots' scratch is small (over a
 * fabric auto picks the sliced algorithm there). */
#include "ofs_api.h"
#include "tests.h"
#include <complex.h>
#include <string.h>

static char *sbuf, *dbuf;
#define MAXN 5000
#define MAXES 32

static long long val(int r, size_t i, enum coll_op op)
{
    switch (op) {
    case COLL_OP_PROD: return (long long)((r + i) % 2 + 1);
    case COLL_OP_AND:
    case COLL_OP_OR:
    case COLL_OP_XOR: return (long long)(((size_t)r * 37 + i * 11) & 0x7f);
    case COLL_OP_MAX:
    case COLL_OP_MIN: return (long long)(((size_t)r * 7 + i) % 11);
    default: return (long long)((r + i) % 5 + 1);
    }
}

static long long expect(int n, size_t i, enum coll_op op)
{
    long long e = val(0, i, op);
    for (int r = 1; r < n; r++) {
        long long v = val(r, i, op);
        switch (op) {
        case COLL_OP_AND: e &= v; break;
        case COLL_OP_OR: e |= v; break;
        case COLL_OP_XOR: e ^= v; break;
        case COLL_OP_MAX: e = v > e ? v : e; break;
        case COLL_OP_MIN: e = v < e ? v : e; break;
        case COLL_OP_SUM: e += v; break;
        default: e *= v; break;
        }
    }
    return e;
}

/* clang-format off */
#define TYPES(X)                                                                          \
    X(COLL_T_CHAR, char) X(COLL_T_SCHAR, signed char) X(COLL_T_SHORT, short)              \
    X(COLL_T_INT, int) X(COLL_T_LONG, long) X(COLL_T_LONGLONG, long long)                 \
    X(COLL_T_PTRDIFF, ptrdiff_t) X(COLL_T_UCHAR, unsigned char)                           \
    X(COLL_T_USHORT, unsigned short) X(COLL_T_UINT, unsigned int)                         \
    X(COLL_T_ULONG, unsigned long) X(COLL_T_ULONGLONG, unsigned long long)                \
    X(COLL_T_INT8, int8_t) X(COLL_T_INT16, int16_t) X(COLL_T_INT32, int32_t)              \
    X(COLL_T_INT64, int64_t) X(COLL_T_UINT8, uint8_t) X(COLL_T_UINT16, uint16_t)          \
    X(COLL_T_UINT32, uint32_t) X(COLL_T_UINT64, uint64_t) X(COLL_T_SIZE, size_t)          \
    X(COLL_T_FLOAT, float) X(COLL_T_DOUBLE, double) X(COLL_T_LONGDOUBLE, long double)
/* clang-format on */

static void fill(enum coll_type t, void *p, int r, size_t n, enum coll_op op)
{
    switch (t) {
#define F(E, T)                             \
    case E:                                 \
        for (size_t i = 0; i < n; i++)      \
            ((T *)p)[i] = (T)val(r, i, op); \
        break;
        TYPES(F)
#undef F
    case COLL_T_COMPLEXF:
        for (size_t i = 0; i < n; i++)
            ((float _Complex *)p)[i] = (float)val(r, i, op) + (float)((r + 1) % 2) * I;
        break;
    case COLL_T_COMPLEXD:
        for (size_t i = 0; i < n; i++)
            ((double _Complex *)p)[i] = (double)val(r, i, op) + (double)((r + 1) % 2) * I;
        break;
    default: break;
    }
}

/* index of the first wrong element, or -1 */
static long verify(enum coll_type t, const void *p, int nm, size_t n, enum coll_op op)
{
    for (size_t i = 0; i < n; i++) {
        int ok = 1;
        switch (t) {
#define F(E, T) \
    case E: ok = ((const T *)p)[i] == (T)expect(nm, i, op); break;
            TYPES(F)
#undef F
        case COLL_T_COMPLEXF:
        case COLL_T_COMPLEXD: {
            double _Complex e = (double)val(0, i, op) + (double)(1 % 2) * I, got;
            for (int r = 1; r < nm; r++) {
                double _Complex v = (double)val(r, i, op) + (double)((r + 1) % 2) * I;
                e = op == COLL_OP_SUM ? e + v : e * v;
            }
            got = t == COLL_T_COMPLEXF ? (double _Complex)((const float _Complex *)p)[i]
                                       : ((const double _Complex *)p)[i];
            ok = got == e;
            break;
        }
        default: break;
        }
        if (!ok)
            return (long)i;
    }
    return -1;
}

static void run(shmem_team_t team, const char *name, int aset_stride_log)
{
    static const size_t counts[] = { 0, 1, 7, 1001, MAXN };
    int nm = shmem_team_n_pes(team), r = shmem_team_my_pe(team);

    for (int t = 0; t < COLL_T_COUNT; t++) {
        size_t es = coll_type_size(t);
        for (int op = 0; op < COLL_OP_COUNT; op++) {
            if (!coll_op_valid(op, t))
                continue;
            for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
                size_t c = counts[ci];
                int inplace = ci % 2;
                char *d = inplace ? sbuf : dbuf;
                long bad;
                /* the big count only for a few types, to keep the test short */
                if (c == MAXN && t != COLL_T_INT && t != COLL_T_DOUBLE && t != COLL_T_COMPLEXD &&
                    t != COLL_T_CHAR)
                    continue;
                fill(t, sbuf, r, c, op);
                memset(dbuf, 0x5a, c * es + 1);
                shmem_team_sync(team);
                if (aset_stride_log < 0) {
                    CHECK(coll_reduce(team, d, sbuf, c, op, t) == 0);
                } else {
                    static long pSync[SHMEM_REDUCE_SYNC_SIZE];
                    coll_reduce_aset(d, sbuf, (int)c, op, t, 0, aset_stride_log, nm, NULL, pSync);
                    for (int k = 0; k < SHMEM_REDUCE_SYNC_SIZE; k++)
                        CHECK(pSync[k] == SHMEM_SYNC_VALUE);
                }
                bad = verify(t, d, nm, c, op);
                if (bad >= 0)
                    fprintf(stderr, "PE %d: %s: type %d op %d count %zu%s: element %ld wrong\n",
                            shmem_my_pe(), name, t, op, c, inplace ? " in place" : "", bad);
                CHECK(bad < 0);
                if (!inplace)
                    CHECK(((unsigned char *)dbuf)[c * es] == 0x5a);
            }
        }
    }
}

#define BIGN 300007

static void big_on(shmem_team_t team, const char *name, char *s, char *d, int *b)
{
    static const struct {
        enum coll_type t;
        enum coll_op op;
    } cases[] = { { COLL_T_INT, COLL_OP_SUM }, { COLL_T_DOUBLE, COLL_OP_MAX } };
    int nm = shmem_team_n_pes(team), r = shmem_team_my_pe(team);

    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        size_t es = coll_type_size(cases[k].t);
        char *into = k % 2 ? s : d; /* in place every other case */
        long bad;
        fill(cases[k].t, s, r, BIGN, cases[k].op);
        memset(d, 0x5a, BIGN * es + 1);
        shmem_team_sync(team);
        CHECK(coll_reduce(team, into, s, BIGN, cases[k].op, cases[k].t) == 0);
        bad = verify(cases[k].t, into, nm, BIGN, cases[k].op);
        if (bad >= 0)
            fprintf(stderr, "PE %d: big, %s: type %d op %d: element %ld wrong\n", shmem_my_pe(),
                    name, cases[k].t, cases[k].op, bad);
        CHECK(bad < 0);
        if (into == d)
            CHECK(((unsigned char *)d)[BIGN * es] == 0x5a);
    }
    /* a broadcast into the dest of a reduction right after it: no late slice of the
     * reduction may land on the broadcast's data */
    for (int round = 0; round < 4; round++) {
        int root = (round + 1) % nm;
        for (size_t i = 0; i < BIGN; i++)
            b[i] = (int)i * 3 + round + 1000 * r;
        fill(COLL_T_INT, s, r, BIGN, COLL_OP_SUM);
        shmem_team_sync(team);
        CHECK(coll_reduce(team, d, s, BIGN, COLL_OP_SUM, COLL_T_INT) == 0);
        CHECK(coll_broadcast(team, d, b, BIGN, sizeof(int), root) == 0);
        long bad = -1;
        for (size_t i = 0; i < BIGN && bad < 0; i++)
            if (((int *)d)[i] != (int)i * 3 + round + 1000 * root)
                bad = (long)i;
        if (bad >= 0)
            fprintf(stderr,
                    "PE %d: big, %s: broadcast after a reduction, round %d: element %ld is %d, "
                    "not %d\n",
                    shmem_my_pe(), name, round, bad, ((int *)d)[bad],
                    (int)bad * 3 + round + 1000 * root);
        CHECK(bad < 0);
    }
    shmem_team_sync(team);
}

static void big(void)
{
    char *s = shmem_malloc(BIGN * 8 + 64), *d = shmem_malloc(BIGN * 8 + 64);
    int *b = shmem_malloc(BIGN * sizeof(int)); /* a broadcast's source */
    int npes = shmem_n_pes();
    shmem_team_t all = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;

    CHECK(s && d && b);
    big_on(SHMEM_TEAM_WORLD, "world", s, d, b);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all) == 0);
    big_on(all, "team of all", s, d, b);
    if (npes > 2) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes - 1, NULL, 0, &odd) == 0);
        if (odd != SHMEM_TEAM_INVALID)
            big_on(odd, "team of all but the last", s, d, b);
    }
    /* the active-set forms: an in-place reduction, then at once a broadcast into the same
     * array with another pSync (no barrier between, as the specification allows) */
    for (int round = 0; round < 4; round++) {
        static long psr[SHMEM_REDUCE_SYNC_SIZE], psb[SHMEM_BCAST_SYNC_SIZE];
        int root = round % npes, me = shmem_my_pe();
        long bad = -1;
        for (size_t i = 0; i < BIGN; i++)
            b[i] = (int)i * 5 + round + 1000 * me;
        fill(COLL_T_INT, s, me, BIGN, COLL_OP_SUM);
        shmem_barrier_all();
        coll_reduce_aset(s, s, BIGN, COLL_OP_SUM, COLL_T_INT, 0, 0, npes, NULL, psr);
        coll_broadcast_aset(s, b, BIGN, sizeof(int), root, 0, 0, npes, psb);
        for (size_t i = 0; i < BIGN && bad < 0 && me != root; i++)
            if (((int *)s)[i] != (int)i * 5 + round + 1000 * root)
                bad = (long)i;
        if (bad >= 0)
            fprintf(stderr,
                    "PE %d: big, active set: broadcast after an in-place reduction: "
                    "element %ld is %d\n",
                    me, bad, ((int *)s)[bad]);
        CHECK(bad < 0);
    }
    shmem_barrier_all();
    shmem_team_destroy(odd);
    shmem_team_destroy(all);
    shmem_free(b);
    shmem_free(d);
    shmem_free(s);
}

int main(int argc, char **argv)
{
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    int npes;

    shmem_init();
    npes = shmem_n_pes();
    if (argc > 1 && strcmp(argv[1], "big") == 0) {
        big();
        return test_finish("coll_reduce big");
    }
    sbuf = shmem_malloc(MAXN * MAXES + 64);
    dbuf = shmem_malloc(MAXN * MAXES + 64);
    CHECK(sbuf && dbuf);
    run(SHMEM_TEAM_WORLD, "world", -1);
    /* PEs 0 .. n-2 (odd size at 4 PEs), or everyone at 1 PE */
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes > 1 ? npes - 1 : 1, NULL, 0,
                                   &odd) == 0);
    if (odd != SHMEM_TEAM_INVALID)
        run(odd, "strided", -1);
    shmem_team_destroy(odd);
    run(SHMEM_TEAM_WORLD, "active set", 0);
    shmem_free(dbuf);
    shmem_free(sbuf);
    return test_finish("coll_reduce");
}
