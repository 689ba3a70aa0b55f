#!/usr/bin/env bash
# The peer comparison in one command: our kernels vs ONNX Runtime (npm
# onnxruntime-node, CPU EP), Eigen (matmul) and oneDNN (conv2d and matmul;
# Debian's libdnnl), plus memory-bandwidth and FMA-peak probes, run interleaved and written
# as a table between the peers markers of bench/README.md.
#
#   scripts/bench-peers.sh                      # everything, 3 rounds (~10 min on 2 cores)
#   scripts/bench-peers.sh --rounds 1 --families matmul --filter sq1024
#   BUILD_DIR=build-x scripts/bench-peers.sh    # another build directory (default: build)
#
# Installs what it lacks: Debian packages via scripts/setup.sh (python3-onnx,
# libeigen3-dev, libbenchmark-dev), libdnnl-dev via apt-get here (not in
# setup.sh: CI has no use for it), onnxruntime-node into bench/peers/
# (git-ignored, --ignore-scripts: the CPU library ships in the package), the
# single-op ONNX models into bench/peers/models/; builds the benchmark targets.
# Options after the script name go to bench/peer_tools/run_peers.py (--help).
# Set PEERS_NO_README=1 to leave bench/README.md alone (the table still goes to
# bench/peers/results/), PEERS_NO_BUILD=1 to run the binaries already built
# (e.g. while someone's half-written kernel breaks the build).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
PY=/usr/bin/python3  # Debian's, with python3-onnx; a pyenv python3 on PATH lacks onnx
PEERS=bench/peers
ORT_NODE_VERSION=${ORT_NODE_VERSION:-1.30.0}

if ! "$PY" -c 'import onnx, numpy' 2>/dev/null || ! pkg-config --exists eigen3 benchmark; then
  ./scripts/setup.sh
fi
# oneDNN only for this comparison; without it the oneDNN columns read
# "onednn_peer_bench not built" and the rest still runs.
if [ ! -f /usr/include/oneapi/dnnl/dnnl.hpp ] && command -v apt-get >/dev/null; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libdnnl-dev; } ||
    echo "bench-peers: could not install libdnnl-dev; running without oneDNN" >&2
fi
command -v node >/dev/null && command -v npm >/dev/null || { echo "bench-peers: needs node and npm" >&2; exit 1; }

if [ ! -f "$PEERS/node_modules/onnxruntime-node/package.json" ]; then
  mkdir -p "$PEERS"
  [ -f "$PEERS/package.json" ] || echo '{"name":"webnn-peers","private":true}' > "$PEERS/package.json"
  npm install --prefix "$PEERS" --ignore-scripts --no-audit --no-fund "onnxruntime-node@$ORT_NODE_VERSION"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  meson setup "$BUILD_DIR" --buildtype=release -Dbenchmarks=true
elif ! meson introspect "$BUILD_DIR" --buildoptions | "$PY" -c \
    'import json,sys; sys.exit(0 if any(o["name"]=="benchmarks" and o["value"] for o in json.load(sys.stdin)) else 1)'; then
  meson configure "$BUILD_DIR" -Dbenchmarks=true
elif [ -f /usr/include/oneapi/dnnl/dnnl.hpp ] &&
    ! ninja -C "$BUILD_DIR" -t targets all 2>/dev/null | grep '^bench/peer_tools/onednn_peer_bench:' >/dev/null; then
  meson setup --reconfigure "$BUILD_DIR"  # configured before libdnnl-dev was installed
fi
mkdir -p "$PEERS/results"
targets=(bench/peer_tools/webnn_peer_bench bench/probes/membw_bench bench/probes/fma_peak_bench)
# (eigen_matmul_bench exists only where meson found Eigen and OpenMP,
# onednn_peer_bench only where it found libdnnl and OpenMP)
for peer in eigen_matmul_bench onednn_peer_bench; do
  if ninja -C "$BUILD_DIR" -t targets all 2>/dev/null | grep "^bench/peer_tools/$peer:" >/dev/null; then
    targets+=("bench/peer_tools/$peer")
  fi
done
if [ -n "${PEERS_NO_BUILD:-}" ]; then
  echo "bench-peers: PEERS_NO_BUILD set, using the binaries already in $BUILD_DIR" >&2
else
  echo "bench-peers: building ${targets[*]} in $BUILD_DIR (log: $PEERS/results/build.log)" >&2
  if ! ninja -C "$BUILD_DIR" -j"${JOBS:-2}" "${targets[@]}" > "$PEERS/results/build.log" 2>&1; then
    tail -40 "$PEERS/results/build.log" >&2
    echo "bench-peers: build failed (PEERS_NO_BUILD=1 runs the binaries already built)" >&2
    exit 1
  fi
fi

"$BUILD_DIR/bench/peer_tools/webnn_peer_bench" --peer_cases_json \
  | "$PY" bench/peer_tools/make_onnx_models.py "$PEERS/models"

README_ARGS=(--readme bench/README.md)
[ -n "${PEERS_NO_README:-}" ] && README_ARGS=()
exec "$PY" bench/peer_tools/run_peers.py --build-dir "$BUILD_DIR" --models "$PEERS/models/models.json" \
  --node-modules "$PEERS/node_modules" --results-dir "$PEERS/results" "${README_ARGS[@]}" \
  --command "scripts/bench-peers.sh${*:+ $*}" "$@"
