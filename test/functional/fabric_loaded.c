/*
 * libfabric is loaded only by a job that needs the OFI route (include/ofs_fabric.h):
 * after shmem_init, /proc/self/maps holds libfabric (and Debian's libpsm2 and
 * libinfinipath under it, whose constructors sleep 0.1 s each) exactly where this PE
 * reaches some PE over the fabric: SHMEM_LOCAL_TRANSPORT=ofi, or a PE on another node
 * (SHMEM_TEAM_SHARED smaller than the world; simulated nodes count).  Then one put to
 * the next PE and a fetch-add, so that the route in use is exercised.
 * test/lists/startup.list runs it on every route, and with SHMEM_OFI_LIBRARY naming a
 * file that does not exist, where the shared-memory route must still run.
 */
#include "tests.h"

#include <string.h>

/* Is a library whose file name starts with name mapped into this process? */
static int mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;

    CHECK(f != NULL);
    if (!f)
        return -1;
    while (!found && fgets(line, sizeof(line), f)) {
        const char *base = strrchr(line, '/');
        found = base && strncmp(base + 1, name, strlen(name)) == 0;
    }
    fclose(f);
    return found;
}

static long word;
static long counter;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *lt = getenv("SHMEM_LOCAL_TRANSPORT");
    int want = (lt && strcmp(lt, "ofi") == 0) || shmem_team_n_pes(SHMEM_TEAM_SHARED) < n;
    int fab = mapped("libfabric.so");

    if (fab != want)
        printf("PE %d: libfabric %s mapped after shmem_init, expected %s (OFI route %s)\n", me,
               fab ? "is" : "is not", want ? "mapped" : "absent", want ? "in use" : "unused");
    CHECK(fab == want);
    if (!want) {
        /* nor what it brings in */
        CHECK(mapped("libpsm2.so") == 0);
        CHECK(mapped("libinfinipath.so") == 0);
        CHECK(mapped("libibverbs.so") == 0);
    }
    shmem_long_p(&word, me + 1, (me + 1) % n);
    shmem_long_atomic_fetch_add(&counter, 1, 0);
    shmem_barrier_all();
    CHECK(word == (me + n - 1) % n + 1);
    if (me == 0)
        CHECK(shmem_long_atomic_fetch(&counter, 0) == n);
    return test_finish("fabric_loaded");
}
