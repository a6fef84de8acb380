/*
 * Prefix sums (OpenSHMEM 1.6 shmem_TYPE_sum_inscan / _exscan).
 *
 * Member r needs the sources of members 0..r-1 (and its own for the inclusive form).
 * After a barrier (every source is ready) it gets them in rank order, in slices of at
 * most 64 KiB, and folds them into a private accumulator; a second barrier makes sure
 * nobody still reads a source before dest (which may be source) is written.  Summing
 * in rank order keeps floating-point results identical to a sequential loop.  Latency
 * is linear in the team size (r gets on member r); scans are rare next to reductions,
 * and this needs no scratch space.
 */
#include "coll_internal.h"
#include <stdlib.h>

int coll_scan(struct coll_team *team, void *dest, const void *src, size_t nelems,
              enum coll_type type, int exclusive)
{
    struct coll_grp *g = coll_team_grp(team);
    size_t es = coll_type_size(type), bytes = nelems * es;
    size_t tlen = bytes < COLL_GET_CHUNK ? bytes : COLL_GET_CHUNK;
    int last = exclusive ? g->me - 1 : g->me;
    char *acc, *tmp;

    COLL_CHECK(NULL, team, .kind = COLL_NBC_SCAN, .type = type, .exclusive = exclusive,
               .nelems = nelems);
    if (nelems == 0) {
        /* still a collective of the team: numbered, or the next one would get this
         * number too while a member's entry of it still says scan (a long wait there
         * would name a mismatch that is not) */
        coll_live_enter(team, NULL, COLL_NBC_SCAN, exclusive);
        coll_live_leave(team);
        return 0;
    }
    acc = calloc(1, bytes); /* all-zero bytes are 0 for every arithmetic type here */
    tmp = malloc(tlen);
    if (!acc || !tmp)
        ofs_fatal(1, "shmem_sum_%sscan: out of host memory for %zu bytes", exclusive ? "ex" : "in",
                  bytes);
    coll_live_enter(team, NULL, COLL_NBC_SCAN, exclusive);
    if (g->size > 1)
        coll_grp_barrier(g); /* every source is ready */
    for (int i = 0; i <= last; i++) {
        for (size_t off = 0; off < bytes; off += tlen) {
            size_t l = bytes - off < tlen ? bytes - off : tlen;
            const char *from = tmp;
            if (i == g->me)
                from = (const char *)src + off;
            else
                comm_get(g->ctx, tmp, (const char *)src + off, l, coll_grp_pe(g, i));
            coll_op_apply(COLL_OP_SUM, type, acc + off, from, l / es);
        }
    }
    /* nobody reads a dest that is not the source: the result goes in before the barrier,
     * after which a member that returns may write into it (its next collective); in
     * place, after it, and that next writer barriers first */
    if (dest != src)
        memcpy(dest, acc, bytes);
    if (g->size > 1)
        coll_grp_barrier(g); /* every read of the sources is done */
    coll_live_leave(team);
    if (dest == src) {
        memcpy(dest, acc, bytes);
        g->unsynced |= COLL_UNSYNC_FLAT;
    }
    free(tmp);
    free(acc);
    return 0;
}
