#!/usr/bin/env bash
# Peak RSS of `webnn run` (load + build + first dispatch) on graphs whose weights
# are MatMul chains (bench/memory/make_matmul_chain.py), on the cpu and reference
# devices, against issue 9's target: peak <= packed weights + the largest single
# tensor + 64 MiB of runtime (cpu); the same without a packed copy (reference).
#
#   bench/memory/weights_rss.sh [BUILD_DIR] [DATA_DIR]
#
# BUILD_DIR defaults to build/, DATA_DIR to /tmp/webnn-weights-rss (about 1.9 GB
# of generated files, written once and reused). WEBNN_RSS_CASES limits the
# cases (e.g. "f32_256m int4_16"); WEBNN_RSS_DEVICES the devices;
# WEBNN_RSS_MODES how the weights arrive (map, stream).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
data=${2:-/tmp/webnn-weights-rss}
webnn=$build/tools/webnn
py=/usr/bin/python3; [ -x "$py" ] || py=python3
cases=${WEBNN_RSS_CASES:-"f32_256m f32_1g int4_16 st_256m"}
devices=${WEBNN_RSS_DEVICES:-"cpu reference"}
# How the weights arrive: "map" (constants are views of the mapped file, packed
# at build) or "stream" (built weightless, then streamed from the mapping
# through MLConstantWriter in 4 MiB chunks, webnn#901; packed as each closes).
modes=${WEBNN_RSS_MODES:-"map stream"}
mkdir -p "$data"

# name -> generator arguments
gen_args() {
  case $1 in
    f32_256m) echo "--layers 4" ;;
    f32_1g) echo "--layers 16" ;;
    int4_16) echo "--layers 16 --type int4" ;;
    st_256m) echo "--layers 4 --format safetensors" ;;
    *) echo "unknown case $1" >&2; exit 2 ;;
  esac
}
weights_file() { if [ -f "$data/$1.safetensors" ]; then echo "$data/$1.safetensors"; else echo "$data/$1.weights"; fi; }

echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
echo "tree: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$here" diff --quiet 2>/dev/null || echo ' (modified)')"
# The runtime part of every peak: the process with a graph of a few KiB of
# weights (libraries, thread stacks; a Vulkan driver when the gpu device is
# present, e.g. lavapipe's ~60 MiB, even with --device cpu).
for d in $devices; do
  base=$(/usr/bin/time -v "$webnn" run --device "$d" "$here/../../examples/tiny_cnn.json" 2>&1 >/dev/null |
         awk -F: '/Maximum resident set size/{gsub(/ /,"",$2); print int($2 / 1024)}')
  echo "runtime: webnn run of examples/tiny_cnn.json on $d peaks at $base MiB"
done
printf '| %-9s | %-9s | %-6s | %12s | %13s | %14s | %8s | %s |\n' graph device load "weights MiB" "peak RSS MiB" "peak/weights" "target MiB" "met"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' ----------- ----------- -------- -------------- --------------- ---------------- ------------ -----
for c in $cases; do
  if [ ! -f "$data/$c.json" ]; then
    # shellcheck disable=SC2046
    $py "$here/make_matmul_chain.py" $(gen_args "$c") "$data/$c" >&2
  fi
  wbytes=$(stat -c %s "$(weights_file "$c")")
  wmib=$((wbytes / 1048576))
  # The largest single tensor: a 4096x4096 float32 layer (the int4 chain's
  # dequantized B is that size too).
  largest=64
  for d in $devices; do
    # What the device retains of the weights ("packed weights" in the
    # target). cpu: float32 matmul B packed into panels (4096 is a multiple of
    # every panel width, so as large as the raw bytes, which are released);
    # int4: the int4 B stays raw (dequantizeLinear reads it at run; the
    # dequantized B is an intermediate) and the scales and zero points are
    # converted to float32 at compile time (2 x 4 bytes x 128 x 4096 a layer).
    # reference: the raw weights, nothing packed.
    packed=$wmib
    if [ "$d" = cpu ] && [ "${c#int4}" != "$c" ]; then
      layers=$(gen_args "$c" | awk '{print $2}')
      packed=$((layers * (8 + 4)))
    fi
    target=$((packed + largest + 64))
    for mode in $modes; do
      stream=(); [ "$mode" = stream ] && stream=(--stream-weights 4194304)
      log=$(mktemp)
      if ! /usr/bin/time -v "$webnn" run --device "$d" "${stream[@]}" "$data/$c.json" >"$log.out" 2>"$log"; then
        echo "webnn run failed on $c/$d/$mode:" >&2; cat "$log.out" "$log" >&2; exit 1
      fi
      rss_kb=$(awk -F: '/Maximum resident set size/{gsub(/ /,"",$2); print $2}' "$log")
      rss=$((rss_kb / 1024))
      ratio=$(awk -v r="$rss" -v w="$wmib" 'BEGIN{printf "%.2fx", r / w}')
      met=no; [ "$rss" -le "$target" ] && met=yes
      printf '| %-9s | %-9s | %-6s | %12d | %13d | %14s | %10d | %s |\n' "$c" "$d" "$mode" "$wmib" "$rss" "$ratio" "$target" "$met"
      rm -f "$log" "$log.out"
    done
  done
done
