#!/bin/bash
# env_info.sh: `ofishmem_info --params` lists every parameter under its category
# (core, shm, ofi, coll, debug, in that order) and shows no default as -1 (auto with
# its rule instead); SHMEM_INFO=1 over tcp;ofi_rxm shows what auto became.  From the
# build tree.
oshrun=${OSHRUN:-scripts/oshrun}
fail=0
list=$(./ofishmem_info --params) || { echo "ofishmem_info --params failed"; exit 1; }
cats=$(printf '%s\n' "$list" | grep -E '^[a-z]+: ' | cut -d: -f1 | tr '\n' ' ')
[ "$cats" = "core shm ofi coll debug " ] || { echo "categories: '$cats'"; fail=1; }
# every line is a category or a parameter
bad=$(printf '%s\n' "$list" | grep -Ev '^[a-z]+: |^  SHMEM_[A-Z0-9_]+  ')
[ -z "$bad" ] || { echo "unexpected lines: $bad"; fail=1; }
# the OFI-only parameters are in the ofi group
ofi=$(printf '%s\n' "$list" | sed -n '/^ofi: /,/^coll: /p')
for v in OFI_BOUNCE_SIZE OFI_BOUNCE_BUFFERS OFI_PROGRESS_INTERVAL OFI_PROGRESS_HOT; do
    printf '%s\n' "$ofi" | grep -q "^  SHMEM_$v " || { echo "SHMEM_$v not under ofi"; fail=1; }
done
# the default column (third) is never -1
if printf '%s\n' "$list" | grep -E '^  SHMEM_[A-Z0-9_]+  +[A-Z]+  +-1  '; then
    echo "a default shown as -1"; fail=1
fi
printf '%s\n' "$list" | grep -Eq '^  SHMEM_OFI_BOUNCE_SIZE  +SIZE  +auto \(8K with shm, else 32K\)  ' ||
    { echo "SHMEM_OFI_BOUNCE_SIZE: no auto default with its rule"; fail=1; }
# in a job, auto shows the value chosen
out=$(SHMEM_INFO=1 SHMEM_LOCAL_TRANSPORT=ofi SHMEM_OFI_PROVIDER='tcp;ofi_rxm' \
    timeout -k 2 60 "$oshrun" -n 2 test/conformance/env_prog 2>&1)
echo "$out" | grep -Eq '^  SHMEM_OFI_BOUNCE_SIZE  +SIZE  +auto \(32768\)  ' ||
    { echo "SHMEM_INFO: SHMEM_OFI_BOUNCE_SIZE not 'auto (32768)'"; echo "$out"; fail=1; }
echo "$out" | grep -Eq '^  SHMEM_OFI_INJECT_SIZE  +SIZE  +auto \([0-9]+\)  ' ||
    { echo "SHMEM_INFO: SHMEM_OFI_INJECT_SIZE not resolved"; fail=1; }
[ $fail = 0 ] && echo "env_info: ok"
exit $fail
