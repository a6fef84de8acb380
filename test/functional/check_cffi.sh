#!/bin/sh
# A cffi-built Python binding (test/functional/cffi_smoke.py): compiled by oshcc with
# OSHCC=oshcc (what binding build systems set), run on $1 PEs.  Uses Debian's python3
# and python3-cffi.  Run from the build directory.
n=${1:-2}
oshrun=${OSHRUN:-scripts/oshrun}
py=/usr/bin/python3
$py -c 'import cffi' 2>/dev/null || { echo "skipped: python3-cffi missing"; exit 77; }
[ -z "${OFS_SANITIZED:-}" ] || { echo "skipped: not under the sanitizer build"; exit 77; }
# a directory of its own: variants of this test may run at once (TEST_JOBS)
out=$(mktemp -d "$(pwd)/test/functional/cffi_build.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
w=$(pwd)/scripts
CC="$w/oshcc" OSHCC="$w/oshcc" LDSHARED="$w/oshcc -shared" timeout 120 \
    $py "$SRCDIR/test/functional/cffi_smoke.py" build . "$out" || { echo "FAIL: build"; exit 1; }
"$oshrun" -n "$n" $py "$SRCDIR/test/functional/cffi_smoke.py" run "$out"
