#!/bin/sh
# Every C11 generic name resolves to its family's man page: the names of the
# specification's list ($1) and every generic macro the built shmem.h defines (so the
# 1.6 additions, shmem_ibput, shmem_sum_inscan, ..., are covered as they are added).
# Further arguments go to check_man.sh (--no-render).
set -e
spec=${1:?usage: check_man_generics.sh SPEC_GENERICS_LIST [CHECK_MAN_OPTIONS]}
shift
list=$(mktemp)
trap 'rm -f "$list"' EXIT
{ grep -v '^#' "$spec"; grep -o '^#define shmem_[a-z0-9_]*(\.\.\.)' mpp/shmem.h | sed 's/^#define //; s/(\.\.\.)$//'; } |
    grep . | sort -u >"$list"
[ "$(wc -l <"$list")" -ge 71 ] || { echo "FAIL: only $(wc -l <"$list") generic names found"; exit 1; }
exec sh "$(dirname "$0")/check_man.sh" "$list" "$@"
