#!/bin/bash
# fin_watch.sh MODE PATTERN [SECONDS]: test/functional/fin_watch MODE on 4 PEs must end
# the job within SECONDS (default 8) with a failing status, no stray process and nothing
# left in /dev/shm (expect_fail.sh), its stderr matching PATTERN, on exactly one line:
# of the PEs left waiting for the member that finalized, one names it (src/coll/coll_fin.c).
mode=$1; pattern=$2; secs=${3:-8}
out=$(bash "$(dirname "$0")/expect_fail.sh" 4 nonzero "$secs" "$pattern" -- test/functional/fin_watch "$mode" 2>&1)
rc=$?
echo "$out"
n=$(grep -c 'mismatched collectives: PE [0-9]* called shmem_finalize' <<<"$out")
[ "$n" -eq 1 ] || { echo "expected one line naming the mismatch, got $n"; rc=1; }
exit $rc
