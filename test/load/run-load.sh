#!/bin/bash
# Load runs outside CI: many PEs oversubscribed on this machine, and a long soak.
# (The other functional tests are sized for up to 4 PEs; these scale.)
#   test/load/run-load.sh [BUILD_DIR]          16, 32 and 64 PEs: init/barrier/finalize,
#                                              collectives and the stress test
#   SOAK_SECONDS=600 test/load/run-load.sh     adds the 10-minute stress soak (4 PEs)
# Prints one line per run with its wall time; exits nonzero if any run fails or hangs.
# Start-up/finalize hangs: test/load/startup-loop.sh (hundreds of short runs per route
# and PE count, a gdb backtrace of every PE of a run that hangs; -h for its options).
b=${1:-_build}
cd "$b" || exit 2
oshrun=scripts/oshrun
fail=0
run() { # npes timeout label cmd...
    local n=$1 t=$2 label=$3; shift 3
    local s=$(date +%s%N)
    timeout -k 5 "$t" "$oshrun" -n "$n" "$@" >/tmp/ofishmem-load.log 2>&1
    local rc=$? ms=$(( ($(date +%s%N) - s) / 1000000 ))
    printf '%-34s %4d PEs  %-4s %8d ms\n' "$label" "$n" "$([ $rc = 0 ] && echo ok || echo FAIL)" "$ms"
    [ $rc = 0 ] || { fail=1; tail -20 /tmp/ofishmem-load.log; }
}
for n in 16 32 64; do
    run $n 300 "init+barrier+finalize" test/reliability/rel_prog ok
    run $n 300 "collectives (load_coll)" test/load/load_coll
    for t in coll_lock coll_thread coll_sigmix coll_members; do
        run $n 300 "$t" test/functional/$t
    done
    run $n 600 "stress (200 ops/PE)" test/stress/stress --iters 200 --slice 4096
done
if [ -n "$SOAK_SECONDS" ]; then
    run 4 $((SOAK_SECONDS + 120)) "stress soak ${SOAK_SECONDS}s" test/stress/stress --seconds "$SOAK_SECONDS"
    grep 'stress:' /tmp/ofishmem-load.log
fi
exit $fail
