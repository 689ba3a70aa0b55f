#!/usr/bin/env bash
# Compiles every cpu kernel translation unit for aarch64 with Debian's cross
# compiler: Highway's NEON and SVE targets must build (we have no Arm machine
# to run them on). Not part of .ci/run (about 10 minutes on 2 cores).
#
#   scripts/check-arm-build.sh [-O3]     # optimization level, default -O2 (release builds use -O3)
set -euo pipefail
cd "$(dirname "$0")/.."
OPT=${1:--O2}
CXX=aarch64-linux-gnu-g++
if ! command -v "$CXX" >/dev/null; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y --no-install-recommends g++-aarch64-linux-gnu
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# Highway and nlohmann-json are header-only for compiling; the cross compiler
# must not see the host's other /usr/include headers.
mkdir -p "$OUT/inc" "$OUT/gen"
cp -r /usr/include/hwy "$OUT/inc/"
cp -r /usr/include/nlohmann "$OUT/inc/"
printf '#pragma once\n#define WEBNN_VERSION "arm-check"\n' > "$OUT/gen/webnn_version.h"
# The targets meson.build keeps on Arm: NEON and SVE (no SVE2/SVE_256 variants).
DISABLED='-DHWY_DISABLED_TARGETS=(HWY_SSSE3|HWY_SVE2|HWY_SVE_256|HWY_SVE2_128)'
# As meson.build on aarch64: GCC 12's SLP vectorizer crashes on some SVE code.
NO_SLP=-fno-tree-slp-vectorize
fails=0
for f in src/ops/cpu/*.cc; do
  if ! "$CXX" -std=c++20 "$OPT" -c "$f" -o "$OUT/$(basename "$f").o" -Iinclude -Isrc -I"$OUT/gen" \
      -isystem "$OUT/inc" "$DISABLED" "$NO_SLP" -Wno-psabi 2> "$OUT/err.txt"; then
    echo "FAIL $f"; grep -m5 error "$OUT/err.txt" || head -5 "$OUT/err.txt"
    fails=$((fails + 1))
  fi
done
echo "aarch64 (NEON, SVE) $OPT: $(ls src/ops/cpu/*.cc | wc -l) files, $fails failed"
[ "$fails" -eq 0 ]
