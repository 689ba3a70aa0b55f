#!/bin/bash
# Issue 12's decoder workload: ours (webnn run --device cpu) vs ONNX Runtime on form (a) and
# form (b), prefill (128 tokens, empty past) and decode (1 token after 512 cached), 1 and 2
# threads, ROUNDS interleaved rounds; prints the median of each configuration's per-round
# medians and the peak RSS. See bench/llm/README.md.
#
#   WEBNN=build/tools/webnn ROUNDS=3 bench/llm/bench.sh [WORKDIR]
# Environment: WEBNN (the webnn tool), ORT_NODE_MODULES (onnxruntime-node), ROUNDS (3),
# LAYERS (24), THREADS ("1 2"), DEC_IT / PRE_IT (iterations per run, 10 / 3).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=${1:-/tmp/llm-bench}
WEBNN=$(realpath "${WEBNN:-$ROOT/build/tools/webnn}")  # the script cds into WORKDIR
export ORT_NODE_MODULES=${ORT_NODE_MODULES:-$ROOT/bench/peers/node_modules}
ROUNDS=${ROUNDS:-3}
LAYERS=${LAYERS:-24}
THREADS=${THREADS:-1 2}
DEC_IT=${DEC_IT:-10}
PRE_IT=${PRE_IT:-3}
PY=/usr/bin/python3
mkdir -p "$W"
cd "$W"

# Models, graphs and inputs (kept between runs).
for f in a b; do
  [ -f llm_$f.onnx ] || $PY "$ROOT/scripts/gen_llm_decoder.py" --form $f --layers "$LAYERS" -o llm_$f.onnx
done
[ -f llm_a.json ] || $PY "$ROOT/scripts/onnx2webnn" -q llm_a.onnx -o llm_a.json --max-size sequence_length=128 \
  --max-size past_sequence_length=512 --max-size total_sequence_length=640
[ -f llm_a_p0.json ] || $PY "$ROOT/scripts/onnx2webnn" -q llm_a.onnx -o llm_a_p0.json \
  --dim past_sequence_length=0 --max-size sequence_length=128 --max-size total_sequence_length=128
[ -d in_dec ] || $PY "$ROOT/scripts/gen_llm_decoder.py" --layers "$LAYERS" --inputs in_dec --seq 1 --past 512
[ -d in_pre ] || $PY "$ROOT/scripts/gen_llm_decoder.py" --layers "$LAYERS" --inputs in_pre --seq 128 --past 0

ins() {  # ins DIR [skip-past]
  for x in "$1"/*.npy; do
    n=$(basename "$x" .npy)
    if [ -n "${2:-}" ] && [[ $n == past_* ]]; then continue; fi
    echo --input "$n=$x"
  done
}

ours() {  # ours WORKLOAD THREADS -> "ms rss_bytes"
  local out
  if [ "$1" = decode ]; then
    out=$("$WEBNN" run llm_a.json --device cpu --threads "$2" $(ins in_dec) --dim sequence_length=1 \
      --dim past_sequence_length=512 --dim total_sequence_length=513 --iterations "$DEC_IT" --memory 2>&1)
  else
    out=$("$WEBNN" run llm_a_p0.json --device cpu --threads "$2" $(ins in_pre skip) --dim sequence_length=128 \
      --dim total_sequence_length=128 --iterations "$PRE_IT" --memory 2>&1)
  fi
  echo "$out" | sed -n 's/.*over [0-9]* runs: median \([0-9.]*\) ms.*/\1/p' | tr '\n' ' '
  echo "$out" | sed -n 's/^process peak RSS: \([0-9]*\) bytes.*/\1/p'
}

ort() {  # ort FORM WORKLOAD THREADS -> "ms rss_bytes"
  local model=llm_$1.onnx cfg=() in=in_dec it=$DEC_IT warm=2 out
  [ "$1" = a ] && cfg=(--config session.qdq_matmulnbits_accuracy_level=1)
  [ "$2" = prefill ] && in=in_pre it=$PRE_IT warm=1
  out=$(/usr/bin/time -f "RSS %M" node "$ROOT/scripts/ort_run.js" bench "$model" $(ins $in) --threads "$3" \
    --iterations "$it" --warmup "$warm" "${cfg[@]}" 2>&1)
  echo "$out" | sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p' | tr '\n' ' '
  echo "$out" | sed -n 's/^RSS \([0-9]*\)/\1/p' | awk '{print $1 * 1024}'
}

RES=results.tsv
: > $RES
for r in $(seq "$ROUNDS"); do
  for wl in decode prefill; do
    for t in $THREADS; do
      echo "round $r $wl threads $t" >&2
      echo -e "$r\t$wl\t$t\tours\t$(ours $wl $t | tr ' ' '\t')" >> $RES
      echo -e "$r\t$wl\t$t\tort_a\t$(ort a $wl $t | tr ' ' '\t')" >> $RES
      echo -e "$r\t$wl\t$t\tort_b\t$(ort b $wl $t | tr ' ' '\t')" >> $RES
    done
  done
done

$PY - "$RES" <<'EOF'
import sys, collections, statistics
rows = collections.defaultdict(list)
rss = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, wl, t, who, ms, *rest = line.rstrip("\n").split("\t")
    if ms:
        rows[(wl, int(t), who)].append(float(ms))
    if rest and rest[0]:
        rss[(wl, who)].append(int(rest[0]))
print(f"{'workload':8} {'threads':>7} {'ours ms':>10} {'ORT (a) ms':>11} {'ORT (b) ms':>11} {'ours/best ORT':>14}   (median of rounds)")
for wl in ("decode", "prefill"):
    for t in sorted({k[1] for k in rows}):
        v = {who: statistics.median(rows[(wl, t, who)]) if rows[(wl, t, who)] else float("nan")
             for who in ("ours", "ort_a", "ort_b")}
        print(f"{wl:8} {t:7d} {v['ours']:10.1f} {v['ort_a']:11.1f} {v['ort_b']:11.1f} "
              f"{v['ours'] / min(v['ort_a'], v['ort_b']):14.2f}")
for (wl, who), v in sorted(rss.items()):
    print(f"peak RSS {wl:8} {who:6}: {max(v) / 2**20:8.0f} MiB")
EOF
