#!/bin/sh
# Runs the seed program on N PEs (or without a launcher when N is 0) and checks
# every line of its output.
n=$1; prog=$2; oshrun=${OSHRUN:-scripts/oshrun}
if [ "$n" = 0 ]; then out=$("$prog") || exit 1; n=1; single=1
else out=$("$oshrun" -n "$n" "$prog") || exit 1; single=0; fi
echo "$out"
for pe in $(seq 0 $((n - 1))); do
    if [ "$pe" -le 1 ] && { [ "$pe" -eq 0 ] || [ "$n" -gt 1 ]; }; then want=42; else want=0; fi
    echo "$out" | grep -qx "PE $pe sees shared_var = $want" || { echo "missing: PE $pe sees shared_var = $want"; exit 1; }
done
[ "$(echo "$out" | wc -l)" -eq "$n" ] || { echo "wrong line count"; exit 1; }
