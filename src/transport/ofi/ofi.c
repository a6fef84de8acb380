/*
 * The OFI transport (libfabric).  Not yet implemented: routes that need it fail at
 * init with a clear message.  See issue "OFI transport".
 */
#include "transport.h"

static ofs_status_t ofi_init(const unsigned char *peers)
{
    (void)peers;
    ofs_log_error("the OFI transport is not built yet: run every PE on one node with "
                  "SHMEM_LOCAL_TRANSPORT=shm");
    return OFS_ERR_NOSYS;
}

const struct transport_ops ofi_transport_ops = {
    .name = "ofi",
    .init = ofi_init,
};
