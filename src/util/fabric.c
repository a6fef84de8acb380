/*
 * libfabric, loaded with dlopen when a job first needs the OFI route (ofs_fabric.h says
 * why).  The transport calls ofs_fabric_load at its init, ofishmem_info before listing
 * the providers; nothing unloads it (its providers and the libraries under them keep
 * threads and handlers that a dlclose would pull from under them).
 *
 * Each entry point is looked up at the symbol version that a program linked with
 * -lfabric binds (configure reads it from such a program): libfabric keeps the older
 * versions of fi_getinfo and its kin for programs built against older headers, and
 * dlsym alone would give the newest, whose struct fi_info may be larger than the one
 * our headers describe.
 */
#define _GNU_SOURCE
#include "ofs_fabric.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

_Thread_local int ofs_fabric_loading;

static struct {
    __typeof__(ofs_fabric_getinfo) *getinfo;
    __typeof__(ofs_fabric_freeinfo) *freeinfo;
    __typeof__(ofs_fabric_dupinfo) *dupinfo;
    __typeof__(ofs_fabric_fabric) *fabric;
    __typeof__(ofs_fabric_strerror) *strerror;
    __typeof__(ofs_fabric_version) *version;
} ofs_fab;

static const struct {
    const char *name, *version;
    void **fn;
} ofs_fabric_syms[] = {
    { "fi_getinfo", OFS_FABRIC_VER_getinfo, (void **)&ofs_fab.getinfo },
    { "fi_freeinfo", OFS_FABRIC_VER_freeinfo, (void **)&ofs_fab.freeinfo },
    { "fi_dupinfo", OFS_FABRIC_VER_dupinfo, (void **)&ofs_fab.dupinfo },
    { "fi_fabric", OFS_FABRIC_VER_fabric, (void **)&ofs_fab.fabric },
    { "fi_strerror", OFS_FABRIC_VER_strerror, (void **)&ofs_fab.strerror },
    { "fi_version", OFS_FABRIC_VER_version, (void **)&ofs_fab.version },
};
#define OFS_FABRIC_NSYMS (sizeof(ofs_fabric_syms) / sizeof(ofs_fabric_syms[0]))

static pthread_mutex_t ofs_fabric_lock = PTHREAD_MUTEX_INITIALIZER;
static int ofs_fabric_loaded; /* every entry point found (under the lock) */

const char *ofs_fabric_default_path(void)
{
    return OFS_FABRIC_LIBRARY;
}

int ofs_fabric_load(const char *path, char *err, size_t errlen)
{
    void *fn[OFS_FABRIC_NSYMS];
    void *h;
    int ret = -1;

    if (!path || !*path)
        path = OFS_FABRIC_LIBRARY;
    pthread_mutex_lock(&ofs_fabric_lock);
    if (ofs_fabric_loaded) {
        pthread_mutex_unlock(&ofs_fabric_lock);
        return 0;
    }
    ofs_fabric_loading = 1;
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ofs_fabric_loading = 0;
    if (!h) {
        const char *e = dlerror();
        if (e && strstr(e, path)) /* dlerror names the file, mostly */
            snprintf(err, errlen, "cannot load %s", e);
        else
            snprintf(err, errlen, "cannot load %s: %s", path, e ? e : "unknown error");
        goto out;
    }
    for (size_t k = 0; k < OFS_FABRIC_NSYMS; k++) {
        const char *ver = ofs_fabric_syms[k].version;
        fn[k] = *ver ? dlvsym(h, ofs_fabric_syms[k].name, ver) : dlsym(h, ofs_fabric_syms[k].name);
        if (!fn[k]) {
            const char *e = dlerror();
            snprintf(err, errlen, "%s has no %s%s%s: %s", path, ofs_fabric_syms[k].name,
                     *ver ? "@" : "", ver, e ? e : "not found");
            goto out; /* left loaded: its constructors ran, its destructors may not be safe */
        }
    }
    for (size_t k = 0; k < OFS_FABRIC_NSYMS; k++)
        *ofs_fabric_syms[k].fn = fn[k];
    __atomic_store_n(&ofs_fabric_loaded, 1, __ATOMIC_RELEASE);
    ret = 0;
out:
    pthread_mutex_unlock(&ofs_fabric_lock);
    return ret;
}

/* The renamed entry points (ofs_fabric.h).  Setup and error paths only: one indirect
 * call more than a linked libfabric. */
int ofs_fabric_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
                       const struct fi_info *hints, struct fi_info **info)
{
    return ofs_fab.getinfo ? ofs_fab.getinfo(version, node, service, flags, hints, info)
                           : -FI_ENOSYS;
}

void ofs_fabric_freeinfo(struct fi_info *info)
{
    if (ofs_fab.freeinfo)
        ofs_fab.freeinfo(info);
}

struct fi_info *ofs_fabric_dupinfo(const struct fi_info *info)
{
    return ofs_fab.dupinfo ? ofs_fab.dupinfo(info) : NULL;
}

int ofs_fabric_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context)
{
    return ofs_fab.fabric ? ofs_fab.fabric(attr, fabric, context) : -FI_ENOSYS;
}

const char *ofs_fabric_strerror(int errnum)
{
    return ofs_fab.strerror ? ofs_fab.strerror(errnum) : "libfabric is not loaded";
}

uint32_t ofs_fabric_version(void)
{
    return ofs_fab.version ? ofs_fab.version() : 0;
}
