#!/bin/sh
# Build and run the whole test suite (installs missing packages first): 17-45
# minutes on 2 cores, depending on the machine.  --quick: build and run a representative subset on the
# shared-memory route only (a few minutes).
# Ends with the line "N passed, M failed".
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
# the layer rules of docs/architecture.md (an include back up fails before anything builds)
sh scripts/check-layers.sh
if [ "${1:-}" = --quick ]; then
    ./autogen.sh
    rm -rf _quick && mkdir _quick && cd _quick
    ../configure >configure.log
    make -j"$(nproc)" >make.log
    echo "check.sh --quick: unit tests, start-up, RMA, AMO, typed API and collectives on the shm route"
    exec make -s -j"$(nproc)" --no-print-directory check TEST_VARIANTS='^shm$' \
        TEST_FILTER='^(unit|seed|rma|amo|api/(types|c11|coll-types|bad)|coll/(data|reduce|barrier|team))'
fi
# code style (.clang-format): every tracked C file
if command -v clang-format >/dev/null 2>&1 || command -v clang-format-14 >/dev/null 2>&1; then
    sh scripts/check-format.sh
else
    echo "check.sh: clang-format not installed, style check skipped"
fi
./autogen.sh
# The release tarball, and the build and the suite from its unpacked copy (what a user of
# a release builds), the way `make distcheck` does it but with the whole suite and one
# build of the library instead of two: a tree configured only to make the tarball
# (_dist/), its sources unpacked and made read-only (_dist/ofishmem-VERSION/), the build
# beside them (_check/).  Read-only does not hold for root.
[ ! -d _dist ] || chmod -R u+w _dist
rm -rf _check _dist && mkdir _dist && cd _dist
../configure >configure.log
echo "check.sh: make dist (log in _dist/dist.log)"
make dist >dist.log 2>&1 || { tail -40 dist.log; exit 1; }
tar xzf ofishmem-*.tar.gz
rm ofishmem-*.tar.gz
src=$(pwd)/$(ls -d ofishmem-*/ | head -1)
# every tracked file is in the tarball but the repository's own (.ci/, .git*, .clang-format)
if [ -d ../.git ] && command -v git >/dev/null 2>&1; then
    missing=$(git -C .. ls-files | grep -Ev '^(\.ci/|\.git|\.clang-format$)' |
        while IFS= read -r f; do [ -e "$src$f" ] || echo "$f"; done)
    [ -z "$missing" ] || { echo "check.sh: not in the release tarball (EXTRA_DIST?):"; echo "$missing"; exit 1; }
fi
chmod -R a-w "$src"
cd .. && mkdir _check && cd _check
"$src"configure --prefix="$(pwd)/_inst"
make -j"$(nproc)"
# the benchmarks (never run here) must build
make -s -j"$(nproc)" perf
# installed: oshcc builds a program and oshrun runs it; uninstalled: nothing is left
echo "check.sh: make install, a program built with the installed oshcc on 2 PEs, make uninstall"
make -s install >install.log 2>&1 || { tail -40 install.log; exit 1; }
_inst/bin/oshcc -o hello-installed "$src"examples/hello.c
_inst/bin/oshrun -n 2 ./hello-installed
make -s uninstall >>install.log 2>&1 || { tail -40 install.log; exit 1; }
left=$(find _inst -type f -o -type l)
[ -z "$left" ] || { echo "check.sh: make uninstall left files behind:"; echo "$left"; exit 1; }
cd ..
# the suite built with AddressSanitizer + UBSan, on the default route (the OFI routes are
# exercised below and by hand with scripts/check-sanitizers.sh)
echo "check.sh: sanitizer build and tests (log in _asan.log)"
TEST_VARIANTS='^shm$' sh scripts/check-sanitizers.sh >_asan.log 2>&1 || { grep -E '^(FAIL|    \|)' _asan.log | tail -60; tail -3 _asan.log; exit 1; }
tail -1 _asan.log
cd _check
# -j builds the test programs in parallel; the runner itself runs one test at a time
make -s -j"$(nproc)" --no-print-directory check
