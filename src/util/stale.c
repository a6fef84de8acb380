/*
 * Shared-memory files left by PEs that died without cleaning up (SIGKILL).  Every file
 * we (or libfabric's shm provider, for our endpoints) create carries the creator's pid
 * and the inode of its pid namespace; a file whose pid is ours (we have created none
 * yet) or no longer exists in our namespace is stale.  Files of other namespaces are
 * never touched: their pids mean nothing here.  oshrun runs the same sweep in shell
 * when the launcher returns.
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

int ofs_pid_stale(unsigned long pid, unsigned long long ns)
{
    if (pid == 0 || ns != ofs_pidns())
        return 0;
    if ((pid_t)pid == getpid())
        return 1;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

int ofs_sweep_stale(const char *dir, int (*is_stale)(const char *name))
{
    char path[4096];
    struct dirent *e;
    int removed = 0;
    DIR *d = opendir(dir);

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (!is_stale(e->d_name))
            continue;
        if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < sizeof(path) &&
            unlink(path) == 0)
            removed++;
    }
    closedir(d);
    if (removed)
        ofs_log_debug("removed %d file(s) of dead processes from %s", removed, dir);
    return removed;
}
