/*
 * Endpoint names on libfabric's shm provider, and the regions that dead PEs left.
 *
 * shm backs every endpoint with a 16 MiB region in /dev/shm named after the
 * endpoint's string address ("fi_shm://NAME" -> "/dev/shm/NAME:0:1" in 1.17).  The
 * provider removes it at fi_close and, for SIGTERM/SIGINT, in its own signal handler;
 * a PE killed with SIGKILL leaves it behind, and a later process that gets the same
 * pid and the default name ("fi_shm://<pid>") cannot open its endpoint (fi_enable:
 * EBUSY).  And a name anyone can predict is one anyone can take first: another user
 * who created "<pid>:<uid>:0" for the pids to come made such a PE die of SIGBUS in
 * shmem_init (the provider maps the file it finds).  So our endpoints are named
 * "fi_shm://<pid>_ofs<pidns>_r<64 random bits>[_c<n>]" (the pid first:
 * ofi_put_visible_setup reads it from there; the inode of the pid namespace so that a
 * sweep never takes a region of a process it cannot see), a name found taken all the
 * same stops shmem_init with a line naming the file and its owner (ofi_name_check),
 * and at start-up each PE removes the regions of that form, of its own user, whose
 * pid is its own (it has none yet) or no longer exists, whatever its route
 * (src/util/stale.c).
 *
 * And when the job goes down: a launcher ends it with SIGTERM to every PE, and Open
 * MPI's mpiexec (4.1) sends SIGKILL to all as soon as the first has died (its sleep
 * between the two ends at the first SIGCHLD).  A PE that was not scheduled in those
 * milliseconds never runs shm's handler, and one killed with SIGKILL (the victim of
 * such a job, the OOM killer's) never could; their regions stayed until the next job.
 * So the first PE to take SIGTERM, SIGINT or SIGHUP removes the regions of every PE of
 * the job on this node (ofi_names_guard), before shm's handler and the program's run.
 * Like shm's own handler, which makes this PE's endpoints unreachable from then on, it
 * takes the signal for the end of the job.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define OFI_SHM_PREFIX "fi_shm://"

static char ofi_base_name[96]; /* "<pid>_ofs<pidns>_r<random>", empty: provider's names */

void ofi_names_init(void)
{
    const struct fi_info *i = ofi_g.info;
    unsigned long long rnd = 0;

    ofi_base_name[0] = '\0';
    if (!ofi_g.caps.named_regions || i->addr_format != FI_ADDR_STR || !i->src_addr ||
        strncmp(i->src_addr, OFI_SHM_PREFIX, strlen(OFI_SHM_PREFIX)) != 0)
        return;
    if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd)) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        rnd = ((unsigned long long)ts.tv_nsec << 20 ^ (unsigned long long)ts.tv_sec) *
              0x9E3779B97F4A7C15ULL;
    }
    snprintf(ofi_base_name, sizeof(ofi_base_name), "%ld_ofs%llu_r%016llx", (long)getpid(),
             ofs_pidns(), rnd);
}

/* Before the endpoint named name (ofi_ep_name) is opened: the provider would take a
 * file of its region's name ("<name>:<uid>:<n>") that exists for its own, and die of
 * SIGBUS on it.  Our names are unpredictable, so such a file is another's doing: one
 * line naming it and its owner, and shmem_init fails. */
ofs_status_t ofi_name_check(const char *name)
{
    const char *base = name + strlen(OFI_SHM_PREFIX);
    size_t len = strlen(base);
    DIR *d;
    struct dirent *e;
    ofs_status_t st = OFS_OK;

    if (strncmp(name, OFI_SHM_PREFIX, strlen(OFI_SHM_PREFIX)) != 0 ||
        !(d = opendir(OFS_SHM_PROVIDER_DIR)))
        return OFS_OK;
    while (st == OFS_OK && (e = readdir(d)) != NULL) {
        struct stat sb;
        if (strncmp(e->d_name, base, len) != 0 || e->d_name[len] != ':')
            continue;
        if (fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            sb.st_uid = (uid_t)-1;
        ofs_log_error("ofi: the shm provider's region for this PE's endpoint, %s/%s, exists "
                      "already (owner uid %ld, this PE runs as %ld): another process created "
                      "it; remove it, or choose the OFI route's provider with "
                      "SHMEM_OFI_PROVIDER",
                      OFS_SHM_PROVIDER_DIR, e->d_name, (long)(int)sb.st_uid, (long)geteuid());
        st = OFS_ERR_IO;
    }
    closedir(d);
    return st;
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

const char *ofi_peer_shm_name(int pe, char buf[OFI_NAME_MAX + 1])
{
    const struct ofi_peer_info *p = &ofi_g.peers[pe];
    size_t len = p->addrlen < OFI_NAME_MAX ? p->addrlen : OFI_NAME_MAX;

    if (!ofi_g.active[pe])
        return NULL;
    memcpy(buf, p->addr, len);
    buf[len] = '\0';
    if (strncmp(buf, OFI_SHM_PREFIX, strlen(OFI_SHM_PREFIX)) != 0)
        return NULL;
    return buf + strlen(OFI_SHM_PREFIX);
}

static unsigned long *ofi_guard_pids; /* of the job's PEs on this node */
static int ofi_guard_npids;
static unsigned long long ofi_guard_ns;
static volatile sig_atomic_t ofi_guard_armed;
static void ofi_guard_on_signal(int sig);
static struct ofs_sig_chain ofi_guard_chain = { .handler = ofi_guard_on_signal };

static int ofi_guard_pick(const char *name, const void *arg)
{
    unsigned long pid;
    unsigned long long ns;

    (void)arg;
    if (!ofs_region_name(name, &pid, &ns) || ns != ofi_guard_ns)
        return 0;
    for (int i = 0; i < ofi_guard_npids; i++)
        if (ofi_guard_pids[i] == pid)
            return 1;
    return 0;
}

static void ofi_guard_on_signal(int sig)
{
    if (ofi_guard_armed) {
        ofi_guard_armed = 0;
        ofs_sweep(OFS_SHM_PROVIDER_DIR, ofi_guard_pick, NULL);
    }
    ofs_sig_chain_pass(&ofi_guard_chain, sig);
}

/* Once the peers' addresses are known: their pids are in them, as in ours
 * ("fi_shm://<pid>_ofs<pidns>") */
void ofi_names_guard(void)
{
    if (!ofi_base_name[0] || ofi_guard_chain.on)
        return;
    free(ofi_guard_pids); /* of an earlier shmem_init */
    ofi_guard_pids = calloc((size_t)ofs_g.n_pes, sizeof(*ofi_guard_pids));
    if (!ofi_guard_pids)
        return;
    ofi_guard_npids = 0;
    for (int pe = 0; pe < ofs_g.n_pes; pe++) {
        char buf[OFI_NAME_MAX + 1];
        const char *name = ofi_peer_shm_name(pe, buf);
        unsigned long pid;
        unsigned long long ns;

        if (name && ofs_region_name(name, &pid, &ns))
            ofi_guard_pids[ofi_guard_npids++] = pid;
    }
    ofi_guard_ns = ofs_pidns();
    ofi_guard_armed = 1;
    ofs_sig_chain_install(&ofi_guard_chain);
}

/* At finalize (the peers may live on): disarmed, a handler left in a later one's chain
 * only passes the signal on */
void ofi_names_unguard(void)
{
    ofi_guard_armed = 0;
    ofs_sig_chain_remove(&ofi_guard_chain);
}
