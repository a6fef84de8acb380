/*
 * shmemx_stats_dump, shmemx_stats_reset and the dump at finalize (SHMEM_STATS;
 * docs/stats.md).  A dump is collective over SHMEM_TEAM_WORLD: each PE sums its threads'
 * counters into a block of the library's symmetric heap, and PE 0 reads every PE's
 * block and prints the table (stderr) and the JSON document (SHMEM_STATS_FILE).
 */
#include "api.h"
#include "init.h"
#include "shmemx.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define API_STATS_NTOP 4 /* top target PEs per PE in a dump */

static void api_stats_dump(const char *r)
{
    const size_t w = OFS_STATS_N + 2 * API_STATS_NTOP;
    int n = ofs_g.n_pes, on = ofs_stats_on;
    uint64_t *sym, *all;

    ofs_stats_on = 0; /* the dump's own traffic is not the program's */
    coll_barrier_all_as(r);
    sym = heap_alloc(w * sizeof(uint64_t), sizeof(uint64_t)); /* the same on every PE */
    if (!sym) {
        if (ofs_g.my_pe == 0)
            ofs_log_warn("shmemx_stats_dump: no room in the symmetric heap for the statistics");
        ofs_stats_on = on;
        return;
    }
    ofs_stats_snapshot(sym, (int64_t *)(sym + OFS_STATS_N), sym + OFS_STATS_N + API_STATS_NTOP,
                       API_STATS_NTOP);
    coll_barrier_all_as(r);
    if (ofs_g.my_pe == 0) {
        all = malloc((size_t)n * w * sizeof(uint64_t));
        if (all) {
            for (int pe = 0; pe < n; pe++)
                comm_get(COMM_CTX_DEFAULT, all + (size_t)pe * w, sym, w * sizeof(uint64_t), pe);
            const char *path = ofs_g.params.STATS_FILE;
            FILE *js = path && *path ? fopen(path, "w") : NULL;
            if (path && *path && !js)
                ofs_log_warn("SHMEM_STATS_FILE: cannot write %s: %s", path, strerror(errno));
            ofs_stats_print(stderr, js, n, all, API_STATS_NTOP);
            if (js && fclose(js) != 0)
                ofs_log_warn("SHMEM_STATS_FILE: cannot write %s: %s", path, strerror(errno));
            free(all);
        } else {
            ofs_log_warn("shmemx_stats_dump: out of memory for %d PEs' statistics", n);
        }
    }
    coll_barrier_all_as(r); /* PE 0 has read every block */
    heap_free(sym);
    ofs_stats_on = on;
}

void api_stats_finalize(void)
{
    if (ofs_stats_enabled)
        api_stats_dump("shmem_finalize");
}

OFS_API void pshmemx_stats_dump(void)
{
    ofs_check_init("shmemx_stats_dump");
    if (ofs_stats_enabled)
        api_stats_dump("shmemx_stats_dump");
}
OFS_WEAK_ALIAS(shmemx_stats_dump)

OFS_API void pshmemx_stats_reset(void)
{
    ofs_check_init("shmemx_stats_reset");
    ofs_stats_reset();
}
OFS_WEAK_ALIAS(shmemx_stats_reset)
