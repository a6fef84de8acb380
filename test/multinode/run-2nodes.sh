#!/bin/bash
# run-2nodes.sh PROGRAM [ARGS...]
# Runs PROGRAM on 4 PEs over two simulated nodes (2 PEs each; see sim-nodes.sh):
# same-node traffic takes the shm route, cross-node traffic tcp;ofi_rxm over the
# bridge.  Exits 77 (skip) with a reason when namespaces cannot be made here.
here=$(cd "$(dirname "$0")" && pwd)
oshrun=${OSHRUN:-scripts/oshrun}
if [ "$(id -u)" != 0 ]; then echo "skipped: needs root to create network namespaces"; exit 77; fi
if ! command -v ip >/dev/null || ! command -v unshare >/dev/null; then
    echo "skipped: needs iproute2 (ip) and util-linux (unshare)"; exit 77
fi
exec 9>/tmp/ofishmem-sim-nodes.lock
flock 9
if ! "$here/sim-nodes.sh" up >/tmp/ofishmem-sim-nodes.log 2>&1; then
    cat /tmp/ofishmem-sim-nodes.log
    "$here/sim-nodes.sh" down >/dev/null 2>&1
    echo "skipped: cannot create network namespaces here (see above)"; exit 77
fi
trap '"$here/sim-nodes.sh" down >/dev/null 2>&1' EXIT
export OMPI_MCA_plm_rsh_agent="$here/sim-nodes.sh agent"
export OMPI_MCA_routed=direct
export OMPI_MCA_oob_tcp_if_include=10.251.77.0/24
export FI_TCP_IFACE=eth0
export SHMEM_OFI_PROVIDER=${SHMEM_OFI_PROVIDER:-tcp;ofi_rxm}
# the nodes start with a clean environment (as over ssh): what the test harness itself
# sets for the PEs (sanitizer options) goes with -x, as a user would pass it
fwd=""
for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS OFS_SANITIZED; do
    [ -z "$(printenv "$v")" ] || fwd="$fwd -x $v"
done
timeout -k 5 120 "$oshrun" --host nodea:2,nodeb:2 $fwd -n 4 "$@"
