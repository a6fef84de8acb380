#!/bin/sh
# Where put-with-signal messages leave from (SHMEM_OFI_AM_EP, ofi_am_ep_of), as
# SHMEM_INFO reports it, over tcp;ofi_rxm and shm: by default ("auto") the target
# endpoint while every PE of the node has a CPU (a singleton), each context's endpoint
# with more PEs than CPUs (one PE more than this machine has CPUs);
# "target" and "context" as asked; a value it does not know stops shmem_init with one
# line naming the variable and the values it takes.
. "$(dirname "$0")/ofi_info.sh"
fail=0
target="messages leave from the target endpoint (private contexts and to this PE: the context's)"
ctx="messages leave from each context's endpoint"
over=$(($(nproc) + 1))
for prov in 'tcp;ofi_rxm' shm; do
    info_expect 0 "put-with-signal: by message .*$target (SHMEM_OFI_AM_EP=auto: a CPU per PE on this node)"
    info_expect 0 "$target (SHMEM_OFI_AM_EP=auto: a CPU per PE on this node)" SHMEM_OFI_AM_EP=auto
    info_expect 0 "$target (SHMEM_OFI_AM_EP=target)" SHMEM_OFI_AM_EP=target
    info_expect 0 "$ctx (SHMEM_OFI_AM_EP=context)" SHMEM_OFI_AM_EP=context
    if [ "$over" -le 9 ]; then
        info_expect "$over" "$ctx (SHMEM_OFI_AM_EP=auto: more PEs than CPUs on this node)"
    else
        echo "($over PEs to oversubscribe this machine: the auto case with more PEs than CPUs not run)"
    fi
done
out=$(SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER='tcp;ofi_rxm' SHMEM_OFI_AM_EP=both \
    test/functional/hello 2>&1)
rc=$?
if [ $rc -eq 0 ] || ! echo "$out" | grep -q "SHMEM_OFI_AM_EP='both' is not valid"; then
    echo "FAIL: SHMEM_OFI_AM_EP=both (exit $rc) was not refused with a line naming it"
    echo "$out"
    fail=1
fi
[ $fail -eq 0 ] && echo "ok"
exit $fail
