#!/bin/sh
# The compiler wrappers: oshcc must never run itself (build systems of bindings set OSHCC
# to the wrapper), SHMEM_CC chooses the compiler, Open MPI's --showme: queries answer,
# and oshfort says in one line that there is no Fortran interface.
set -u
w=$(pwd)/scripts
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
echo 'int main(void) { return 0; }' >"$t/t.c"

# OSHCC naming the wrapper itself (absolute path, and a name on PATH)
OSHCC="$w/oshcc" timeout 20 "$w/oshcc" -c "$t/t.c" -o "$t/a.o" 2>"$t/err" || bad "OSHCC=oshcc: $(cat "$t/err")"
[ -s "$t/a.o" ] || bad "OSHCC=oshcc: no object file"
PATH="$w:$PATH" OSHCC=oshcc timeout 20 "$w/oshcc" -c "$t/t.c" -o "$t/b.o" 2>"$t/err" || bad "OSHCC=oshcc on PATH: $(cat "$t/err")"
# the same through a symlink with another name
ln -s "$w/oshcc" "$t/mycc"
OSHCC="$t/mycc" timeout 20 "$w/oshcc" -c "$t/t.c" -o "$t/c.o" 2>"$t/err" || bad "OSHCC=link to oshcc: $(cat "$t/err")"
# SHMEM_CC chooses the compiler; naming a wrapper is ignored with a warning
SHMEM_CC=cc timeout 20 "$w/oshcc" -show -c x.c | grep -q '^cc ' || bad "SHMEM_CC=cc not used"
SHMEM_CC="$w/oshcc" timeout 20 "$w/oshcc" -c "$t/t.c" -o "$t/d.o" 2>"$t/err" || bad "SHMEM_CC=oshcc failed"
grep -q "ignoring SHMEM_CC" "$t/err" || bad "SHMEM_CC=oshcc: no warning"
# a compiler that runs oshcc again is stopped at once, not looped
printf '#!/bin/sh\nexec "%s" "$@"\n' "$w/oshcc" >"$t/loopcc"
chmod +x "$t/loopcc"
if SHMEM_CC="$t/loopcc" timeout 20 "$w/oshcc" -c "$t/t.c" -o "$t/e.o" 2>"$t/err"; then
    bad "a compiler that runs oshcc again succeeded"
fi
[ $? -eq 124 ] && bad "a compiler that runs oshcc again looped"
grep -q "runs oshcc again" "$t/err" || bad "loop: no message ($(cat "$t/err"))"
# --showme queries
[ "-I$("$w/oshcc" --showme:incdirs)" = "$("$w/oshcc" --showme:compile)" ] || bad "--showme:incdirs"
"$w/oshcc" --showme:compile | grep -q '^-I/' || bad "--showme:compile"
"$w/oshcc" --showme:link | grep -q -- '-lsma' || bad "--showme:link"
"$w/oshcc" --showme:libs | grep -qw 'sma' || bad "--showme:libs"
"$w/oshcc" --showme:libdirs | grep -q '^/' || bad "--showme:libdirs"
"$w/oshcc" --showme:bogus 2>/dev/null && bad "--showme:bogus succeeded"
# oshfort
if "$w/oshfort" x.f90 2>"$t/err"; then bad "oshfort succeeded"; fi
grep -q "no Fortran interface" "$t/err" || bad "oshfort: no message"
[ "$(wc -l <"$t/err")" -eq 1 ] || bad "oshfort: more than one line"
# the vendor and version macros of shmem.h
cat >"$t/v.c" <<'EOC'
#include <shmem.h>
#include <string.h>
#if !defined(OFISHMEM) || OFISHMEM_NUMVERSION != OFISHMEM_MAJOR_VERSION * 10000 + OFISHMEM_MINOR_VERSION * 100 + OFISHMEM_PATCH_VERSION
#error vendor version macros
#endif
#if SHMEM_MAJOR_VERSION != 1 || SHMEM_MINOR_VERSION < 5
#error spec version macros
#endif
int main(void) { return strncmp(SHMEM_VENDOR_STRING, "ofishmem " OFISHMEM_VERSION_STRING, SHMEM_MAX_NAME_LEN) != 0; }
EOC
cc -Impp -o "$t/v" "$t/v.c" && "$t/v" || bad "vendor/version macros of shmem.h"
# <mpp/shmem.h>, <mpp/shmemx.h>, <mpp/pshmem.h> (the SGI header directory the spec still
# requires) in the installed layout: include/shmem.h and include/mpp/shmem.h
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$t/inc/mpp"
cp mpp/shmem.h mpp/shmemx.h mpp/pshmem.h "$t/inc/" && cp "$src"/mpp/compat/mpp/*.h "$t/inc/mpp/"
cat >"$t/m.c" <<'EOC'
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <mpp/pshmem.h>
int main(void) { shmem_udcflush(); pshmem_udcflush(); return SHMEM_MAJOR_VERSION != 1; }
EOC
cc -I"$t/inc" -c -o "$t/m.o" "$t/m.c" || bad "#include <mpp/shmem.h> in the installed layout"
# oshrun without any launcher: exit 127, each launcher tried named once
PATH=/nonexistent /bin/sh "$w/oshrun" -n 1 true 2>"$t/err"
[ $? -eq 127 ] || bad "oshrun without a launcher: exit status"
grep -q "no PMIx launcher found (tried mpiexec, prterun, srun)" "$t/err" || bad "oshrun without a launcher: $(cat "$t/err")"
# ofishmem_info refuses what it does not know
./ofishmem_info --bogus >/dev/null 2>"$t/err" && bad "ofishmem_info --bogus exited 0"
grep -q "unknown argument '--bogus'" "$t/err" || bad "ofishmem_info --bogus: no message"
./ofishmem_info --params >/dev/null || bad "ofishmem_info --params failed"
# the modulefile lets a plain compiler find headers and library, and names our tools
for v in CPATH LIBRARY_PATH LD_LIBRARY_PATH; do
    grep -q "prepend_path(\"$v\"" modules/ofishmem.lua || bad "modulefile does not set $v"
done
grep -q oshmem_info modules/ofishmem.lua && ! grep -q ofishmem_info modules/ofishmem.lua && bad "modulefile names oshmem_info"
[ $fail -eq 0 ] && echo "wrappers: all checks passed"
exit $fail
