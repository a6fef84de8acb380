/*
 * Fills the symmetric heap in 1 MiB blocks until shmem_malloc returns NULL, writes every
 * byte of every block (a heap that the shared-memory directory cannot back dies of
 * SIGBUS here), puts each block into the right-hand neighbour's and checks what arrived.
 * Prints "shm_fit: N MiB per PE" from PE 0 and exits nonzero on a wrong value.
 *
 *   shm_fit              as above
 *   shm_fit set VALUE    PE 1 (PMIX_RANK 1) sets SHMEM_SYMMETRIC_SIZE=VALUE before
 *                        shmem_init, the other PEs keep the default
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (1 << 20)
#define MAX_BLOCKS 1024

static char *blocks[MAX_BLOCKS];

int main(int argc, char **argv)
{
    const char *rank = getenv("PMIX_RANK");
    int nb = 0, bad = 0;

    if (argc > 2 && strcmp(argv[1], "set") == 0 && rank && strcmp(rank, "1") == 0)
        setenv("SHMEM_SYMMETRIC_SIZE", argv[2], 1);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    char *src = malloc(BLOCK);

    if (!src)
        return 1;
    memset(src, me, BLOCK);

    while (nb < MAX_BLOCKS && (blocks[nb] = shmem_malloc(BLOCK)) != NULL)
        nb++;
    for (int b = 0; b < nb; b++)
        memset(blocks[b], 0xee, BLOCK);
    shmem_barrier_all();
    for (int b = 0; b < nb; b++) {
        for (size_t i = 0; i < BLOCK; i += 4096)
            src[i] = (char)(me * 7 + b + i / 4096);
        shmem_putmem(blocks[b], src, BLOCK, right);
    }
    shmem_barrier_all();
    for (int b = 0; b < nb && !bad; b++)
        for (size_t i = 0; i < BLOCK && !bad; i += 4096)
            bad = blocks[b][i] != (char)(left * 7 + b + i / 4096) || blocks[b][i + 1] != left;
    if (bad)
        fprintf(stderr, "shm_fit: PE %d: wrong data from PE %d\n", me, left);
    if (nb < 2) {
        fprintf(stderr, "shm_fit: PE %d: only %d MiB of symmetric heap\n", me, nb);
        bad = 1;
    }
    for (int b = nb - 1; b >= 0; b--)
        shmem_free(blocks[b]);
    free(src);
    static int fails;
    shmem_int_atomic_add(&fails, bad, 0);
    shmem_barrier_all();
    if (me == 0)
        printf("shm_fit: %d MiB per PE, %s\n", nb, fails ? "FAILED" : "ok");
    shmem_finalize();
    return bad || (me == 0 && fails);
}
