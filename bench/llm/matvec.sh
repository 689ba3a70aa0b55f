#!/bin/bash
# Issue 12's quantized matvec: y = a x W, a [1, 4096], W [4096, 4096] int4 (block 32, float32
# scales), ours (webnn run --device cpu: the quantizedMatmul GEMV) vs ONNX Runtime on the
# DequantizeLinear + MatMul form at accuracy level 1 and on MatMulNBits (accuracy_level 1), 1 and
# 2 threads, ROUNDS interleaved rounds, plus our STREAM probe (membw_bench) each round. Prints the
# median time, the weight bytes' rate (int4 codes + scales: 10.5 MB) and its fraction of the
# probe's copy bandwidth at the same thread count.
#
#   WEBNN=build/tools/webnn ROUNDS=3 bench/llm/matvec.sh [WORKDIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=${1:-/tmp/llm-matvec}
WEBNN=${WEBNN:-$ROOT/build/tools/webnn}
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
    bw=$("$MEMBW" --benchmark_filter="membw/copy/16M/t:$t" --benchmark_min_time=0.2 2>&1 |
      sed -n 's/.*GB=\([0-9.]*\)\/s.*/\1/p' | head -1)
    echo -e "$r\t$t\t$ours\t$oa\t$ob\t$bw" >> $RES
  done
done

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
for t, vals in sorted(rows.items()):
    med = [statistics.median(c) for c in zip(*vals)]
    ours, oa, ob, bw = med
    gbs = weight_bytes / ours / 1e6
    print(f"{t:7d} {ours:9.3f} {oa:11.3f} {ob:11.3f} {min(oa, ob) / ours:14.2f} {gbs:10.1f} {bw:11.1f} {gbs / bw:9.2f}")
PYEOF
