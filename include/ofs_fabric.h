/*
 * ofs_fabric.h: libfabric, opened with dlopen when a job first needs the OFI route
 * (src/util/fabric.c).  libsma links no libfabric: a job whose PEs all talk over shared
 * memory never loads it, nor the libraries under it (Debian's links libpsm2 and
 * libinfinipath, whose constructors calibrate a clock for 0.1 s each).
 *
 * Include this before any <rdma/...> header.  Most of libfabric's calls are inline
 * functions of its headers over the ops tables of the objects it returns; the few that
 * are not (the ones named below) are renamed here to ofs_fabric_*, which call the entry
 * points ofs_fabric_load found, so that the call sites keep libfabric's names.  A call
 * to another such entry point fails to link (an undefined fi_* in libsma.so): add it
 * here and to fabric.c's table.  Before ofs_fabric_load has succeeded they fail
 * (-FI_ENOSYS, NULL) rather than crash.
 */
#ifndef OFS_FABRIC_H
#define OFS_FABRIC_H

#ifdef FABRIC_H
#error "ofs_fabric.h must come before <rdma/fabric.h> (libfabric's entry points are renamed)"
#endif

#define fi_getinfo ofs_fabric_getinfo
#define fi_freeinfo ofs_fabric_freeinfo
#define fi_dupinfo ofs_fabric_dupinfo
#define fi_fabric ofs_fabric_fabric
#define fi_strerror ofs_fabric_strerror
#define fi_version ofs_fabric_version

#include "ofs.h"

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

/* Load libfabric from path (NULL or empty: the one configure found, OFS_FABRIC_LIBRARY)
 * and find its entry points; once loaded, later calls return at once.  0, or -1 with
 * the reason (the path and dlerror's text) in err.  Thread-safe. */
int ofs_fabric_load(const char *path, char *err, size_t errlen) OFS_HIDDEN;
/* What ofs_fabric_load opens by default: OFS_FABRIC_LIBRARY. */
const char *ofs_fabric_default_path(void) OFS_HIDDEN;

/* Set on the thread running ofs_fabric_load's dlopen, while it runs: libsma.so's usleep
 * (src/transport/ofi/ofi_kallsyms.c) shortens the clock calibrations of the libraries
 * libfabric brings in as their constructors run. */
extern _Thread_local int ofs_fabric_loading OFS_HIDDEN;

#endif
