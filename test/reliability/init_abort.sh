#!/bin/bash
# One PE of four fails in shmem_init after its heap objects exist (a bad
# SHMEM_LOCAL_TRANSPORT on that PE only); the launcher takes the others down while they
# wait in start-up.  Nothing may be left in /dev/shm, no PE may survive.
oshrun=${OSHRUN:-scripts/oshrun}
prog=test/reliability/rel_prog
before=$(ls /dev/shm | grep '^ofishmem-' | sort)
timeout -k 2 30 "$oshrun" -n 1 env SHMEM_LOCAL_TRANSPORT=bogus $prog ok : -n 3 $prog ok >/dev/null 2>err.$$
rc=$?
cat err.$$ | head -5; rm -f err.$$
fail=0
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "expected a clean failure, got exit $rc"; fail=1; }
sleep 1
added=$(comm -13 <(echo "$before") <(ls /dev/shm | grep '^ofishmem-' | sort))
if [ -n "$added" ]; then
    sleep 1
    added=$(comm -12 <(echo "$added") <(ls /dev/shm | grep '^ofishmem-' | sort))
fi
[ -z "$added" ] || { echo "left in /dev/shm: $added"; fail=1; }
stray=$(ps -C rel_prog -o pid=,stat=,args= 2>/dev/null | awk -v d="$PWD/" '$2 !~ /^Z/ && index($3, d) == 1 {print $1}')
[ -z "$stray" ] || { echo "stray processes: $stray"; fail=1; }
exit $fail
