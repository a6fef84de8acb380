#!/bin/sh
# valgrind.sh NPES PROGRAM: runs PROGRAM under valgrind memcheck (0: without a
# launcher); fails on any memory error or definite leak of ours (library-internal leaks
# of PMIx/libfabric/hwloc are suppressed by valgrind.supp).  Skips without valgrind.
n=$1; prog=$2
command -v valgrind >/dev/null || { echo "skipped: valgrind is not installed"; exit 77; }
[ -z "$OFS_SANITIZED" ] || { echo "skipped: a sanitizer build cannot run under valgrind"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
vg="valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite --suppressions=$here/valgrind.supp"
if [ "$n" = 0 ]; then
    exec ./libtool --mode=execute $vg "$prog"
fi
exec "${OSHRUN:-scripts/oshrun}" -n "$n" ./libtool --mode=execute $vg "$prog"
