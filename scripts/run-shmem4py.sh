#!/bin/sh
# run-shmem4py.sh: build shmem4py (the Python binding of OpenSHMEM, cffi + numpy) against an
# installed ofishmem and run its own test suite (test/test_*.py) at several PE counts on
# several routes.  Fetches nothing: give it a shmem4py source tree (a git checkout or an
# unpacked sdist) and the prefix ofishmem was installed under.  The binding is built in a
# temporary directory; the source tree is only read.  Ends with "N passed, M failed"
# (test cases summed over the runs; a case fails when it fails on any PE).
#
# usage: scripts/run-shmem4py.sh [-n "1 2 3 4"] [-r "shm tcp sim2"] [-k] SHMEM4PY_SRC PREFIX
#   -n   PE counts (default 1 2 3 4)
#   -r   routes: shm (the default route), tcp (every PE over libfabric's tcp;ofi_rxm),
#        ofishm (every PE over libfabric's shm), sim2 (two simulated nodes of 2 PEs; run
#        at 4 PEs only).  Default: shm tcp sim2
#   -k   keep the temporary directory (the build and one log per PE and run)
# Environment: PYTHON (default /usr/bin/python3: it needs numpy and cffi),
#   RUN_TIMEOUT seconds per run (default 300).
# What the failures seen here mean: docs/testing.md, "shmem4py".
set -u
npes="1 2 3 4"
routes="shm tcp sim2"
keep=0
while getopts n:r:k opt; do
    case $opt in
        n) npes=$OPTARG ;;
        r) routes=$OPTARG ;;
        k) keep=1 ;;
        *) sed -n '9,17p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '9,17p' "$0"; exit 2; }
src=$(cd "$1" && pwd) || exit 2
prefix=$(cd "$2" && pwd) || exit 2
py=${PYTHON:-/usr/bin/python3}
tmo=${RUN_TIMEOUT:-300}
if ! [ -f "$src/setup.py" ] || ! [ -d "$src/test" ]; then
    echo "run-shmem4py: $src is not a shmem4py source tree (no setup.py and test/)"
    exit 2
fi
if ! [ -x "$prefix/bin/oshcc" ] || ! [ -x "$prefix/bin/oshrun" ]; then
    echo "run-shmem4py: no oshcc/oshrun under $prefix/bin"
    exit 2
fi
"$py" -c 'import numpy, cffi, setuptools' 2>/dev/null ||
    { echo "run-shmem4py: $py cannot import numpy, cffi and setuptools"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/run-shmem4py.XXXXXX") || exit 1
trap '[ $keep = 1 ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM


# setup.py writes next to itself (egg-info, build/): build a copy
cp -R "$src" "$work/src" || exit 1
echo "building shmem4py from $src with $prefix/bin/oshcc ..."
if ! (cd "$work/src" && OSHCC="$prefix/bin/oshcc" "$py" setup.py -q build --build-base "$work/build") > "$work/build.log" 2>&1; then
    tail -20 "$work/build.log"
    echo "run-shmem4py: the build failed (log: $work/build.log)"
    keep=1
    echo "0 passed, 1 failed"
    exit 1
fi
api=$(find "$work/build" -name 'api*.so' -path '*shmem4py*' | head -1)
[ -n "$api" ] || { echo "run-shmem4py: the build made no shmem4py/api*.so"; exit 1; }
PYTHONPATH=$(dirname "$(dirname "$api")")${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH

route_env() { # route -> environment assignments
    case $1 in
        shm) echo "" ;;
        tcp) echo "SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=tcp;ofi_rxm" ;;
        ofishm) echo "SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=shm" ;;
        sim2) echo "SHMEM_SIM_PES_PER_NODE=2" ;;
        *) return 1 ;;
    esac
}

passed=0
failed=0
for route in $routes; do
    renv=$(route_env "$route") || { echo "run-shmem4py: unknown route $route"; exit 2; }
    for n in $npes; do
        [ "$route" != sim2 ] || [ "$n" = 4 ] || continue
        logs="$work/log.$route.$n"
        mkdir -p "$logs"
        start=$(date +%s)
        # one log per PE: unittest's reports of several PEs would interleave
        # shellcheck disable=SC2086 # renv is a list of assignments
        env $renv timeout "$tmo" "$prefix/bin/oshrun" -n "$n" sh -c \
            "exec \"$py\" -m unittest discover -v -s \"$src/test\" > \"$logs/pe.\${PMIX_RANK:-0}\" 2>&1" \
            > "$logs/launcher" 2>&1
        rc=$?
        secs=$(($(date +%s) - start))
        ran=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in.*/\1/p' "$logs/pe.0" 2>/dev/null)
        incomplete=0
        for pe in $(seq 0 $((n - 1))); do
            grep -q '^Ran ' "$logs/pe.$pe" 2>/dev/null || incomplete=1
        done
        if [ -z "$ran" ] || [ $incomplete = 1 ]; then
            echo "$route n=$n: did not finish (exit $rc after ${secs}s; logs in $logs)"
            keep=1
            failed=$((failed + 1))
            continue
        fi
        # a case that fails or errs on any PE (subtests repeat its name: count it once)
        # (Python 3.11 names it "name (module.Class.name)", older ones "name (module.Class)")
        bad=$(cat "$logs"/pe.* | awk '/^(FAIL|ERROR): / {
                id = $3; gsub(/[()]/, "", id)
                if (id !~ ("\\." $2 "$")) id = id "." $2
                print id }' | sort -u)
        nbad=$(printf '%s' "$bad" | grep -c .)
        skip=$(grep -c '\.\.\. skipped' "$logs/pe.0")
        ok=$((ran - nbad - skip))
        passed=$((passed + ok))
        failed=$((failed + nbad))
        echo "$route n=$n: $ok passed, $nbad failed, $skip skipped (${secs}s)"
        [ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/    /'
    done
done
[ $keep = 0 ] || echo "logs kept in $work"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
