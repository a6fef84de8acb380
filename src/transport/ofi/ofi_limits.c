/*
 * The open-file limit, and the errors a limit of the process may have caused: a
 * provider that runs out of descriptors does not always say so, so every setup or
 * data-path error names the limit when the process is near it.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>

/* where RLIMIT_NOFILE is unlimited the kernel takes at most fs.nr_open */
#define OFI_NR_OPEN_DEFAULT 1048576
/* descriptors kept free for the provider below the limit ("nearly all open") */
#define OFI_NOFILE_SLACK 16

static unsigned long long ofi_rlim(rlim_t v)
{
    return v == RLIM_INFINITY ? 0 : (unsigned long long)v;
}

/* Over tcp;ofi_rxm each context's endpoint holds several descriptors and a socket per
 * PE it has reached (docs/ofi-internals.md), so the usual soft limit of 1024 ends a
 * job of 64 PEs with 16 contexts each.  At init the soft limit goes up to the hard
 * one, as Go's runtime does for every program, unless SHMEM_OFI_RAISE_NOFILE=0 (the
 * descriptors are polled, never select()ed, so numbers above 1024 are fine). */
void ofi_nofile_raise(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    ofi_g.limits.nofile_was = ofi_g.limits.nofile = ofi_rlim(rl.rlim_cur);
    if (!ofs_g.params.OFI_RAISE_NOFILE || rl.rlim_cur >= rl.rlim_max)
        return;
    rl.rlim_cur = rl.rlim_max;
    /* an unlimited hard limit: the kernel takes at most fs.nr_open (OFI_NR_OPEN_DEFAULT) */
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0 && rl.rlim_max == RLIM_INFINITY) {
        rl.rlim_cur = OFI_NR_OPEN_DEFAULT;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        ofi_g.limits.nofile = ofi_rlim(rl.rlim_cur);
}

/* Whether this process has (nearly) all the files open it may: a provider that runs
 * out of descriptors does not always say so (rxm's listening socket failing: EIO). */
static int ofi_nofile_exhausted(rlim_t limit)
{
    DIR *d = opendir("/proc/self/fd");
    unsigned long long n = 0;

    if (!d)
        return errno == EMFILE || errno == ENFILE;
    while (readdir(d))
        n++;
    closedir(d);
    return limit != RLIM_INFINITY && n + OFI_NOFILE_SLACK >= (unsigned long long)limit;
}

/* What to do about a provider error that a limit of the process caused ("" for the
 * others): one line with the limit's value and name. */
static const char *ofi_limit_hint(ssize_t ret)
{
    static __thread char buf[400];
    char hard[32] = "unlimited";
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
        (ret != -FI_EMFILE && !ofi_nofile_exhausted(rl.rlim_cur)))
        return "";
    if (rl.rlim_max != RLIM_INFINITY)
        snprintf(hard, sizeof(hard), "%llu", ofi_rlim(rl.rlim_max));
    snprintf(buf, sizeof(buf),
             "; this process may have at most %llu files open (ulimit -n; hard limit %s%s): each "
             "OFI context's endpoint holds several descriptors, and over tcp;ofi_rxm a socket "
             "to each PE it reaches: raise the limit, or create fewer contexts",
             ofi_rlim(rl.rlim_cur), hard,
             !ofs_g.params.OFI_RAISE_NOFILE && rl.rlim_cur < rl.rlim_max
                 ? ", which SHMEM_OFI_RAISE_NOFILE=0 kept the soft limit below"
                 : "");
    return buf;
}

void ofi_fatal_call(const char *call, ssize_t ret, const char *fmt, ...)
{
    char args[384];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    ofs_fatal(1, "ofi: %s(%s) failed: %s (%zd)%s", call, args, fi_strerror((int)-ret), ret,
              ofi_limit_hint(ret));
}

ofs_status_t ofi_err(const char *call, int ret)
{
    ofs_log_error("ofi: %s failed: %s (%d)%s", call, fi_strerror(-ret), ret, ofi_limit_hint(ret));
    return ret == -FI_ENOMEM ? OFS_ERR_NOMEM : OFS_ERR_FABRIC;
}
