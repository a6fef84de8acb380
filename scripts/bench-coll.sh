#!/bin/sh
# bench-coll.sh: collective latency of ofishmem beside Open MPI's OSHMEM (issues #4, #6):
# test/performance/coll_bench (barrier, broadcast, int and double sum, fcollect,
# alltoall over sizes) and perf_barrier at 2, 4 and 8 PEs, the implementations taking
# turns run by run; prints a side-by-side table (best of the rounds) with ratios.
# scripts/bench-compare.sh runs it at its end; it also runs alone.
#
# usage: scripts/bench-coll.sh [-b BUILD_DIR] [-o OUT_DIR] [--no-oshmem]
# Environment: OSHMEM_CC, OSHMEM_RUN (default /usr/bin/oshcc, /usr/bin/oshrun),
#   BENCH_TIMEOUT seconds per run (default 120), BENCH_REPEAT rounds (default 3),
#   COLL_NPES PE counts (default "2 4 8"), COLL_MAX largest size in bytes (default
#   65536), COLL_ITERS iterations per small size (default 200; barriers 10x, sizes of
#   64 KiB and more 1/10), COLL_TABLE_ONLY=1 (print the table of the last run again).
# Both libraries run the same calls: Open MPI 4.1 implements OpenSHMEM 1.4 (no teams),
# so coll_bench is built in its active-set form (shmem_broadcast64, shmem_int_sum_to_all,
# shmem_fcollect64, shmem_alltoall64, shmem_barrier; coll_bench_aset for ofishmem).
# The "ofs team" column is ofishmem's team form (shmem_broadcastmem on
# SHMEM_TEAM_WORLD, ...), the API a 1.5 program uses.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
out=
do_oshmem=1
. "$top/scripts/bench-lib.sh"
bench_args bench-coll 21 "-b:build -o:out --no-oshmem+do_oshmem=0" "$@"
build=$(cd "$build" && pwd) || { echo "bench-coll: no build tree $build" >&2; exit 1; }
out=${out:-$build/bench}
mkdir -p "$out/coll"
out=$(cd "$out/coll" && pwd)
tmo=${BENCH_TIMEOUT:-120}
repeat=${BENCH_REPEAT:-3}
npes_list=${COLL_NPES:-2 4 8}
maxb=${COLL_MAX:-65536}
iters=${COLL_ITERS:-200}
osh_cc=${OSHMEM_CC:-/usr/bin/oshcc}
osh_run=${OSHMEM_RUN:-/usr/bin/oshrun}
perf=$top/test/performance
say() { echo "bench-coll: $*" >&2; }

if [ -z "${COLL_TABLE_ONLY:-}" ]; then
rm -f "$out"/*.csv "$out"/*.log
say "building coll_bench in $build"
make -C "$build" -s test/performance/coll_bench test/performance/coll_bench_aset \
    test/performance/perf_barrier >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }

osh=
if [ $do_oshmem = 1 ] && [ -x "$osh_cc" ] && [ -x "$osh_run" ]; then
    mkdir -p "$out/oshmem-bin"
    if "$osh_cc" -O2 -o "$out/oshmem-bin/coll_bench" "$perf/coll_bench.c" >"$out/oshmem-build.log" 2>&1 &&
        "$osh_cc" -O2 -I"$perf" -o "$out/oshmem-bin/perf_barrier" "$perf/perf_barrier.c" \
            >>"$out/oshmem-build.log" 2>&1; then
        # see bench-compare.sh: shared memory only, no osc/rdma (crash in shmem_finalize)
        export UCX_TLS=${UCX_TLS:-self,sm}
        osh="$osh_run --oversubscribe --mca osc ^rdma -x UCX_TLS"
        [ "$(id -u)" = 0 ] && osh="$osh --allow-run-as-root"
    else
        say "building coll_bench with $osh_cc failed (see $out/oshmem-build.log)"
    fi
elif [ $do_oshmem = 1 ]; then
    say "Open MPI OSHMEM not found ($osh_cc, $osh_run): Debian package openmpi-bin"
fi

# one_run NAME LAUNCHER COLL_BENCH PERF_BARRIER NPES: rows test,bytes,npes,usec to NAME.csv
one_run() {
    name=$1 run=$2 cb=$3 pb=$4 n=$5
    say "$name: coll_bench on $n PEs"
    rm -f "$out/run.csv"
    timeout "$tmo" $run -np "$n" "$cb" --csv "$out/run.csv" "$maxb" "$iters" \
        >>"$out/$name.log" 2>&1 || say "$name: coll_bench on $n PEs exited with status $?"
    [ -f "$out/run.csv" ] && tail -n +2 "$out/run.csv" >>"$out/$name.csv"
    [ -n "$pb" ] || return 0
    rm -f "$out/run.csv"
    timeout "$tmo" $run -np "$n" "$pb" --iters $((iters * 25)) --csv "$out/run.csv" \
        >>"$out/$name.log" 2>&1 || say "$name: perf_barrier on $n PEs exited with status $?"
    [ -f "$out/run.csv" ] && awk -F, 'NR > 1 && $1 == "barrier_all" { print "perf_barrier," $2 "," $3 "," $5 }' \
        "$out/run.csv" >>"$out/$name.csv"
    return 0
}

bin=$build/test/performance
r=1
while [ $r -le "$repeat" ]; do
    for n in $npes_list; do
        say "round $r of $repeat, $n PEs"
        one_run ofs "$build/scripts/oshrun" "$bin/coll_bench_aset" "$bin/perf_barrier" "$n"
        [ -n "$osh" ] && one_run osh "$osh" "$out/oshmem-bin/coll_bench" \
            "$out/oshmem-bin/perf_barrier" "$n"
        one_run team "$build/scripts/oshrun" "$bin/coll_bench" "" "$n"
    done
    r=$((r + 1))
done
fi

# table: best (smallest) time of the rounds; ofs/osh < 1 means ofishmem is faster
touch "$out/osh.csv" "$out/team.csv"
awk -F, -v rounds="$repeat" '
FNR == 1 { f++ }
function best(arr, k, v) { if (!(k in arr) || v < arr[k]) arr[k] = v }
{ k = $1 "," $2 "," $3 }
f == 1 { if (!(k in ofs)) order[++n] = k; best(ofs, k, $4); next }
f == 2 { best(osh, k, $4); next }
f == 3 { kk = ($1 == "team_sync" ? "barrier_aset" : $1) "," $2 "," $3; best(team, kk, $4); next }
END {
    printf "collectives, usec per call, best of %d rounds (ofs/osh < 1: ofishmem faster)\n", rounds
    printf "%-14s %7s %4s | %10s %10s %7s | %10s\n", "test", "bytes", "npes", "ofs", "osh", "ofs/osh", "ofs team"
    # by PE count, then in the order the benchmark ran
    for (p = 1; p <= 1024; p++) for (i = 1; i <= n; i++) {
        k = order[i]; split(k, a, ",")
        if (a[3] != p) continue
        printf "%-14s %7s %4s | %10.2f", a[1], a[2], a[3], ofs[k]
        if (k in osh) printf " %10.2f %7.2f", osh[k], (osh[k] > 0 ? ofs[k] / osh[k] : 0)
        else printf " %10s %7s", "-", "-"
        if (k in team) printf " | %10.2f\n", team[k]; else printf " | %10s\n", "-"
    }
}' "$out/ofs.csv" "$out/osh.csv" "$out/team.csv" | tee "$out/table.txt"
say "table: $out/table.txt"
