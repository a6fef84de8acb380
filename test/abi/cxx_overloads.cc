// Compiled (not run) by check_cxx.sh: the headers are valid C++ and the generic names
// resolve to the typed routines through overloads.
#include <shmem.h>
#include <pshmem.h>
#include <shmemx.h>
#include <type_traits>

static long l[4];
static int i4[4];
static double d[4];
static unsigned long ul;
static uint64_t sig;

void use(void)
{
    shmem_put(l, l, 1, 0);
    shmem_put(SHMEM_CTX_DEFAULT, d, d, 1, 0);
    shmem_p(i4, 3, 0);
    static_assert(std::is_same<decltype(shmem_g(d, 0)), double>::value, "g dispatch");
    static_assert(std::is_same<decltype(shmem_atomic_fetch_add(l, 1L, 0)), long>::value, "amo dispatch");
    shmem_iget(i4, i4, 1, 1, 2, 0);
    shmem_put_signal(l, l, 1, &sig, 1, SHMEM_SIGNAL_SET, 0);
    shmem_atomic_fetch_and(&ul, 1UL, 0);
    shmem_wait_until(i4, SHMEM_CMP_EQ, 0);
    shmem_wait_until(l, SHMEM_CMP_EQ, 0L); // the deprecated extern "C" long form
    (void)shmem_test_any(i4, 4, nullptr, SHMEM_CMP_EQ, 0);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, d, d, 1);
    shmem_broadcast(SHMEM_TEAM_WORLD, l, l, 1, 0);
    shmem_sync(SHMEM_TEAM_WORLD);
    shmem_fadd(l, 1L, 0);
    pshmem_long_put(l, l, 1, 0);
}
