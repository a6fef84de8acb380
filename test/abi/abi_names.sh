#!/bin/sh
# (1) every name of an OpenSHMEM routine list (1.5 or 1.6) is declared by the installed-style
# headers (a C11 file takes the address of each one) and exported by libsma.so.
# usage (from the build directory): abi_names.sh LIST
list=$1
lib=.libs/libsma.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
    echo '#include <shmem.h>'
    echo '#include <pshmem.h>'
    echo 'typedef void (*fn_t)(void);'
    echo 'fn_t names[] = {'
    sed 's/.*/    (fn_t)\&&, (fn_t)\&p&,/' "$list"
    echo '};'
} > "$tmp/names.c"
${CC:-cc} -std=c11 -Wall -Werror -Wno-cast-function-type -I mpp -c "$tmp/names.c" -o "$tmp/names.o" \
    || { echo "FAIL: some names are not declared by shmem.h/pshmem.h"; exit 1; }
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u > "$tmp/exported"
sort -u "$list" > "$tmp/wanted"
missing=$(comm -23 "$tmp/wanted" "$tmp/exported")
[ -z "$missing" ] || { echo "FAIL: not exported by libsma.so:"; echo "$missing"; exit 1; }
echo "ok: $(wc -l < "$tmp/wanted") names declared (shmem_ and pshmem_) and exported"
