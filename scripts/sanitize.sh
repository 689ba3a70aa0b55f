#!/usr/bin/env bash
# The sanitizer pass of the test suite (scripts/test.sh runs it, so CI does):
# the library, the Catch2 tests and the fuzz drivers built with clang (so CI
# builds with both compilers) under AddressSanitizer + UndefinedBehaviorSanitizer
# (every report fatal, leaks included), into build-asan/. Then:
#   - every op family on cpu and on reference: the [device] tests (each kernel
#     against the reference device on random shapes, tails, broadcasting,
#     NaN/Inf, every data type) and the WPT conformance vectors;
#   - the api, io, memory, scheduler, placement, streaming, profile and
#     C API tests, on cpu;
#   - each fuzzer's standalone driver: its seeds and 3000 mutations.
# To keep CI under 30 minutes on 2 cores the build is lean: -O1, the gpu device
# left out (the Vulkan driver is not instrumented), and the cpu kernels for one
# SIMD target (HWY_COMPILE_ONLY_STATIC: AVX2 where the CPU has it, else the
# baseline); the other targets run uninstrumented in the main suite.
# Usage: scripts/sanitize.sh [catch2 test spec, instead of the subset above]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-asan}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  march=""
  if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw f16c /proc/cpuinfo; then
    march="-march=x86-64-v3"
  fi
  CC=clang CXX=clang++ meson setup "$BUILD_DIR" --buildtype=plain -Dvulkan=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dcpp_args="-O1 -fno-omit-frame-pointer -fno-sanitize-recover=all -DHWY_COMPILE_ONLY_STATIC=1 $march" \
    -Dcpp_link_args="-fno-sanitize-recover=all"
fi
ninja -C "$BUILD_DIR" tests/webnn_tests fuzz/builder_fuzzer fuzz/graph_file_fuzzer fuzz/npy_fuzzer fuzz/weights_fuzzer
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
tests="$BUILD_DIR/tests/webnn_tests"
if [ $# -gt 0 ]; then
  exec "$tests" "$@"
fi
for device in cpu reference; do
  echo "== ASan+UBSan: [device] and [conformance] on $device"
  "$tests" --device "$device" "[device],[conformance]"
done
echo "== ASan+UBSan: api, io, memory, scheduler, placement, streaming, profile, C API on cpu"
"$tests" --device cpu "[api],[io],[memory],[scheduler],[placement],[streaming],[profile],[capi]"
for t in builder:builder graph_file:graph npy:npy weights:weights; do
  IFS=: read -r name corpus <<<"$t"
  echo "== ASan+UBSan: fuzz_$name (seeds + 3000 mutations)"
  "$BUILD_DIR/fuzz/${name}_fuzzer" "fuzz/corpus/$corpus" --mutations 3000
done
