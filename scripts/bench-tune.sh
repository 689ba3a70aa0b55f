#!/usr/bin/env bash
# What kernel tuning gains (issue 11): `webnn tune` on the PP-OCR det (640x640),
# rec and cls graphs and on the peer table's conv layers, into a table of its
# own; then each model, and each conv layer of the peer table (webnn_peer_bench,
# nchw and nhwc), run with the table and without it (WEBNN_TUNING=off: the
# built-in model's choices), interleaved over rounds at 1 and 2 threads. Prints
# medians and the ratio tuned / model (below 1: tuning made it faster).
#
#   scripts/bench-tune.sh [--rounds 5] [--iterations 10] [--threads 1,2] [--table FILE] [--webnn PATH]
#                         [--no-peers]
#
# --table FILE uses (and keeps) that table; by default one is tuned into a
# temporary file, so the machine's own table (~/.cache/webnn/tune-cpu.json) is
# left alone.
set -uo pipefail
source "$(dirname "$0")/models_common.sh"

ROUNDS=5
ITERATIONS=10
THREADS=1,2
TABLE=
PEERS_AB=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    --iterations) ITERATIONS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --table) TABLE="$2"; shift 2 ;;
    --webnn) WEBNN="$2"; shift 2 ;;
    --no-peers) PEERS_AB=0; shift ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

check_tools
find_webnn
fetch_models
prepare_models

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -n "$TABLE" ] || TABLE="$TMP/tune-cpu.json"
if [ ! -f "$TABLE" ]; then
  # (the tuner's own check: each graph tuned against the model's choices, in one process)
  WEBNN_TUNING_FILE="$TABLE" "$WEBNN" tune "$WORK/det_640.json" "$WORK/rec.json" "$WORK/cls.json" 2>/dev/null |
    grep -E "dispatches interleaved|^tuned|^tuning table"
  WEBNN_TUNING_FILE="$TABLE" "$WEBNN" tune 2>/dev/null | grep -E "^tuned|^tuning table"  # the peer table's layers
fi

median_ms() {  # graph input threads, with the environment given
  "$WEBNN" run --threads "$3" --iterations "$ITERATIONS" "$WORK/$1.json" --input "x=$WORK/$2" 2>/dev/null |
    sed -n 's/.*median \([0-9.]*\) ms.*/\1/p'
}
mid() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
echo "| model | threads | model's choices (ms) | tuned (ms) | tuned / model |"
echo "|---|---|---|---|---|"
for t in ${THREADS//,/ }; do
  for case in "det_640 det_x.npy" "rec rec_x.npy" "cls cls_x.npy"; do
    set -- $case
    : > "$TMP/off" ; : > "$TMP/on"
    for _ in $(seq "$ROUNDS"); do
      WEBNN_TUNING=off median_ms "$1" "$2" "$t" >> "$TMP/off"
      WEBNN_TUNING_FILE="$TABLE" median_ms "$1" "$2" "$t" >> "$TMP/on"
    done
    off=$(mid < "$TMP/off"); on=$(mid < "$TMP/on")
    awk -v m="$1" -v t="$t" -v a="$off" -v b="$on" 'BEGIN { printf "| %s | %s | %.2f | %.2f | %.2f |\n", m, t, a, b, b / a }'
  done
done

[ "$PEERS_AB" = 1 ] || exit 0
PEER_BENCH="$(dirname "$WEBNN")/../bench/peer_tools/webnn_peer_bench"
[ -x "$PEER_BENCH" ] || { echo "no $PEER_BENCH (configure with -Dbenchmarks=true)"; exit 0; }
for r in $(seq "$ROUNDS"); do
  WEBNN_TUNING=off "$PEER_BENCH" --benchmark_filter='^peer(_nhwc)?/conv/' --benchmark_min_time=0.2 \
    --benchmark_format=json 2>/dev/null > "$TMP/peer_off_$r.json"
  WEBNN_TUNING_FILE="$TABLE" "$PEER_BENCH" --benchmark_filter='^peer(_nhwc)?/conv/' --benchmark_min_time=0.2 \
    --benchmark_format=json 2>/dev/null > "$TMP/peer_on_$r.json"
done
echo
echo "| peer-table conv layer | layout | threads | model's choices (ms) | tuned (ms) | tuned / model |"
echo "|---|---|---|---|---|---|"
python3 - "$TMP" "$ROUNDS" <<'PY'
import json, statistics, sys, re
tmp, rounds = sys.argv[1], int(sys.argv[2])
def load(kind):
    out = {}
    for r in range(1, rounds + 1):
        for b in json.load(open(f"{tmp}/peer_{kind}_{r}.json"))["benchmarks"]:
            out.setdefault(b["name"], []).append(b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0}[b["time_unit"]])
    return out
off, on = load("off"), load("on")
for name in off:
    m = re.match(r"(peer|peer_nhwc)/conv/([^/]+)/t:(\d+)", name)
    a, b = statistics.median(off[name]), statistics.median(on[name])
    print(f"| {m.group(2)} | {'nhwc' if m.group(1) == 'peer_nhwc' else 'nchw'} | {m.group(3)} | {a:.3f} | {b:.3f} | {b / a:.2f} |")
PY
