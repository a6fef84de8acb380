/* Contexts against the open-file limit (over tcp;ofi_rxm each context's endpoint holds
 * about 8 descriptors and a socket per PE it reaches).  argv[1] is the mode:
 *   low      the soft limit goes down to 48 more than this process has open before
 *            shmem_init (the hard one stays); 24 contexts then each add 1 to a word
 *            on every PE.  Works because shmem_init raises the soft limit to the hard
 *            one; with SHMEM_OFI_RAISE_NOFILE=0 shmem_ctx_create fails, the program
 *            exits 1, and the library's message names the limit.
 *   exhaust [N]  both limits go down to N (100) more than this process has open; contexts
 *            are created until shmem_ctx_create fails (it must, cleanly, returning
 *            nonzero), all but 4 are destroyed, and those 4 each add 1 to a word on
 *            every PE: the job must go on after the failure.  N moves the failure
 *            among the descriptors a context's setup opens.
 * Exit 0 when the sums are right.
 */
#include <shmem.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define MAX_CTX 1000
#define KEEP 4

static long open_files(void)
{
    DIR *d = opendir("/proc/self/fd");
    long n = 0;

    if (!d) {
        perror("nofile: /proc/self/fd");
        exit(2);
    }
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static void lower(long extra, int hard_too)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
        perror("nofile: getrlimit");
        exit(2);
    }
    rl.rlim_cur = (rlim_t)(open_files() + extra);
    if (hard_too)
        rl.rlim_max = rl.rlim_cur;
    if (rl.rlim_cur > rl.rlim_max) {
        printf("nofile: the hard limit (%llu) is too low for the test\n",
               (unsigned long long)rl.rlim_max);
        exit(2);
    }
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
        perror("nofile: setrlimit");
        exit(2);
    }
}

/* each of the n contexts adds 1 to x on every PE; then x must be n_pes * n */
static int add_all(shmem_ctx_t *ctx, int n)
{
    static long x;
    int npes = shmem_n_pes(), me = shmem_my_pe();

    for (int i = 0; i < n; i++)
        for (int pe = 0; pe < npes; pe++)
            shmem_ctx_long_atomic_add(ctx[i], &x, 1, pe);
    for (int i = 0; i < n; i++)
        shmem_ctx_quiet(ctx[i]);
    shmem_barrier_all();
    if (x != (long)npes * n) {
        printf("PE %d: x = %ld, expected %ld\n", me, x, (long)npes * n);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "low";
    static shmem_ctx_t ctx[MAX_CTX];
    int n = 0, made = 0, bad;

    if (strcmp(mode, "low") == 0)
        lower(48, 0);
    else if (strcmp(mode, "exhaust") == 0)
        lower(argc > 2 ? atol(argv[2]) : 100, 1);
    else {
        fprintf(stderr, "nofile: mode low or exhaust, not '%s'\n", mode);
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe();
    if (strcmp(mode, "low") == 0) {
        for (; n < 24; n++)
            if (shmem_ctx_create(0, &ctx[n]) != 0) {
                printf("PE %d: shmem_ctx_create failed after %d contexts\n", me, n);
                return 1;
            }
        bad = add_all(ctx, n);
    } else {
        while (n < MAX_CTX && shmem_ctx_create(0, &ctx[n]) == 0)
            n++;
        if (n == MAX_CTX || n < KEEP) {
            printf("PE %d: %d contexts created: the limit did not stop them in the "
                   "expected range\n",
                   me, n);
            return 1;
        }
        if (ctx[n] != SHMEM_CTX_INVALID) {
            printf("PE %d: the failed shmem_ctx_create did not set SHMEM_CTX_INVALID\n", me);
            return 1;
        }
        for (int i = KEEP; i < n; i++)
            shmem_ctx_destroy(ctx[i]);
        made = n;
        n = KEEP;
        bad = add_all(ctx, n);
    }
    for (int i = 0; i < n; i++)
        shmem_ctx_destroy(ctx[i]);
    if (!bad)
        printf("PE %d: %s: ok (%d contexts)\n", me, mode, made ? made : n);
    shmem_finalize();
    return bad;
}
