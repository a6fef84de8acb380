/*
 * Barriers (whatever SHMEM_BARRIER_ALGORITHM picks): in each round every PE puts a
 * round-stamped value to every other member, synchronizes, and checks it sees every
 * member's value of this round.  Rounds alternate between two slots, so a PE that
 * leaves the barrier early cannot overwrite what a slow PE is still checking unless
 * the barrier let it through too early.  Covered: shmem_barrier_all, shmem_sync_all
 * (after shmem_quiet), shmem_team_sync on TEAM_WORLD and on a strided split, and
 * shmem_barrier on an active set; now and then one PE arrives late (sleeps) so that the
 * others wait long enough to go to sleep themselves.  The split team is destroyed right
 * after its last sync, and the job finalizes right after a barrier (a member may still
 * be leaving it when the first PE clears the team's counters).
 */
#include "tests.h"

#include <string.h>
#include <unistd.h>

#define ROUNDS 300
#define MAXPE 64

static long slot[2][MAXPE];
static long psync[SHMEM_BARRIER_SYNC_SIZE];

enum { K_BARRIER_ALL, K_SYNC_ALL, K_TEAM_WORLD, K_TEAM_SPLIT, K_ASET, K_COUNT };

/* world PE of member i of a set: start + i * stride */
static void round_trip(int kind, int r, int start, int stride, int size, shmem_team_t team)
{
    int me = shmem_my_pe(), idx = (me - start) / stride;
    long v = (long)r * 1000 + kind * 100;
    long *s = slot[r & 1];

    for (int i = 0; i < size; i++)
        if (i != idx)
            shmem_long_p(&s[idx], v + idx, start + i * stride);
    s[idx] = v + idx;
    if (r % 61 == kind && idx == r % size)
        usleep(3000); /* one member late: the others wait long */
    switch (kind) {
    case K_BARRIER_ALL: shmem_barrier_all(); break;
    case K_SYNC_ALL:
        shmem_quiet();
        shmem_sync_all();
        break;
    case K_TEAM_WORLD:
    case K_TEAM_SPLIT:
        shmem_quiet();
        shmem_team_sync(team);
        break;
    default: shmem_barrier(start, 0, size, psync); break;
    }
    for (int i = 0; i < size; i++) {
        long got = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
        if (got != v + i) {
            fprintf(stderr, "PE %d: kind %d round %d: member %d holds %ld, want %ld\n", me, kind, r,
                    i, got, v + i);
            test_failures++;
        }
    }
}

int main(void)
{
    shmem_team_t even = SHMEM_TEAM_INVALID;

    shmem_init();
    int n = shmem_n_pes();
    CHECK(n <= MAXPE);
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even);
    shmem_barrier_all();
    for (int kind = 0; kind < K_COUNT; kind++) {
        memset(slot, 0, sizeof(slot));
        shmem_barrier_all();
        for (int r = 0; r < ROUNDS; r++) {
            if (kind == K_TEAM_SPLIT) {
                if (even != SHMEM_TEAM_INVALID)
                    round_trip(kind, r, 0, 2, (n + 1) / 2, even);
            } else {
                round_trip(kind, r, 0, 1, n, SHMEM_TEAM_WORLD);
            }
        }
        if (kind == K_TEAM_SPLIT && even != SHMEM_TEAM_INVALID) {
            shmem_team_destroy(even); /* at once: a member may still be leaving the sync */
            even = SHMEM_TEAM_INVALID;
        }
        shmem_barrier_all();
    }
    return test_finish("coll_barrier");
}
