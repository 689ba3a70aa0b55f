#!/usr/bin/env bash
# The main job on a built-in default: installs what is missing, builds, and runs
# the example image classifier (examples/tiny_cnn.json) on the default device,
# checking its output against the NumPy float64 result shipped with it.
# Any `webnn run` options may follow, e.g. scripts/run.sh --device reference
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
exec ./build/tools/webnn run examples/tiny_cnn.json \
  --input image=examples/tiny_cnn.input.npy \
  --reference probabilities=examples/tiny_cnn.expected.npy --tolerance 1e-5 "$@"
