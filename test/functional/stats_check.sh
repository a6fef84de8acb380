#!/bin/sh
# SHMEM_STATS on N PEs of test/functional/stats (whose counts are known): the table
# appears on stderr at shmemx_stats_dump and at shmem_finalize, with the counts of each
# point; SHMEM_STATS_FILE holds one JSON document with the documented keys and the
# exact per-PE counts, on the route the variant's environment chooses (and by
# protocol on the OFI route, thresholds pinned); without SHMEM_STATS nothing is printed
# or written and the program's output is the same.
n=$1; prog=test/functional/stats; oshrun=${OSHRUN:-scripts/oshrun}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
export SHMEM_OFI_INJECT_SIZE=64 SHMEM_OFI_BOUNCE_SIZE=32K
SHMEM_STATS=1 SHMEM_STATS_FILE="$dir/s.json" "$oshrun" -n "$n" "$prog" >"$dir/out" 2>"$dir/err" ||
    { echo "FAIL: the run with SHMEM_STATS=1 failed"; cat "$dir/out" "$dir/err"; exit 1; }
python3 -m json.tool "$dir/s.json" >/dev/null || { echo "FAIL: the JSON does not parse"; exit 1; }
# put-with-signal over OFI: by message, or (providers that progress data themselves,
# e.g. sockets) a write, counted by protocol like any put, and an atomic
sig_write=0
if [ "$SHMEM_LOCAL_TRANSPORT" = ofi ] || [ -n "$SHMEM_SIM_PES_PER_NODE" ]; then
    SHMEM_INFO=1 "$oshrun" -n 2 "$prog" 2>/dev/null | grep -q 'put-with-signal: a write and an atomic' &&
        sig_write=1
fi
export sig_write
python3 - "$n" "$dir/s.json" "$dir/err" <<'PY' || exit 1
import json, os, re, sys
n, js, err = int(sys.argv[1]), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
t = n - 1
ofi_local = os.environ.get("SHMEM_LOCAL_TRANSPORT") == "ofi"
sim = int(os.environ.get("SHMEM_SIM_PES_PER_NODE", "0") or 0)
off_node = sim > 0 and (0 // sim) != (t // sim)
r = "ofi" if ofi_local or off_node else "shm"
a = "ofi" if ofi_local or (sim > 0 and n > sim) else "shm"
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append("%s: %r, expected %r" % (what, got, exp))
for k in ("format", "n_pes", "aggregate", "pes"):
    want("key " + k, k in js, True)
want("format", js["format"], "ofishmem-stats-1")
want("n_pes", js["n_pes"], n)
want("pes", [p["pe"] for p in js["pes"]], list(range(n)))
names = list(js["aggregate"])
for p in js["pes"]:
    want("PE %d counter names" % p["pe"], list(p["counters"]), names)
for k in ("min", "mean", "max", "sum"):
    want("aggregate key " + k, k in js["aggregate"]["put.shm.ops"], True)
c0, ct = js["pes"][0]["counters"], js["pes"][t]["counters"]
put_b = 10 * 8 + 5 * 16384 + 2 * 262144 + 8
# PE 0 at the dump (the table's max column: the other PEs issue none of these)
exp0 = {"put.%s.ops" % r: 18, "put.%s.bytes" % r: put_b, "get.%s.ops" % r: 7,
        "get.%s.bytes" % r: 700, "amo.%s.ops" % a: 3, "amo.%s.bytes" % a: 24,
        "signal.%s.ops" % r: 2, "signal.%s.bytes" % r: 128}
if r == "ofi":
    w = int(os.environ.get("sig_write", "0"))  # the 2 signals' 64-byte writes
    exp0.update({"ofi.inject.ops": 11 + 2 * w, "ofi.inject.bytes": 88 + 128 * w, "ofi.bounce.ops": 5,
                 "ofi.bounce.bytes": 5 * 16384, "ofi.zcopy.ops": 2, "ofi.zcopy.bytes": 2 * 262144})
# PE 0 at finalize: reset after the dump, then one put of 8 B
fin0 = {"put.%s.ops" % r: 1, "put.%s.bytes" % r: 8, "coll.barrier.ops": 1}
if r == "ofi":
    fin0.update({"ofi.inject.ops": 1, "ofi.inject.bytes": 8})
for k in names:
    if k.split(".")[0] in ("put", "get", "amo", "signal", "coll") or k.startswith("ofi."):
        if not k.endswith(".ns"):
            want("PE 0 after the reset " + k, c0[k], fin0.get(k, 0))
for p in js["pes"][1:]:
    c = p["counters"]
    want("PE %d coll.broadcast.ops" % p["pe"], c["coll.broadcast.ops"], 4)
    want("PE %d coll.broadcast.bytes" % p["pe"], c["coll.broadcast.bytes"], 64)
    want("PE %d coll.reduce.ops" % p["pe"], c["coll.reduce.ops"], 1)
    want("PE %d coll.reduce.bytes" % p["pe"], c["coll.reduce.bytes"], 32)
    want("PE %d coll.barrier.ops" % p["pe"], c["coll.barrier.ops"], 3)
    want("PE %d put ops" % p["pe"], c["put.shm.ops"] + c["put.ofi.ops"], 0)
if n > 1:
    want("PE %d wait.ops" % t, ct["wait.ops"], 1)
    want("PE %d wait.ns > 0" % t, ct["wait.ns"] > 0, True)
want("PE 0 top target", js["pes"][0]["top_targets"], [{"pe": t, "bytes": 8}])
ag = js["aggregate"]["put.%s.ops" % r]
want("aggregate put ops", (ag["min"], ag["max"], ag["sum"]), (0 if n > 1 else 1, 1, 1))
# the table: once at the dump (PE 0's totals), once at finalize (after its reset)
tabs = err.split("ofishmem statistics: ")[1:]
want("tables on stderr", len(tabs), 2)
def row(tab, name):
    m = re.search(r"^%s +(\S+) +(\S+) +(\S+)$" % re.escape(name), tab, re.M)
    return m and (m.group(1), m.group(3))
if len(tabs) == 2:
    for k, v in sorted(exp0.items()):
        want("dump's row " + k, row(tabs[0], k), ("0" if n > 1 else str(v), str(v)))
    want("dump's top targets", re.search(r"top targets \(PE->PE bytes\): 0->%d %d\b" % (t, put_b + 700 + 24 + 128), tabs[0]) is not None, True)
    want("finalize's put row", row(tabs[1], "put.%s.ops" % r), ("0", "1"))
    want("zero rows left out", row(tabs[1], "msg.send.ops"), None)
if bad:
    print("FAIL (route %s, atomics %s):\n  " % (r, a) + "\n  ".join(bad))
    print(err)
    sys.exit(1)
print("ok: exact counts on route %s (atomics %s), %d PEs" % (r, a, n))
PY
# statistics off: nothing printed, nothing written, the same output
SHMEM_STATS_FILE="$dir/off.json" "$oshrun" -n "$n" "$prog" >"$dir/out0" 2>"$dir/err0" ||
    { echo "FAIL: the run without SHMEM_STATS failed"; cat "$dir/out0" "$dir/err0"; exit 1; }
if grep -q "ofishmem statistics" "$dir/err0" || [ -e "$dir/off.json" ]; then
    echo "FAIL: statistics printed or written without SHMEM_STATS"; cat "$dir/err0"; exit 1
fi
[ "$(sort "$dir/out")" = "$(sort "$dir/out0")" ] || { echo "FAIL: output differs"; exit 1; }
echo "ok: nothing without SHMEM_STATS"
