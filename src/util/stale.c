/*
 * Shared-memory files left by PEs that died without cleaning up (SIGKILL).  Every file
 * we (or libfabric's shm provider, for our endpoints) create carries the creator's pid
 * and the inode of its pid namespace; a file whose pid is ours (we have created none
 * yet) or no longer exists in our namespace is stale.  Files of other namespaces are
 * never touched: their pids mean nothing here (and nothing is, where the namespace
 * cannot be read).  Every PE sweeps at start-up (heap_init), whatever its route.
 */
#define _GNU_SOURCE
#include "ofs.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OFS_SHM_PROVIDER_DIR "/dev/shm" /* where libfabric's shm provider puts regions */

unsigned long long ofs_pidns(void)
{
    static unsigned long long ns;
    char link[64];

    if (ns)
        return ns;
    ssize_t n = readlink("/proc/self/ns/pid", link, sizeof(link) - 1);
    if (n <= 0)
        return 0;
    link[n] = '\0';
    const char *p = strchr(link, '[');
    ns = p ? strtoull(p + 1, NULL, 10) : 0;
    return ns;
}

/* Is pid (of namespace ns) gone, or ours? */
static int ofs_pid_stale(unsigned long pid, unsigned long long ns)
{
    if (pid == 0 || ns == 0 || ns != ofs_pidns())
        return 0;
    if ((pid_t)pid == getpid())
        return 1;
    if (kill((pid_t)pid, 0) != 0)
        return errno == ESRCH;
    /* a zombie (a PE killed after its launcher left, not yet reaped) is dead too */
    char path[64], buf[256];
    snprintf(path, sizeof(path), "/proc/%lu/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *rp = strrchr(buf, ')'); /* "pid (comm) S ...": comm may hold spaces */
    return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}

int ofs_sweep(const char *dir, int (*pick)(const char *name, const void *arg), const void *arg)
{
    char path[4096];
    struct dirent *e;
    int removed = 0;
    DIR *d = opendir(dir);

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (!pick(e->d_name, arg))
            continue;
        if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < sizeof(path) &&
            unlink(path) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}

/* "ofishmem-<job>-<pe>-<h|d>-<random>-<pid>-<pidns>" (heap_obj_create) */
static int ofs_heap_obj_stale(const char *name, const void *arg)
{
    const char *d = strrchr(name, '-'), *p;
    char *end;

    (void)arg;
    if (strncmp(name, "ofishmem-", 9) != 0 || !d)
        return 0;
    unsigned long long ns = strtoull(d + 1, &end, 10);
    if (end == d + 1 || *end)
        return 0;
    for (p = d - 1; p > name && *p != '-'; p--)
        ;
    unsigned long pid = strtoul(p + 1, &end, 10);
    return *p == '-' && end == d && end != p + 1 && ofs_pid_stale(pid, ns);
}

/* "<pid>_ofs<pidns>" followed by ':' or '_': a shm provider region of one of our
 * endpoints (ofi_ep_name) */
static int ofs_region_stale(const char *name, const void *arg)
{
    char *end;
    unsigned long pid = strtoul(name, &end, 10);

    (void)arg;
    if (end == name || strncmp(end, "_ofs", 4) != 0)
        return 0;
    unsigned long long ns = strtoull(end + 4, &end, 10);
    return (*end == ':' || *end == '_') && ofs_pid_stale(pid, ns);
}

/* Two passes even where SHMEM_SHM_DIR is /dev/shm: a directory of a few entries. */
void ofs_sweep_dead(void)
{
    int n = ofs_sweep(ofs_g.params.SHM_DIR, ofs_heap_obj_stale, NULL);
    int m = ofs_sweep(OFS_SHM_PROVIDER_DIR, ofs_region_stale, NULL);

    if (n + m)
        ofs_log_debug("removed %d heap object(s) from %s and %d shm provider region(s) from %s "
                      "of dead processes",
                      n, ofs_g.params.SHM_DIR, m, OFS_SHM_PROVIDER_DIR);
}
