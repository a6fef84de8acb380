/* perf_handles: what a handle costs to make and release, through the API: a context
 * created and destroyed, a team_sync_nb request posted and waited (each handle a slot of
 * a handle table, include/ofs_handle.h).  Best of 7 runs of 20000; PE 0 prints, in us.
 * usage: perf_handles (2 PEs; docs/performance.md, "Handle tables") */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <time.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

int main(void)
{
    enum { N = 20000, RUNS = 7 };
    double best_ctx = 1e9, best_nbc = 1e9, t0, t;

    shmem_init();
    for (int r = 0; r < RUNS; r++) {
        shmem_barrier_all();
        t0 = now_us();
        for (int i = 0; i < N; i++) {
            shmem_ctx_t c;
            if (shmem_ctx_create(0, &c) == 0)
                shmem_ctx_destroy(c);
        }
        t = (now_us() - t0) / N;
        best_ctx = t < best_ctx ? t : best_ctx;
        shmem_barrier_all();
        t0 = now_us();
        for (int i = 0; i < N; i++) {
            shmemx_req_h q;
            shmemx_team_sync_nb(SHMEM_TEAM_WORLD, &q);
            shmemx_req_wait(&q);
        }
        t = (now_us() - t0) / N;
        best_nbc = t < best_nbc ? t : best_nbc;
    }
    if (shmem_my_pe() == 0)
        printf("ctx create+destroy %.3f us, team_sync_nb post+wait %.3f us (best of %d x %d)\n",
               best_ctx, best_nbc, RUNS, N);
    shmem_finalize();
    return 0;
}
