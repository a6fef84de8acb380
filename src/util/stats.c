/*
 * Per-PE statistics (SHMEM_STATS; include/ofs_stats.h, docs/stats.md): the per-thread
 * blocks, the hooks' slow halves, and the table and JSON document a dump prints.  The
 * gather over PEs is the api layer's (src/api/stats.c): util knows no other PE.
 */
#include "ofs_stats.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ofs_stats_on;
int ofs_stats_enabled;
__thread struct ofs_stats_block *ofs_stats_tls __attribute__((tls_model("initial-exec")));

static struct ofs_stats_block *stats_list;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static int stats_npes;
static char stats_names[OFS_STATS_N][32];

static const char *const kind_name[] = { "put", "get", "amo", "signal", "internal" };
static const char *const route_name[] = { "shm", "ofi" };
static const char *const proto_name[] = { "inject", "bounce", "zcopy" };
static const char *const msg_name[] = { "send", "recv" };
static const char *const coll_name[] = { "barrier",   "sync",     "broadcast",
                                         "collect",   "fcollect", "alltoall",
                                         "alltoalls", "reduce",   "scan" };
_Static_assert(sizeof(coll_name) / sizeof(coll_name[0]) == OFS_STATS_NCOLL, "one name per kind");

static uint64_t stats_ns(void)
{
    return ofs_clock_ns();
}

/* The clock around waits: the time-stamp counter where the kernel keeps time by it (a
 * few ns to read, against tens for clock_gettime), converted to ns at each snapshot by
 * the rate seen since ofs_stats_start; else clock_gettime.  Counted from the start (+1:
 * never 0). */
static int stats_tsc;
static uint64_t stats_tick0, stats_ns0;

static uint64_t stats_ticks_raw(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (stats_tsc)
        return __builtin_ia32_rdtsc();
#endif
    return stats_ns();
}

static uint64_t stats_now(void)
{
    return stats_ticks_raw() - stats_tick0 + 1;
}

static int stats_tsc_usable(void)
{
#if defined(__x86_64__) || defined(__i386__)
    char cs[32] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

    if (!f)
        return 0;
    if (!fgets(cs, sizeof(cs), f))
        cs[0] = 0;
    fclose(f);
    return strcmp(cs, "tsc\n") == 0;
#else
    return 0;
#endif
}

/* ns per tick since the start (1 without the TSC) */
static double stats_ns_per_tick(void)
{
    uint64_t dt, dn;

    if (!stats_tsc)
        return 1.0;
    dt = stats_ticks_raw() - stats_tick0;
    dn = stats_ns() - stats_ns0;
    return dt ? (double)dn / (double)dt : 1.0;
}

static void stats_names_make(void)
{
    static const char *const what[] = { "ops", "bytes", "ns" };

    for (int k = 0; k <= OFS_STATS_NKIND; k++)
        for (int r = 0; r < OFS_STATS_NROUTE; r++)
            for (int b = 0; b < 2; b++)
                snprintf(stats_names[OFS_STATS_I_RMA(k, r, b)], 32, "%s.%s.%s", kind_name[k],
                         route_name[r], what[b]);
    for (int p = 0; p < OFS_STATS_NPROTO; p++)
        for (int b = 0; b < 2; b++)
            snprintf(stats_names[OFS_STATS_I_PROTO(p, b)], 32, "ofi.%s.%s", proto_name[p], what[b]);
    for (int d = 0; d < OFS_STATS_NMSG; d++)
        for (int b = 0; b < 2; b++)
            snprintf(stats_names[OFS_STATS_I_MSG(d, b)], 32, "msg.%s.%s", msg_name[d], what[b]);
    for (int c = 0; c < OFS_STATS_NCOLL; c++)
        for (int w = 0; w < 3; w++)
            snprintf(stats_names[OFS_STATS_I_COLL(c, w)], 32, "coll.%s.%s", coll_name[c], what[w]);
    strcpy(stats_names[OFS_STATS_I_QUIET_OPS], "quiet.ops");
    strcpy(stats_names[OFS_STATS_I_QUIET_NS], "quiet.ns");
    strcpy(stats_names[OFS_STATS_I_WAIT_OPS], "wait.ops");
    strcpy(stats_names[OFS_STATS_I_WAIT_NS], "wait.ns");
    strcpy(stats_names[OFS_STATS_I_TEST_MISS], "test.miss");
}

