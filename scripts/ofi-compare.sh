#!/bin/sh
# ofi-compare.sh: ofishmem's OFI route against raw libfabric on the same provider.
# For each provider, in turns (rounds), runs test/performance/ofi_raw (libfabric + PMIx
# only) and perf_lat, perf_bw, perf_rate, perf_pingpong with SHMEM_LOCAL_TRANSPORT=ofi,
# 2 PEs; prints ofishmem/raw time ratios per test and size (the target is <= 1.10) two
# ways: of the best times of all rounds, and the median (with the range) of the ratios
# within each round, whose runs are minutes apart (on a shared machine the same raw test
# moves by more than 10% within an hour).  Raw's latency, bandwidth and rate tests run a
# second time shaped as ofishmem must be: the domain FI_THREAD_SAFE (ofishmem's progress
# thread calls in beside the application), operations leaving from an endpoint of their
# own and arriving at the peer's target endpoint, whose CQ keeps a wait fd where the
# provider has one (tcp;ofi_rxm), and waits that back off and sleep on it as
# ofishmem's do, with a progress thread serving while the process is in no wait (the
# rule that passive progress never spins): ofi_raw --threading safe --endpoints 2
# --target-sleep [--target-wait fd].  The column after the ratio is ofishmem's time
# over that.  The message
# ping-pong (perf_pingpong: putmem_signal + signal_wait_until, 1 B .. BENCH_MAX) is
# also set against libfabric's own fi_pingpong (libfabric-bin: send/recv on an RDM
# endpoint of the same provider, usec/xfer), in the last column.
#
# usage: scripts/ofi-compare.sh [-b BUILD_DIR] [-o OUT_DIR] [-p "PROV1 PROV2"]
#   BUILD_DIR  a configured ofishmem build tree (default: _build next to this script)
#   OUT_DIR    CSV files (NAME.csv: every round; NAME.rounds: the same rows prefixed
#              with their round), logs and table.txt (default: BUILD_DIR/bench-ofi)
#   PROVs      providers, space separated (default: "shm tcp;ofi_rxm")
# Environment: BENCH_REPEAT rounds (default 3), BENCH_ITERS iterations of the latency
#   and rate loops (default 2000), BENCH_MAX largest bandwidth and ping-pong size
#   (default 1 MiB),
#   BENCH_TIMEOUT seconds per run (default 120), and any SHMEM_* knob for ofishmem.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build
out=
provs="shm tcp;ofi_rxm"
. "$top/scripts/bench-lib.sh"
bench_args ofi-compare 24 "-b:build -o:out -p:provs" "$@"
build=$(cd "$build" && pwd) || { echo "ofi-compare: no build tree $build" >&2; exit 1; }
out=${out:-$build/bench-ofi}
mkdir -p "$out"
out=$(cd "$out" && pwd)
repeat=${BENCH_REPEAT:-3}
iters=${BENCH_ITERS:-2000}
max=${BENCH_MAX:-1048576}
tmo=${BENCH_TIMEOUT:-120}
run=$build/scripts/oshrun
bin=$build/test/performance
say() { echo "ofi-compare: $*" >&2; }

