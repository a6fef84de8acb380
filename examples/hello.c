/* The seed program: PE 0 puts 42 into PE 1's copy of shared_var.
 * Build and run:  oshcc -o hello hello.c && oshrun -n 4 ./hello */
#include <shmem.h>
#include <stdio.h>
int main()
{
    shmem_init();
    int my_pe = shmem_my_pe();
    int num_pes = shmem_n_pes();
    static int shared_var = 0;
    shmem_barrier_all();
    if (my_pe == 0) {
        shared_var = 42;
        shmem_put(&shared_var, &shared_var, 1, 1);
    }
    shmem_barrier_all();
    printf("PE %d sees shared_var = %d\n", my_pe, shared_var);
    shmem_finalize();
    return 0;
}
