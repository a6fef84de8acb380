#!/bin/bash
# Start-up/finalize hang hunt, outside CI (long): runs a small program (by default
# test/functional/hello: init, put, barriers, finalize) many times through oshrun
# over several PE counts and routes, each run under a time limit.  A run that
# exceeds it is a hang: before it is killed every PE of the run (every descendant of
# its launcher running the program) gets a gdb `thread apply all bt`, saved with the
# run's output in the log directory.
#   test/load/startup-loop.sh [options] [-- program args...]
#     -b DIR    build directory (default _build)
#     -r N      runs per (PE count, route) (default 20)
#     -n LIST   PE counts (default "2 4 8")
#     -c LIST   routes, comma-separated: names from test/lists/variants.txt (shm,
#               ofi-tcp, ofi-shm, sim2), 'default' (no settings) or 'all'
#               (default "ofi-tcp,ofi-shm,shm")
#     -t SECS   time limit of a run (default 20)
#     -l DIR    log directory (default /tmp/ofishmem-startup-loop.PID)
#     -L N      N background compile loops as extra load while it runs (default 0)
#     -p PROG   program, relative to the build directory (default test/functional/hello)
#     -F PCT    fault injection: PCT % of the PEs' send() calls on TCP sockets send part
#               or none of their bytes, of sendmsg() calls none, as under a full socket
#               buffer
#               (test/load/send_eagain.c, LD_PRELOAD; default 0: off)
# Runs are interleaved (every route and PE count per round) so that a change in the
# machine's load hits all of them.  Prints one line per failure or hang and counts per
# configuration at the end; exits 1 on any hang, 2 on failures without a hang.
# Needs gdb for the backtraces (without it a hang is still counted and killed).
src=$(cd "$(dirname "$0")/../.." && pwd)
b=_build runs=20 npes_list="2 4 8" routes="ofi-tcp,ofi-shm,shm" limit=20
logdir=/tmp/ofishmem-startup-loop.$$ load=0 prog=test/functional/hello fault=0
while getopts b:r:n:c:t:l:L:p:F: o; do
    case $o in
        b) b=$OPTARG ;; r) runs=$OPTARG ;; n) npes_list=$OPTARG ;; c) routes=$OPTARG ;;
        t) limit=$OPTARG ;; l) logdir=$OPTARG ;; L) load=$OPTARG ;; p) prog=$OPTARG ;;
        F) fault=$OPTARG ;;
        *) sed -n '2,26s/^# \{0,1\}//p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
cd "$b" || exit 2
b=$(pwd)
[ -x "$prog" ] || make "$prog" >/dev/null || exit 2
mkdir -p "$logdir" || exit 2
[ "$routes" = all ] && routes="default,$(sed -n 's/^\([a-z0-9-]*\) *|.*/\1/p' \
    "$src/test/lists/variants.txt" | paste -sd,)"

pre=""
if [ "$fault" -gt 0 ]; then
    cc -O2 -shared -fPIC -o "$logdir/send_eagain.so" "$src/test/load/send_eagain.c" -ldl || exit 2
    pre="env LD_PRELOAD=$logdir/send_eagain.so SEND_EAGAIN_PCT=$fault"
fi

route_env() { # route -> its environment (from variants.txt)
    [ "$1" = default ] && return 0
    local e
    e=$(sed -n "s/^$1 *| *//p" "$src/test/lists/variants.txt")
    [ -n "$e" ] || { echo "startup-loop: unknown route '$1'" >&2; exit 2; }
    echo "$e"
}

# extra load: compile loops of a generated file, like a parallel build
loadpids=()
if [ "$load" -gt 0 ]; then
    ldir=$logdir/load
    mkdir -p "$ldir"
    for i in $(seq 400); do
        echo "double f$i(double *a, int n) { double s = 0; for (int i = 0; i < n; i++)"
        echo "  s += a[i] * $i.5 / (a[(i * $i) % n] + 1); return s; }"
    done >"$ldir/load.c"
    for i in $(seq "$load"); do
        (while :; do cc -O2 -c "$ldir/load.c" -o "$ldir/load$i.o" 2>/dev/null; done) &
        loadpids+=($!)
    done
fi
stop_load() {
    local p
    for p in "${loadpids[@]}"; do
        pkill -P "$p" 2>/dev/null
        kill "$p" 2>/dev/null
    done
}
stop=0
trap 'stop=1' INT TERM # the counts so far are still printed

descendants() { # pid -> all its descendants' pids
    local p c
    for p in "$@"; do
        for c in $(pgrep -P "$p"); do
            echo "$c"
            descendants "$c"
        done
    done
}

exe=${prog##*/}
declare -A n_runs n_hang n_fail
total=0 hangs=0 fails=0
for ((r = 1; r <= runs && !stop; r++)); do
    for n in $npes_list; do
        for route in ${routes//,/ }; do
            key="$route/$n"
            tag="$route-n$n-r$r"
            env=$(route_env "$route")
            out=$logdir/$tag.out
            start=$(date +%s%N)
            # timeout is the backstop; the watch below fires first and takes backtraces
            eval "env $env timeout -k 5 $((limit + 60)) \"\$b/scripts/oshrun\" -n $n $pre $prog \"\$@\"" \
                >"$out" 2>&1 &
            tpid=$!
            hung=0
            while kill -0 "$tpid" 2>/dev/null; do
                if (($(date +%s%N) - start > limit * 1000000000)); then
                    hung=1
                    break
                fi
                sleep 0.2
            done
            if [ $hung = 1 ]; then
                bt=$logdir/$tag.bt
                {
                    echo "== $key run $r: still running after ${limit}s; processes:"
                    ps -o pid,ppid,stat,etime,time,args --forest -g "$(ps -o sid= -p $$)" 2>/dev/null
                } >"$bt"
                pids=$(descendants "$tpid")
                for p in $pids; do
                    case "$(readlink "/proc/$p/exe" 2>/dev/null)" in
                        */"$exe" | */lt-"$exe") ;;
                        *) continue ;;
                    esac
                    echo "== PID $p ($(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null))" >>"$bt"
                    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep '^PMIX_RANK=' >>"$bt"
                    timeout 60 gdb -batch -nx -p "$p" -ex 'set pagination off' \
                        -ex 'thread apply all bt' </dev/null >>"$bt" 2>&1
                done
                kill -TERM "$tpid" 2>/dev/null
                sleep 2
                for p in $pids "$tpid"; do kill -KILL "$p" 2>/dev/null; done
                wait "$tpid" 2>/dev/null
                rc=hang
                ((hangs++, n_hang[$key]++))
                echo "HANG  $key run $r: backtraces in $bt"
            else
                wait "$tpid"
                rc=$?
                if [ "$rc" != 0 ]; then
                    ((fails++, n_fail[$key]++))
                    echo "FAIL  $key run $r: status $rc, output in $out"
                    tail -5 "$out" | sed 's/^/      /'
                fi
            fi
            ((total++, n_runs[$key]++))
            [ "$rc" = 0 ] && rm -f "$out"
        done
    done
done
stop_load
printf '%-12s %5s %5s %5s\n' config runs hangs fails
for route in ${routes//,/ }; do
    for n in $npes_list; do
        key="$route/$n"
        printf '%-12s %5d %5d %5d\n' "$key" "${n_runs[$key]:-0}" "${n_hang[$key]:-0}" \
            "${n_fail[$key]:-0}"
    done
done
printf '%-12s %5d %5d %5d   (logs: %s)\n' total "$total" "$hangs" "$fails" "$logdir"
[ "$hangs" = 0 ] || exit 1
[ "$fails" = 0 ] || exit 2
exit 0
