#!/bin/sh
# A hybrid MPI + OpenSHMEM program under oshrun: compiled with Open MPI's mpicc against
# the build tree's shmem.h and libsma, run with either library initialised first.
# Run from the build directory; $1 = number of PEs.
n=${1:-2}
oshrun=${OSHRUN:-scripts/oshrun}
command -v mpicc >/dev/null || { echo "skipped: mpicc missing (Debian: libopenmpi-dev)"; exit 77; }
# the sanitizer build's libsma wants the sanitizer runtime first in every program
[ -z "${OFS_SANITIZED:-}" ] || { echo "skipped: not under the sanitizer build"; exit 77; }
# a directory of its own: variants of this test may run at once (TEST_JOBS)
dir=$(mktemp -d "$(pwd)/test/functional/hybrid_run.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
out=$dir/hybrid_mpi
mpicc -Impp -o "$out" "$SRCDIR/test/functional/hybrid_mpi.c" -L.libs -lsma -Wl,-rpath,"$(pwd)/.libs" || exit 1
for order in mpi-first shmem-first; do
    "$oshrun" -n "$n" "$out" $order || { echo "FAIL: $order"; exit 1; }
done
