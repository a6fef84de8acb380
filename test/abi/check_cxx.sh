#!/bin/sh
# (5) shmem.h, pshmem.h and shmemx.h compile as C++ (the overloads that stand in for the
# C11 generics resolve, see cxx_overloads.cc), and as strict C99 and C11 too.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CXX:-c++} -Wall -Werror -I mpp -fsyntax-only "$SRCDIR/test/abi/cxx_overloads.cc"
printf '#include <shmem.h>\n#include <pshmem.h>\n#include <shmemx.h>\nint main(void) { return 0; }\n' > "$tmp/h.c"
${CC:-cc} -std=c99 -pedantic -Wall -Werror -I mpp -fsyntax-only "$tmp/h.c"
${CC:-cc} -std=c11 -pedantic -Wall -Werror -I mpp -fsyntax-only "$tmp/h.c"
echo "ok: headers compile as C++ (overloads resolve), C99 and C11"
