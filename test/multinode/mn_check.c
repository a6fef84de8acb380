/* Checks run on 4 PEs over 2 (real or simulated) nodes of 2 PEs each: the same-node
 * peer is load/store reachable, the other node is not; RMA to every PE is exact;
 * fetch-adds from every PE on one word are exact (one atomic executor per job).
 * --expect-env NAME=VALUE: every PE must see that variable (oshrun forwards it). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../functional/test_check.h"

static long counter;

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (argc > 2 && strcmp(argv[1], "--expect-env") == 0) {
        char name[256];
        const char *eq = strchr(argv[2], '=');
        if (!eq || (size_t)(eq - argv[2]) >= sizeof(name)) {
            fprintf(stderr, "usage: mn_check [--expect-env NAME=VALUE]\n");
            return 2;
        }
        snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[2]), argv[2]);
        const char *v = getenv(name);
        if (!v || strcmp(v, eq + 1) != 0)
            fprintf(stderr, "PE %d: %s is %s, expected %s (not forwarded to this node?)\n", me,
                    name, v ? v : "unset", eq + 1);
        CHECK(v != NULL && strcmp(v, eq + 1) == 0);
    }
    const int iters = 500;
    char *buf = shmem_malloc(1 << 20);
    char *src = malloc(1 << 20);

    CHECK(n == 4);
    int buddy = me ^ 1; /* same node */
    for (int pe = 0; pe < n; pe++) {
        void *p = shmem_ptr(&counter, pe);
        if (pe == me || pe == buddy)
            CHECK(p != NULL);
        else
            CHECK(p == NULL);
    }
    /* SHMEM_TEAM_SHARED holds the node's two PEs, from PMIx locality */
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == 2);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_SHARED, shmem_team_my_pe(SHMEM_TEAM_SHARED),
                                  SHMEM_TEAM_WORLD) == me);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, buddy, SHMEM_TEAM_SHARED) >= 0);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, (me + 2) % n, SHMEM_TEAM_SHARED) == -1);

    /* ring: everybody writes into the right neighbour (other node for odd PEs) */
    for (int len = 1; len <= (1 << 20); len *= 8) {
        memset(src, 'a' + me, len);
        shmem_barrier_all();
        shmem_putmem(buf, src, len, (me + 1) % n);
        shmem_barrier_all();
        int left = (me + n - 1) % n;
        for (int i = 0; i < len; i++)
            if (buf[i] != 'a' + left) {
                CHECK(buf[i] == 'a' + left);
                break;
            }
        memset(src, 0, len);
        shmem_getmem(src, buf, len, (me + 2) % n);
        for (int i = 0; i < len; i++)
            if (src[i] != 'a' + (me + 1) % n) {
                CHECK(src[i] == 'a' + (me + 1) % n);
                break;
            }
    }
    /* cross-transport atomicity: every PE adds into PE 0's counter */
    shmem_barrier_all();
    for (int i = 0; i < iters; i++)
        shmem_long_atomic_fetch_add(&counter, 1, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK(counter == (long)iters * n);

    static int total;
    static int mine;
    mine = test_failures;
    shmem_barrier_all();
    if (me == 0) {
        total = 0;
        for (int pe = 0; pe < n; pe++)
            total += shmem_int_g(&mine, pe);
        printf("mn_check: %s (%d failures)\n", total ? "FAILED" : "ok", total);
    }
    shmem_barrier_all();
    int rc = shmem_int_g(&total, 0);
    shmem_free(buf);
    free(src);
    shmem_finalize();
    return rc != 0;
}
