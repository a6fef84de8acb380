/*
 * Start-up at scale over the fabric (issue 30): a job whose PEs all reach each other
 * through libfabric starts, does one all-to-all of puts (every PE writes one word to
 * every PE, itself included: a connection per pair, opened lazily by tcp;ofi_rxm) and
 * one of gets, sends each neighbour 16 KiB with a put-with-signal, and finalizes.  Run
 * by test/lists/startup.list with SHMEM_LOCAL_TRANSPORT=ofi, so that the addresses every PE inserted into its AVs at
 * start-up (one fi_av_insert for all of them) are each used.  Not timed: the start-up
 * times are scripts/bench-startup.sh's (docs/performance.md, "Start-up").
 *
 * The shared library defines fopen, to keep libfabric's providers from reading
 * /proc/kallsyms while they load (src/transport/ofi/ofi_kallsyms.c): after shmem_init
 * the program's own fopen of a regular file and of /proc/kallsyms must work as ever
 * (the latter as open(2) says it can).
 */
#define _GNU_SOURCE
#include "tests.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 1024 /* more PEs than this: the test says so and skips */

static long slot[SLOTS];
static long back[SLOTS];
static unsigned char big[16384]; /* a put-with-signal of 16 KiB: one message, or four */
static uint64_t big_sig;

/* fopen after shmem_init: a file this PE writes, then /proc/kallsyms; one line each */
static void fopen_check(int me)
{
    char path[] = "/tmp/startup_ofi.XXXXXX", line[256] = "";
    int fd = mkstemp(path);
    FILE *f;
    Dl_info where;

    CHECK(fd >= 0 && write(fd, "line one\n", 9) == 9 && close(fd) == 0);
    f = fopen(path, "r");
    CHECK(f && fgets(line, sizeof(line), f) && strcmp(line, "line one\n") == 0);
    if (f)
        fclose(f);
    unlink(path);
    fd = open("/proc/kallsyms", O_RDONLY);
    int open_errno = errno;
    f = fopen("/proc/kallsyms", "r");
    CHECK((f != NULL) == (fd >= 0));
    if (f)
        CHECK(fgets(line, sizeof(line), f) != NULL);
    else
        CHECK(errno == open_errno);
    if (f)
        fclose(f);
    if (fd >= 0)
        close(fd);
    if (me == 0 && dladdr((void *)fopen, &where) && where.dli_fname)
        printf("startup_ofi: fopen is %s's\n", where.dli_fname);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    fopen_check(me);

    if (n > SLOTS) {
        if (me == 0)
            printf("startup_ofi: more than %d PEs: skipped\n", SLOTS);
        shmem_finalize();
        return 77;
    }
    for (int i = 0; i < n; i++)
        slot[i] = -1;
    shmem_barrier_all();
    /* each PE starts at its right-hand neighbour, so that no PE is everyone's first */
    for (int k = 0; k < n; k++) {
        int pe = (me + 1 + k) % n;
        long v = 1000L * me + pe;
        shmem_long_put(&slot[me], &v, 1, pe);
    }
    shmem_barrier_all();
    for (int i = 0; i < n; i++)
        CHECK(slot[i] == 1000L * i + me);
    /* and back: every PE reads what it wrote into every other PE */
    for (int k = 0; k < n; k++) {
        int pe = (me + n - 1 - k) % n;
        back[pe] = shmem_long_g(&slot[me], pe);
    }
    for (int pe = 0; pe < n; pe++)
        CHECK(back[pe] == 1000L * me + pe);
    /* 16 KiB with its signal to the right-hand neighbour: rxm's eager size is 4 KiB on a
     * node with more than 4 PEs per CPU (ofi_info.c), 16 KiB elsewhere */
    static unsigned char src[sizeof(big)];
    for (size_t i = 0; i < sizeof(src); i++)
        src[i] = (unsigned char)(me * 31 + i);
    shmem_putmem_signal(big, src, sizeof(big), &big_sig, 1, SHMEM_SIGNAL_SET, (me + 1) % n);
    shmem_signal_wait_until(&big_sig, SHMEM_CMP_EQ, 1);
    int left = (me + n - 1) % n;
    for (size_t i = 0; i < sizeof(big); i++)
        CHECK(big[i] == (unsigned char)(left * 31 + i));
    return test_finish("startup_ofi");
}