const char *ofs_stats_name(int i)
{
    if (!stats_names[0][0])
        stats_names_make();
    return stats_names[i];
}

int ofs_stats_is_ns(int i)
{
    const char *n = ofs_stats_name(i);
    size_t l = strlen(n);
    return l > 3 && strcmp(n + l - 3, ".ns") == 0;
}

void ofs_stats_start(int on)
{
    stats_npes = ofs_g.n_pes;
    if (on) {
        stats_tsc = stats_tsc_usable();
        stats_ns0 = stats_ns();
        stats_tick0 = stats_ticks_raw();
    }
    ofs_stats_enabled = on;
    ofs_stats_on = on;
}

static void stats_block_clear(struct ofs_stats_block *b)
{
    memset(b->v, 0, sizeof(b->v));
    if (b->pe_bytes)
        memset(b->pe_bytes, 0, (size_t)stats_npes * sizeof(uint64_t));
    for (int i = 0; i < OFS_STATS_TOP; i++) {
        b->top_pe[i] = UINT64_MAX;
        b->top_bytes[i] = 0;
    }
}

struct ofs_stats_block *ofs_stats_block_new(void)
{
    struct ofs_stats_block *b = calloc(1, sizeof(*b));

    if (!b)
        ofs_fatal(1, "SHMEM_STATS: out of memory for a thread's counters");
    if (stats_npes <= OFS_STATS_PE_EXACT) {
        b->pe_bytes = calloc((size_t)stats_npes + 1, sizeof(uint64_t));
        if (!b->pe_bytes)
            ofs_fatal(1, "SHMEM_STATS: out of memory for a thread's counters");
    }
    stats_block_clear(b);
    pthread_mutex_lock(&stats_lock);
    b->next = stats_list;
    stats_list = b;
    pthread_mutex_unlock(&stats_lock);
    ofs_stats_tls = b;
    return b;
}

/* space-saving heavy hitters: the PE's entry, a free one, or the smallest replaced
 * (its bytes kept: an over-estimate, never an under-estimate) */
void ofs_stats_top_add(struct ofs_stats_block *b, int pe, uint64_t len)
{
    int min = 0;

    for (int i = 0; i < OFS_STATS_TOP; i++) {
        if (b->top_pe[i] == (uint64_t)pe || b->top_pe[i] == UINT64_MAX) {
            b->top_pe[i] = (uint64_t)pe;
            b->top_bytes[i] += len;
            return;
        }
        if (b->top_bytes[i] < b->top_bytes[min])
            min = i;
    }
    b->top_pe[min] = (uint64_t)pe;
    b->top_bytes[min] += len;
}

void ofs_stats_proto_add(int p, size_t len)
{
    struct ofs_stats_block *b = ofs_stats_me();

    if (b->depth)
        return;
    b->v[OFS_STATS_I_PROTO(p, 0)]++;
    b->v[OFS_STATS_I_PROTO(p, 1)] += len;
}

void ofs_stats_wait_begin(void)
{
    struct ofs_stats_block *b = ofs_stats_me();

    if (!b->depth && !b->wait_t0)
        b->wait_t0 = stats_now();
}

void ofs_stats_wait_end_(void)
{
    struct ofs_stats_block *b = ofs_stats_tls;

    if (!b || !b->wait_t0)
        return;
    b->v[OFS_STATS_I_WAIT_OPS]++;
    b->v[OFS_STATS_I_WAIT_NS] += stats_now() - b->wait_t0;
    b->wait_t0 = 0;
}

