#!/bin/bash
# bench-msg.sh: msg_bench (shmemx_send family) against its MPI twin, side by side.
# Run from the build directory after `make perf`.  Builds test/performance/msg_bench_mpi
# with mpicc (skips MPI when mpicc is missing), then runs the two alternately ROUNDS
# times and keeps the best figure of each (lowest latency, highest bandwidth and rate),
# so that a loaded machine hurts both alike.  Prints a markdown table with ratios and,
# per figure, in how many rounds the ratio of that round met issue 28's target
# (latency <= 1.2x MPI's, bandwidth and rate >= MPI's).
# usage: scripts/bench-msg.sh [-r ROUNDS] [-n RATE_PES] [--sym] [--max BYTES] [--bind]
#                             [--only lat|bw|rate] [--reps R] [--iters N] [--keep DIR]
# --bind: one core per PE in lat and bw (--bind-to core on both launchers).
# --reps, --iters: passed to msg_bench (each size timed R times, the best kept; N steps).
# --keep: leave the per-round figures in DIR/shm and DIR/mpi ("round test bytes value").
# Environment for the shmemx side: SHMEM_* as usual (e.g. SHMEM_MSG_EAGER_SIZE).
set -u
rounds=5 npes_rate=4 sym="" max=$((4 << 20)) bind="" only="lat bw rate" extra="" keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        -r) rounds=$2; shift ;;
        -n) npes_rate=$2; shift ;;
        --sym) sym=--sym ;;
        --max) max=$2; shift ;;
        --bind) bind="--bind-to core" ;;
        --only) only=$2; shift ;;
        --reps|--iters) extra="$extra $1 $2"; shift ;;
        --keep) keep=$2; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "bench-msg: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
srcdir=$(cd "$(dirname "$0")/.." && pwd)
oshrun=${OSHRUN:-scripts/oshrun}
[ -x test/performance/msg_bench ] || make test/performance/msg_bench >/dev/null || exit 1
mpi=""
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
    mpicc -O2 -I"$srcdir/test/performance" -o test/performance/msg_bench_mpi \
        "$srcdir/test/performance/msg_bench_mpi.c" && mpi=test/performance/msg_bench_mpi
fi
[ -n "$mpi" ] || echo "bench-msg: mpicc or mpirun missing: shmemx figures only" >&2
mpiflags="--oversubscribe"
[ "$(id -u)" = 0 ] && mpiflags="$mpiflags --allow-run-as-root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
want() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }
# each output line gets its round number in front
run() { # side npes test [args]
    side=$1 np=$2 t=$3
    shift 3
    want "$t" || return 0
    b=""
    [ "$np" = 2 ] && b=$bind # the rate test runs more PEs than cores
    if [ "$side" = shm ]; then
        # shellcheck disable=SC2086
        "$oshrun" -n "$np" $b test/performance/msg_bench "$t" "$@" $extra 2>/dev/null
    else
        # shellcheck disable=SC2086
        mpirun $mpiflags $b -n "$np" "$mpi" "$t" "$@" $extra 2>/dev/null
    fi | sed "s/^/$r /" >>"$tmp/$side"
}
for r in $(seq "$rounds"); do
    run shm 2 lat $sym --max "$max"
    run shm 2 bw $sym --max "$max"
    run shm "$npes_rate" rate
    if [ -n "$mpi" ]; then
        run mpi 2 lat --max "$max"
        run mpi 2 bw --max "$max"
        run mpi "$npes_rate" rate
    fi
done
touch "$tmp/shm" "$tmp/mpi"
[ -n "$keep" ] && mkdir -p "$keep" && cp "$tmp/shm" "$tmp/mpi" "$keep/"
awk -v rounds="$rounds" '
FNR == 1 { side = (FILENAME ~ /shm$/) ? "s" : "m" }
$2 == "lat" || $2 == "bw" || $2 == "rate" {
    k = $2 " " $3
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    v = $4 + 0; b = side " " k
    if (!(b in best) || ($2 == "lat" ? v < best[b] : v > best[b])) best[b] = v
    val[side " " $1 " " k] = v
}
END {
    printf "best of %d alternating rounds; met: rounds whose own ratio met the target\n\n", rounds
    printf "| test | bytes (rate: PEs) | shmemx | MPI | shmemx / MPI | met |\n|---|---|---|---|---|---|\n"
    for (i = 1; i <= n; i++) {
        split(order[i], w, " ")
        unit = w[1] == "lat" ? " us" : (w[1] == "bw" ? " MB/s" : " Mmsg/s")
        s = best["s " order[i]]; m = ("m " order[i]) in best ? best["m " order[i]] : 0
        r = m > 0 ? sprintf("%.2f", s / m) : "-"
        met = 0; both = 0
        for (q = 1; q <= rounds; q++) {
            ks = "s " q " " order[i]; km = "m " q " " order[i]
            if (!(ks in val) || !(km in val) || val[km] <= 0) continue
            both++
            if (w[1] == "lat" ? val[ks] <= 1.2 * val[km] : val[ks] >= val[km]) met++
        }
        printf "| %s | %s | %.3g%s | %s | %s | %s |\n", w[1], w[2], s, unit, \
            (m > 0 ? sprintf("%.3g%s", m, unit) : "-"), r, (both ? met "/" both : "-")
    }
}' "$tmp/shm" "$tmp/mpi"
