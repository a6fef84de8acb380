#!/bin/sh
# run-external-tests.sh: build and run another project's OpenSHMEM C tests against an
# installed ofishmem.  Fetches nothing: give it a directory holding the suite's sources.
#   usage: scripts/run-external-tests.sh DIR [PREFIX]
#     DIR     directory of *.c (and *.cpp, built when oshc++ exists) test sources
#     PREFIX  ofishmem install prefix (default: the directory above the oshcc in PATH)
#   NPES="1 2 4"      PE counts to run each test at
#   TIMEOUT=60        seconds per run
#   SKIP="a b"        test names (file name without extension) to skip
#   FAIL_PATTERN=RE   a run whose output matches this extended regex fails even when it
#                     exits 0 (tests-uh prints "...: Failed" and exits 0)
#   DIR/npes.txt      optional lines "name N [N...]" (PE counts that test needs) or
#                     "name skip reason..." (not built: SOS-only extension, Fortran...)
#   DIR/args.txt      optional lines "name arg..." (command-line arguments)
# The environment passes through to the PEs (SHMEM_LOCAL_TRANSPORT, SHMEM_OFI_PROVIDER,
# SHMEM_SIM_PES_PER_NODE...).  Logs go to $OUT (default /tmp/ext-tests.$$); the last line
# is "N passed, M failed, K skipped".
set -u
dir=${1:?usage: run-external-tests.sh DIR [PREFIX]}
dir=$(cd "$dir" && pwd)
if [ $# -ge 2 ]; then
    bin=$2/bin
else
    bin=$(dirname "$(command -v oshcc)")
fi
[ -x "$bin/oshcc" ] || { echo "run-external-tests: no oshcc in $bin" >&2; exit 2; }
npes_default=${NPES:-"1 2 4"}
timeout=${TIMEOUT:-60}
out=${OUT:-/tmp/ext-tests.$$}
mkdir -p "$out"
pass=0 fail=0 skip=0

lookup() { # lookup FILE NAME: the rest of NAME's line in FILE, if any
    [ -f "$1" ] && awk -v n="$2" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$1"
}

for src in "$dir"/*.c "$dir"/*.cpp; do
    [ -f "$src" ] || continue
    name=$(basename "$src"); name=${name%.*}
    case " ${SKIP:-} " in *" $name "*) echo "SKIP $name (SKIP)"; skip=$((skip + 1)); continue ;; esac
    npes=$(lookup "$dir/npes.txt" "$name")
    case "$npes" in
        skip*) echo "SKIP $name (${npes#skip })"; skip=$((skip + 1)); continue ;;
        "") npes=$npes_default ;;
    esac
    case "$src" in
        *.cpp) cc=$bin/oshc++ ;;
        *) cc=$bin/oshcc ;;
    esac
    if [ ! -x "$cc" ]; then
        echo "SKIP $name (no $(basename "$cc"))"; skip=$((skip + 1)); continue
    fi
    if ! "$cc" -O1 -I"$dir" -o "$out/$name" "$src" -lpthread -lm >"$out/$name.build" 2>&1; then
        echo "FAIL $name (build, see $out/$name.build)"; fail=$((fail + 1)); continue
    fi
    args=$(lookup "$dir/args.txt" "$name")
    for n in $npes; do
        log=$out/$name.$n.log
        # shellcheck disable=SC2086
        timeout -k 5 "$timeout" "$bin/oshrun" -n "$n" "$out/$name" $args >"$log" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && [ -n "${FAIL_PATTERN:-}" ] && grep -Eq "$FAIL_PATTERN" "$log"; then
            rc=FAIL_PATTERN
        fi
        if [ "$rc" = 0 ]; then
            pass=$((pass + 1))
        else
            echo "FAIL $name -n $n (exit $rc, see $log)"; fail=$((fail + 1))
        fi
    done
done
echo "$pass passed, $fail failed, $skip skipped (logs in $out)"
[ $fail -eq 0 ]
