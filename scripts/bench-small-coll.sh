#!/bin/sh
# bench-small-coll.sh: small collectives on one node, OSU-style (test/performance/
# coll_bench: each call timed alone, shmem_barrier_all between calls, mean over
# iterations and PEs), ofishmem on the shm route against Open MPI's OSHMEM, the runs
# taking turns (OSHMEM first in even rounds); per cell the best of the rounds, the
# ratio to OSHMEM's best, the worst round's ratio and how many rounds ofishmem won
# (issue #30, docs/performance.md "Small collectives on one node, OSU-style").
#
# usage: scripts/bench-small-coll.sh [-b BUILD_DIR] [-o OUT_DIR] [LABEL=VARS ...]
#   LABEL=VARS: an extra ofishmem configuration, e.g.
#   before="SHMEM_BCAST_ALGORITHM=shm SHMEM_REDUCE_ALGORITHM=recursive_doubling"
# Environment: BENCH_REPEAT rounds (default 5), FABRIC_NPES PE counts (default "2 4 8"),
#   COLL_MAX largest size (default 64), COLL_ITERS iterations (default 300),
#   OSHMEM_CC, OSHMEM_RUN (default /usr/bin/oshcc, /usr/bin/oshrun), BENCH_TIMEOUT (300).
# shellcheck disable=SC2086 # $osh and VARS are lists of words
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
out=
. "$top/scripts/bench-lib.sh"
bench_stop='*=*' # LABEL=VARS words follow the options
bench_args bench-small-coll 14 "-b:build -o:out" "$@"
shift $bench_used
build=$(cd "$build" && pwd) || { echo "bench-small-coll: no build tree $build" >&2; exit 1; }
out=${out:-$build/bench/small-coll}
mkdir -p "$out" && out=$(cd "$out" && pwd)
repeat=${BENCH_REPEAT:-5}
npes_list=${FABRIC_NPES:-2 4 8}
maxb=${COLL_MAX:-64}
iters=${COLL_ITERS:-300}
tmo=${BENCH_TIMEOUT:-300}
osh_cc=${OSHMEM_CC:-/usr/bin/oshcc}
osh_run=${OSHMEM_RUN:-/usr/bin/oshrun}
say() { echo "bench-small-coll: $*" >&2; }

make -C "$build" -s test/performance/coll_bench >"$out/build.log" 2>&1 ||
    { cat "$out/build.log"; exit 1; }
osh=
if [ -x "$osh_cc" ] && [ -x "$osh_run" ] &&
    "$osh_cc" -O2 -o "$out/coll_bench_oshmem" "$top/test/performance/coll_bench.c" \
        >"$out/oshmem-build.log" 2>&1; then
    osh="$osh_run --oversubscribe --mca osc ^rdma" # osc/rdma crashes in finalize (4.1)
    [ "$(id -u)" = 0 ] && osh="$osh --allow-run-as-root"
else
    say "no usable Open MPI OSHMEM ($osh_cc, $osh_run): ofishmem only"
fi

rm -f "$out/all.csv"
# one LABEL ROUND COMMAND...: rows label,round,test,bytes,npes,usec
one() {
    lab=$1 r=$2
    shift 2
    rm -f "$out/run.csv"
    timeout "$tmo" "$@" --csv "$out/run.csv" "$maxb" "$iters" >>"$out/$lab.log" 2>&1 ||
        say "$lab round $r exited with status $?"
    [ -f "$out/run.csv" ] && sed 1d "$out/run.csv" | sed "s/^/$lab,$r,/" >>"$out/all.csv"
    return 0
}
r=1
while [ "$r" -le "$repeat" ]; do
    for n in $npes_list; do
        say "round $r of $repeat, $n PEs"
        [ -n "$osh" ] && [ $((r % 2)) = 0 ] && one osh "$r" $osh -np "$n" "$out/coll_bench_oshmem"
        one ofs "$r" env SHMEM_LOCAL_TRANSPORT=shm "$build/scripts/oshrun" -n "$n" \
            "$build/test/performance/coll_bench"
        for spec in "$@"; do
            one "${spec%%=*}" "$r" env SHMEM_LOCAL_TRANSPORT=shm ${spec#*=} \
                "$build/scripts/oshrun" -n "$n" "$build/test/performance/coll_bench"
        done
        [ -n "$osh" ] && [ $((r % 2)) = 1 ] && one osh "$r" $osh -np "$n" "$out/coll_bench_oshmem"
    done
    r=$((r + 1))
done

awk -F, '
$3 == "barrier_aset" { $3 = "team_sync" }
$3 == "double_sum" || $3 == "alltoall" || $3 == "sync_all" { next }
{
    k = $3 " " $4 " " $5
    if (!(k in seen)) { seen[k] = 1; ord[++nk] = k }
    if (!($1 in labs)) { labs[$1] = 1; lab[++nl] = $1 }
    v[$1, $2, k] = $6
    if (!(($1, k) in best) || $6 < best[$1, k]) best[$1, k] = $6
    if ($2 > maxr) maxr = $2
}
END {
    printf "%-20s", "usec (best)"
    for (i = 1; i <= nl; i++) printf " %9s", lab[i]
    for (i = 1; i <= nl; i++) if (lab[i] != "osh") printf "  %-22s", lab[i] "/osh best|worst|won"
    printf "\n"
    for (o = 1; o <= nk; o++) {
        k = ord[o]
        printf "%-20s", k
        for (i = 1; i <= nl; i++) printf " %9.2f", best[lab[i], k]
        for (i = 1; i <= nl; i++) {
            l = lab[i]
            if (l == "osh" || !(("osh", k) in best)) continue
            w = 0; won = 0; cnt = 0
            for (r = 1; r <= maxr; r++)
                if ((l, r, k) in v && ("osh", r, k) in v && v["osh", r, k] > 0) {
                    cnt++; q = v[l, r, k] / v["osh", r, k]
                    if (q > w) w = q
                    if (q <= 1) won++
                }
            printf "  %5.2f|%5.2f|%d/%-10d", best[l, k] / best["osh", k], w, won, cnt
        }
        printf "\n"
    }
}' "$out/all.csv" | tee "$out/table.txt"
say "table: $out/table.txt (rows: $out/all.csv)"
