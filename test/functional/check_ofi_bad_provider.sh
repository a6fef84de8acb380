#!/bin/sh
# A wrong SHMEM_OFI_PROVIDER fails at init with one line naming the providers found.
# Run as a singleton: with several PEs the first abort can kill a peer before it
# removes its heap object (an init-failure race outside the OFI transport).
out=$(SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=nosuch test/functional/hello 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: a bad provider did not fail"; exit 1; }
echo "$out" | grep -q "provider 'nosuch' offers no RDM endpoint.*providers found: .*'tcp;ofi_rxm'" ||
    { echo "FAIL: no line listing the providers"; exit 1; }
echo "ok"
