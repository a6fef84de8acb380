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
 * longer exists, whatever its route (src/util/stale.c).
 */
#define _GNU_SOURCE
#include "ofi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OFI_SHM_PREFIX "fi_shm://"

static char ofi_base_name[64]; /* "<pid>_ofs<pidns>", empty: provider's names */

void ofi_names_init(void)
{
    const struct fi_info *i = ofi_g.info;

    ofi_base_name[0] = '\0';
    if (strcmp(i->fabric_attr->prov_name, "shm") != 0 || i->addr_format != FI_ADDR_STR ||
        !i->src_addr || strncmp(i->src_addr, OFI_SHM_PREFIX, strlen(OFI_SHM_PREFIX)) != 0)
        return;
    snprintf(ofi_base_name, sizeof(ofi_base_name), "%ld_ofs%llu", (long)getpid(), ofs_pidns());
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
