/*
 * Same-node access to a peer's memory two ways, for the choice documented in
 * ofishmem_shm(7): load/store into a shared mapping (what the shm transport does
 * for the heap and, after the remap at init, for static data) against Cross Memory
 * Attach (process_vm_writev/readv into the peer's private pages).  A forked child
 * is the peer; it only sleeps.  No SHMEM calls.
 */
#include "bench.h"

#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct bench_opts o;

    if (bench_parse(argc, argv, &o) != 0)
        return 2;
    size_t max = o.max_size;
    char *shared = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    char *priv = aligned_alloc(4096, max), *src = aligned_alloc(4096, max);
    if (shared == MAP_FAILED || !priv || !src)
        return 1;
    memset(shared, 0, max);
    memset(priv, 0, max); /* fault in before fork so the child owns populated pages */
    memset(src, 3, max);
    pid_t child = fork();
    if (child == 0) {
        for (;;)
            pause();
    }
    bench_header("same-node access: shared mapping vs CMA (process_vm_writev/readv)");
    for (size_t len = 8; len <= max; len *= 2) {
        if (len > 8 && len < 1024)
            continue;
        long n = bench_iters(&o, len, 200000);
        for (int how = 0; how < 3; how++) {
            double best = 1e9;
            for (int r = 0; r < 3; r++) {
                double t0 = bench_now_us();
                for (long i = 0; i < n; i++) {
                    if (how == 0) {
                        memcpy(shared, src, len);
                        __atomic_thread_fence(__ATOMIC_SEQ_CST);
                    } else {
                        struct iovec l = { src, len }, rm = { priv, len };
                        ssize_t got = how == 1 ? process_vm_writev(child, &l, 1, &rm, 1, 0)
                                               : process_vm_readv(child, &l, 1, &rm, 1, 0);
                        if (got != (ssize_t)len) {
                            perror("process_vm_writev/readv");
                            kill(child, SIGKILL);
                            return 1;
                        }
                    }
                }
                double v = (bench_now_us() - t0) / n;
                best = v < best ? v : best;
            }
            bench_row(&o,
                      how == 0   ? "mapped_store"
                      : how == 1 ? "cma_writev"
                                 : "cma_readv",
                      len, 2, n, best);
        }
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return 0;
}
