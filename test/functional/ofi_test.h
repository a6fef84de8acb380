/* Helpers for the OFI transport tests: they drive the comm layer directly (the
 * public API of the foundation has only a subset of the calls), so every transport
 * operation is reached with exact lengths, contexts and nbi flags. */
#ifndef OFI_TEST_H
#define OFI_TEST_H
#include "comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* shmem.h cannot be included next to comm.h (it declares SHMEM_CTX_DEFAULT's object
 * with an opaque type): the few public calls used here. */
void shmem_init(void);
void shmem_finalize(void);
int shmem_my_pe(void);
int shmem_n_pes(void);
void shmem_barrier_all(void);
void *shmem_malloc(size_t size);
void shmem_free(void *ptr);

#include "test_check.h"

/* Every PE reports; exit status is nonzero if any PE failed. */
static inline int test_finish(const char *name)
{
    static long mine;
    long total = 0;
    mine = test_failures;
    shmem_barrier_all();
    for (int pe = 0; pe < shmem_n_pes(); pe++) {
        long v;
        comm_get(COMM_CTX_DEFAULT, &v, &mine, sizeof(v), pe);
        total += v;
    }
    if (shmem_my_pe() == 0)
        printf("%s: %s (%d PEs, %ld failures)\n", name, total ? "FAILED" : "ok", shmem_n_pes(),
               total);
    shmem_finalize();
    return total != 0;
}

static inline unsigned char pat(int pe, size_t len, size_t i, int salt)
{
    return (unsigned char)(pe * 131 + len * 7 + i * 13 + salt * 29 + (i >> 8));
}

static inline void fill(unsigned char *b, int pe, size_t len, int salt)
{
    for (size_t i = 0; i < len; i++)
        b[i] = pat(pe, len, i, salt);
}

/* First mismatching index or -1 */
static inline long verify(const unsigned char *b, int pe, size_t len, int salt)
{
    for (size_t i = 0; i < len; i++)
        if (b[i] != pat(pe, len, i, salt))
            return (long)i;
    return -1;
}

#define CHECK_BUF(b, pe, len, salt, what)                                                    \
    do {                                                                                     \
        long bad_ = verify((b), (pe), (len), (salt));                                        \
        if (bad_ >= 0) {                                                                     \
            fprintf(stderr, "PE %d: %s, %zu bytes: byte %ld wrong\n", shmem_my_pe(), (what), \
                    (size_t)(len), bad_);                                                    \
            test_failures++;                                                                 \
        }                                                                                    \
    } while (0)

static inline void wait_u64_ge(uint64_t *p, uint64_t v)
{
    unsigned iter = 0;
    while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v)
        comm_wait_backoff(&iter);
    comm_wait_end();
}
#endif
