#!/bin/sh
# SHMEM_INFO reports what SHMEM_OFI_MR_MODE did: "basic" granted as FI_MR_BASIC
# (provider keys, virtual addresses), "scalable" as FI_MR_SCALABLE (our keys,
# offsets), "+local+endpoint" forced with descriptor checking on; a bad value fails
# with one line.  Singleton runs; the transfers in each mode (and a check that the
# mode took effect) are the ofi/mr-* lines of ofi.list (test/functional/ofi_mr.c).
fail=0
info() { # provider mode
    SHMEM_INFO=1 SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER="$1" SHMEM_OFI_MR_MODE="$2" \
        test/functional/hello 2>&1
}
expect() { # provider mode regex...
    p=$1 m=$2
    shift 2
    out=$(info "$p" "$m")
    for re in "$@"; do
        if ! echo "$out" | grep -q "$re"; then
            echo "FAIL: provider $p, SHMEM_OFI_MR_MODE=$m: no line matching: $re"
            echo "$out" | grep 'ofishmem'
            fail=1
        fi
    done
}
expect 'tcp;ofi_rxm' basic 'MR mode VIRT_ADDR PROV_KEY ALLOCATED (granted as FI_MR_BASIC)'
expect shm scalable+local+endpoint \
    'MR mode LOCAL ENDPOINT (granted as FI_MR_SCALABLE) (forced: LOCAL ENDPOINT, provider has no fi_mr_bind)' \
    'FI_MR_LOCAL check: [0-9]* local descriptors verified'
expect shm auto 'MR mode VIRT_ADDR,'
out=$(info shm nonsense)
rc=$?
if [ $rc -eq 0 ] || ! echo "$out" | grep -q "SHMEM_OFI_MR_MODE='nonsense' is not a registration mode"; then
    echo "FAIL: a bad SHMEM_OFI_MR_MODE did not fail with one clear line (exit $rc)"
    echo "$out" | tail -n 5
    fail=1
fi
[ $fail -eq 0 ] && echo "ok"
exit $fail
