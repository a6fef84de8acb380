#!/bin/sh
# heap_limits on N PEs with the settings given as VAR=value words: all of
# SHMEM_SYMMETRIC_SIZE is the user's, and start-up prints no warning that the library's
# own heap blocks took more than their count (heap.h: heap_set_internal).
n=$1; shift; oshrun=${OSHRUN:-scripts/oshrun}
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
env SHMEM_SYMMETRIC_SIZE=4096K "$@" "$oshrun" -n "$n" test/functional/heap_limits 2>"$err" ||
    { echo "FAIL: heap_limits failed"; cat "$err"; exit 1; }
grep -q "than it counted" "$err" && { echo "FAIL: miscounted heap blocks:"; cat "$err"; exit 1; }
echo "ok: the library's blocks within their count"
