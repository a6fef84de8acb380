/* A hybrid program: MPI and OpenSHMEM in one job, data exchanged both ways.  Either
 * library may be initialised first (argv[1] "shmem-first" starts with shmem_init). */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#define N 1024

static long sym[N];

int main(int argc, char **argv)
{
    int shmem_first = argc > 1 && strcmp(argv[1], "shmem-first") == 0;
    int rank, size, me, npes, errors = 0;
    static long buf[N], sum;
    long total, expect;

    if (shmem_first)
        shmem_init();
    MPI_Init(&argc, &argv);
    if (!shmem_first)
        shmem_init();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (rank != me || size != npes) {
        fprintf(stderr, "MPI rank %d of %d is PE %d of %d\n", rank, size, me, npes);
        errors++;
    }
    /* OpenSHMEM to MPI: a put to the right neighbour, then MPI sends what arrived left */
    for (int i = 0; i < N; i++)
        buf[i] = me * 100000L + i;
    shmem_long_put(sym, buf, N, (me + 1) % npes);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes, right = (me + 1) % npes;
    MPI_Sendrecv(sym, N, MPI_LONG, left, 7, buf, N, MPI_LONG, right, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        if (buf[i] != me * 100000L + i) {
            fprintf(stderr, "PE %d: buf[%d] = %ld, expected %ld\n", me, i, buf[i],
                    me * 100000L + i);
            errors++;
            break;
        }
    /* MPI to OpenSHMEM: an MPI reduction checked against a SHMEM one */
    sum = me + 1;
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    static long ssum;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &ssum, &sum, 1);
    expect = (long)npes * (npes + 1) / 2;
    if (total != expect || ssum != expect) {
        fprintf(stderr, "PE %d: MPI sum %ld, SHMEM sum %ld, expected %ld\n", me, total, ssum,
                expect);
        errors++;
    }
    MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("hybrid MPI + OpenSHMEM on %d PEs: %s\n", npes, errors ? "FAILED" : "ok");
    shmem_finalize();
    MPI_Finalize();
    return errors != 0;
}