/* the scope's value: its start (ns) << 6 | timed << 5 | (c + 1) */
uint64_t ofs_stats_scope_begin(int c, size_t bytes, int timed)
{
    struct ofs_stats_block *b = ofs_stats_me();

    b->depth++;
    if (c < OFS_STATS_NCOLL) {
        b->v[OFS_STATS_I_COLL(c, 0)]++;
        b->v[OFS_STATS_I_COLL(c, 1)] += bytes;
    } else if (c == OFS_STATS_C_QUIET) {
        b->v[OFS_STATS_I_QUIET_OPS]++;
    }
    return (timed ? stats_now() << 6 | 1u << 5 : 0) | (uint64_t)(c + 1);
}

void ofs_stats_scope_end_(uint64_t s)
{
    struct ofs_stats_block *b = ofs_stats_me();
    int c = (int)(s & 31) - 1;

    b->depth--;
    if (!(s & (1u << 5)))
        return;
    uint64_t ns = stats_now() - (s >> 6);
    if (c < OFS_STATS_NCOLL)
        b->v[OFS_STATS_I_COLL(c, 2)] += ns;
    else if (c == OFS_STATS_C_QUIET)
        b->v[OFS_STATS_I_QUIET_NS] += ns;
}

void ofs_stats_reset(void)
{
    pthread_mutex_lock(&stats_lock);
    for (struct ofs_stats_block *b = stats_list; b; b = b->next)
        stats_block_clear(b);
    pthread_mutex_unlock(&stats_lock);
}

void ofs_stats_snapshot(uint64_t *v, int64_t *pe, uint64_t *bytes, int ntop)
{
    int n = stats_npes, exact = n <= OFS_STATS_PE_EXACT;
    int m = exact ? n : OFS_STATS_TOP * 64;
    uint64_t *sum = calloc((size_t)m + 1, sizeof(uint64_t));
    int64_t *who = calloc((size_t)m + 1, sizeof(int64_t));

    memset(v, 0, OFS_STATS_N * sizeof(uint64_t));
    pthread_mutex_lock(&stats_lock);
    for (struct ofs_stats_block *b = stats_list; b; b = b->next) {
        for (int i = 0; i < OFS_STATS_N; i++)
            v[i] += b->v[i];
        if (!sum || !who)
            continue;
        if (exact) {
            for (int p = 0; p < n; p++)
                sum[p] += b->pe_bytes[p];
            continue;
        }
        /* large jobs: merge the heavy hitters of the threads (at most m entries) */
        for (int i = 0; i < OFS_STATS_TOP && b->top_pe[i] != UINT64_MAX; i++) {
            int j = 0;
            while (j < m && sum[j] && who[j] != (int64_t)b->top_pe[i])
                j++;
            if (j < m) {
                who[j] = (int64_t)b->top_pe[i];
                sum[j] += b->top_bytes[i];
            }
        }
    }
    pthread_mutex_unlock(&stats_lock);
    double f = stats_ns_per_tick();
    for (int i = 0; i < OFS_STATS_N; i++)
        if (ofs_stats_is_ns(i))
            v[i] = (uint64_t)((double)v[i] * f);
    for (int k = 0; k < ntop; k++) {
        int best = -1;
        for (int j = 0; sum && who && j < m; j++)
            if (sum[j] && (best < 0 || sum[j] > sum[best]))
                best = j;
        pe[k] = best < 0 ? -1 : exact ? best : who[best];
        bytes[k] = best < 0 ? 0 : sum[best];
        if (best >= 0)
            sum[best] = 0;
    }
    free(sum);
    free(who);
}

/* ---- the table (stderr) and the JSON document ---- */

static void stats_row_minmax(const uint64_t *vals, int n_pes, int stride, int i, uint64_t *min_p,
                             uint64_t *max_p, double *sum_p)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    double sum = 0;

    for (int p = 0; p < n_pes; p++) {
        uint64_t x = vals[(size_t)p * stride + i];
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        sum += (double)x;
    }
    *min_p = lo;
    *max_p = hi;
    *sum_p = sum;
}

