#!/bin/sh
# libsma does not link libfabric (include/ofs_fabric.h): no DT_NEEDED on it in
# libsma.so, and no libfabric entry point left undefined in it (one called without the
# renaming of ofs_fabric.h would be); the pkg-config file and oshcc do not name it.
# Run from the build directory.
fail=0
so=.libs/libsma.so
[ -f "$so" ] || { echo "no $so (built without shared libraries?): skipped"; exit 0; }
if command -v objdump >/dev/null 2>&1; then
    needed=$(objdump -p "$so" | awk '$1 == "NEEDED" { print $2 }')
    echo "libsma.so needs:" $needed
    echo "$needed" | grep -q '^libfabric' && { echo "FAIL: libsma.so links libfabric"; fail=1; }
fi
if command -v nm >/dev/null 2>&1; then
    undef=$(nm -D --undefined-only "$so" | awk '{ print $NF }' | grep '^fi_')
    [ -z "$undef" ] || { echo "FAIL: libsma.so leaves libfabric symbols undefined:" $undef; fail=1; }
fi
grep -q -- '-lfabric' ofishmem.pc && { echo "FAIL: ofishmem.pc names -lfabric"; fail=1; }
scripts/oshcc --showme:link | grep -q -- '-lfabric' && { echo "FAIL: oshcc links -lfabric"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
