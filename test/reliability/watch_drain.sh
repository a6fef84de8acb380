#!/bin/bash
# watch_drain.sh MODE: oshrun's watcher, ending a launcher whose PEs have all ended,
# first copies what they wrote and it never read to its stdout and stderr (scripts/oshrun.in,
# drain_pipes): the line naming a PE's error must reach the job's stderr.
#   fake     a launcher that gives each PE a pipe for stdout and one for stderr, reads
#            neither and reaps nothing (as an mpiexec that missed the exits): each PE's
#            stdout line must reach stdout and its stderr line stderr.
#   mpiexec  Open MPI's mpiexec, held (SIGSTOP) once it has forwarded the first line each
#            of its 2 PEs wrote to stderr, so that the lines they write then and their
#            exits wait unread: every stderr line must reach stderr (their stdout goes
#            through a pseudo-terminal, lost with it), the first ones too (stderr is a
#            file: the watcher's own line once truncated it).
# The watcher waits 1 s here (OSHRUN_WATCH_SECONDS=1).
mode=$1
oshrun=${OSHRUN:-scripts/oshrun}
out=out.$$; err=err.$$; flag=flag.$$; fake=fake_launcher.$$
rm -f $flag
launcher=
trap '[ -n "$launcher" ] && kill -KILL $launcher 2>/dev/null; rm -f $out $err $flag $fake' EXIT
export OSHRUN_WATCH_SECONDS=1
# a PE: writes a first line to stderr, says it is ready, waits for the flag (a second at
# most), writes one more line to stdout and one to stderr, and ends with status 3
pe='echo "watch_drain: PE $R first stderr line" >&2; echo "ready $R"; i=0; while [ ! -e '$flag' ] && [ $i -lt 10 ]; do sleep 0.1; i=$((i + 1)); done
echo "watch_drain: PE $R stdout line"; echo "watch_drain: PE $R stderr line" >&2; exit 3'
case "$mode" in
    fake)
        # python3 itself, not a version manager's wrapper (pyenv's takes seconds to start)
        py=/usr/bin/python3
        [ -x $py ] || py=$(command -v python3)
        { echo "#!$py"; cat; } >$fake <<'EOF'
import os, sys, time
args, n, rank = sys.argv[1:], 1, 0
while args and args[0].startswith("-"):
    if args[0] in ("-n", "-np"):
        n, args = int(args[1]), args[2:]
    else:
        args = args[2:] if args[0] == "-x" else args[1:]
keep = []
for rank in range(n):
    o_r, o_w = os.pipe()
    e_r, e_w = os.pipe()
    if os.fork() == 0:
        os.dup2(o_w, 1)
        os.dup2(e_w, 2)
        os.environ["R"] = str(rank)
        os.execvp(args[0], args)
    os.close(o_w)
    os.close(e_w)
    keep += [o_r, e_r]
while True:  # reads nothing, reaps nothing
    time.sleep(60)
EOF
        chmod +x $fake
        # no flag: the PEs end 1 s after they start (the watcher must see them alive once
        # to tell their stdout pipes from their stderr pipes)
        OSHRUN_LAUNCHER=$PWD/$fake timeout -k 2 30 "$oshrun" -n 2 sh -c "$pe" >$out 2>$err
        rc=$?
        ;;
    mpiexec)
        R='$OMPI_COMM_WORLD_RANK'
        OSHRUN_LAUNCHER=mpiexec timeout -k 2 60 "$oshrun" -n 2 sh -c "R=$R; $pe" >$out 2>$err &
        job=$!
        for i in $(seq 400); do
            [ "$(grep -c '^ready' $out)" = 2 ] && [ "$(grep -c 'first stderr' $err)" = 2 ] && break
            sleep 0.1
        done
        launcher=$(pgrep -P $job | head -1) # timeout's child: the launcher (oshrun execs it)
        [ "$(grep -c '^ready' $out)" = 2 ] && [ -n "$launcher" ] ||
            { echo "the job did not start"; cat $out $err; kill $job; exit 1; }
        kill -STOP "$launcher"
        touch $flag
        wait $job
        rc=$?
        ;;
    *) echo "usage: watch_drain.sh fake|mpiexec"; exit 2 ;;
esac
echo "--- stdout"; cat $out; echo "--- stderr"; cat $err
fail=0
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "expected the watcher to end the launcher, got exit $rc"; fail=1; }
grep -q "^oshrun: every PE of the job has ended" $err || { echo "no line from the watcher"; fail=1; }
for r in 0 1; do
    grep -q "^watch_drain: PE $r first stderr line" $err || { echo "PE $r's first stderr line is not on stderr"; fail=1; }
    grep -q "^watch_drain: PE $r stderr line" $err || { echo "PE $r's stderr line is not on stderr"; fail=1; }
    grep -q "stdout line" $err && { echo "a stdout line is on stderr"; fail=1; }
    [ "$mode" = fake ] || continue
    grep -q "^watch_drain: PE $r stdout line" $out || { echo "PE $r's stdout line is not on stdout"; fail=1; }
done
exit $fail