make -C "$build" -s perf >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
rm -f "$out"/*.csv "$out"/*.rounds "$out"/*.log "$out"/*.none

# file-name form of a provider name
tag() { echo "$1" | tr ';' '+'; }

# fi_pingpong (server and client on this host) at perf_pingpong's sizes; one CSV row
# per size, named like perf_pingpong's rows
fip() {
    command -v fi_pingpong >/dev/null || { echo "fi_pingpong not found (libfabric-bin)" >&2; return; }
    for n in 1 8 64 256 1024 4096 16384 65536 262144 1048576 4194304; do
        [ "$n" -le "$max" ] || break
        it=$((268435456 / n)) # as bench_iters: 10000 up to 8 KiB, then 256 MiB / size
        [ $it -gt 10000 ] && it=10000
        [ $it -lt 20 ] && it=20
        port=$((20000 + ($$ + n) % 20000))
        timeout "$tmo" fi_pingpong -p "$1" -e rdm -I $it -S $n -B $port >/dev/null 2>&1 &
        srv=$!
        v=
        for try in 1 2 3 4 5; do
            sleep 0.3
            v=$(timeout "$tmo" fi_pingpong -p "$1" -e rdm -I $it -S $n -P $port 127.0.0.1 2>&1 |
                awk 'NR > 1 && $1 ~ /^[0-9]/ { print $7 }')
            [ -n "$v" ] && break
        done
        kill $srv 2>/dev/null
        wait $srv 2>/dev/null
        if [ -n "$v" ]; then
            echo "putsig_pingpong,$n,2,$it,$v,,"
        else
            echo "fi_pingpong -p '$1' -S $n gave no result" >&2
        fi
    done
}

# keep NAME: move the rows of the run just made (cur.csv) into NAME.csv (every round,
# for the best of rounds) and NAME.rounds (prefixed with the round, for the ratios of
# runs of the same round)
keep() {
    if [ -s "$out/cur.csv" ]; then
        [ -s "$out/$1.csv" ] || head -n 1 "$out/cur.csv" >"$out/$1.csv"
        tail -n +2 "$out/cur.csv" >>"$out/$1.csv"
        tail -n +2 "$out/cur.csv" | sed "s/^/$r,/" >>"$out/$1.rounds"
    fi
    rm -f "$out/cur.csv"
}

# ofi_raw shaped as ofishmem must be: PROVIDER TAG [--target-wait fd] [--endpoints 2]
raw_as_ofishmem() {
    p1=$1 t1=$2
    shift 2
    timeout "$tmo" "$run" -np 2 "$bin/ofi_raw" --provider "$p1" --threading safe --target-sleep \
        "$@" --only lat,bw,rate --iters "$iters" --max "$max" --csv "$out/cur.csv" \
        >>"$out/rawfd.$t1.log" 2>&1
}

r=1
while [ $r -le "$repeat" ]; do
    for p in $provs; do
        t=$(tag "$p")
        say "round $r of $repeat, $p: raw libfabric"
        timeout "$tmo" "$run" -np 2 "$bin/ofi_raw" --provider "$p" --iters "$iters" --max "$max" \
            --csv "$out/cur.csv" >>"$out/raw.$t.log" 2>&1 || say "ofi_raw ($p) exited with status $?"
        keep "raw.$t"
        say "round $r of $repeat, $p: raw libfabric as ofishmem (FI_THREAD_SAFE, two endpoints, sleeping waits)"
        if [ -e "$out/rawfd.$t.nofd" ] || ! raw_as_ofishmem "$p" "$t" --target-wait fd --endpoints 2; then
            touch "$out/rawfd.$t.nofd" # no wait fd on this provider: sleeps without one
            rm -f "$out/cur.csv"
            raw_as_ofishmem "$p" "$t" --endpoints 2 || { # FI_MR_ENDPOINT providers: one
                rm -f "$out/cur.csv"
                raw_as_ofishmem "$p" "$t" || say "ofi_raw --threading safe --target-sleep ($p) failed"
            }
        fi
        keep "rawfd.$t"
        say "round $r of $repeat, $p: fi_pingpong"
        echo "test,bytes,npes,iters,usec,mbps,mops" >"$out/cur.csv"
        fip "$p" >>"$out/cur.csv" 2>>"$out/fip.$t.log"
        keep "fip.$t"
        for b in perf_lat perf_bw perf_rate perf_pingpong; do
            say "round $r of $repeat, $p: ofishmem $b"
            a="--iters $iters"
            [ $b = perf_bw ] || [ $b = perf_pingpong ] && a="$a --max $max"
            SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER="$p" timeout "$tmo" "$run" -np 2 \
                "$bin/$b" $a --csv "$out/cur.csv" >>"$out/ofs.$t.log" 2>&1 ||
                say "$b ($p) exited with status $?"
            keep "ofs.$t"
        done
    done
    r=$((r + 1))
done

{
    echo "ofishmem OFI route vs raw libfabric (test/performance/ofi_raw), 2 PEs, $repeat rounds"
    echo "time = usec per operation (bandwidth rows: per transfer), best of the rounds;"
    echo "best = ofishmem's best / raw's best; rounds = median [min-max] over the rounds of"
    echo "ofishmem's time / raw's time in the same round (steadier on a noisy machine)"
    for p in $provs; do
        t=$(tag "$p")
        [ -s "$out/raw.$t.csv" ] && [ -s "$out/ofs.$t.csv" ] || { echo; echo "$p: no data"; continue; }
        echo
        echo "provider $p"
        touch "$out/rawfd.$t.csv" "$out/fip.$t.csv" "$out/raw.$t.rounds" "$out/ofs.$t.rounds"
        awk -F, -v RAW="$out/raw.$t.csv" -v RAWFD="$out/rawfd.$t.csv" -v FIP="$out/fip.$t.csv" \
            -v RAWR="$out/raw.$t.rounds" -v OFSR="$out/ofs.$t.rounds" '
        FILENAME == RAWR { if ($6 > 0) rr[$2 "," $3, $1] = $6; next }
        FILENAME == OFSR {
            k = $2 "," $3
            if ($4 == 2 && ((k, $1) in rr)) { nq[k]++; q[k, nq[k]] = $6 / rr[k, $1] }
            next
        }
        FNR == 1 { next }
        { k = $1 "," $2 }
        FILENAME == RAW { if (!(k in raw) || $5 < raw[k]) raw[k] = $5; if (!(k in seen)) { seen[k] = 1; order[++n] = k } next }
        FILENAME == RAWFD { if (!(k in fd) || $5 < fd[k]) fd[k] = $5; next }
        FILENAME == FIP { if ($5 > 0 && (!(k in fp) || $5 < fp[k])) fp[k] = $5; next }
        { if ($3 == 2 && (!(k in ofs) || $5 < ofs[k])) ofs[k] = $5 }
        END {
            printf "%-18s %8s | %10s %9s | %10s %9s | %5s | %-19s | %-22s | %s\n", "test", "bytes", "raw usec", "raw MB/s", "ofs usec", "ofs MB/s", "best", "rounds", "vs raw as ofishmem (1)", "vs fi_pingpong"
            for (i = 1; i <= n; i++) {
                k = order[i]; split(k, a, ",")
                if (!(k in ofs)) continue
                r = raw[k] > 0 ? ofs[k] / raw[k] : 0
                rb = raw[k] > 0 ? a[2] / raw[k] : 0
                ob = ofs[k] > 0 ? a[2] / ofs[k] : 0
                c = nq[k] + 0
                for (x = 2; x <= c; x++)
                    for (y = x; y > 1 && q[k, y] < q[k, y - 1]; y--) {
                        tmp = q[k, y]; q[k, y] = q[k, y - 1]; q[k, y - 1] = tmp
                    }
                med = c ? (c % 2 ? q[k, (c + 1) / 2] : (q[k, c / 2] + q[k, c / 2 + 1]) / 2) : r
                rounds = c ? sprintf("%4.2f [%4.2f-%4.2f]%s", med, q[k, 1], q[k, c], med > 1.10 ? " *" : "") : ""
                fdr = (k in fd) && fd[k] > 0 ? sprintf("%5.2f (%.3f usec)", ofs[k] / fd[k], fd[k]) : ""
                fpr = (k in fp) ? sprintf("%5.2f (%.3f usec)", ofs[k] / fp[k], fp[k]) : ""
                printf "%-18s %8s | %10.3f %9.0f | %10.3f %9.0f | %5.2f | %-19s | %-22s | %s\n", a[1], a[2], raw[k], rb,
                    ofs[k], ob, r, rounds, fdr, fpr
            }
        }' "$out/raw.$t.rounds" "$out/ofs.$t.rounds" "$out/raw.$t.csv" "$out/rawfd.$t.csv" "$out/fip.$t.csv" "$out/ofs.$t.csv"
    done
    echo
    echo "* the median over the rounds is more than 10% over raw libfabric"
    echo "(1) raw libfabric shaped as ofishmem must be: FI_THREAD_SAFE, an initiator and a target"
    echo "    endpoint, waits that sleep on the target CQ's wait fd where there is one and a"
    echo "    progress thread (ofi_raw --threading safe --endpoints 2 --target-sleep [--target-wait fd])"
} | tee "$out/table.txt"
