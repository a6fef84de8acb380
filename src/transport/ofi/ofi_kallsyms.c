/*
 * libfabric initialises every provider built into it inside the process's first
 * fi_getinfo, whatever provider is asked for; 1.17's verbs provider then reads all of
 * /proc/kallsyms (some 10 MB, about 0.1 s of kernel CPU per process) looking for the
 * kernel's peer-memory and dma-buf registration entry points.  This file defines fopen
 * so that, on the thread making that call and only while ofi_info.c makes it
 * (ofi_kallsyms_hide), opening that one file fails as if it did not exist; every other
 * fopen goes straight to the C library's.  SHMEM_OFI_KERNEL_SYMBOLS=1 turns it off.
 * Figures: docs/performance.md, "Start-up".
 *
 * Only the shared library defines it (libtool defines PIC for its objects; this file is
 * libsma's own source, not its convenience library's, whose objects are PIC in libsma.a
 * too): a program linked with libsma.a keeps the C library's fopen.  It takes effect
 * where the program is linked with libsma.so (libsma comes before libc in the lookup
 * order); where a program dlopens libsma, libc was found first and nothing changes.
 *
 * usleep, for the same reason: Debian's libfabric 1.17 links libpsm2 and (through
 * libpsm_infinipath) libinfinipath, whose constructors each calibrate a clock as they
 * load: pinned to CPU 0, usleep(125) over and over until gettimeofday has moved 0.1 s,
 * some 800 sleeps per library and process.  libsma does not link libfabric: it is
 * loaded with dlopen when a job needs the OFI route (ofs_fabric_load, src/util/fabric.c),
 * and only then do those constructors run, inside that dlopen.  Called from those two
 * libraries while they load (during ofs_fabric_load's dlopen, on its thread; or before
 * libsma's own constructor has run, where a program links libfabric itself), a sleep
 * shorter than that window sleeps the whole window at once: the same 0.1 s, the same
 * measure (cycles over elapsed time), one wake-up.  Every other call sleeps as the C
 * library's usleep does.  The 0.2 s of wall time remains on the OFI route; a job on
 * the shared-memory route never loads those libraries.
 */
#define _GNU_SOURCE
#include "ofi_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef PIC

typedef FILE *ofi_fopen_fn(const char *, const char *);

/* The next fopen after ours (the C library's), looked up once: two threads racing
 * here store the same pointer. */
static ofi_fopen_fn *ofi_fopen_next(void)
{
    static ofi_fopen_fn *next;
    ofi_fopen_fn *f = __atomic_load_n(&next, __ATOMIC_ACQUIRE);

    if (!f) {
        f = (ofi_fopen_fn *)dlsym(RTLD_NEXT, "fopen");
        __atomic_store_n(&next, f, __ATOMIC_RELEASE);
    }
    return f;
}

OFS_API FILE *fopen(const char *path, const char *mode)
{
    ofi_fopen_fn *next;

    /* safe: ofishmem never registers device (FI_HMEM/dma-buf) memory, what the scan is for */
    if (ofi_kallsyms_hidden && path && strcmp(path, "/proc/kallsyms") == 0) {
        errno = ENOENT;
        return NULL;
    }
    next = ofi_fopen_next();
    if (!next) {
        errno = ENOSYS;
        return NULL;
    }
    return next(path, mode);
}

/* the calibration's window: it loops until gettimeofday has moved more than this */
#define OFI_CALIBRATION_US 100000u

/* libsma's constructor has run: every library loaded with the program has run its own */
static int ofi_lib_loaded;

__attribute__((constructor)) static void ofi_lib_loaded_mark(void)
{
    ofi_lib_loaded = 1;
}

/* Is the code at pc in one of the libraries that calibrate a clock as they load? */
static int ofi_calibrating_lib(void *pc)
{
    Dl_info d;

    if (!dladdr(pc, &d) || !d.dli_fname)
        return 0;
    const char *base = strrchr(d.dli_fname, '/');
    base = base ? base + 1 : d.dli_fname;
    return strncmp(base, "libinfinipath.", 14) == 0 || strncmp(base, "libpsm2.", 8) == 0;
}

OFS_API int usleep(useconds_t us)
{
    struct timespec ts;

    if ((!ofi_lib_loaded || ofs_fabric_loading) && us < OFI_CALIBRATION_US &&
        ofi_calibrating_lib(__builtin_return_address(0)))
        us = OFI_CALIBRATION_US;
    ts.tv_sec = (time_t)(us / 1000000u);
    ts.tv_nsec = (long)(us % 1000000u) * 1000;
    return nanosleep(&ts, NULL);
}

#endif
