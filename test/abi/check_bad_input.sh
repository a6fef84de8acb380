#!/bin/sh
# usage: check_bad_input.sh NPES CASE ROUTINE PROGRAM
# The program must exit nonzero and its stderr must name ROUTINE (one line from
# ofs_bad_input), without a crash.  (Leftovers in /dev/shm are the runner's check.)
npes=$1 case=$2 routine=$3 prog=$4
err=$(mktemp)
if [ "$npes" = 0 ]; then
    "$prog" "$case" >/dev/null 2>"$err"; rc=$?
else
    timeout 30 scripts/oshrun -n "$npes" "$prog" "$case" >/dev/null 2>"$err"; rc=$?
fi
ok=1
[ "$rc" -ne 0 ] || { echo "FAIL: $case: exit status 0"; ok=0; }
grep -q "$routine" "$err" || { echo "FAIL: $case: stderr does not name $routine:"; cat "$err"; ok=0; }
# Open MPI's mpiexec (4.1) itself sometimes segfaults in PMIx_server_finalize after a PE
# ended the job (README, oshrun(1)): the lines of its own signal handler ([host:pid] ...,
# a backtrace through mpiexec) are the launcher's crash, not the program's
if grep -q "bin/mpiexec(" "$err" && grep -q "PMIx_server_finalize" "$err"; then
    grep -v '^\[[^]]*:[0-9]*\] ' "$err" >"$err.l"
    mv "$err.l" "$err"
fi
grep -q "Segmentation\|core dumped" "$err" && { echo "FAIL: $case: crashed"; cat "$err"; ok=0; }
[ $ok = 1 ] && echo "ok: $case -> $(grep -m1 "$routine" "$err")"
rm -f "$err"
[ $ok = 1 ]
