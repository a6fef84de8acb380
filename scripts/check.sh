#!/bin/sh
# Build and run the whole test suite (installs missing packages first).
# Ends with the line "N passed, M failed".
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
./autogen.sh
rm -rf _check && mkdir _check && cd _check
../configure
make -j"$(nproc)"
make -s --no-print-directory check
