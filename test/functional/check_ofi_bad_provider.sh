#!/bin/sh
# A wrong SHMEM_OFI_PROVIDER, SHMEM_OFI_DOMAIN or FI_PROVIDER fails at init with one line
# naming the providers (and domains) found; SHMEM_OFI_DOMAIN chooses the domain (the NIC)
# and SHMEM_INFO says so.  The failures run as a singleton: with several PEs the first
# abort can kill a peer before it removes its heap object (an init-failure race outside
# the OFI transport).
oshrun=${OSHRUN:-scripts/oshrun}
fail=0
out=$(SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=nosuch test/functional/hello 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: a bad provider did not fail"; fail=1; }
echo "$out" | grep -q "provider 'nosuch' offers no RDM endpoint.*providers found: .*'tcp;ofi_rxm' (domain lo" ||
    { echo "FAIL: no line listing the providers and their domains"; fail=1; }
# a domain that does not exist
out=$(SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER='tcp;ofi_rxm' SHMEM_OFI_DOMAIN=nosuchnic test/functional/hello 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: a bad domain did not fail"; fail=1; }
echo "$out" | grep -q "in domain nosuchnic here; providers found: .*(domain lo" ||
    { echo "FAIL: no line naming the domain asked for and those found"; fail=1; }
# FI_PROVIDER hides the others from libfabric itself: the line must say so
out=$(SHMEM_LOCAL_TRANSPORT=ofi FI_PROVIDER=nosuch test/functional/hello 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: a bad FI_PROVIDER did not fail"; fail=1; }
echo "$out" | grep -q "FI_PROVIDER=nosuch hides every other provider from libfabric" ||
    { echo "FAIL: the line does not say that FI_PROVIDER filtered the list"; fail=1; }
# the loopback domain chosen by name, on 2 PEs; SHMEM_INFO names it and no raw SIZE_MAX
out=$(SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER='tcp;ofi_rxm' SHMEM_OFI_DOMAIN=lo SHMEM_INFO=1 \
    "$oshrun" -n 2 test/functional/hello 2>&1)
rc=$?
echo "$out" | grep "ofishmem ofi:"
[ $rc -eq 0 ] || { echo "FAIL: SHMEM_OFI_DOMAIN=lo did not run"; fail=1; }
echo "$out" | grep -q "domain lo (chosen by SHMEM_OFI_DOMAIN/SHMEM_OFI_FABRIC)" ||
    { echo "FAIL: SHMEM_INFO does not show the domain chosen"; fail=1; }
echo "$out" | grep -q "18446744073709551615" && { echo "FAIL: SHMEM_INFO prints SIZE_MAX"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
