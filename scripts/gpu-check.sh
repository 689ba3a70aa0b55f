#!/usr/bin/env bash
# The gpu device on a real GPU, in one go: `webnn info`, the device test suite,
# the WPT conformance vectors, the PP-OCR models against ONNX Runtime's
# outputs, and webnn_gpu_bench. Each part has its own time limit, so that one
# that hangs or runs long leaves the rest their turn. For a machine lent for a
# few minutes (a session's `device` tool): build here, carry the binaries.
#
#   scripts/gpu-check.sh OUTDIR
#   scripts/gpu-check.sh --packed WORKDIR   (on a lent machine: scripts/gpu-pack.sh)
#
# Reads BUILD_DIR (default build): tools/webnn, tests/webnn_tests,
# bench/webnn_gpu_bench, and tests/models (what scripts/models.sh left there:
# the converted graphs, their inputs and ONNX Runtime's outputs in ort/).
# With --packed it first installs the Vulkan loader from .gl/, unpacks .dev/
# into WORKDIR as such a build and writes the reports to $OUT (the device
# tool's folder that comes back).
# BENCH_FILTER narrows the benchmarks; TEST_TIMEOUT, BENCH_TIMEOUT limit the
# suite and the benchmarks (seconds); SHARDS splits the suite into processes
# (default: the cores less two, at least 4). Writes OUTDIR/{info,tests,
# conformance,models,bench}.txt and bench.json; prints a summary.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --packed ]; then
  WORK=${2:?usage: scripts/gpu-check.sh --packed WORKDIR}
  OUT=${OUT:?--packed writes to the folder named by OUT (the device tool sets it)}
  source "$ROOT/scripts/gpu-unpack.sh" "$WORK"
else
  OUT=${1:?usage: scripts/gpu-check.sh OUTDIR}
fi
BUILD=${BUILD_DIR:-$ROOT/build}
MODELS=$BUILD/tests/models
mkdir -p "$OUT"

section() { echo; echo "== $1 ($(date +%T))"; }

section info
timeout 60 "$BUILD/tools/webnn" info > "$OUT/info.txt" 2>&1
sed -n '1,/^operator/p' "$OUT/info.txt" | head -20

section "device tests on gpu"
# In SHARDS processes, the test cases dealt round-robin: the suite is mostly
# host-side reference arithmetic, one core per process. On an H100's 16-core
# host the whole suite is ~520 s of test time, its longest case ~150 s
# (fused elementwise chains: a pipeline per chain).
SHARDS=${SHARDS:-$(( $(nproc) > 6 ? $(nproc) - 2 : 4 ))}
# (Catch2 reads each line of -f as a test spec: commas and brackets escaped.)
"$BUILD/tests/webnn_tests" --list-test-names-only "[device]" | sed -e '/^$/d' -e 's/[],[]/\\&/g' > "$OUT/test_names.txt"
rm -f "$OUT"/shard_*.txt
awk -v n="$SHARDS" -v dir="$OUT" '{ print > (dir "/shard_" (NR % n) ".names") }' "$OUT/test_names.txt"
pids=()
for f in "$OUT"/shard_*.names; do
  timeout "${TEST_TIMEOUT:-300}" "$BUILD/tests/webnn_tests" --device gpu -f "$f" -d yes > "${f%.names}.txt" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
cat "$OUT"/shard_*.txt > "$OUT/tests.txt"
rm -f "$OUT"/shard_*
echo "exit $rc ($(wc -l < "$OUT/test_names.txt") test cases in $SHARDS processes)"
grep -E "^(test cases|All tests)|FAILED|failed|SIG" "$OUT/tests.txt" | tail -25
# The ten slowest test cases.
grep -E "^[0-9.]+ s: " "$OUT/tests.txt" | sort -rn | head -10

section "WPT conformance on gpu"
timeout 300 "$BUILD/tools/webnn" conformance --device gpu --known-failures "$ROOT/tests/data/known_failures.json" "$ROOT"/tests/data/wpt/*.json > "$OUT/conformance.txt" 2>&1
echo "exit $?"
tail -4 "$OUT/conformance.txt"

section "PP-OCR models vs ONNX Runtime on gpu (max |ours - ORT| / max |ORT| <= 1e-4)"
: > "$OUT/models.txt"
for c in "det|det_x.npy|det_640x640|sigmoid_0.tmp_0" "det|det_x_480x800.npy|det_480x800|sigmoid_0.tmp_0" \
         "rec|rec_x.npy|rec|softmax_11.tmp_0" "cls|cls_x.npy|cls|softmax_0.tmp_0"; do
  IFS='|' read -r graph input ort out <<< "$c"
  [ -f "$MODELS/$graph.json" ] || { echo "$graph: $MODELS/$graph.json missing" | tee -a "$OUT/models.txt"; continue; }
  timeout 120 "$BUILD/tools/webnn" run --device gpu --iterations 20 "$MODELS/$graph.json" --input "x=$MODELS/$input" \
    --reference "$out=$MODELS/ort/$ort/$out.npy" --tolerance 1e-4 >> "$OUT/models.txt" 2>&1
  echo "$graph $ort: exit $?" | tee -a "$OUT/models.txt"
done
grep -E "max abs error|median|iterations" "$OUT/models.txt"

section "webnn_gpu_bench"
WEBNN_MODELS_DIR=$MODELS timeout "${BENCH_TIMEOUT:-300}" "$BUILD/bench/webnn_gpu_bench" \
  --benchmark_filter="${BENCH_FILTER:-.}" --benchmark_min_time="${BENCH_MIN_TIME:-0.2}" \
  --benchmark_out="$OUT/bench.json" --benchmark_out_format=json > "$OUT/bench.txt" 2>&1
echo "exit $?"
cat "$OUT/bench.txt"
