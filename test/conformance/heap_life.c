/*
 * Library lifecycle and heap misuse, one mode per run; the list says what each must
 * print (through test/reliability/expect_fail.sh).
 *
 *   ok                    the defined cases: shmem_init twice, shmem_realloc(NULL, n) as
 *                         shmem_malloc, shmem_realloc(p, 0) as shmem_free, shmem_finalize
 *                         twice; exits 0
 *   finalize_before_init  shmem_finalize without shmem_init
 *   init_after_finalize   shmem_init again after shmem_finalize
 *   init_thread_after_finalize   the same with shmem_init_thread
 *   realloc_private       shmem_realloc of a pointer from malloc()
 *   realloc_static        shmem_realloc of a global variable
 *   realloc_freed         shmem_realloc of a block already freed
 *   realloc_inner         shmem_realloc of a pointer inside a block
 *   free_static           shmem_free of a global variable
 *   mismatch VAR VALUE    PE 1 (PMIX_RANK 1) sets VAR=VALUE before shmem_init
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long global_var[16];

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    const char *rank = getenv("PMIX_RANK");

    if (strcmp(mode, "mismatch") == 0 && argc > 3 && rank && strcmp(rank, "1") == 0)
        setenv(argv[2], argv[3], 1);
    if (strcmp(mode, "finalize_before_init") == 0) {
        shmem_finalize();
        printf("shmem_finalize before shmem_init returned\n");
        return 0;
    }
    shmem_init();
    if (strcmp(mode, "ok") == 0) {
        shmem_init(); /* undefined by the specification; a no-op here */
        long *p = shmem_realloc(NULL, 100 * sizeof(long));
        if (!p) {
            fprintf(stderr, "shmem_realloc(NULL, 800) returned NULL\n");
            return 1;
        }
        p[99] = 7;
        if (shmem_realloc(p, 0) != NULL) {
            fprintf(stderr, "shmem_realloc(p, 0) returned non-NULL\n");
            return 1;
        }
        long *q = shmem_malloc(100 * sizeof(long)); /* p's block again: it was freed */
        if (q != p) {
            fprintf(stderr, "shmem_realloc(p, 0) did not free p (%p, then %p)\n", (void *)p,
                    (void *)q);
            return 1;
        }
        shmem_free(q);
        shmem_free(NULL);
        /* a full heap: NULL, and (heap_full.sh) one warning per PE naming the variable */
        if (shmem_malloc(SIZE_MAX / 2) != NULL || shmem_align(64, SIZE_MAX / 4) != NULL) {
            fprintf(stderr, "an allocation larger than the heap did not return NULL\n");
            return 1;
        }
        shmem_finalize();
        shmem_finalize();
        printf("ok\n");
        return 0;
    }
    if (strcmp(mode, "realloc_private") == 0) {
        void *p = malloc(64);
        shmem_realloc(p, 128);
        free(p);
    }
    if (strcmp(mode, "realloc_static") == 0)
        shmem_realloc(global_var, 256);
    if (strcmp(mode, "free_static") == 0)
        shmem_free(global_var);
    if (strcmp(mode, "realloc_freed") == 0) {
        void *p = shmem_malloc(64);
        shmem_free(p);
        shmem_realloc(p, 128);
    }
    if (strcmp(mode, "realloc_inner") == 0) {
        char *p = shmem_malloc(256);
        shmem_realloc(p + 64, 512);
    }
    shmem_finalize();
    if (strcmp(mode, "init_after_finalize") == 0)
        shmem_init();
    if (strcmp(mode, "init_thread_after_finalize") == 0) {
        int provided;
        shmem_init_thread(SHMEM_THREAD_SINGLE, &provided);
    }
    printf("%s: returned\n", mode);
    return 0;
}
