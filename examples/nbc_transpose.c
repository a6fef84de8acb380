/* nbc_transpose: a pipelined distributed transpose (the communication step of a 2-D FFT)
 * that overlaps the alltoall of one batch of rows with the computation on the previous
 * batch, using shmemx_alltoallmem_nb; the same kernel with blocking shmem_alltoallmem is
 * the baseline.  Each PE owns R rows of an (R * npes) x (R * npes) matrix of doubles per
 * batch; "compute" is a few passes of arithmetic over the received block.
 * usage: nbc_transpose [R] [batches] [passes]   (prints the best of 5 alternating runs of
 * each and the speed-up on PE 0) */
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the work done on a transposed batch (stands for the 1-D FFTs of a 2-D FFT) */
static double work(double *a, size_t n, int passes)
{
    double s = 0;
    for (int p = 0; p < passes; p++)
        for (size_t i = 0; i < n; i++) {
            a[i] = a[i] * 0.999 + 0.5;
            s += a[i];
        }
    return s;
}

int main(int argc, char **argv)
{
    size_t R = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
    int batches = argc > 2 ? atoi(argv[2]) : 16;
    int passes = argc > 3 ? atoi(argv[3]) : 20;
    int npes, me;
    size_t blk, n;
    double *send[2], *recv[2], t_block, t_nb, sum = 0;

    shmem_init();
    npes = shmem_n_pes();
    me = shmem_my_pe();
    blk = R * R;            /* doubles sent to each PE per batch */
    n = blk * (size_t)npes; /* doubles per batch per PE */
    for (int b = 0; b < 2; b++) {
        send[b] = shmem_malloc(n * sizeof(double));
        recv[b] = shmem_malloc(n * sizeof(double));
        if (!send[b] || !recv[b])
            shmem_global_exit(1);
        for (size_t i = 0; i < n; i++)
            send[b][i] = me + (double)i * 1e-6;
    }

    /* best of 5 runs of each, alternating (the first ones also warm the buffers up) */
    t_block = t_nb = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t;

        /* blocking: exchange batch k, then compute on it.  Two buffers, as in the pipelined
         * loop: a PE that returns from batch k + 1's exchange may put into a peer's
         * recv[k % 2] only after that peer entered batch k + 1's, so after it finished
         * computing on batch k (one buffer would let a fast PE overwrite a slow one's
         * batch while it still computes on it) */
        shmem_barrier_all();
        t = now();
        for (int k = 0; k < batches; k++) {
            shmem_alltoallmem(SHMEM_TEAM_WORLD, recv[k % 2], send[k % 2], blk * sizeof(double));
            sum += work(recv[k % 2], n, passes);
        }
        shmem_barrier_all();
        t = now() - t;
        t_block = t < t_block ? t : t_block;

        /* pipelined: post batch k + 1, compute on batch k meanwhile */
        t = now();
        {
            shmemx_req_h r;
            shmemx_alltoallmem_nb(SHMEM_TEAM_WORLD, recv[0], send[0], blk * sizeof(double), &r);
            for (int k = 0; k < batches; k++) {
                shmemx_req_h next = SHMEMX_REQ_NULL;
                shmemx_req_wait(&r);
                if (k + 1 < batches)
                    shmemx_alltoallmem_nb(SHMEM_TEAM_WORLD, recv[(k + 1) % 2], send[(k + 1) % 2],
                                          blk * sizeof(double), &next);
                sum += work(recv[k % 2], n, passes);
                r = next;
            }
        }
        shmem_barrier_all();
        t = now() - t;
        t_nb = t < t_nb ? t : t_nb;
    }
    if (me == 0)
        printf("nbc_transpose: %d PEs, %zu KiB per PE per batch, %d batches: blocking %.3f s, "
               "overlapped %.3f s, speed-up %.2fx (checksum %g)\n",
               npes, n * sizeof(double) / 1024, batches, t_block, t_nb, t_block / t_nb, sum);
    shmem_finalize();
    return 0;
}
