#!/usr/bin/env bash
# Configures (once) and builds into build/ (or $BUILD_DIR). Extra arguments go to
# `meson setup` the first time, e.g. scripts/build.sh -Dbenchmarks=true
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  meson setup "$BUILD_DIR" --buildtype=release "$@"
elif [ $# -gt 0 ]; then
  meson configure "$BUILD_DIR" "$@"
fi
ninja -C "$BUILD_DIR"
