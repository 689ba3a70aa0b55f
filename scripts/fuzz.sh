#!/usr/bin/env bash
# Coverage-guided fuzzing of the file parsers, the graph builder and the C API with libFuzzer (clang), with
# address and undefined-behaviour sanitizers.
#
#   scripts/fuzz.sh [SECONDS per target] [TARGET ...]   (targets: builder capi graph_file npy weights; default all)
#
# Campaigns resume from the corpus in build-fuzz/corpus/ and add up: each run's
# executions are appended to build-fuzz/executions.tsv, and the totals per
# target are printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
shift || true
WANTED=" ${*:-builder capi graph_file npy weights} "
# The lean instrumented build of scripts/sanitize.sh: -O1, the cpu kernels for
# one SIMD target, no gpu, no pointer-overflow check. Debugoptimized with every
# Highway target spent 17 minutes on conv2d.cc alone under clang 14.
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang CXX=clang++ meson setup build-fuzz --buildtype=plain -Dfuzzing=true -Dtests=true -Dvulkan=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dcpp_args="-O1 -fno-omit-frame-pointer -fno-sanitize=pointer-overflow $(./scripts/static-simd-flags.sh)"
fi
ninja -C build-fuzz fuzz/builder_fuzzer fuzz/capi_fuzzer fuzz/graph_file_fuzzer fuzz/npy_fuzzer fuzz/weights_fuzzer
# The graph fuzzer gets a dictionary (JSON tokens, webnn-graph keys) and inputs
# up to 256 KiB: a stack overflow on deep nesting needs thousands of levels,
# which libFuzzer never built while inputs stayed under 4 KiB without tokens.
#
# The builder and C API fuzzers run without libFuzzer's entropic schedule and
# its per-input leak check, then replay their corpus with leak detection (per
# input until libFuzzer sees the engine's caches grow and stops, then
# LeakSanitizer's whole-process check at exit).
# Both cost them more than the inputs themselves: the engine's caches make
# every input allocate more than it frees, so libFuzzer ran a full leak scan
# after each one, and the entropic bookkeeping over their ~40-60K features
# took most of the rest (builder 35 -> 500 exec/s, C API 85 -> 500).
for t in builder:builder:4096::fast capi:capi:4096::fast graph_file:graph:262144:fuzz/graph.dict: npy:npy:65536:: \
  weights:weights:65536::; do
  IFS=: read -r name corpus max_len dict speed <<<"$t"
  [[ "$WANTED" == *" $name "* ]] || continue
  mkdir -p "build-fuzz/corpus/$corpus"
  cp -n fuzz/corpus/"$corpus"/* "build-fuzz/corpus/$corpus/" 2>/dev/null || true
  fuzzer=./build-fuzz/fuzz/${name}_fuzzer
  # Crashes, leaks and slow inputs go to build-fuzz/artifacts/, not the checkout.
  mkdir -p build-fuzz/artifacts
  status=0
  # Allocation and free stacks of 2 frames, not 30: unwinding them at every
  # malloc was ~10 % of the builder and C API fuzzers' time. A crash's own
  # stack stays whole; replay an artifact without this for full heap stacks.
  ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=2} $fuzzer -max_total_time="$SECONDS_PER_TARGET" -max_len="$max_len" ${dict:+-dict="$dict"} \
    -artifact_prefix=build-fuzz/artifacts/ \
    ${speed:+-entropic=0 -detect_leaks=0} -print_final_stats=1 "build-fuzz/corpus/$corpus" 2>&1 |
    tee "build-fuzz/$name.log" || status=$?
  # A crash ends the campaign, after its executions are counted.
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$name.log")
  printf '%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "${runs:-0}" >>build-fuzz/executions.tsv
  [ "$status" = 0 ] || exit "$status"
  if [ -n "$speed" ]; then
    $fuzzer -runs=0 -detect_leaks=1 -max_len="$max_len" -artifact_prefix=build-fuzz/artifacts/ \
      "build-fuzz/corpus/$corpus"
  fi
done
echo "executions per target, all campaigns in build-fuzz/executions.tsv:"
awk -F'\t' '{n[$2] += $3} END {for (t in n) printf "  %-10s %d\n", t, n[t]}' build-fuzz/executions.tsv
