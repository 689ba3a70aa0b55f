#!/bin/bash
# `webnn oracle` and `webnn conformance --candidate-dir` end to end, with the
# candidates made by this engine's device under test ($2): they PASS, a
# perturbed one FAILs (exit 1), usage errors exit 2 naming the valid names.
# usage: oracle_cli.sh WEBNN DEVICE SOURCE_ROOT WORK_DIR
set -u
webnn=$1 device=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
graph=$src/examples/tiny_cnn.json input=$src/examples/tiny_cnn.input.npy
wpt=$src/tests/data/wpt
fail() { echo "FAILED: $*"; exit 1; }

# Flips bit BIT of float32 element INDEX of a little-endian .npy in place
# (the data starts after the 10-byte preamble and the header).
flip_bit() {
  python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
path, index, bit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = bytearray(open(path, 'rb').read())
start = 10 + struct.unpack('<H', data[8:10])[0]
(v,) = struct.unpack_from('<I', data, start + 4 * index)
struct.pack_into('<I', data, start + 4 * index, v ^ (1 << bit))
open(path, 'wb').write(bytes(data))
PY
}

# 1. A candidate from `webnn run --save` passes.
"$webnn" run "$graph" --device "$device" --input image="$input" --save "$work/cand" >/dev/null || fail "webnn run"
"$webnn" oracle "$graph" --input image="$input" --candidate probabilities="$work/cand/probabilities.npy" \
  --save-float64 "$work/truth" >"$work/pass.out"
[ $? -eq 0 ] || { cat "$work/pass.out"; fail "oracle on the $device candidate should PASS"; }
grep -q "PASS" "$work/pass.out" || fail "no PASS line"
grep -q "ULP histogram" "$work/pass.out" || fail "no histogram"
head -c 60 "$work/truth/probabilities.npy" | grep -q "'descr': '<f8'" || fail "--save-float64 is not float64"

# 2. The same candidate with one element 2^16 ULP off fails.
cp "$work/cand/probabilities.npy" "$work/bad.npy" && flip_bit "$work/bad.npy" 3 16
"$webnn" oracle "$graph" --input image="$input" --candidate probabilities="$work/bad.npy" >"$work/fail.out"
[ $? -eq 1 ] || { cat "$work/fail.out"; fail "a perturbed candidate should FAIL with exit 1"; }
grep -q "FAIL" "$work/fail.out" || fail "no FAIL line"
grep -q "1 of 10 elements outside the tolerance" "$work/fail.out" || { cat "$work/fail.out"; fail "not one element out"; }

# 3. Usage errors exit 2 and name the valid names.
"$webnn" oracle "$graph" --input image="$input" --candidate nope="$work/bad.npy" 2>"$work/err.out"
[ $? -eq 2 ] && grep -q "no output 'nope'.*'probabilities'" "$work/err.out" || fail "unknown candidate: $(cat "$work/err.out")"
"$webnn" oracle "$graph" --input img="$input" --candidate probabilities="$work/bad.npy" 2>"$work/err.out"
[ $? -eq 2 ] && grep -q "no input 'img'.*'image'" "$work/err.out" || fail "unknown input: $(cat "$work/err.out")"
"$webnn" oracle "$graph" --input image="$input" --candidate probabilities="$input" 2>"$work/err.out"
[ $? -eq 2 ] && grep -q "shape" "$work/err.out" || fail "shape mismatch: $(cat "$work/err.out")"

# 4. Conformance: the device's outputs written, then scored: all pass.
files="$wpt/relu.json $wpt/conv2d.json $wpt/quantizeLinear.json"
"$webnn" conformance --device "$device" --write-candidates "$work/wpt" --write-inputs "$work/wpt" $files >/dev/null \
  || fail "write-candidates"
"$webnn" conformance --candidate-dir "$work/wpt" $files >"$work/score.out"
[ $? -eq 0 ] && grep -q " 0 failed, 0 skipped, 0 missing" "$work/score.out" || { cat "$work/score.out"; fail "scoring"; }
# DIR/<file stem>/<case index>-<case name, [A-Za-z0-9._-] kept, others '_'>/<output>.npy
expected=$(python3 -c 'import json,re,sys; t=json.load(open(sys.argv[1]))["tests"][2]
print("2-" + re.sub(r"[^A-Za-z0-9._-]", "_", t["name"]) + "/" + list(t["expectedOutputs"])[0] + ".npy")' "$wpt/conv2d.json")
[ -f "$work/wpt/conv2d/$expected" ] || fail "naming: no $expected"
ls "$work/wpt/conv2d/0-"*/inputs/*.npy >/dev/null || fail "no inputs written"

# 5. One corrupted value fails its case, by name; a deleted file is missing.
case_name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"][3]["name"])' "$wpt/conv2d.json")
flip_bit "$(ls "$work/wpt/conv2d/3-"*/*.npy)" 0 20
rm "$work/wpt/relu/0-"*/*.npy
"$webnn" conformance --candidate-dir "$work/wpt" --verbose $files >"$work/score2.out"
[ $? -eq 1 ] || { cat "$work/score2.out"; fail "a corrupted case should fail the run"; }
[ "$(grep -c '^FAIL' "$work/score2.out")" = 1 ] && grep -qF "conv2d.json | $case_name |" "$work/score2.out" \
  || { cat "$work/score2.out"; fail "the corrupted case is not the one failing"; }
grep -q ", 1 missing" "$work/score2.out" && grep -q "^MISSING .*relu.json" "$work/score2.out" || fail "missing case"
echo "oracle CLI: all checks passed on $device"
