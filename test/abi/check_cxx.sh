#!/bin/sh
# (5) shmem.h, pshmem.h and shmemx.h compile as C++, and the overloads that stand in
# for the C11 generics resolve (see cxx_overloads.cc).
${CXX:-c++} -Wall -Werror -I mpp -fsyntax-only "$SRCDIR/test/abi/cxx_overloads.cc" \
    && echo "ok: headers compile as C++ and the overloads resolve"
