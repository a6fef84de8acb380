#!/bin/sh
# bench-compare.sh: run the performance suite (test/performance) against ofishmem and,
# when it is installed and runs, against Open MPI's OSHMEM; print both side by side with
# ratios to each other and to the machine's limits (cache-line round trip, memcpy), and
# draw PNG plots of latency and bandwidth against message size with gnuplot.
#
# usage: scripts/bench-compare.sh [-b BUILD_DIR] [-o OUT_DIR] [--no-oshmem] [--no-plots]
#   BUILD_DIR  a configured ofishmem build tree (default: _build next to this script's tree)
#   OUT_DIR    where CSV files, the table and PNGs go (default: BUILD_DIR/bench)
# Environment: OSHMEM_CC (default /usr/bin/oshcc), OSHMEM_RUN (default /usr/bin/oshrun),
#   BENCH_TIMEOUT seconds per run (default 120), BENCH_REPEAT rounds (default 3: every
#   number is the best of the rounds; the implementations take turns so that both see
#   the same machine load), BENCH_OFI_PROVIDER provider of the "ofishmem (OFI route)"
#   column (default shm; "none" leaves the column out): the same suite with
#   SHMEM_LOCAL_TRANSPORT=ofi.  scripts/ofi-compare.sh compares that route with raw
#   libfabric.
# Debian packages: gnuplot-nox (plots; installed here with apt-get when missing and root),
#   openmpi-bin + libopenmpi-dev (Open MPI's OSHMEM: libopenmpi-dev ships shmem.h).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
out=
do_oshmem=1
do_plots=1
while [ $# -gt 0 ]; do
    case "$1" in
        -b) build=$2; shift ;;
        -o) out=$2; shift ;;
        --no-oshmem) do_oshmem=0 ;;
        --no-plots) do_plots=0 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "bench-compare: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
