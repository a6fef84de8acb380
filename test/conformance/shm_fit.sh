#!/bin/bash
# shm_fit.sh [docker] NPES|small|mixed: the default heap on a container-sized /dev/shm, a
# 64 MiB tmpfs given as SHMEM_SHM_DIR, or with 'docker' mounted on /dev/shm itself in a
# mount namespace of the script's own (needs root to mount it).
#   NPES   without SHMEM_SYMMETRIC_SIZE, NPES PEs start with a smaller heap: PE 0 warns
#          once, naming the directory and SHMEM_SYMMETRIC_SIZE; SHMEM_INFO shows the size;
#          the whole heap can be written (no SIGBUS) and shm_fit, hello and rma_basic
#          pass; an explicit SHMEM_SYMMETRIC_SIZE=512M still fails with its message
#   small  a 16 MiB directory cannot hold even a small heap for 2 PEs: the default fails
#          with the message of an explicit size
#   mixed  PE 1 sets SHMEM_SYMMETRIC_SIZE=512M, PE 0 does not: nobody falls back, the
#          job fails with that message (never PEs with different heaps)
# Nothing may be left in the directory.
[ "$(id -u)" = 0 ] || { echo "skipped: needs root to mount a tmpfs"; exit 77; }
mode=$1
size=64m
[ "$mode" = small ] && size=16m
here=$(cd "$(dirname "$0")/../reliability" && pwd)
unset SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE
tmp=$(mktemp -d /tmp/ofishmem-shmfit-out.XXXXXX)
if [ "$mode" = docker ]; then
    # /dev/shm itself, where libfabric's shm provider puts its regions too, in a mount
    # namespace of our own
    [ -n "$SHMFIT_IN_NS" ] || {
        rm -rf "$tmp"
        unshare -m true 2>/dev/null || { echo "skipped: cannot unshare a mount namespace"; exit 77; }
        SHMFIT_IN_NS=1 exec unshare -m bash "$0" "$@"
    }
    mount --make-rprivate / && mount -t tmpfs -o size=64m,mode=1777 tmpfs /dev/shm ||
        { echo "skipped: cannot mount a tmpfs on /dev/shm here"; exit 77; }
    trap 'rm -rf "$tmp"' EXIT
    dir=/dev/shm
    unset SHMEM_SHM_DIR
    mode=$2
else
    dir=$(mktemp -d /tmp/ofishmem-shmfit.XXXXXX)
    mount -t tmpfs -o size=$size,mode=1777 tmpfs "$dir" 2>/dev/null ||
        { rmdir "$dir"; rm -rf "$tmp"; echo "skipped: cannot mount a tmpfs here"; exit 77; }
    trap 'umount "$dir"; rmdir "$dir"; rm -rf "$tmp"' EXIT
    export SHMEM_SHM_DIR=$dir
fi
old="SHMEM_SYMMETRIC_SIZE=512M needs .* $dir has only"
fail=0

case $mode in
small)
    bash "$here/expect_fail.sh" 2 nonzero 20 "$old" -- test/conformance/shm_fit || fail=1 ;;
mixed)
    bash "$here/expect_fail.sh" 2 nonzero 20 "$old" -- test/conformance/shm_fit set 512M || fail=1 ;;
[0-9]*)
    n=$mode
    warn="warning: $dir has [0-9]+M free for $n PEs on (this node|the node of PE [0-9]+): the symmetric heap is [0-9]+M per PE instead of the default 512M; set SHMEM_SYMMETRIC_SIZE"
    SHMEM_INFO=1 bash "$here/expect_fail.sh" "$n" 0 30 "$warn" -- test/conformance/shm_fit \
        >"$tmp/out" 2>"$tmp/err" || fail=1
    cat "$tmp/out"; cat "$tmp/err" >&2
    mib=$(sed -En 's/.*the symmetric heap is ([0-9]+)M per PE.*/\1/p' "$tmp/err" | head -1)
    [ "$(grep -c 'the symmetric heap is' "$tmp/err")" = 1 ] ||
        { echo "expected the warning once, from PE 0"; fail=1; }
    grep -q "ofishmem\[PE 0\]: warning: $dir has" "$tmp/err" ||
        { echo "the warning does not come from PE 0"; fail=1; }
    info=$(awk '$1 == "SHMEM_SYMMETRIC_SIZE" {print $3}' "$tmp/out")
    [ -n "$mib" ] && [ "$info" = $((mib * 1048576)) ] ||
        { echo "SHMEM_INFO shows SHMEM_SYMMETRIC_SIZE=$info, not the ${mib}M in use"; fail=1; }
    got=$(sed -En 's/^shm_fit: ([0-9]+) MiB per PE, ok$/\1/p' "$tmp/out")
    [ -n "$got" ] && [ "$got" -le "$mib" ] && [ "$got" -ge $((mib - 2)) ] ||
        { echo "shm_fit allocated '$got' MiB of a ${mib}M heap"; fail=1; }
    for prog in test/functional/hello test/functional/rma_basic; do
        bash "$here/expect_fail.sh" "$n" 0 30 "$warn" -- $prog || fail=1
    done
    SHMEM_SYMMETRIC_SIZE=512M bash "$here/expect_fail.sh" "$n" nonzero 20 "$old" -- \
        test/functional/hello || fail=1 ;;
*)
    echo "usage: $0 [docker] NPES|small|mixed"; exit 2 ;;
esac
[ -z "$(ls -A "$dir")" ] || { echo "objects left in $dir: $(ls "$dir")"; fail=1; }
exit $fail
