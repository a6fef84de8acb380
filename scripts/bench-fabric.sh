#!/bin/sh
# bench-fabric.sh: OSU-style collective latency (test/performance/coll_bench: each call
# timed alone, a barrier between calls, mean over iterations and PEs) of ofishmem on
# the shared-memory route, on the OFI route (every PE on libfabric) and across two
# simulated nodes, beside Open MPI's OSHMEM, the runs taking turns; best of the rounds,
# ratios, and with --png PNG plots (issue #30, docs/performance.md).
#
# usage: scripts/bench-fabric.sh [-b BUILD_DIR] [-B BASE_BUILD_DIR] [-o OUT_DIR] [--no-oshmem]
#                                [--png PNG_DIR]
#   -B: a build of an older commit, run the same way (columns "base-..."): before/after.
#   --png: one plot per collective at the largest PE count, time against size, in PNG_DIR
#   (scripts/plot-bench.py: python3 alone, no plotting package).
# Environment: OSHMEM_CC, OSHMEM_RUN (default /usr/bin/oshcc, /usr/bin/oshrun),
#   BENCH_REPEAT rounds (default 3), BENCH_TIMEOUT seconds per run (default 300),
#   FABRIC_NPES PE counts (default "2 4 8"), COLL_MAX largest size (default 1048576),
#   COLL_ITERS iterations per small size (default 100; sizes of 64 KiB and more 1/10),
#   OFI_PROVIDER (default "tcp;ofi_rxm"), FABRIC_TABLE_ONLY=1 (table of the last run),
#   COLL_ONLY names (comma-separated, e.g. int_sum,double_sum: only those collectives).
# Routes: shm = SHMEM_LOCAL_TRANSPORT=shm; ofi = SHMEM_LOCAL_TRANSPORT=ofi with
#   SHMEM_OFI_PROVIDER; sim = SHMEM_SIM_PES_PER_NODE=npes/2 (two simulated nodes, 4 PEs
#   each at 8 PEs; the default shm route inside a node, the provider between them).
# ofishmem runs coll_bench in its team form (shmem_broadcastmem on SHMEM_TEAM_WORLD...,
#   the API of a 1.5 program and the one the node-aware algorithms serve); Open MPI 4.1
#   has no teams, so OSHMEM runs the active-set form (shmem_broadcast64...) of the same
#   source: "osh" with its default transport, "osh-tcp" with everything on tcp: its RMA
#   (spml ucx) with UCX_TLS=self,tcp, and its collectives (scoll mpi, which run over the
#   MPI layer's transports, shared memory by default) with --mca pml ob1 --mca btl self,tcp.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
base=
out=
do_oshmem=1
png=
. "$top/scripts/bench-lib.sh"
bench_args bench-fabric 27 "-b:build -B:base -o:out --no-oshmem+do_oshmem=0 --png:png" "$@"
build=$(cd "$build" && pwd) || { echo "bench-fabric: no build tree $build" >&2; exit 1; }
[ -z "$base" ] || base=$(cd "$base" && pwd) || exit 1
out=${out:-$build/bench}
mkdir -p "$out/fabric"
out=$(cd "$out/fabric" && pwd)
tmo=${BENCH_TIMEOUT:-300}
repeat=${BENCH_REPEAT:-3}
npes_list=${FABRIC_NPES:-2 4 8}
maxb=${COLL_MAX:-1048576}
iters=${COLL_ITERS:-100}
prov=${OFI_PROVIDER:-tcp;ofi_rxm}
osh_cc=${OSHMEM_CC:-/usr/bin/oshcc}
osh_run=${OSHMEM_RUN:-/usr/bin/oshrun}
say() { echo "bench-fabric: $*" >&2; }

