#!/bin/bash
# The launcher dies while the job runs: Open MPI's mpiexec SIGKILLed, or sent two
# SIGTERMs (what `timeout` does: one to it, one to its process group; mpiexec then
# exits at once without taking its PEs down).  Every PE must end by itself within
# 10 s -- one computing outside the library, the others waiting in a barrier -- and
# leave nothing in /dev/shm.  Usage: launcher_lost.sh [NPES [MODE]]; MODE hang_noterm:
# every PE ignores SIGTERM and SIGPIPE, so it is SHMEM_ORPHAN_GRACE (set it low) that
# ends them.
. "$(dirname "$0")/lib.sh"
npes=${1:-4}
mode=${2:-hang}
oshrun=${OSHRUN:-scripts/oshrun}
prog=test/reliability/rel_prog
fail=0
before=$(shm_objects)
for how in KILL TERM2; do
    out=$(mktemp) err=$(mktemp)
    "$oshrun" -n "$npes" "$prog" "$mode" >"$out" 2>"$err" &
    launcher=$!
    for i in $(seq 200); do
        grep -q ready "$out" && break
        sleep 0.1
    done
    if ! grep -q ready "$out"; then
        echo "$how: the job did not start"; cat "$err"; fail=1
    fi
    running=$(live_procs rel_prog | wc -l)
    echo "$how: $running PE process(es) running, launcher $launcher"
    if [ "$how" = KILL ]; then
        kill -KILL "$launcher"
    else
        kill -TERM "$launcher"; kill -TERM "$launcher"
    fi
    wait "$launcher" 2>/dev/null
    left=
    for i in $(seq 100); do
        left=$(live_procs rel_prog)
        [ -z "$left" ] && break
        sleep 0.1
    done
    if [ -n "$left" ]; then
        echo "$how: PEs still running 10 s after the launcher died: $(echo $left)"
        kill -KILL $left 2>/dev/null
        fail=1
    else
        echo "$how: every PE ended within $((i / 10)).$((i % 10)) s"
    fi
    rm -f "$out" "$err"
done
added=$(shm_objects_added "$before")
[ -z "$added" ] || { echo "left in /dev/shm: $added"; fail=1; }
exit $fail
