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
# TEST_VARIANTS (regex on variant names), OSHRUN (launcher script).
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

pass=0
fail=0
skip=0
failed=()

trim() { local s="$*"; s="${s#"${s%%[![:space:]]*}"}"; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

run_one() { # name npes env cmd
    local name=$1 npes=$2 env=$3 cmd=$4
    local log="$logdir/$(echo "$name" | tr '/ ;:' '____').log"
    local start=$(date +%s%N) rc
    [[ "$name" =~ $filter ]] || return 0
    if [ "$npes" = 0 ]; then
        (cd "$builddir" && eval "env $env timeout -k 5 $TEST_TIMEOUT $cmd") </dev/null >"$log" 2>&1
    else
        (cd "$builddir" && eval "env $env timeout -k 5 $TEST_TIMEOUT $OSHRUN -n $npes $cmd") </dev/null >"$log" 2>&1
    fi
    rc=$?
    local ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ $rc -eq 77 ]; then
        skip=$((skip + 1))
        printf 'SKIP: %-60s (%s)\n' "$name" "$(tail -n 1 "$log")"
    elif [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        printf 'PASS: %-60s %6d ms\n' "$name" "$ms"
    else
        fail=$((fail + 1))
        failed+=("$name")
        printf 'FAIL: %-60s (exit %d%s)\n' "$name" $rc "$([ $rc -eq 124 ] && echo ', timed out')"
        sed 's/^/    | /' "$log" | tail -n 25
    fi
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
    while IFS= read -r line; do
        line=$(trim "$line")
        [ -z "$line" ] && continue
        [ "${line#\#}" != "$line" ] && continue
        IFS='|' read -r name npes tags env cmd <<<"$line"
        name=$(trim "$name"); npes=$(trim "$npes"); tags=$(trim "$tags")
        env=$(trim "$env"); cmd=$(trim "$cmd")
        if [[ " $tags " == *" nosan "* ]] && [ -n "${OFS_SANITIZED:-}" ]; then
            [[ "$name" =~ $filter ]] && skip=$((skip + 1)) &&
                printf 'SKIP: %-60s (%s)\n' "$name" "no library code: not run with sanitizers"
            continue
        fi
        only=
        [[ " $tags " =~ \ routes=([^ ]+)\  ]] && only=",${BASH_REMATCH[1]},"
        if [[ " $tags " == *" routes "* || -n "$only" ]] && [ ${#variants[@]} -gt 0 ]; then
            for v in "${variants[@]}"; do
                IFS='|' read -r vname venv <<<"$v"
                vname=$(trim "$vname"); venv=$(trim "$venv")
                [[ "$vname" =~ $vfilter ]] || continue
                [ -z "$only" ] || [[ "$only" == *",$vname,"* ]] || continue
                run_one "$name [$vname]" "$npes" "$venv $env" "$cmd"
            done
        else
            run_one "$name" "$npes" "$env" "$cmd"
        fi
    done <"$list"
done

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
