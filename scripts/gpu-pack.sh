#!/usr/bin/env bash
# Packs what scripts/gpu-check.sh needs on a lent GPU machine (the `device`
# tool's `run`), which gets only the working tree and up to 64 MiB of carried
# paths and has no package registry: into .dev/ the test, bench and tool
# binaries (xz), the shared libraries they take from this machine that a bare
# image lacks (Highway, Google Benchmark), and the converted PP-OCR models
# with ONNX Runtime's outputs (what scripts/models.sh left in the build);
# into .gl/ the Vulkan loader and glvnd packages (the NVIDIA driver's ICD
# loads through glvnd). Both folders are git-ignored. Then, on the device:
#
#   run(command="bash scripts/gpu-check.sh --packed /tmp/gpu-check", carry=[".dev", ".gl"])
#
# (gpu-check.sh unpacks .dev and installs .gl through scripts/gpu-unpack.sh,
# then writes its reports to $OUT).
# Reads BUILD_DIR (default build, configured with -Dbenchmarks=true).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
cd "$ROOT"
rm -rf .dev && mkdir -p .dev/bin .dev/lib .gl
for f in tools/webnn tests/webnn_tests bench/webnn_gpu_bench; do
  [ -x "$BUILD/$f" ] || { echo "gpu-pack: $BUILD/$f missing (meson setup -Dbenchmarks=true, then ninja)" >&2; exit 1; }
  xz -T0 -3 -c "$BUILD/$f" > ".dev/bin/$(basename "$f").xz"
done
for lib in $(ldd "$BUILD/bench/webnn_gpu_bench" "$BUILD/tests/webnn_tests" | awk '/libhwy|libbenchmark/ {print $3}' | sort -u); do
  cp -L "$lib" .dev/lib/
done
MODELS=$BUILD/tests/models
if [ -f "$MODELS/det.json" ]; then
  # det_640 is det's graph and weights again under the bench's name: sent once.
  (cd "$MODELS" && tar cf - --exclude=det_640.weights --exclude='*.log' --exclude=ort_jobs.json . |
     xz -T0 -3 > "$ROOT/.dev/models.tar.xz")
else
  echo "gpu-pack: no converted models in $MODELS (scripts/models.sh): the model checks will be skipped" >&2
fi
apt_opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/gpu-pack-lists)
if ! ls .gl/libvulkan1_*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/gpu-pack-lists/partial
  apt-get "${apt_opts[@]}" update > /dev/null
  (cd .gl && apt-get "${apt_opts[@]}" download libvulkan1 libglvnd0 libegl1 libgl1 libglx0 libopengl0 libgles2)
fi
du -sh .dev .gl
echo "tracked files: $(git ls-files -z | xargs -0 stat -c %s | awk '{s += $1} END {printf "%.1f MiB", s / 1048576}') (with .dev and .gl: at most 64 MiB)"
