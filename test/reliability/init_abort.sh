#!/bin/bash
# One PE of four fails in shmem_init after its heap objects exist (every PE on the OFI
# route, a provider that does not exist on that PE only: settings that must be equal
# everywhere are compared before the objects exist); the launcher takes the others down
# while they wait in start-up.  Nothing may be left in /dev/shm, no PE may survive.
. "$(dirname "$0")/lib.sh"
oshrun=${OSHRUN:-scripts/oshrun}
prog=test/reliability/rel_prog
before=$(shm_objects)
SHMEM_SIM_PES_PER_NODE=1 timeout -k 2 30 "$oshrun" -n 1 env SHMEM_OFI_PROVIDER=bogus $prog ok : \
    -n 3 $prog ok >/dev/null 2>err.$$
rc=$?
cat err.$$ | head -5
fail=0
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "expected a clean failure, got exit $rc"; fail=1; }
# the failure must be the bad PE's (not, say, a launcher that did not start)
grep -q "PE 0\].*'bogus'" err.$$ ||
    { echo "no error line from the PE with the bad SHMEM_OFI_PROVIDER"; fail=1; }
rm -f err.$$
sleep 1
added=$(shm_objects_added "$before")
[ -z "$added" ] || { echo "left in /dev/shm: $added"; fail=1; }
stray=$(live_procs rel_prog)
[ -z "$stray" ] || { echo "stray processes: $stray"; fail=1; }
exit $fail
