/*
 * Endpoint names on libfabric's shm provider, and the regions that dead PEs left.
 *
 * shm backs every endpoint with a 16 MiB region in /dev/shm named after the
 * endpoint's string address ("fi_shm://NAME" -> "/dev/shm/NAME:0:1" in 1.17).  The
 * provider removes it at fi_close and, for SIGTERM/SIGINT, in its own signal handler;
 * a PE killed with SIGKILL leaves it behind, and a later process that gets the same
 * pid and the default name ("fi_shm://<pid>") cannot open its endpoint (fi_enable:
 * EBUSY).  So our endpoints are named "fi_shm://<pid>_ofs<pidns>[_c<n>]" (the pid
 * first: ofi_put_visible_setup reads it from there; the inode of the pid namespace so
 * that a sweep never takes a region of a process it cannot see), and at start-up each
 * PE removes the regions of that form whose pid is its own (it has none yet) or no
 * longer exists.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OFI_SHM_PREFIX "fi_shm://"
#define OFI_SHM_DIR "/dev/shm/"

static char ofi_base_name[64]; /* "<pid>_ofs<pidns>", empty: provider's names */

static unsigned long long ofi_pidns(void)
{
    char link[64];
    ssize_t n = readlink("/proc/self/ns/pid", link, sizeof(link) - 1);

    if (n <= 0)
        return 0;
    link[n] = '\0';
    const char *p = strchr(link, '[');
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* Is NAME (a /dev/shm entry) a region of one of our endpoints, of a pid in namespace
 * ns that is ours or gone? */
static int ofi_region_stale(const char *name, unsigned long long ns)
{
    char *end;
    unsigned long pid = strtoul(name, &end, 10);

    if (end == name || pid == 0 || strncmp(end, "_ofs", 4) != 0)
        return 0;
    unsigned long long ens = strtoull(end + 4, &end, 10);
    if (ens != ns || (*end != ':' && *end != '_'))
        return 0;
    if ((pid_t)pid == getpid())
        return 1;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Returns how many stale regions were removed. */
static int ofi_regions_sweep(unsigned long long ns)
{
    DIR *d = opendir(OFI_SHM_DIR);
    struct dirent *e;
    int removed = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        char path[sizeof(OFI_SHM_DIR) + 256];
        if (!ofi_region_stale(e->d_name, ns))
            continue;
        snprintf(path, sizeof(path), "%s%s", OFI_SHM_DIR, e->d_name);
        if (unlink(path) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}

void ofi_names_init(void)
{
    const struct fi_info *i = ofi_g.info;

    ofi_base_name[0] = '\0';
    if (strcmp(i->fabric_attr->prov_name, "shm") != 0 || i->addr_format != FI_ADDR_STR ||
        !i->src_addr || strncmp(i->src_addr, OFI_SHM_PREFIX, strlen(OFI_SHM_PREFIX)) != 0)
        return;
    unsigned long long ns = ofi_pidns();
    snprintf(ofi_base_name, sizeof(ofi_base_name), "%ld_ofs%llu", (long)getpid(), ns);
    int n = ofi_regions_sweep(ns);
    if (n > 0)
        ofs_log_debug("ofi: removed %d shm provider region(s) of dead processes from %s", n,
                      OFI_SHM_DIR);
}

/* The string address the endpoint should have (target: serial 0), or NULL to keep the
 * provider's.  Other endpoints must not take the target's name: two endpoints of one
 * name collide. */
const char *ofi_ep_name(unsigned serial, char *buf, size_t len)
{
    const char *src = ofi_g.info->src_addr;

    if (ofi_base_name[0]) {
        if (serial)
            snprintf(buf, len, OFI_SHM_PREFIX "%s_c%u", ofi_base_name, serial);
        else
            snprintf(buf, len, OFI_SHM_PREFIX "%s", ofi_base_name);
        return buf;
    }
    if (!serial || ofi_g.info->addr_format != FI_ADDR_STR || !src)
        return NULL;
    snprintf(buf, len, "%s_c%u", src, serial);
    return buf;
}