static void stats_table(FILE *out, int n_pes, uint64_t *vals, int ntop)
{
    int stride = OFS_STATS_N + 2 * ntop;
    uint64_t lo, hi;
    double sum;

    fprintf(out, "ofishmem statistics: %d PE%s, min / mean / max over PEs (.s rows: seconds)\n",
            n_pes, n_pes == 1 ? "" : "s");
    fprintf(out, "%-24s %14s %16s %14s\n", "counter", "min", "mean", "max");
    for (int i = 0; i < OFS_STATS_N; i++) {
        stats_row_minmax(vals, n_pes, stride, i, &lo, &hi, &sum);
        if (hi == 0)
            continue;
        if (ofs_stats_is_ns(i)) {
            char name[40];
            snprintf(name, sizeof(name), "%.*s.s", (int)strlen(ofs_stats_name(i)) - 3,
                     ofs_stats_name(i));
            fprintf(out, "%-24s %14.6f %16.6f %14.6f\n", name, lo / 1e9, sum / n_pes / 1e9,
                    hi / 1e9);
        } else {
            fprintf(out, "%-24s %14" PRIu64 " %16.1f %14" PRIu64 "\n", ofs_stats_name(i), lo,
                    sum / n_pes, hi);
        }
    }
    /* the heaviest source -> target pairs of the job, from each PE's top targets */
    int shown = 0;
    for (int k = 0; k < 5; k++) {
        int bp = -1, bj = 0;
        uint64_t bb = 0;
        for (int p = 0; p < n_pes; p++)
            for (int j = 0; j < ntop; j++) {
                const uint64_t *row = vals + (size_t)p * stride + OFS_STATS_N;
                uint64_t b = row[ntop + j];
                if ((int64_t)row[j] >= 0 && b > bb) {
                    bb = b;
                    bp = p;
                    bj = j;
                }
            }
        if (bp < 0)
            break;
        uint64_t *row = vals + (size_t)bp * stride + OFS_STATS_N;
        fprintf(out, "%s %d->%" PRId64 " %" PRIu64, shown ? "," : "top targets (PE->PE bytes):", bp,
                (int64_t)row[bj], bb);
        row[ntop + bj] = 0; /* the caller's copy: consumed */
        shown++;
    }
    if (shown)
        fputc('\n', out);
}

static void stats_json(FILE *js, int n_pes, const uint64_t *vals, int ntop)
{
    int stride = OFS_STATS_N + 2 * ntop;
    uint64_t lo, hi;
    double sum;

    fprintf(js, "{\n  \"format\": \"ofishmem-stats-1\",\n  \"n_pes\": %d,\n  \"aggregate\": {",
            n_pes);
    for (int i = 0; i < OFS_STATS_N; i++) {
        stats_row_minmax(vals, n_pes, stride, i, &lo, &hi, &sum);
        fprintf(js,
                "%s\n    \"%s\": {\"min\": %" PRIu64 ", \"mean\": %.3f, \"max\": %" PRIu64
                ", \"sum\": %.0f}",
                i ? "," : "", ofs_stats_name(i), lo, sum / n_pes, hi, sum);
    }
    fprintf(js, "\n  },\n  \"pes\": [");
    for (int p = 0; p < n_pes; p++) {
        const uint64_t *row = vals + (size_t)p * stride;
        fprintf(js, "%s\n    {\"pe\": %d, \"counters\": {", p ? "," : "", p);
        for (int i = 0; i < OFS_STATS_N; i++)
            fprintf(js, "%s\"%s\": %" PRIu64, i ? ", " : "", ofs_stats_name(i), row[i]);
        fprintf(js, "},\n     \"top_targets\": [");
        for (int j = 0, first = 1; j < ntop; j++) {
            if ((int64_t)row[OFS_STATS_N + j] < 0)
                continue;
            fprintf(js, "%s{\"pe\": %" PRId64 ", \"bytes\": %" PRIu64 "}", first ? "" : ", ",
                    (int64_t)row[OFS_STATS_N + j], row[OFS_STATS_N + ntop + j]);
            first = 0;
        }
        fprintf(js, "]}");
    }
    fprintf(js, "\n  ]\n}\n");
}

void ofs_stats_print(FILE *out, FILE *json, int n_pes, uint64_t *vals, int ntop)
{
    if (json)
        stats_json(json, n_pes, vals, ntop); /* first: the table consumes the top lists */
    if (out) {
        stats_table(out, n_pes, vals, ntop);
        fflush(out);
    }
}
