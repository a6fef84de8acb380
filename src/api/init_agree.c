/*
 * The settings every PE must agree on, checked once at start-up (ofs_init in init.c):
 * published with rt_init's exchange, compared right after it.
 */
#include "ofs.h"
#include "rt.h"
#include "heap.h"
#include "init.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Settings every PE must share.  The heap's layout: the allocator gives equal offsets
 * only over equal heaps (SHMEM_TEAMS_MAX sizes the team pool in it), and a peer's
 * smaller heap object mapped at our size ends in SIGBUS.  The routes and the atomic
 * executor: PEs that disagree on them mix CPU and fabric atomics or look for endpoints
 * that were never opened.  The collective algorithms: PEs running different ones wait
 * for each other forever.  (The OFI route checks its own settings in ofi_connect.)
 * Published with the node ids at rt_init's exchange and compared right after it,
 * before anything is created.
 */
enum { AGREE_LONG, AGREE_BOOL, AGREE_ENUM };
static const struct init_agree {
    const char *name;
    int kind;
    size_t off;
} init_agree_tab[] = {
    { "SYMMETRIC_SIZE", AGREE_LONG, offsetof(struct ofs_params, SYMMETRIC_SIZE) },
    { "TEAMS_MAX", AGREE_LONG, offsetof(struct ofs_params, TEAMS_MAX) },
    { "LOCAL_TRANSPORT", AGREE_ENUM, offsetof(struct ofs_params, LOCAL_TRANSPORT) },
    { "SIM_PES_PER_NODE", AGREE_LONG, offsetof(struct ofs_params, SIM_PES_PER_NODE) },
    { "MSG_RING_SIZE", AGREE_LONG, offsetof(struct ofs_params, MSG_RING_SIZE) },
    { "MSG_EAGER_SIZE", AGREE_LONG, offsetof(struct ofs_params, MSG_EAGER_SIZE) },
    { "COLL_SHM", AGREE_BOOL, offsetof(struct ofs_params, COLL_SHM) },
    { "BARRIER_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, BARRIER_ALGORITHM) },
    { "BCAST_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, BCAST_ALGORITHM) },
    { "REDUCE_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, REDUCE_ALGORITHM) },
    { "COLLECT_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, COLLECT_ALGORITHM) },
    { "ALLTOALL_ALGORITHM", AGREE_ENUM, offsetof(struct ofs_params, ALLTOALL_ALGORITHM) },
    /* how many pieces, hence signals, a block takes */
    { "COLL_SEGMENT", AGREE_LONG, offsetof(struct ofs_params, COLL_SEGMENT) },
    { "COLL_WHOLE", AGREE_LONG, offsetof(struct ofs_params, COLL_WHOLE) },
    /* the non-blocking collectives' protocols, and the heap they reserve */
    { "NBC_EAGER", AGREE_LONG, offsetof(struct ofs_params, NBC_EAGER) },
    { "NBC_SHM", AGREE_LONG, offsetof(struct ofs_params, NBC_SHM) },
    { "NBC_DIRECT", AGREE_BOOL, offsetof(struct ofs_params, NBC_DIRECT) },
    { "STATS", AGREE_BOOL, offsetof(struct ofs_params, STATS) }, /* the dump is collective */
    /* shmem_finalize waits for every PE's add to the finalize count */
    { "FINALIZE_WATCH", AGREE_BOOL, offsetof(struct ofs_params, FINALIZE_WATCH) },
};
#define AGREE_N (sizeof(init_agree_tab) / sizeof(init_agree_tab[0]))
#define AGREE_VAL 32 /* longer values (not valid for any of them) compare truncated */
struct init_agree_vals {
    char v[AGREE_N][AGREE_VAL];
};

static void init_agree_fill(struct init_agree_vals *a)
{
    memset(a, 0, sizeof(*a));
    for (size_t i = 0; i < AGREE_N; i++) {
        const char *field = (const char *)&ofs_g.params + init_agree_tab[i].off;
        char *v = a->v[i];

        if (init_agree_tab[i].kind == AGREE_LONG)
            snprintf(v, AGREE_VAL, "%ld", *(const long *)field);
        else if (init_agree_tab[i].kind == AGREE_BOOL)
            snprintf(v, AGREE_VAL, "%d", *(const int *)field);
        else
            snprintf(v, AGREE_VAL, "%s",
                     ofs_param_word(ofs_param_find(init_agree_tab[i].name), *(const int *)field));
    }
}

ofs_status_t init_agree_publish(int node_pes)
{
    struct init_agree_vals a;
    ofs_status_t st;

    init_agree_fill(&a);
    st = rt_kv_put("ofs.agree", &a, sizeof(a));
    /* and the heap the node has room for, should the default not fit */
    init_heap_count();
    return st == OFS_OK ? heap_fit_publish(node_pes) : st;
}

/* "0, 2-5, 7": the PEs (of n) whose value of setting i is v */
static void init_agree_pes(const struct init_agree_vals *all, int n, size_t i, const char *v,
                           char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int pe = 0; pe < n && used < len; pe++) {
        int last = pe;
        if (strncmp(all[pe].v[i], v, AGREE_VAL) != 0)
            continue;
        while (last + 1 < n && strncmp(all[last + 1].v[i], v, AGREE_VAL) == 0)
            last++;
        int w = last == pe ? snprintf(buf + used, len - used, "%s%d", used ? ", " : "", pe)
                : last == pe + 1
                    ? snprintf(buf + used, len - used, "%s%d, %d", used ? ", " : "", pe, last)
                    : snprintf(buf + used, len - used, "%s%d-%d", used ? ", " : "", pe, last);
        used += w > 0 ? (size_t)w : 0;
        pe = last;
    }
}

/* Every PE reads every PE's settings, so every PE knows; PE 0 reports, one line per
 * setting that differs, and the others give it a moment to do so before they go down. */
ofs_status_t init_agree_check(void)
{
    int n = ofs_g.n_pes, bad = 0;
    struct init_agree_vals *all;
    ofs_status_t st = OFS_OK;

    if (ofs_g.singleton || n < 2)
        return OFS_OK;
    all = calloc((size_t)n, sizeof(*all));
    if (!all)
        return OFS_ERR_NOMEM;
    for (int pe = 0; st == OFS_OK && pe < n; pe++)
        st = rt_kv_get(pe, "ofs.agree", &all[pe], sizeof(all[pe]));
    if (st != OFS_OK) {
        ofs_log_error("shmem_init: cannot read the settings of every PE: %s",
                      ofs_status_string(st));
        free(all);
        return st;
    }
    for (size_t i = 0; i < AGREE_N; i++) {
        char msg[768], pes[256];
        size_t used = 0;
        int nvals = 0, differs = 0;

        for (int pe = 1; pe < n && !differs; pe++)
            differs = strncmp(all[pe].v[i], all[0].v[i], AGREE_VAL) != 0;
        bad |= differs;
        if (!differs || ofs_g.my_pe != 0)
            continue;
        /* each distinct value once, in order of the first PE that has it */
        for (int pe = 0; pe < n && used < sizeof(msg); pe++) {
            int seen = 0;
            for (int q = 0; q < pe && !seen; q++)
                seen = strncmp(all[q].v[i], all[pe].v[i], AGREE_VAL) == 0;
            if (seen)
                continue;
            if (++nvals > 4) {
                snprintf(msg + used, sizeof(msg) - used, "; ...");
                break;
            }
            init_agree_pes(all, n, i, all[pe].v[i], pes, sizeof(pes));
            int w = snprintf(msg + used, sizeof(msg) - used, "%s'%.*s' on PE%s %s",
                             used ? "; " : "", AGREE_VAL, all[pe].v[i],
                             strchr(pes, ',') || strchr(pes, '-') ? "s" : "", pes);
            used += w > 0 ? (size_t)w : 0;
        }
        ofs_log_error("shmem_init: SHMEM_%s must be the same on every PE, but it is %s",
                      init_agree_tab[i].name, msg);
    }
    free(all);
    if (!bad)
        return OFS_OK;
    if (ofs_g.my_pe != 0)
        sleep(2); /* PE 0 reports and takes the job down; this is only in case it cannot */
    return OFS_ERR_INVAL;
}
