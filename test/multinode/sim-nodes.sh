#!/bin/bash
# Two simulated nodes on one machine (needs root and iproute2):
#   sim-nodes.sh up      create namespaces ofs-nodea/ofs-nodeb joined by bridge ofsbr0
#   sim-nodes.sh down    remove them
#   sim-nodes.sh agent HOST CMD...   the rsh agent Open MPI's mpiexec uses to start its
#                                    daemon "on" HOST: inside that network namespace,
#                                    under its own UTS namespace and hostname, with a
#                                    clean environment (like ssh).
# Addresses are our own, on a bridge that exists only inside this machine.
set -e
NET=10.251.77
BR=ofsbr0
case "$1" in
up)
    "$0" down >/dev/null 2>&1 || true
    ip link add $BR type bridge
    ip addr add $NET.1/24 dev $BR
    ip link set $BR up
    i=10
    for h in nodea nodeb; do
        i=$((i + 1))
        ip netns add ofs-$h
        ip link add veth-$h type veth peer name eth0 netns ofs-$h
        ip link set veth-$h master $BR up
        ip netns exec ofs-$h ip addr add $NET.$i/24 dev eth0
        ip netns exec ofs-$h ip link set eth0 up
        ip netns exec ofs-$h ip link set lo up
    done
    ;;
down)
    for h in nodea nodeb; do
        ip netns del ofs-$h 2>/dev/null || true
        ip link del veth-$h 2>/dev/null || true
    done
    ip link del $BR 2>/dev/null || true
    ;;
agent)
    host=$2
    shift 2
    # a clean environment, as ssh gives: what the PEs need must come through the launcher
    exec ip netns exec "ofs-$host" unshare --uts env -i PATH="$PATH" HOME="${HOME:-/root}" \
        /bin/sh -c "hostname $host && $*"
    ;;
*)
    echo "usage: $0 up|down|agent HOST CMD..." >&2
    exit 2
    ;;
esac
