#!/bin/sh
# Build and run the whole test suite (installs missing packages first): about 25
# minutes on 2 cores.  --quick: build and run a representative subset on the
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
rm -rf _check && mkdir _check && cd _check
../configure
make -j"$(nproc)"
# the benchmarks (never run here) must build
make -s -j"$(nproc)" perf
# the release tarball must build and install cleanly (its own unit tests only: the
# full suite runs once, below); -j: its build of the tree and of the test programs
echo "check.sh: make distcheck (log in _check/distcheck.log)"
make -j"$(nproc)" distcheck TEST_FILTER='^unit/' >distcheck.log 2>&1 || { tail -40 distcheck.log; exit 1; }
cd ..
# the suite built with AddressSanitizer + UBSan, on the default route (the OFI routes are
# exercised below and by hand with scripts/check-sanitizers.sh)
echo "check.sh: sanitizer build and tests (log in _asan.log)"
TEST_VARIANTS='^shm$' sh scripts/check-sanitizers.sh >_asan.log 2>&1 || { grep -E '^(FAIL|    \|)' _asan.log | tail -60; tail -3 _asan.log; exit 1; }
tail -1 _asan.log
cd _check
# -j builds the test programs in parallel; the runner itself runs one test at a time
make -s -j"$(nproc)" --no-print-directory check
