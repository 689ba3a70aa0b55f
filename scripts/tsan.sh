#!/usr/bin/env bash
# The concurrency tests under ThreadSanitizer: the whole library built with
# -fsanitize=thread (build-tsan/, the gpu device left out: the Vulkan driver is
# not instrumented), then the scheduler, placement, streaming and api tests
# ([memory] is left out: its 100 GB weightless graphs exhaust TSan's allocator),
# halting on the first report. Too long for CI on 2 cores (the build alone is
# ~25 minutes there); CI runs the pool alone under TSan (meson test
# scheduler_tsan). Usage: scripts/tsan.sh [catch2 test spec]
set -euo pipefail
cd "$(dirname "$0")/.."
SPEC=${1:-"[scheduler],[placement],[streaming],[api]"}
if [ ! -f build-tsan/build.ninja ]; then
  meson setup build-tsan --buildtype=debugoptimized -Db_sanitize=thread -Dvulkan=disabled
fi
ninja -C build-tsan tests/webnn_tests
for device in cpu reference; do
  echo "== $device: $SPEC"
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ./build-tsan/tests/webnn_tests --device "$device" "$SPEC"
done
