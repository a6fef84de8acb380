#!/bin/bash
# The test runner behind `make check`.  Reads test lists (one test per line):
#
#   name | npes | tags | env | command
#
# npes 0 runs the command directly (unit tests, singleton runs); N > 0 launches it on
# N PEs through oshrun.  A test tagged 'routes' is run once per line of
# test/lists/variants.txt ("variant | env"), each forcing a route, provider or
# protocol; one tagged 'routes=V1,V2,...' only on those variants (where the others
# cannot make a difference).  A test tagged 'nosan' runs no library code (man pages):
# the sanitizer build (OFS_SANITIZED=1, scripts/check-sanitizers.sh) skips it.
# env is space-separated VAR=value words.  Ends with "N passed, M failed".
#
# Environment: TEST_FILTER (regex on names), TEST_TIMEOUT (seconds, default 180),
# TEST_VARIANTS (regex on variant names), OSHRUN (launcher script), TEST_JOBS (tests
# run at once, default 1; results are printed as tests end).  A test tagged 'serial'
# runs alone (it kills PEs, leaves objects on purpose or fills /dev/shm): the runner
# lets the running tests end first; a line '#@serial' in a list makes the tests after
# it serial, '#@parallel' ends that.  Each test runs with OFS_TEST_ID set to a value of
# its own, which its processes inherit (test/reliability/lib.sh tells its PEs apart
# from a neighbour test's by it).
# A test that exits 77 is skipped; its last output line says why.
set -u
srcdir=$(cd "${srcdir:-.}" && pwd)
export SRCDIR=$srcdir
builddir=$(cd "${builddir:-.}" && pwd)
export OSHRUN=${OSHRUN:-$builddir/scripts/oshrun}
TEST_TIMEOUT=${TEST_TIMEOUT:-180}
filter=${TEST_FILTER:-.}
vfilter=${TEST_VARIANTS:-.}
logdir=$builddir/test/logs
mkdir -p "$logdir"

TEST_JOBS=${TEST_JOBS:-1}
[[ "$TEST_JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "run-tests.sh: TEST_JOBS must be a positive count, not '$TEST_JOBS'" >&2; exit 2; }
resdir=$(mktemp -d "$logdir/.results.XXXXXX")
trap 'rm -rf "$resdir"' EXIT

pass=0
fail=0
skip=0
failed=()
seq=0
declare -A running=() names=() # pid -> its result file, its test's name

trim() { local s="$*"; s="${s#"${s%%[![:space:]]*}"}"; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

# Runs one test; prints its result line (and a failing test's log tail); exits 0 when
# it passed, 1 when it failed, 77 when it was skipped.
exec_one() { # name npes env cmd
    local name=$1 npes=$2 env=$3 cmd=$4
    local log="$logdir/$(echo "$name" | tr '/ ;:' '____').log"
    local start=$(date +%s%N) rc
    if [ "$npes" = 0 ]; then
        (cd "$builddir" && eval "env $env timeout -k 5 $TEST_TIMEOUT $cmd") </dev/null >"$log" 2>&1
    else
        (cd "$builddir" && eval "env $env timeout -k 5 $TEST_TIMEOUT $OSHRUN -n $npes $cmd") </dev/null >"$log" 2>&1
    fi
    rc=$?
    local ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ $rc -eq 77 ]; then
        printf 'SKIP: %-60s (%s)\n' "$name" "$(tail -n 1 "$log")"
        return 77
    elif [ $rc -eq 0 ]; then
        printf 'PASS: %-60s %6d ms\n' "$name" "$ms"
        return 0
    fi
    printf 'FAIL: %-60s (exit %d%s)\n' "$name" $rc "$([ $rc -eq 124 ] && echo ', timed out')"
    sed 's/^/    | /' "$log" | tail -n 25
    return 1
}

# Counts and prints the result of a test that ended with status $1, output in $2.
tally() { # rc resultfile name
    cat "$2"
    rm -f "$2"
    case $1 in
        0) pass=$((pass + 1)) ;;
        77) skip=$((skip + 1)) ;;
        *) fail=$((fail + 1)); failed+=("$3") ;;
    esac
}

