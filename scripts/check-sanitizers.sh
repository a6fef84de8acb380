#!/bin/sh
# The test suite built with AddressSanitizer and UndefinedBehaviorSanitizer: any report
# fails the test that triggered it.  Usage: sh scripts/check-sanitizers.sh [TEST_FILTER]
set -e
cd "$(dirname "$0")/.."
[ -x configure ] || ./autogen.sh
rm -rf _asan && mkdir _asan && cd _asan
../configure CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    LDFLAGS="-fsanitize=address,undefined" >configure.log
make -j"$(nproc)" >make.log
# PMIx leaks at exit are not ours: leak checking is valgrind's job (test/reliability)
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 OFS_SANITIZED=1
TEST_FILTER=${1:-.} make -s -j"$(nproc)" --no-print-directory check
