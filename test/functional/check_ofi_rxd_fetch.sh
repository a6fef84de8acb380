#!/bin/sh
# udp;ofi_rxd of libfabric < 2.5 crashes inside the provider on every fetching or
# compare atomic it receives (libfabric issue 11814).  The transport refuses them:
# a fetch-add over rxd must stop with one clear line, not a segmentation fault.
# Singleton run (a fetch-add to itself goes over OFI with SHMEM_LOCAL_TRANSPORT=ofi).
fi_info -p 'udp;ofi_rxd' >/dev/null 2>&1 || { echo "no udp;ofi_rxd provider here"; exit 77; }
out=$(SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER='udp;ofi_rxd' test/functional/amo_basic 2>&1)
rc=$?
echo "$out" | tail -n 3
if [ $rc -eq 0 ]; then
    # a fixed provider (libfabric >= 2.5) runs the test: nothing refused
    echo "$out" | grep -q "fetching atomics are unavailable" &&
        { echo "FAIL: refused fetching atomics yet passed"; exit 1; }
    echo "ok (fetching atomics allowed on this libfabric)"
    exit 0
fi
[ $rc -lt 128 ] || { echo "FAIL: killed by a signal (exit $rc)"; exit 1; }
echo "$out" | grep -q "atomic fetch-add on int64 to PE 0 cannot run: udp;ofi_rxd" ||
    { echo "FAIL: no clear line refusing the fetching atomic"; exit 1; }
echo "ok"
