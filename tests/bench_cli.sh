#!/bin/bash
# `webnn bench` end to end: a small matmul's --json line has every number
# positive (no timing assertions beyond that), an unknown op and a wrong
# operand count fail with exit status 1 and say what is wrong.
# usage: bench_cli.sh WEBNN WORK_DIR
set -u
webnn=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }

# 1. matmul 64x64x64: one JSON line; times, rates and peaks positive numbers.
"$webnn" bench matmul --shape 64,64 --const-shape 64,64 --samples 3 --json >"$work/matmul.json" \
  || { cat "$work/matmul.json"; fail "webnn bench matmul"; }
python3 - "$work/matmul.json" <<'PY' || fail "matmul --json: $(cat "$work/matmul.json")"
import json, math, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, f"{len(lines)} lines"
j = json.loads(lines[0])
for f in ["median_ms", "min_ms", "kernel_median_ms", "kernel_min_ms", "flops", "bytes", "gflops", "gbps",
          "peak_gflops", "peak_gbps", "peak_percent", "threads", "samples", "kernel_samples", "peak_vector_bits"]:
    v = j.get(f)
    assert isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0, f"{f}: {v!r}"
assert j["samples"] + j["disturbed"] >= 3 and j["kernel_samples"] + j["kernel_disturbed"] >= 3
assert j["flops"] == 2 * 64 * 64 * 64, j["flops"]
assert j["op"] == "matmul" and j["device"] == "cpu" and j["bound"] in ("flops", "bytes")
assert [o["shape"] for o in j["operands"]] == [[64, 64], [64, 64]] and j["outputs"] == [[64, 64]]
assert [o["constant"] for o in j["operands"]] == [False, True]
assert len(j["steps"]) >= 1 and j["steps"][0]["op"] == "matmul"
PY

# 2. The text report has the lines a reader looks for.
"$webnn" bench softmax --shape 8,16 --arg 1 --samples 2 >"$work/softmax.out" || fail "webnn bench softmax"
for line in "^op: softmax input float32 \[8, 16\] -> \[8, 16\]" "^dispatch + read: median" "^rate (" \
            "^peaks at [0-9]* threads: FMA" "% of the bandwidth peak"; do
  grep -q "$line" "$work/softmax.out" || { cat "$work/softmax.out"; fail "no line '$line'"; }
done

# 3. An unknown op: exit 1, says it is not a WebNN operation.
"$webnn" bench matmull --shape 4,4 --shape 4,4 >/dev/null 2>"$work/unknown.err"
[ $? -eq 1 ] || fail "unknown op: exit status should be 1"
grep -q "'matmull' is not one of the [0-9]* WebNN operations" "$work/unknown.err" || fail "unknown op: $(cat "$work/unknown.err")"

# 4. A wrong operand count: exit 1, names the op's parameters.
"$webnn" bench matmul --shape 4,4 >/dev/null 2>"$work/count.err"
[ $? -eq 1 ] || fail "one operand for matmul: exit status should be 1"
grep -q "matmul takes operands a, b" "$work/count.err" || fail "operand count: $(cat "$work/count.err")"
"$webnn" bench softmax --shape 4,4 >/dev/null 2>"$work/value.err"
[ $? -eq 1 ] && grep -q "values axis" "$work/value.err" || fail "missing --arg: $(cat "$work/value.err")"

# 5. --help describes the command.
"$webnn" bench --help | grep -q "usage: webnn bench OP" || fail "--help"
echo "bench_cli: all passed"
