#!/bin/bash
# `webnn tune` end to end (no timing assertions): a quick tune of the example
# graph writes a webnn-tuning-table/1 file whose measured layers are the
# graph's conv2d layers with every candidate timed, whose choices are among
# them, and which a second run keeps merging into; --dry-run writes nothing;
# an unknown option fails with exit status 1 naming it.
# usage: tune_cli.sh WEBNN EXAMPLE_GRAPH WORK_DIR
set -u
webnn=$1 graph=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }

"$webnn" tune --quick --output "$work/table.json" "$graph" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "webnn tune"; }
grep -q "^tuned 2 layers (2 with a choice to measure)" "$work/out.txt" || { cat "$work/out.txt"; fail "report line"; }
python3 - "$work/table.json" <<'PY' || fail "table: $(cat "$work/table.json")"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["format"] == "webnn-tuning-table/1" and t["device"] == "cpu", t["format"]
assert t["machine"].startswith("Highway SIMD kernels, target "), t["machine"]
assert t["threads"] >= 1 and t["engineVersion"], t
layers = t["measuredMs"]
assert sorted(layers) == ["conv2d nchw 1x3x32x32 -> 8 k3x3 g1 s1,1 d1,1 p1,1,1,1",
                          "conv2d nchw 1x8x16x16 -> 16 k3x3 g1 s2,2 d1,1 p1,1,1,1"], sorted(layers)
for key, ms in layers.items():
    assert len(ms) >= 2 and all(v > 0 for v in ms.values()), (key, ms)
for key, choice in t["choices"].items():
    assert choice in layers[key], (key, choice)
PY

# A table that is not this machine's is replaced, not merged into.
python3 - "$work/table.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); t["machine"] = "another machine"; t["choices"] = {"conv2d x": "y"}
json.dump(t, open(sys.argv[1], "w"))
PY
"$webnn" tune --quick --output "$work/table.json" "$graph" >/dev/null 2>&1 || fail "second webnn tune"
python3 -c 'import json,sys; t = json.load(open(sys.argv[1])); assert "conv2d x" not in t["choices"] and t["machine"] != "another machine"' \
  "$work/table.json" || fail "another machine's table was merged into"

WEBNN_TUNING_FILE="$work/none.json" "$webnn" tune --quick --dry-run "$graph" >/dev/null 2>&1 || fail "--dry-run"
[ ! -e "$work/none.json" ] || fail "--dry-run wrote a table"

"$webnn" tune --bogus >/dev/null 2>"$work/err.txt"
[ $? -eq 1 ] && grep -q -- "--bogus" "$work/err.txt" || fail "unknown option: $(cat "$work/err.txt")"
echo "tune_cli: ok"
