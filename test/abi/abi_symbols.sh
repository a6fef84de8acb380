#!/bin/sh
# (2) symbol hygiene: every exported shmem_X has its pshmem_X twin, and nothing is
# exported without one of our prefixes (or the deprecated names and their p twins).
# (__odr_asan.* are AddressSanitizer's one-definition markers in sanitizer builds.)
# Two deliberate exceptions: fopen, libsma.so's interposer that keeps libfabric's
# providers from scanning /proc/kallsyms at start-up and forwards every other call, and
# usleep, which sleeps a clock calibration's 0.1 s at once while libfabric's
# dependencies load and otherwise sleeps as libc's does (src/transport/ofi/ofi_kallsyms.c);
# no other libc name may be exported.
lib=.libs/libsma.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u > "$tmp/all"
fail=0
bad=$(grep -v -E '^(p?shmemx?_|p?start_pes$|p?_my_pe$|p?_num_pes$|p?shmalloc$|p?shfree$|p?shrealloc$|p?shmemalign$|_init$|_fini$|_edata$|_end$|__bss_start$|__odr_asan\.|fopen$|usleep$)' "$tmp/all")
[ -z "$bad" ] || { echo "FAIL: exported without our prefixes:"; echo "$bad"; fail=1; }
# public names that need a p twin (the shmem_internal_* objects are data named by shmem.h)
grep -E '^(shmemx?_|start_pes$|_my_pe$|_num_pes$|shmalloc$|shfree$|shrealloc$|shmemalign$)' "$tmp/all" \
    | grep -v '^shmem_internal_' | sed 's/^/p/' | sort > "$tmp/want"
missing=$(comm -23 "$tmp/want" "$tmp/all")
[ -z "$missing" ] || { echo "FAIL: public names without their p twin:"; echo "$missing"; fail=1; }
# and every pshmem_X has its shmem_X (no orphan profiling names)
grep -E '^pshmemx?_' "$tmp/all" | sed 's/^p//' | sort > "$tmp/want2"
orphans=$(comm -23 "$tmp/want2" "$tmp/all")
[ -z "$orphans" ] || { echo "FAIL: pshmem_ names without shmem_ twin:"; echo "$orphans"; fail=1; }
[ $fail = 0 ] && echo "ok: $(wc -l < "$tmp/all") exported symbols, all prefixed, all with p twins"
exit $fail
