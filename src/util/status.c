#include "ofs.h"

const char *ofs_status_string(ofs_status_t status)
{
    switch (status) {
    case OFS_OK: return "success";
    case OFS_ERR_NOMEM: return "out of memory";
    case OFS_ERR_INVAL: return "invalid argument";
    case OFS_ERR_NOSYS: return "not supported";
    case OFS_ERR_FABRIC: return "libfabric error";
    case OFS_ERR_RUNTIME: return "PMIx runtime error";
    case OFS_ERR_AGAIN: return "resource temporarily unavailable";
    case OFS_ERR_NOT_FOUND: return "not found";
    case OFS_ERR_IO: return "system call failed";
    case OFS_ERR_NOSPACE: return "no space to back shared memory";
    }
    return "unknown status";
}
