#!/bin/sh
# Quick start: install what is missing, build, install ofishmem under $PREFIX
# (default /opt/ofishmem), then compile the seed program with oshcc and run it on
# 4 PEs with oshrun.
set -e
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/opt/ofishmem}
sh scripts/install-deps.sh
[ -x configure ] || ./autogen.sh
mkdir -p _build && cd _build
[ -f Makefile ] || ../configure --prefix="$PREFIX"
make -j"$(nproc)"
make install
cd ..
"$PREFIX/bin/oshcc" -o _build/hello examples/hello.c
"$PREFIX/bin/oshrun" -n 4 _build/hello | sort
echo "ofishmem is installed in $PREFIX: export PATH=$PREFIX/bin:\$PATH MANPATH=$PREFIX/share/man:\$MANPATH"
