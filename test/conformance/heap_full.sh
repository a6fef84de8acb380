#!/bin/sh
# heap_life ok on N PEs: besides the defined cases, two allocations larger than the
# symmetric heap return NULL, and each PE prints exactly one warning (its first failure)
# naming SHMEM_SYMMETRIC_SIZE.
n=$1; oshrun=${OSHRUN:-scripts/oshrun}
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
"$oshrun" -n "$n" test/conformance/heap_life ok 2>"$err" | grep -c '^ok$' | grep -qx "$n" ||
    { echo "FAIL: not every PE printed ok"; cat "$err"; exit 1; }
w=$(grep -c 'warning: shmem_malloc: cannot allocate [0-9]* bytes: .*(raise SHMEM_SYMMETRIC_SIZE' "$err")
[ "$w" = "$n" ] || { echo "FAIL: $w warnings for $n PEs, expected one each:"; cat "$err"; exit 1; }
[ "$(grep -c . "$err")" = "$n" ] || { echo "FAIL: other lines on stderr:"; cat "$err"; exit 1; }
echo "ok: one warning per PE"
