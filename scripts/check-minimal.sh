#!/usr/bin/env bash
# The minimal embedded build in CI: configures build-min/ with -Dfile_io=false
# (the library alone: no CLI, tests or benchmarks), builds it (with ccache,
# after the main build, its objects are mostly cache hits), links
# tests/minimal/minimal_check.c statically against libwebnn.a and runs it: a
# convolution on the cpu device through the C API, and graph-file loading
# refused with NotSupportedError. scripts/minimal-size.sh reports the sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-min}
[ -f "$BUILD_DIR/build.ninja" ] || meson setup "$BUILD_DIR" --buildtype=release -Dfile_io=false >/dev/null
ninja -C "$BUILD_DIR" libwebnn.a >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=c11 -O2 -Wall -Werror -Iinclude -I"$BUILD_DIR/include" tests/minimal/minimal_check.c -o "$work/minimal_check" \
  "$BUILD_DIR/libwebnn.a" -lhwy -lstdc++ -lm -pthread -ldl -Wl,--gc-sections
"$work/minimal_check"
