#!/bin/bash
# peer_gone.sh NPES MODE: a PE dies while PE 0 keeps operating on it (peer_gone.c).
# The launcher is held (SIGSTOP) from just before the kill until PE 0 has written its
# line (at most 20 s after the kill), as when a node is lost and the launcher is slow to
# notice, so that the PE that sees the failure first is PE 0, not the launcher.  PE 0's
# one line must name the dead PE; then the job ends with a nonzero status, no PE left.
# Every wait here is by the clock, not by a count of polls: on a loaded machine (the
# sanitizer build in CI) one poll, which starts python3, can take a second.
npes=$1; mode=$2
. "$(dirname "$0")/../reliability/lib.sh"
oshrun=${OSHRUN:-scripts/oshrun}
prog=test/conformance/peer_gone
victim_pe=$((npes - 1))
out=out.$$; err=err.$$
# milliseconds since the script started
ms() { local t=${EPOCHREALTIME/./}; echo $(( (t - t0) / 1000 )); }
t0=${EPOCHREALTIME/./}
# oshrun's watcher ends a launcher whose PEs have all been zombies for 3 s: here the
# launcher is held on purpose (its PEs cannot be reaped meanwhile) for up to 20 s
OSHRUN_WATCH_SECONDS=30 timeout -k 2 150 "$oshrun" -n "$npes" "$prog" "$mode" >$out 2>$err &
job=$!
launcher=
trap '[ -n "$launcher" ] && kill -CONT $launcher 2>/dev/null; rm -f $out $err' EXIT
while [ "$(ms)" -lt 60000 ]; do
    grep -q '^ready' $out && grep -q '^victim' $out && break
    sleep 0.1
done
started=$(ms)
victim=$(awk '/^victim/ {print $2}' $out)
pe0=$(awk '/^ready/ {print $2}' $out)
launcher=$(pgrep -P $job | head -1) # timeout's child: the launcher (oshrun execs it)
[ -n "$victim" ] && [ -n "$launcher" ] || {
    echo "the job did not start in $started ms"; cat $out $err; kill $job; exit 1; }
kill -STOP "$launcher"
kill -KILL "$victim"
killed=$(ms)
# PE 0's stderr is a pipe to the held launcher: what PE 0 wrote waits in it unread
while [ $(( $(ms) - killed )) -lt 20000 ]; do
    sleep 0.1
    [ "$(pipe_pending "/proc/$pe0/fd/2")" -gt 0 ] && break
    # PE 0 ended (it wrote its line first): its fds are gone with it
    [ "$(awk '{print $3}' /proc/$pe0/stat 2>/dev/null)" = Z ] || [ ! -d /proc/$pe0 ] && break
done
held=$(( $(ms) - killed ))
kill -CONT "$launcher" 2>/dev/null || echo "the launcher was gone when it was to be resumed"
echo "job started in $started ms; launcher held for $held ms"
wait $job
rc=$?
cat $out; cat $err >&2
fail=0
[ $rc -ne 0 ] || { echo "expected a failing exit status, got 0"; fail=1; }
[ $rc -eq 124 ] && { echo "the job hung (timeout)"; fail=1; }
pattern="PE 0\]: fatal: ofi: peer PE $victim_pe is gone \(its process ended or the connection to it was lost\)"
grep -Eq "$pattern" $err || { echo "stderr does not match: $pattern"; fail=1; }
stray=$(stray_procs "$(basename "$prog")")
[ -z "$stray" ] || { echo "stray processes left: $stray"; fail=1; }
exit $fail
