#!/bin/sh
# Regenerate the build system (needs autoconf, automake, libtool, m4, pkg-config).
set -e
cd "$(dirname "$0")"
autoreconf -fi
