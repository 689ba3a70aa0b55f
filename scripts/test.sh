#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: the Catch2
# tests (unit tests, every kernel against the reference device, the WPT
# conformance and validation suites) through `meson test`, then the minimal
# build's check (scripts/check-minimal.sh) and the sanitizer pass
# (scripts/sanitize.sh --ci).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
meson test -C build --print-errorlogs "$@"
# The minimal embedded build (-Dfile_io=false) builds, links statically and
# runs a convolution (scripts/check-minimal.sh; ~15 s after the main build,
# whose objects ccache reuses).
./scripts/check-minimal.sh
# The AddressSanitizer + UndefinedBehaviorSanitizer pass (a lean clang build
# in build-asan/, ~10 minutes on 2 cores; scripts/sanitize.sh says what it runs).
# WEBNN_SKIP_SANITIZE=1 leaves it out of a quick local run.
if [ "${WEBNN_SKIP_SANITIZE:-0}" != 1 ]; then
  ./scripts/sanitize.sh --ci
fi
