#!/usr/bin/env bash
# A sanitizer pass of the test suite (scripts/test.sh, and so CI, runs --ci):
# the library, the Catch2 tests and the fuzz drivers built under
# AddressSanitizer + UndefinedBehaviorSanitizer (every report fatal, leaks
# included) into build-asan/. Then:
#   - every op family on cpu and on reference: the [device] tests (each kernel
#     against the reference device on random shapes, tails, broadcasting,
#     NaN/Inf, every data type) and the WPT conformance vectors;
#   - the api, io, memory, scheduler, placement, streaming, profile, C API,
#     log, oracle, graph-pass, robustness, DAOP (qos) and kernel-tuning tests
#     (every conv2d plan a tuning table can force, 4.5 s), on cpu;
#   - each fuzzer's standalone driver: its seeds and 3000 mutations.
# To keep it short (CI is the goal) the build is lean: -O1, the gpu device
# left out (the Vulkan driver is not instrumented), and the cpu kernels for one
# SIMD target (HWY_COMPILE_ONLY_STATIC, scripts/static-simd-flags.sh: AVX3_DL
# where the CPU has it, else AVX2, else the baseline); the other targets run
# uninstrumented in the main suite.
# The compiler is clang (SANITIZE_CXX, default clang++), so that CI builds with
# both compilers (the main build is GCC's) and runs the configuration of issue
# 13's int8 defect (clang 14, AVX3_DL as the static target). Without UBSan's
# pointer-overflow check: on the Highway kernels that check made clang 14 slow
# (elementwise_binary.cc: 189 s with it, 53 s without). The build and the --ci
# run took 9.7 minutes with clang on the 2-core Xeon (AVX3_DL); with GCC (AVX2)
# about 13 (build 9.5, cpu device + WPT 2.7, the rest under a minute).
# Usage: scripts/sanitize.sh [--ci | catch2 test spec, instead of the subset above]
# --ci: the subset scripts/test.sh (and so CI) runs: everything above but the
# reference device's own pass. Every op family's reference kernel still runs
# under the sanitizers, as the oracle of the cpu [device] tests; the pass on
# reference took 6 more minutes (GCC build, Xeon, 2 cores).
set -euo pipefail
devices="cpu reference"
if [ "${1:-}" = "--ci" ]; then
  devices="cpu"
  shift
fi
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-asan}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  simd=$(./scripts/static-simd-flags.sh)
  cxx=${SANITIZE_CXX:-clang++}
  extra=""
  case $cxx in clang*) extra="-fno-sanitize=pointer-overflow" ;; esac
  CC=$([ "${cxx#clang}" != "$cxx" ] && echo clang || echo gcc) CXX=$cxx \
    meson setup "$BUILD_DIR" --buildtype=plain -Dvulkan=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dcpp_args="-O1 -fno-omit-frame-pointer $extra -fno-sanitize-recover=all $simd" \
    -Dcpp_link_args="-fno-sanitize-recover=all"
fi
ninja -C "$BUILD_DIR" tests/webnn_tests fuzz/builder_fuzzer fuzz/capi_fuzzer fuzz/graph_file_fuzzer fuzz/npy_fuzzer \
  fuzz/weights_fuzzer
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
tests="$BUILD_DIR/tests/webnn_tests"
if [ $# -gt 0 ]; then
  exec "$tests" "$@"
fi
for device in $devices; do
  echo "== ASan+UBSan: [device] and [conformance] on $device"
  "$tests" --device "$device" "[device],[conformance]"
done
echo "== ASan+UBSan: api, io, memory, scheduler, placement, streaming, profile, C API, log, oracle, passes, robustness, qos, tune on cpu"
"$tests" --device cpu \
  "[api],[io],[memory],[scheduler],[placement],[streaming],[profile],[capi],[log],[oracle],[passes],[robustness],[qos],[tune]"
for t in builder:builder capi:capi graph_file:graph npy:npy weights:weights; do
  IFS=: read -r name corpus <<<"$t"
  echo "== ASan+UBSan: fuzz_$name (seeds + 3000 mutations)"
  "$BUILD_DIR/fuzz/${name}_fuzzer" "fuzz/corpus/$corpus" --mutations 3000
done