build=$(cd "$build" && pwd) || { echo "bench-compare: no build tree $build (run configure there first)" >&2; exit 1; }
out=${out:-$build/bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmo=${BENCH_TIMEOUT:-120}
osh_cc=${OSHMEM_CC:-/usr/bin/oshcc}
osh_run=${OSHMEM_RUN:-/usr/bin/oshrun}
perf=$top/test/performance
progs="perf_lat perf_bw perf_rate perf_barrier"
rm -f "$out"/*.csv "$out"/*.log

say() { echo "bench-compare: $*" >&2; }

# --- ofishmem -------------------------------------------------------------------------
say "building the suite in $build"
make -C "$build" -s perf >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
repeat=${BENCH_REPEAT:-3}

ofi_prov=${BENCH_OFI_PROVIDER:-shm}

# run_suite NAME LAUNCHER BINDIR [ENVIRONMENT]
run_suite() {
    name=$1 run=$2 dir=$3 envs=${4:-}
    for p in perf_lat perf_bw perf_rate; do
        say "$name: $p on 2 PEs"
        env $envs timeout "$tmo" $run -np 2 "$dir/$p" --csv "$out/$name.csv" >>"$out/$name.log" 2>&1 ||
            say "$name: $p exited with status $? (see $out/$name.log)"
    done
    for n in 2 4; do
        say "$name: perf_barrier on $n PEs"
        env $envs timeout "$tmo" $run -np $n "$dir/perf_barrier" --iters 5000 --csv "$out/$name.csv" \
            >>"$out/$name.log" 2>&1 || say "$name: perf_barrier exited with status $?"
    done
}

# --- Open MPI OSHMEM: can it be built here? --------------------------------------------
have_oshmem=0
osh=
if [ $do_oshmem = 1 ]; then
    if [ ! -x "$osh_cc" ] || [ ! -x "$osh_run" ]; then
        say "Open MPI OSHMEM not found ($osh_cc, $osh_run): Debian package openmpi-bin"
    else
        printf '#include <shmem.h>\nint main(void){return 0;}\n' >"$out/probe.c"
        if ! "$osh_cc" -c -o "$out/probe.o" "$out/probe.c" 2>/dev/null; then
            if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
                say "OSHMEM's shmem.h missing: installing libopenmpi-dev"
                DEBIAN_FRONTEND=noninteractive apt-get install -y -q libopenmpi-dev >"$out/apt.log" 2>&1
            else
                say "OSHMEM's shmem.h missing: install Debian package libopenmpi-dev"
            fi
        fi
        mkdir -p "$out/oshmem-bin"
        ok=1
        for p in perf_machine $progs; do
            extra=
            [ $p = perf_machine ] && extra=-lpthread
            "$osh_cc" -O2 -I"$perf" -o "$out/oshmem-bin/$p" "$perf/$p.c" $extra \
                >>"$out/oshmem-build.log" 2>&1 || ok=0
        done
        if [ $ok = 1 ]; then
            # Open MPI's launcher: oversubscribe on small machines, root in containers;
            # UCX over shared memory only (no network needed).  Open MPI 4.1.4 (Debian 12)
            # crashes in shmem_finalize (SIGSEGV in opal_mem_hooks_release_hook, called
            # from ompi_osc_base_finalize/osc_rdma) unless the rdma one-sided component
            # is left out; OSHMEM does not need it.
            export UCX_TLS=${UCX_TLS:-self,sm}
            osh="$osh_run --oversubscribe --mca osc ^rdma -x UCX_TLS"
            [ "$(id -u)" = 0 ] && osh="$osh --allow-run-as-root"
        else
            say "building the suite with $osh_cc failed (see $out/oshmem-build.log)"
        fi
    fi
fi

# --- the runs: machine limits, ofishmem, OSHMEM, in turn -------------------------------
r=1
while [ $r -le "$repeat" ]; do
    say "round $r of $repeat"
    "$build/test/performance/perf_machine" --csv "$out/machine.csv" >>"$out/machine.log" 2>&1 ||
        { cat "$out/machine.log"; exit 1; }
    run_suite ofishmem "$build/scripts/oshrun" "$build/test/performance"
    [ "$ofi_prov" = none ] || run_suite ofishmem-ofi "$build/scripts/oshrun" "$build/test/performance" \
        "SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER=$ofi_prov"
    [ -n "$osh" ] && run_suite oshmem "$osh" "$out/oshmem-bin"
    r=$((r + 1))
done
[ -s "$out/oshmem.csv" ] && have_oshmem=1
have_ofi=0
[ -s "$out/ofishmem-ofi.csv" ] && have_ofi=1

# --- table ----------------------------------------------------------------------------
# Columns: test bytes npes | ofishmem usec, MB/s | ofishmem OFI route usec, MB/s |
# oshmem usec, MB/s, ofishmem/oshmem time | machine reference: ofishmem time / cache-line
# RTT (latencies) or ofishmem MB/s / memcpy MB/s (bandwidth).
awk -F, -v have="$have_oshmem" -v have_ofi="$have_ofi" -v ofi_prov="$ofi_prov" -v rounds="$repeat" '
FNR == 1 { next }
# best (smallest time) of the rounds; MB/s follows from it
function best(arr, k, v) { if (!(k in arr) || v < arr[k]) arr[k] = v }
FILENAME ~ /\/machine\.csv$/ { if ($1 == "cacheline_rtt") best(mt, "rtt", $5); else if ($1 == "memcpy") best(mt, $2, $5); next }
FILENAME ~ /\/ofishmem\.csv$/ { k = $1 "," $2 "," $3; if (!(k in ou)) order[++n] = k; best(ou, k, $5); next }
FILENAME ~ /\/ofishmem-ofi\.csv$/ { k = $1 "," $2 "," $3; best(fu, k, $5); next }
FILENAME ~ /\/oshmem\.csv$/ { k = $1 "," $2 "," $3; best(su, k, $5); next }
END {
    rtt = mt["rtt"]
    for (k in mt) if (k != "rtt") mc[k] = k / mt[k]
    for (k in ou) { split(k, a, ","); ob[k] = ou[k] > 0 ? a[2] / ou[k] : 0 }
    for (k in su) { split(k, a, ","); sb[k] = su[k] > 0 ? a[2] / su[k] : 0 }
    for (k in fu) { split(k, a, ","); fb[k] = fu[k] > 0 ? a[2] / fu[k] : 0 }
}
END {
    printf "best of %d rounds\n", rounds
    printf "cache-line round trip: %.3f usec; memcpy 1 MiB: %.0f MB/s\n\n", rtt, mc[1048576]
    if (have_ofi) printf "ofi = ofishmem with every PE on the OFI route (SHMEM_LOCAL_TRANSPORT=ofi, provider %s)\n\n", ofi_prov
    printf "%-18s %8s %4s | %10s %10s |", "test", "bytes", "npes", "ofs usec", "ofs MB/s"
    if (have_ofi) printf " %10s %10s |", "ofi usec", "ofi MB/s"
    if (have) printf " %10s %10s %8s |", "osh usec", "osh MB/s", "ofs/osh"
    printf " %s\n", "vs machine"
    for (i = 1; i <= n; i++) {
        k = order[i]; split(k, a, ",")
        printf "%-18s %8s %4s | %10.3f %10.0f |", a[1], a[2], a[3], ou[k], ob[k]
        if (have_ofi) {
            if (k in fu) printf " %10.3f %10.0f |", fu[k], fb[k]
            else printf " %10s %10s |", "-", "-"
        }
        if (have) {
            if (k in su) printf " %10.3f %10.0f %8.2f |", su[k], sb[k], (su[k] > 0 ? ou[k] / su[k] : 0)
            else printf " %10s %10s %8s |", "-", "-", "-"
        }
        if (a[1] ~ /_bw$/ && (a[2] in mc)) printf " %5.0f%% of memcpy", 100 * ob[k] / mc[a[2]]
        else if (a[1] !~ /rate|barrier/ && rtt > 0) printf " %5.2fx cache-line RTT", ou[k] / rtt
        printf "\n"
    }
}' "$out/machine.csv" "$out/ofishmem.csv" $( [ $have_ofi = 1 ] && echo "$out/ofishmem-ofi.csv") \
    $( [ $have_oshmem = 1 ] && echo "$out/oshmem.csv") \
    | tee "$out/table.txt"
[ $have_oshmem = 1 ] || echo "(Open MPI OSHMEM: not measured)" | tee -a "$out/table.txt"

# --- plots ----------------------------------------------------------------------------
( # a subshell: its exits skip only the plots, not the collectives below
[ $do_plots = 1 ] || exit 0
if ! command -v gnuplot >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing gnuplot-nox"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox >>"$out/apt.log" 2>&1
    fi
    command -v gnuplot >/dev/null || { say "gnuplot missing (Debian: gnuplot-nox): no plots"; exit 0; }
fi
for impl in ofishmem oshmem machine; do
    [ -s "$out/$impl.csv" ] || continue
    for t in put_bw get_bw memcpy; do
        # the 8-byte latencies of perf_lat start the put/get curves
        awk -F, -v t=$t '($1 == t && $2 >= 1024) || (t == "put_bw" && $1 == "put8_quiet") ||
                         (t == "get_bw" && $1 == "get8") || (t == "memcpy" && $2 >= 8) {
                if (!($2 in b) || $5 < b[$2]) b[$2] = $5 }
            END { for (s in b) print s, b[s], s / b[s] }' "$out/$impl.csv" | sort -n >"$out/$impl.$t.dat"
    done
done
plot_lines() { # column, title suffix
    sep=
    for impl in ofishmem oshmem; do
        for t in put_bw get_bw; do
            f=$out/$impl.$t.dat
            [ -s "$f" ] || continue
            printf '%s"%s" using 1:%s with linespoints title "%s %s"' "$sep" "$f" "$1" "$impl" "${t%_bw}"
            sep=", "
        done
    done
    if [ "$1" = 3 ] && [ -s "$out/machine.memcpy.dat" ]; then
        printf '%s"%s" using 1:3 with lines dashtype 2 title "memcpy (1 core)"' "$sep" "$out/machine.memcpy.dat"
    fi
}
gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set logscale x 2
set format x "%.0b%BB"
set key outside bottom center horizontal
set xlabel "message size (bytes)"
set grid
set output "$out/latency.png"
set logscale y 10
set ylabel "time per blocking operation (usec)"
set title "put/get time vs message size (PE 0 -> PE 1, same node)"
plot $(plot_lines 2)
set output "$out/bandwidth.png"
unset logscale y
set xrange [1024:*]
set ylabel "bandwidth (MB/s)"
set title "put/get bandwidth vs message size (same node)"
plot $(plot_lines 3)
GP
say "plots: $out/latency.png $out/bandwidth.png; table: $out/table.txt"
)

# --- collectives (issues #4, #6): scripts/bench-coll.sh, same build and OSHMEM --------
coll_args="-b $build -o $out"
[ $do_oshmem = 1 ] || coll_args="$coll_args --no-oshmem"
"$top/scripts/bench-coll.sh" $coll_args
