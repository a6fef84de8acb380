#!/bin/bash
# All PEs on libfabric's shm provider (SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=shm).
# Each endpoint is a 16 MiB region in /dev/shm; a PE killed with SIGKILL cannot remove
# its own.  1) A job in which one PE is SIGKILLed leaves no region: the first PE to take
# the launcher's SIGTERM removes those of every PE of the job on the node, the killed
# one's too (mpiexec SIGKILLs the rest a few ms after the first has died, whether they
# ran their handlers or not).  2) The next job on the node removes regions of any dead
# process of ours (a planted one, of a pid that has exited), but not those of a live
# process, and leaves nothing of its own.
# 3) Likewise for heap objects (ofishmem-<job>-<pe>-<seg>-<random>-<pid>-<pidns>) that a
# PE killed in its start-up left.
# Only the regions of this test's own PEs are counted (rel_prog names its pid in
# REL_PID_DIR): other jobs in the same pid namespace may create and remove theirs meanwhile.
here=$(cd "$(dirname "$0")" && pwd)
export SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=shm
ns=$(stat -L -c %i /proc/self/ns/pid)
regions() { ls /dev/shm | grep -E "^[0-9]+_ofs${ns}[:_]" | sort; }
piddir=$(mktemp -d)
# the regions of the PEs of the last job (pids in $piddir) that were not there before
job_regions() {
    local pids
    pids=$(ls "$piddir" | paste -sd'|')
    [ -n "$pids" ] || return 0
    comm -13 <(echo "$before") <(regions) | grep -E "^($pids)_" || true
}
# run_job NPES MODE STATUS SECONDS [quiet]: rel_prog MODE through expect_fail.sh, its
# PEs' pids in $piddir afterwards (every PE must have started)
run_job() {
    local npes=$1 mode=$2 rc
    rm -f "$piddir"/*
    if [ "$5" = quiet ]; then
        REL_PID_DIR=$piddir bash "$here/expect_fail.sh" "$npes" "$3" "$4" '' -- \
            test/reliability/rel_prog "$mode" >/dev/null 2>&1
    else
        REL_PID_DIR=$piddir bash "$here/expect_fail.sh" "$npes" "$3" "$4" '' -- \
            test/reliability/rel_prog "$mode"
    fi
    rc=$?
    [ "$(ls "$piddir" | wc -l)" -eq "$npes" ] ||
        { echo "$mode job: $(ls "$piddir" | wc -l) PE pid(s) recorded, want $npes"; fail=1; }
    return $rc
}
fail=0
dead=$(sh -c 'echo $$')
planted_dead="/dev/shm/${dead}_ofs${ns}:0:0"
planted_live="/dev/shm/$$_ofs${ns}:0:0" # this script's own pid: alive
heap_dead="/dev/shm/ofishmem-planted-0-h-0123456789abcdef-${dead}-${ns}"
heap_live="/dev/shm/ofishmem-planted-0-d-0123456789abcdef-$$-${ns}"
: >"$planted_dead"
: >"$planted_live"
: >"$heap_dead"
: >"$heap_live"
trap 'rm -f "$planted_dead" "$planted_live" "$heap_dead" "$heap_live"; rm -rf "$piddir"' EXIT
before=$(regions)

# the PEs of the last job (their pids in $piddir) are gone or zombies: a PE still
# exiting when the launcher returns may not have removed its regions yet
settle() {
    local t
    for p in $(ls "$piddir"); do
        for t in $(seq 100); do
            st=$(awk '{sub(/.*\) /, ""); print $1}' /proc/$p/stat 2>/dev/null) || break
            case "$st" in Z|X|"") break ;; esac
            sleep 0.1
        done
    done
}
run_job 4 kill nonzero 10 quiet
settle
left=$(job_regions)
nleft=$(echo -n "$left" | grep -c .)
echo "after the SIGKILLed job: $nleft region(s) left: $(echo $left)"
[ "$nleft" -eq 0 ] || { echo "the job's regions were not all removed when it went down"; fail=1; }

run_job 2 ok 0 20 || fail=1
for f in $left; do
    [ ! -e "/dev/shm/$f" ] || { echo "not removed by the next job: $f"; fail=1; }
done
[ ! -e "$planted_dead" ] || { echo "region of a dead pid not removed: $planted_dead"; fail=1; }
[ -e "$planted_live" ] || { echo "region of a live pid removed: $planted_live"; fail=1; }
[ ! -e "$heap_dead" ] || { echo "heap object of a dead pid not removed: $heap_dead"; fail=1; }
[ -e "$heap_live" ] || { echo "heap object of a live pid removed: $heap_live"; fail=1; }
settle
after=$(job_regions)
[ -z "$after" ] || { echo "left by the clean job: $(echo $after)"; fail=1; }
exit $fail
