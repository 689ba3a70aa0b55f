#!/bin/bash
# Issue 12's quantized matvec: y = a x W, a [1, 4096], W [4096, 4096] int4 (block 32, float32
# scales), ours (webnn run --device cpu: the quantizedMatmul GEMV) vs ONNX Runtime on the
# DequantizeLinear + MatMul form at accuracy level 1 and on MatMulNBits (accuracy_level 1), 1 and
# 2 threads, ROUNDS interleaved rounds, plus our STREAM probe (membw_bench) each round. Prints the
# median time, the weight bytes' rate (int4 codes + scales: 10.5 MB) and its fraction of the
# probe's copy bandwidth at the same thread count. Also the opt-in int8-activation mode
# (webnn run --int8-activations, MLContextOptions::int8MatmulActivations) against ONNX Runtime's
# default (accuracy level 4: int8 activations too), with each one's error against the reference
# device (max |out - ref| / max |ref|).
#
#   WEBNN=build/tools/webnn ROUNDS=3 bench/llm/matvec.sh [WORKDIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=${1:-/tmp/llm-matvec}
WEBNN=$(realpath "${WEBNN:-$ROOT/build/tools/webnn}")  # the script cds into WORKDIR
MEMBW=${MEMBW:-$(dirname "$WEBNN")/../bench/probes/membw_bench}
export ORT_NODE_MODULES=${ORT_NODE_MODULES:-$ROOT/bench/peers/node_modules}
ROUNDS=${ROUNDS:-3}
IT=${IT:-200}
M=${M:-1} K=${K:-4096} N=${N:-4096}
PY=/usr/bin/python3
mkdir -p "$W"
cd "$W"
for f in a b; do
  [ -f mm_$f.onnx ] || $PY "$ROOT/bench/llm/gen_matmul_nbits.py" --form $f --m "$M" --k "$K" --n "$N" -o mm_$f.onnx
done
[ -f mm_a.json ] || $PY "$ROOT/scripts/onnx2webnn" -q mm_a.onnx -o mm_a.json
[ -d in ] || $PY "$ROOT/bench/llm/gen_matmul_nbits.py" --inputs in --m "$M" --k "$K"

RES=matvec.tsv
: > $RES
for r in $(seq "$ROUNDS"); do
  for t in 1 2; do
    echo "round $r threads $t" >&2
    ours=$("$WEBNN" run mm_a.json --device cpu --threads $t --input a=in/a.npy --iterations "$IT" 2>&1 |
      sed -n 's/.*over [0-9]* runs: median \([0-9.]*\) ms.*/\1/p')
    oa=$(node "$ROOT/scripts/ort_run.js" bench mm_a.onnx --input a=in/a.npy --threads $t --iterations "$IT" \
      --warmup 10 --config session.qdq_matmulnbits_accuracy_level=1 2>&1 | sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p')
    ob=$(node "$ROOT/scripts/ort_run.js" bench mm_b.onnx --input a=in/a.npy --threads $t --iterations "$IT" \
      --warmup 10 2>&1 | sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p')
    ours8=$("$WEBNN" run mm_a.json --device cpu --threads $t --input a=in/a.npy --iterations "$IT" \
      --int8-activations 2>&1 | sed -n 's/.*over [0-9]* runs: median \([0-9.]*\) ms.*/\1/p')
    oa4=$(node "$ROOT/scripts/ort_run.js" bench mm_a.onnx --input a=in/a.npy --threads $t --iterations "$IT" \
      --warmup 10 2>&1 | sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p')
    bw=$("$MEMBW" --benchmark_filter="membw/copy/16M/t:$t" --benchmark_min_time=0.2 2>&1 |
      sed -n 's/.*GB=\([0-9.]*\)\/s.*/\1/p' | head -1)
    echo -e "$r\t$t\t$ours\t$oa\t$ob\t$bw\t$ours8\t$oa4" >> $RES
  done
done

# Accuracy against the reference device (float64).
"$WEBNN" run mm_a.json --device reference --input a=in/a.npy --save acc_ref > /dev/null 2>&1
"$WEBNN" run mm_a.json --device cpu --input a=in/a.npy --save acc_ours > /dev/null 2>&1
"$WEBNN" run mm_a.json --device cpu --input a=in/a.npy --int8-activations --save acc_ours8 > /dev/null 2>&1
node "$ROOT/scripts/ort_run.js" run mm_a.onnx --input a=in/a.npy --out acc_ort4 > /dev/null 2>&1
node "$ROOT/scripts/ort_run.js" run mm_a.onnx --input a=in/a.npy --out acc_ort1 \
  --config session.qdq_matmulnbits_accuracy_level=1 > /dev/null 2>&1
$PY - <<'PYEOF'
import glob, numpy as np
ref = np.load(glob.glob("acc_ref/*.npy")[0]).astype(np.float64)
for name, d in [("ours (float activations)", "acc_ours"), ("ours --int8-activations", "acc_ours8"),
                ("ORT (a) level 1", "acc_ort1"), ("ORT (a) level 4 (default)", "acc_ort4")]:
    files = glob.glob(d + "/*.npy")
    if not files:
        print(f"{name}: no output"); continue
    x = np.load(files[0]).astype(np.float64).reshape(ref.shape)
    print(f"{name:28s} max |out - ref| / max |ref| = {np.abs(x - ref).max() / np.abs(ref).max():.2e}")
PYEOF

$PY - "$RES" "$K" "$N" <<'PYEOF'
import sys, statistics
k, n = int(sys.argv[2]), int(sys.argv[3])
weight_bytes = k * n / 2 + k // 32 * n * 4
rows = {}
for line in open(sys.argv[1]):
    r, t, *v = line.split()
    rows.setdefault(int(t), []).append([float(x) for x in v])
print(f"weights {weight_bytes / 1e6:.1f} MB (int4 codes + float32 scales), median of rounds")
print(f"{'threads':>7} {'ours ms':>9} {'ORT (a) ms':>11} {'ORT (b) ms':>11} {'best ORT/ours':>14} {'ours GB/s':>10} {'membw GB/s':>11} {'of membw':>9}")
meds = {t: [statistics.median(c) for c in zip(*vals)] for t, vals in sorted(rows.items())}
for t, (ours, oa, ob, bw, ours8, oa4) in meds.items():
    gbs = weight_bytes / ours / 1e6
    print(f"{t:7d} {ours:9.3f} {oa:11.3f} {ob:11.3f} {min(oa, ob) / ours:14.2f} {gbs:10.1f} {bw:11.1f} {gbs / bw:9.2f}")
print("int8 activations (ours --int8-activations; ORT (a) at its default accuracy level 4)")
print(f"{'threads':>7} {'ours ms':>9} {'ORT (a) L4 ms':>14} {'ORT/ours':>9} {'ours GB/s':>10} {'of membw':>9}")
for t, (ours, oa, ob, bw, ours8, oa4) in meds.items():
    gbs = weight_bytes / ours8 / 1e6
    print(f"{t:7d} {ours8:9.3f} {oa4:14.3f} {oa4 / ours8:9.2f} {gbs:10.1f} {gbs / bw:9.2f}")
PYEOF
