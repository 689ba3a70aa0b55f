#!/usr/bin/env bash
# Coverage-guided fuzzing of the file parsers with libFuzzer (clang), with
# address and undefined-behaviour sanitizers. Usage: scripts/fuzz.sh [SECONDS per target]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang CXX=clang++ meson setup build-fuzz --buildtype=debugoptimized -Dfuzzing=true -Dtests=true \
    -Db_sanitize=address,undefined -Db_lundef=false
fi
ninja -C build-fuzz fuzz/graph_file_fuzzer fuzz/npy_fuzzer fuzz/weights_fuzzer
for t in graph_file:graph npy:npy weights:weights; do
  name=${t%%:*}; corpus=${t##*:}
  mkdir -p "build-fuzz/corpus/$corpus"
  cp -n fuzz/corpus/"$corpus"/* "build-fuzz/corpus/$corpus/" 2>/dev/null || true
  ./build-fuzz/fuzz/${name}_fuzzer -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 "build-fuzz/corpus/$corpus"
done
