#!/bin/sh
# Build and run the whole test suite (installs missing packages first).
# Ends with the line "N passed, M failed".
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
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
# the release tarball must build and install cleanly (its own unit tests only: the
# full suite runs once, below)
echo "check.sh: make distcheck (log in _check/distcheck.log)"
make distcheck TEST_FILTER='^unit/' >distcheck.log 2>&1 || { tail -40 distcheck.log; exit 1; }
make -s --no-print-directory check
