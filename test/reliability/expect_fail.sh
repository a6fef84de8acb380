#!/bin/bash
# expect_fail.sh NPES STATUS SECONDS PATTERN -- program args...
# Runs the program on NPES PEs through oshrun (0: without a launcher) and checks that
# the whole job ends within SECONDS with exit status STATUS ('nonzero' for any failure),
# that stderr matches PATTERN (egrep; '' for none), that no PE process is left, and that
# /dev/shm holds the same ofishmem objects before and after.  With NOT_PATTERN set in the
# environment, stderr must not match it.
npes=$1; want=$2; secs=$3; pattern=$4; shift 5
. "$(dirname "$0")/lib.sh"
oshrun=${OSHRUN:-scripts/oshrun}
prog=$1
before=$(shm_objects)
start=$(date +%s%N)
if [ "$npes" = 0 ]; then
    timeout -k 2 $((secs + 20)) "$@" >out.$$ 2>err.$$
else
    timeout -k 2 $((secs + 20)) "$oshrun" -n "$npes" "$@" >out.$$ 2>err.$$
fi
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat out.$$; cat err.$$ >&2
fail=0
if [ "$want" = nonzero ]; then
    [ $rc -ne 0 ] || { echo "expected a failing exit status, got 0"; fail=1; }
else
    [ $rc -eq "$want" ] || { echo "expected exit status $want, got $rc"; fail=1; }
fi
[ $rc -eq 124 ] && { echo "the job hung (timeout)"; fail=1; }
# 126/127: the launcher or the program could not be run at all (no PE failed)
[ $rc -eq 126 ] || [ $rc -eq 127 ] && { echo "the command could not be run (exit $rc)"; fail=1; }
[ $ms -le $((secs * 1000)) ] || { echo "the job took $ms ms, more than $secs s"; fail=1; }
if [ -n "$pattern" ] && ! grep -Eq "$pattern" err.$$; then
    echo "stderr does not match: $pattern"; fail=1
fi
if [ -n "${NOT_PATTERN:-}" ] && grep -Eq "$NOT_PATTERN" err.$$; then
    echo "stderr matches what it must not: $NOT_PATTERN"; fail=1
fi
# no process of the program may survive the job
stray=$(stray_procs "$(basename "$prog")")
[ -z "$stray" ] || { echo "stray processes left: $stray"; ps -o pid,stat,args -p $stray; fail=1; }
added=$(shm_objects_added "$before")
[ -z "$added" ] || { echo "left in /dev/shm: $added"; fail=1; }
rm -f out.$$ err.$$
echo "exit $rc in $ms ms"
exit $fail
