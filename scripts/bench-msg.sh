#!/bin/bash
# bench-msg.sh: msg_bench (shmemx_send family) against its MPI twin, side by side.
# Run from the build directory after `make perf`.  Builds test/performance/msg_bench_mpi
# with mpicc (skips MPI when mpicc is missing), then runs the two alternately ROUNDS
# times and keeps the best figure of each (lowest latency, highest bandwidth and rate),
# so that a loaded machine hurts both alike.  Prints a markdown table with ratios.
# usage: scripts/bench-msg.sh [-r ROUNDS] [-n RATE_PES] [--sym] [--max BYTES] [-- ENV=V ...]
# Environment for the shmemx side: SHMEM_* as usual (e.g. SHMEM_MSG_EAGER_SIZE).
set -u
rounds=5 npes_rate=4 sym="" max=$((4 << 20))
while [ $# -gt 0 ]; do
    case "$1" in
        -r) rounds=$2; shift ;;
        -n) npes_rate=$2; shift ;;
        --sym) sym=--sym ;;
        --max) max=$2; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
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
for r in $(seq "$rounds"); do
    "$oshrun" -n 2 test/performance/msg_bench lat $sym --max "$max" >>"$tmp/shm" 2>/dev/null
    "$oshrun" -n 2 test/performance/msg_bench bw $sym --max "$max" >>"$tmp/shm" 2>/dev/null
    "$oshrun" -n "$npes_rate" test/performance/msg_bench rate >>"$tmp/shm" 2>/dev/null
    if [ -n "$mpi" ]; then
        # shellcheck disable=SC2086
        mpirun $mpiflags -n 2 "$mpi" lat --max "$max" >>"$tmp/mpi" 2>/dev/null
        # shellcheck disable=SC2086
        mpirun $mpiflags -n 2 "$mpi" bw --max "$max" >>"$tmp/mpi" 2>/dev/null
        # shellcheck disable=SC2086
        mpirun $mpiflags -n "$npes_rate" "$mpi" rate >>"$tmp/mpi" 2>/dev/null
    fi
done
touch "$tmp/mpi"
awk -v rounds="$rounds" '
FNR == 1 { side = (FILENAME ~ /shm$/) ? "s" : "m" }
$1 == "lat" || $1 == "bw" || $1 == "rate" {
    k = $1 " " $2
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    v = $3 + 0; b = side " " k
    if (!(b in best) || ($1 == "lat" ? v < best[b] : v > best[b])) best[b] = v
}
END {
    printf "best of %d alternating rounds\n\n", rounds
    printf "| test | bytes (rate: PEs) | shmemx | MPI | shmemx / MPI |\n|---|---|---|---|---|\n"
    for (i = 1; i <= n; i++) {
        split(order[i], w, " ")
        unit = w[1] == "lat" ? " us" : (w[1] == "bw" ? " MB/s" : " Mmsg/s")
        s = best["s " order[i]]; m = ("m " order[i]) in best ? best["m " order[i]] : 0
        r = m > 0 ? sprintf("%.2f", s / m) : "-"
        printf "| %s | %s | %.3g%s | %s | %s |\n", w[1], w[2], s, unit, \
            (m > 0 ? sprintf("%.3g%s", m, unit) : "-"), r
    }
}' "$tmp/shm" "$tmp/mpi"
