#!/bin/bash
# env_unknown.sh NPES VAR=VALUE PATTERN: run test/conformance/env_prog on NPES PEs with
# VAR=VALUE in the environment (a SHMEM_* name that no parameter reads, or the old name
# of a renamed one); the job must succeed, and stderr hold exactly one warning, from
# PE 0, naming VAR and matching PATTERN (egrep).
npes=$1; setting=$2; pattern=$3
var=${setting%%=*}
oshrun=${OSHRUN:-scripts/oshrun}
err=$(mktemp)
out=$(env "$setting" timeout -k 2 60 "$oshrun" -n "$npes" test/conformance/env_prog 2>"$err")
rc=$?
cat "$err" >&2
fail=0
[ $rc -eq 0 ] || { echo "expected exit status 0, got $rc"; fail=1; }
[ "$out" = ok ] || { echo "expected 'ok' on stdout, got: $out"; fail=1; }
n=$(grep -c "$var" "$err")
[ "$n" -eq 1 ] || { echo "expected one line naming $var on stderr, got $n"; fail=1; }
grep -Eq "^ofishmem\[PE 0\]: warning: .*$pattern" "$err" ||
    { echo "no warning from PE 0 matching: $pattern"; fail=1; }
rm -f "$err"
exit $fail
