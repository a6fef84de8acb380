#!/bin/bash
# init_kill.sh NPES RUNS: in each run one PE (alternately the last and PE 0) kills
# itself with SIGKILL at a random point 2-16 ms into its start-up (init_kill.c), where
# Open MPI's mpiexec could miss its exit and wait forever.  Every run must end within
# 10 s with a failing status, leaving no PE process, and /dev/shm must be as before once
# the next job has started.
npes=${1:-2}; runs=${2:-20}
. "$(dirname "$0")/../reliability/lib.sh"
oshrun=${OSHRUN:-scripts/oshrun}
prog=test/conformance/init_kill
before=$(shm_objects)
fail=0 slow=0
for i in $(seq "$runs"); do
    victim=$(( i % 2 ? npes - 1 : 0 ))
    us=$(( 2000 + RANDOM % 14000 ))
    start=$(date +%s%N)
    INIT_KILL_RANK=$victim INIT_KILL_US=$us timeout -k 2 30 "$oshrun" -n "$npes" $prog \
        >/dev/null 2>err.$$ </dev/null
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    note=$(grep -o 'oshrun: every PE.*' err.$$)
    echo "run $i: PE $victim killed at $us us: exit $rc in $ms ms${note:+ ($note)}"
    # (rc 0: the PE was through shmem_finalize before its time came)
    if [ $ms -ge 30000 ]; then
        echo "  the job hung"; fail=1
    elif [ $ms -gt 10000 ]; then
        echo "  the job took more than 10 s"; fail=1
    fi
    stray=$(live_procs "$(basename $prog)")
    [ -z "$stray" ] || { sleep 1; stray=$(live_procs "$(basename $prog)"); }
    [ -z "$stray" ] || { echo "  stray processes left: $stray"; fail=1; }
    rm -f err.$$
done
# a PE killed after creating its objects but before unlinking them leaves them, named
# with its pid; the next PE started on the node removes them (docs/api.md, Failures)
timeout -k 2 30 "$oshrun" -n 1 test/reliability/rel_prog ok >/dev/null 2>&1 </dev/null ||
    { echo "the clean-up job failed"; fail=1; }
added=$(shm_objects_added "$before")
[ -z "$added" ] || { echo "left in /dev/shm: $added"; fail=1; }
exit $fail
