/*
 * Shared-memory files left by PEs that died without cleaning up (SIGKILL).  Every file
 * we (or libfabric's shm provider, for our endpoints) create carries the creator's pid
 * and the inode of its pid namespace; a file whose pid is ours (we have created none
 * yet) or no longer exists in our namespace is stale.  Files of other namespaces are
 * never touched: their pids mean nothing here (and nothing is, where the namespace
 * cannot be read).  Every PE sweeps at start-up (heap_init), whatever its route.
 * And the handlers that remove such files while a launcher ends the job chain to
 * whoever had the signal before them (ofs_sig_chain_*).
 *
 * Only files that are provably this user's own are removed: a regular file (never a
 * link, which fstatat does not follow) owned by our effective uid, besides the name
 * check of the caller's pick.  A job run as root would otherwise remove other users'
 * files that merely look like ours.  In a sticky directory (/dev/shm) nobody but the
 * owner (and root) can replace that file between the check and the unlink.
 */
#define _GNU_SOURCE
#include "ofs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Is pid (of namespace ns) gone, or ours? */
static int ofs_pid_stale(unsigned long pid, unsigned long long ns)
{
    if (pid == 0 || ns == 0 || ns != ofs_pidns())
        return 0;
    if ((pid_t)pid == getpid())
        return 1;
    return ofs_pid_gone(pid, ns);
}

int ofs_pid_gone(unsigned long pid, unsigned long long ns)
{
    if (pid == 0 || ns == 0 || ns != ofs_pidns() || (pid_t)pid == getpid())
        return 0;
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

/* A regular file of our effective uid (fstatat and geteuid are async-signal-safe) */
static int ofs_sweep_owned(int dirfd, const char *name)
{
    struct stat st;

    return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
           st.st_uid == geteuid();
}

/* open, getdents64, fstatat, unlinkat: no allocation, no stdio, so that a signal
 * handler may sweep too (ofi_names.c), with a pick that is async-signal-safe itself.
 * An entry removed while the directory is read moves no other past the read position
 * (tmpfs), and a repeated one is only unlinked twice. */
int ofs_sweep(const char *dir, int (*pick)(const char *name, const void *arg), const void *arg)
{
    char buf[4096] __attribute__((aligned(8)));
    int removed = 0;
    ssize_t n;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd < 0)
        return 0;
    while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
        for (ssize_t off = 0; off < n;) {
            const struct dirent64 *e = (const struct dirent64 *)(buf + off);
            off += e->d_reclen;
            if (pick(e->d_name, arg) && ofs_sweep_owned(fd, e->d_name) &&
                unlinkat(fd, e->d_name, 0) == 0)
                removed++;
        }
    }
    close(fd);
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

static const char *ofs_parse_ulong(const char *s, unsigned long long *v)
{
    *v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        *v = *v * 10 + (unsigned long long)(*s - '0');
    return s;
}

int ofs_region_name(const char *name, unsigned long *pid, unsigned long long *ns)
{
    unsigned long long p;
    const char *end = ofs_parse_ulong(name, &p);

    if (end == name || strncmp(end, "_ofs", 4) != 0)
        return 0;
    const char *nse = ofs_parse_ulong(end + 4, ns);
    *pid = (unsigned long)p;
    return nse != end + 4 && (*nse == ':' || *nse == '_');
}

static int ofs_region_stale(const char *name, const void *arg)
{
    unsigned long pid;
    unsigned long long ns;

    (void)arg;
    return ofs_region_name(name, &pid, &ns) && ofs_pid_stale(pid, ns);
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

const int ofs_end_sigs[OFS_END_NSIGS] = { SIGTERM, SIGINT, SIGHUP };

void ofs_sig_chain_install(struct ofs_sig_chain *c)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = c->handler;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < OFS_END_NSIGS; i++)
        if (sigaction(ofs_end_sigs[i], NULL, &c->old[i]) == 0 && c->old[i].sa_handler != SIG_IGN)
            sigaction(ofs_end_sigs[i], &sa, NULL);
    c->on = 1;
}

void ofs_sig_chain_remove(struct ofs_sig_chain *c)
{
    if (!c->on)
        return;
    for (int i = 0; i < OFS_END_NSIGS; i++) {
        struct sigaction cur;
        if (sigaction(ofs_end_sigs[i], NULL, &cur) == 0 && cur.sa_handler == c->handler)
            sigaction(ofs_end_sigs[i], &c->old[i], NULL);
    }
    c->on = 0;
}

void ofs_sig_chain_pass(const struct ofs_sig_chain *c, int sig)
{
    int saved = errno;

    for (int i = 0; i < OFS_END_NSIGS; i++)
        if (ofs_end_sigs[i] == sig)
            sigaction(sig, &c->old[i], NULL);
    raise(sig);
    errno = saved;
}
