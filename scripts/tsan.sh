#!/usr/bin/env bash
# The concurrency tests under ThreadSanitizer: the library and the tests built
# with -fsanitize=thread into build-tsan/, then the scheduler, placement,
# streaming, api and qos (monitors called back from dispatch threads, the
# process tuning table) tests on cpu and reference, halting on the first
# report. 16.6 minutes on the 2-core Xeon, build included; no report.
# [memory] is left out: its 100 GB weightless graphs exhaust TSan's allocator.
# Lean like scripts/sanitize.sh: -O1, the gpu device left out (the Vulkan driver
# is not instrumented), the cpu kernels for one SIMD target
# (HWY_COMPILE_ONLY_STATIC). Usage: scripts/tsan.sh [catch2 test spec]
set -euo pipefail
cd "$(dirname "$0")/.."
SPEC=${1:-"[scheduler],[placement],[streaming],[api],[qos]"}
BUILD_DIR=${BUILD_DIR:-build-tsan}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  simd=$(./scripts/static-simd-flags.sh)
  meson setup "$BUILD_DIR" --buildtype=plain -Db_sanitize=thread -Dvulkan=disabled \
    -Dcpp_args="-O1 $simd"
fi
ninja -C "$BUILD_DIR" tests/webnn_tests
for device in cpu reference; do
  echo "== ThreadSanitizer, $device: $SPEC"
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 "./$BUILD_DIR/tests/webnn_tests" --device "$device" "$SPEC"
done
