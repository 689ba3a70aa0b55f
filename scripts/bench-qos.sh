#!/bin/bash
# DAOP estimate accuracy (issue 11) in one command: fetches and converts the
# PP-OCR models if needed (scripts/models_common.sh), then per thread count
# calibrates the cpu device's cost model (`webnn calibrate`, timed) and
# compares `webnn estimate` (ours and the public polyfill's method) with
# measured medians on held-out graphs: PP-OCRv4 det at four sizes, rec, cls,
# and the peer table's MatMul and conv layers as one-op graphs
# (bench/qos/evaluate.py). Prints a markdown report.
#
#   scripts/bench-qos.sh [--device cpu|gpu] [--threads 1,2] [--iterations N] [--no-calibrate] [--filter TEXT] [--llm DIR]
#
# On a lent GPU machine (no npm there): after scripts/gpu-pack.sh here,
#   source scripts/gpu-unpack.sh /tmp/w && /usr/bin/env python3 bench/qos/evaluate.py \
#     --webnn /tmp/w/tools/webnn --models /tmp/w/tests/models --device gpu --threads 16
#
# --llm DIR adds the issue-12 decoder (decode and prefill) from the files
# bench/llm/bench.sh writes to DIR (/tmp/llm-bench by default).
#
# Exit status 77 (skipped) when npm, node or python3-onnx are unavailable.
set -euo pipefail
source "$(dirname "$0")/models_common.sh"
check_tools
find_webnn
fetch_models
prepare_models
exec "$PY" "$ROOT/bench/qos/evaluate.py" --webnn "$WEBNN" --models "$WORK" "$@"
