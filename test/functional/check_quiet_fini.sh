#!/bin/sh
# check_quiet_fini.sh N PROG [ARGS...]: runs PROG on N PEs and fails if the library
# printed a warning or an error on the way (stdout and stderr together), e.g. an OFI
# object that shmem_finalize could not close because something still used it.
n=$1; shift
oshrun=${OSHRUN:-scripts/oshrun}
out=$("$oshrun" -n "$n" "$@" 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] || { echo "check_quiet_fini: exit status $rc"; exit 1; }
# (not the machine's: a small /dev/shm lowers the default heap with a warning)
if echo "$out" | grep -E '^ofishmem\[PE [0-9]+\]: (warning|error)' |
    grep -Ev 'free for [0-9]+ PEs on this node: the symmetric heap is' >/dev/null; then
    echo "check_quiet_fini: the library warned"
    exit 1
fi
exit 0
