#!/bin/bash
# Installs the build into a scratch directory (DESTDIR) and builds
# tests/consumer/consumer.c against it the two ways an application would:
# CMake's find_package(webnn) (shared and static targets) and pkg-config
# (shared, and static with --static). Runs each program. 77 (skipped) without
# cmake or pkg-config.
#   run.sh BUILD_DIR SOURCE_DIR PREFIX LIBDIR
set -eu
build=$1 src=$2 prefix=$3 libdir=$4
command -v cmake >/dev/null && command -v pkg-config >/dev/null || { echo "no cmake or pkg-config"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
DESTDIR="$work/root" meson install -C "$build" --no-rebuild --quiet >/dev/null
root="$work/root$prefix"
case $libdir in /*) lib="$work/root$libdir" ;; *) lib="$root/$libdir" ;; esac

echo "== CMake"
cmake -S "$src/tests/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$root" -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; exit 1; }
cmake --build "$work/cmake" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/cmake/consumer_shared"
"$work/cmake/consumer_static"
# The version file: 0.1 is found, 0.2 and 1.0 are not (0.x: the minor version must match).
mkdir -p "$work/version"
cat >"$work/version/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(webnn_version C)
find_package(webnn 0.1 REQUIRED)
foreach(v 0.2 1.0)
  unset(webnn_FOUND)
  find_package(webnn ${v} QUIET)
  if(webnn_FOUND)
    message(FATAL_ERROR "find_package(webnn ${v}) accepted webnn ${webnn_VERSION}")
  endif()
endforeach()
CMAKE
cmake -S "$work/version" -B "$work/version/build" -DCMAKE_PREFIX_PATH="$root" >"$work/version.log" 2>&1 ||
  { cat "$work/version.log"; exit 1; }
echo "find_package(webnn 0.1) yes, 0.2 and 1.0 no"

echo "== pkg-config"
export PKG_CONFIG_PATH="$lib/pkgconfig"
cflags=$(pkg-config --define-variable=prefix="$root" --cflags webnn)
case $cflags in *HWY*) echo "webnn.pc's Cflags carry Highway's: $cflags"; exit 1 ;; esac
cc -std=c11 "$src/tests/consumer/consumer.c" -o "$work/pc_shared" $cflags \
  $(pkg-config --define-variable=prefix="$root" --libs webnn) -Wl,-rpath,"$lib"
"$work/pc_shared"
cc -std=c11 "$src/tests/consumer/consumer.c" -o "$work/pc_static" $cflags \
  "$lib/libwebnn.a" $(pkg-config --define-variable=prefix="$root" --static --libs-only-other --libs-only-l webnn | sed 's/-lwebnn//')
"$work/pc_static"
