#!/bin/sh
# Install the Debian 12 packages ofishmem needs to build, test and run (as root, or
# through sudo).  Installs only what is missing.
set -e
pkgs="build-essential autoconf automake libtool m4 pkg-config libfabric-dev libfabric-bin
      libpmix-dev libhwloc-dev openmpi-bin libopenmpi-dev python3-cffi procps iproute2 util-linux man-db valgrind
      clang-format"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && { echo "install-deps: all packages present"; exit 0; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
echo "install-deps: installing$missing"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