# Waits for one running test to end (whichever ends first).
reap() {
    local pid= rc
    wait -n -p pid "${!running[@]}"
    rc=$?
    if [ -z "$pid" ]; then # not expected: then the oldest
        for pid in "${!running[@]}"; do break; done
        wait "$pid"
        rc=$?
    fi
    tally $rc "${running[$pid]}" "${names[$pid]}"
    unset "running[$pid]" "names[$pid]"
}

drain() { while [ ${#running[@]} -gt 0 ]; do reap; done; }

run_one() { # name npes env cmd serial
    local name=$1 res
    [[ "$name" =~ $filter ]] || return 0
    seq=$((seq + 1))
    res="$resdir/$seq"
    local env="OFS_TEST_ID=$$.$seq $3"
    if [ "$TEST_JOBS" = 1 ] || [ "$5" = serial ]; then
        drain
        exec_one "$name" "$2" "$env" "$4" >"$res"
        tally $? "$res" "$name"
        return 0
    fi
    while [ ${#running[@]} -ge "$TEST_JOBS" ]; do reap; done
    exec_one "$name" "$2" "$env" "$4" >"$res" &
    running[$!]=$res
    names[$!]=$name
}

variants=()
if [ -f "$srcdir/test/lists/variants.txt" ]; then
    while IFS= read -r line; do
        line=$(trim "$line")
        [ -z "$line" ] || [ "${line#\#}" != "$line" ] && continue
        variants+=("$line")
    done <"$srcdir/test/lists/variants.txt"
fi

lists=("$@")
[ ${#lists[@]} -gt 0 ] || lists=("$srcdir"/test/lists/*.list)

for list in "${lists[@]}"; do
    list_serial=
    while IFS= read -r line; do
        line=$(trim "$line")
        [ -z "$line" ] && continue
        case $line in
            '#@serial') list_serial=serial ;;
            '#@parallel') list_serial= ;;
        esac
        [ "${line#\#}" != "$line" ] && continue
        IFS='|' read -r name npes tags env cmd <<<"$line"
        name=$(trim "$name"); npes=$(trim "$npes"); tags=$(trim "$tags")
        env=$(trim "$env"); cmd=$(trim "$cmd")
        if [[ " $tags " == *" nosan "* ]] && [ -n "${OFS_SANITIZED:-}" ]; then
            [[ "$name" =~ $filter ]] && skip=$((skip + 1)) &&
                printf 'SKIP: %-60s (%s)\n' "$name" "no library code: not run with sanitizers"
            continue
        fi
        serial=$list_serial
        [[ " $tags " == *" serial "* ]] && serial=serial
        only=
        [[ " $tags " =~ \ routes=([^ ]+)\  ]] && only=",${BASH_REMATCH[1]},"
        if [[ " $tags " == *" routes "* || -n "$only" ]] && [ ${#variants[@]} -gt 0 ]; then
            for v in "${variants[@]}"; do
                IFS='|' read -r vname venv <<<"$v"
                vname=$(trim "$vname"); venv=$(trim "$venv")
                [[ "$vname" =~ $vfilter ]] || continue
                [ -z "$only" ] || [[ "$only" == *",$vname,"* ]] || continue
                run_one "$name [$vname]" "$npes" "$venv $env" "$cmd" "$serial"
            done
        else
            run_one "$name" "$npes" "$env" "$cmd" "$serial"
        fi
    done <"$list"
done
drain

if [ $fail -gt 0 ]; then
    echo "Failed tests:"
    for f in "${failed[@]}"; do echo "  $f"; done
fi
if [ $skip -gt 0 ]; then
    echo "$pass passed, $fail failed, $skip skipped"
else
    echo "$pass passed, $fail failed"
fi
[ $fail -eq 0 ]
