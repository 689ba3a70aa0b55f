#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: the Catch2
# tests (unit tests, every kernel against the reference device, the WPT
# conformance and validation suites) through `meson test`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
meson test -C build --print-errorlogs "$@"
