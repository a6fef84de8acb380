#!/bin/sh
# A container-sized /dev/shm (64 MiB tmpfs, via SHMEM_SHM_DIR): an explicit heap that does
# not fit must fail at start-up with a message naming SHMEM_SYMMETRIC_SIZE and the
# directory (never SIGBUS later), and a heap that fits must work.  (The default gives way
# to a smaller heap: test/conformance/shm_fit.sh.)  Needs root to mount a tmpfs.
[ "$(id -u)" = 0 ] || { echo "skipped: needs root to mount a tmpfs"; exit 77; }
dir=$(mktemp -d /tmp/ofishmem-smallshm.XXXXXX)
mount -t tmpfs -o size=64m,mode=1777 tmpfs "$dir" 2>/dev/null || { rmdir "$dir"; echo "skipped: cannot mount a tmpfs here"; exit 77; }
trap 'umount "$dir"; rmdir "$dir"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
fail=0
SHMEM_SHM_DIR=$dir SHMEM_SYMMETRIC_SIZE=512M bash "$here/expect_fail.sh" 2 nonzero 10 "SHMEM_SYMMETRIC_SIZE=512M needs .* $dir has only" -- test/reliability/rel_prog ok || fail=1
SHMEM_SHM_DIR=$dir SHMEM_SYMMETRIC_SIZE=16M bash "$here/expect_fail.sh" 2 0 20 '' -- test/functional/rma_basic || fail=1
[ -z "$(ls -A "$dir")" ] || { echo "objects left in $dir: $(ls "$dir")"; fail=1; }
exit $fail
