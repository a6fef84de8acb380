#!/bin/bash
# Every PE on one node, all on the OFI route over tcp;ofi_rxm: the endpoints listen on
# the loopback interface only (ss shows their sockets, SHMEM_INFO the address), unless
# the user chose an interface (FI_TCP_IFACE): then on that one.
. "$(dirname "$0")/../reliability/lib.sh"
oshrun=${OSHRUN:-scripts/oshrun}
prog=test/reliability/rel_prog
command -v ss >/dev/null || { echo "no ss here"; exit 77; }
export SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER='tcp;ofi_rxm' SHMEM_INFO=1
fail=0

# run 2 PEs until both wait, print the local addresses their sockets listen on
listen_addrs() {
    local out=out.$$ pids p
    env "$@" timeout -k 2 30 "$oshrun" -n 2 $prog hang >$out 2>err.$$ &
    local job=$!
    for _ in $(seq 100); do grep -q '^ready' $out && break; sleep 0.1; done
    sleep 0.3
    pids=$(live_procs rel_prog)
    for p in $pids; do
        ss -ltnpH 2>/dev/null | grep "pid=$p," | awk '{print $4}' | sed 's/:[0-9]*$//'
    done | sort -u
    grep '^ofishmem ofi: endpoint' $out >&2
    kill -TERM $(pgrep -P $job) 2>/dev/null
    wait $job
    rm -f $out err.$$
}

addrs=$(listen_addrs)
echo "listening on: $(echo $addrs)"
[ -n "$addrs" ] || { echo "no listening socket found"; fail=1; }
for a in $addrs; do
    [ "$a" = 127.0.0.1 ] || { echo "a PE of a one-node job listens on $a, not loopback"; fail=1; }
done

ext=$(ip -o -4 route get 192.0.2.200 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p')
[ -n "$ext" ] || ext=$(ip -o -4 addr show scope global 2>/dev/null | awk '{print $2; exit}')
if [ -n "$ext" ] && [ "$ext" != lo ]; then
    addrs=$(listen_addrs FI_TCP_IFACE="$ext")
    echo "FI_TCP_IFACE=$ext: listening on: $(echo $addrs)"
    [ -n "$addrs" ] || { echo "no listening socket found"; fail=1; }
    for a in $addrs; do
        [ "$a" != 127.0.0.1 ] || { echo "FI_TCP_IFACE=$ext was not honoured"; fail=1; }
    done
else
    echo "no external interface: the user's choice not tried"
fi
exit $fail