if [ -z "${FABRIC_TABLE_ONLY:-}" ]; then
rm -f "$out"/*.csv "$out"/*.log "$out"/*.png
for b in "$build" $base; do
    say "building coll_bench in $b"
    make -C "$b" -s test/performance/coll_bench >>"$out/build.log" 2>&1 ||
        { cat "$out/build.log"; exit 1; }
done
osh=
if [ $do_oshmem = 1 ] && [ -x "$osh_cc" ] && [ -x "$osh_run" ]; then
    if "$osh_cc" -O2 -o "$out/coll_bench_oshmem" "$top/test/performance/coll_bench.c" \
        >"$out/oshmem-build.log" 2>&1; then
        # no osc/rdma: it crashes in shmem_finalize here (bench-compare.sh)
        osh="$osh_run --oversubscribe --mca osc ^rdma"
        [ "$(id -u)" = 0 ] && osh="$osh --allow-run-as-root"
    else
        say "building coll_bench with $osh_cc failed (see $out/oshmem-build.log)"
    fi
elif [ $do_oshmem = 1 ]; then
    say "Open MPI OSHMEM not found ($osh_cc, $osh_run): Debian package openmpi-bin"
fi

# one_run NAME NPES COMMAND...: rows test,bytes,npes,usec appended to NAME.csv
one_run() {
    name=$1 n=$2
    shift 2
    say "$name on $n PEs"
    rm -f "$out/run.csv"
    timeout "$tmo" "$@" --csv "$out/run.csv" ${COLL_ONLY:+--only "$COLL_ONLY"} "$maxb" "$iters" \
        >>"$out/$name.log" 2>&1 ||
        say "$name on $n PEs exited with status $?"
    [ -f "$out/run.csv" ] && tail -n +2 "$out/run.csv" >>"$out/$name.csv"
    return 0
}

# ofs_runs PREFIX BUILD NPES: the three routes of one build
ofs_runs() {
    p=$1 b=$2 n=$3 run="$2/scripts/oshrun -n $3 $2/test/performance/coll_bench"
    one_run "${p}shm" "$n" env SHMEM_LOCAL_TRANSPORT=shm $run
    one_run "${p}ofi" "$n" env SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER="$prov" $run
    [ "$n" -ge 4 ] && one_run "${p}sim" "$n" env SHMEM_SIM_PES_PER_NODE=$((n / 2)) $run
    return 0
}

r=1
while [ $r -le "$repeat" ]; do
    for n in $npes_list; do
        say "round $r of $repeat, $n PEs"
        # the base build goes first in even rounds: neither side always runs first
        [ -n "$base" ] && [ $((r % 2)) = 0 ] && ofs_runs base- "$base" "$n"
        ofs_runs "" "$build" "$n"
        [ -n "$osh" ] && one_run osh "$n" $osh -np "$n" "$out/coll_bench_oshmem"
        [ -n "$base" ] && [ $((r % 2)) = 1 ] && ofs_runs base- "$base" "$n"
        [ -n "$osh" ] && one_run osh-tcp "$n" env UCX_TLS=self,tcp $osh -np "$n" -x UCX_TLS \
            --mca pml ob1 --mca btl self,tcp "$out/coll_bench_oshmem"
    done
    r=$((r + 1))
done
fi

# table: best (smallest) time of the rounds per configuration, then ratios
cols="shm ofi sim osh osh-tcp base-shm base-ofi base-sim"
for c in $cols; do touch "$out/$c.csv"; done
awk -F, -v rounds="$repeat" -v cols="$cols" '
BEGIN { nc = split(cols, cn, " ") }
FNR == 1 { # which column: by name (an empty file has no first line)
    for (i = 1; i <= nc; i++) if (FILENAME ~ ("/" cn[i] "\\.csv$")) f = i
}
{
    t = $1
    if (t == "barrier_aset") t = "team_sync" # the barrier of the two forms
    k = t "," $2 "," $3
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    if (!((f, k) in v) || $4 < v[f, k]) v[f, k] = $4
}
function cell(i, k) { return ((i, k) in v) ? sprintf("%9.2f", v[i, k]) : sprintf("%9s", "-") }
function ratio(i, j, k) {
    return ((i, k) in v && (j, k) in v && v[j, k] > 0) ? sprintf("%6.2f", v[i, k] / v[j, k]) \
                                                       : sprintf("%6s", "-")
}
END {
    printf "usec per call, OSU-style, best of %d rounds; ratios < 1: the first is faster\n", rounds
    printf "%-11s %7s %2s |", "test", "bytes", "np"
    for (i = 1; i <= nc; i++) printf " %9s", cn[i]
    printf " | %6s %6s %6s | %6s %6s %6s\n", "shm/os", "ofi/ot", "sim/ot", "shm/b", "ofi/b", "sim/b"
    for (p = 1; p <= 1024; p++) for (o = 1; o <= n; o++) {
        k = order[o]; split(k, a, ",")
        if (a[3] != p) continue
        printf "%-11s %7s %2s |", a[1], a[2], a[3]
        for (i = 1; i <= nc; i++) printf " %s", cell(i, k)
        printf " | %s %s %s | %s %s %s\n", ratio(1, 4, k), ratio(2, 5, k), ratio(3, 5, k),
            ratio(1, 6, k), ratio(2, 7, k), ratio(3, 8, k)
    }
}' $(for c in $cols; do echo "$out/$c.csv"; done) | tee "$out/table.txt"
say "table: $out/table.txt"

# plots: one PNG per collective at the largest PE count, time against size
if [ -n "$png" ]; then
    np=$(echo $npes_list | awk '{ print $NF }')
    csvs=
    for c in $cols; do [ -s "$out/$c.csv" ] && csvs="$csvs $out/$c.csv"; done
    python3 "$top/scripts/plot-bench.py" -n "$np" -o "$png" --note "best of $repeat" $csvs
fi
