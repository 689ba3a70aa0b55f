# Sourced on a lent GPU machine: `source scripts/gpu-unpack.sh WORKDIR` installs
# the Vulkan loader from .gl/, unpacks what scripts/gpu-pack.sh put in .dev/
# into WORKDIR laid out as a build folder (tools/webnn, tests/webnn_tests,
# bench/webnn_gpu_bench, tests/models) and exports BUILD_DIR=WORKDIR,
# LD_LIBRARY_PATH (.dev/lib) and, where the NVIDIA driver's ICD is mounted
# outside the loader's search path, VK_DRIVER_FILES. scripts/gpu-check.sh
# --packed uses it; so can a one-off experiment script.
_gpu_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_gpu_work=${1:?usage: source scripts/gpu-unpack.sh WORKDIR}
# (if-statements, not `test && ...`: a caller may run under set -e.)
for _f in "$_gpu_root"/.gl/*.deb; do
  if [ -e "$_f" ]; then dpkg -x "$_f" /; fi
done
ldconfig
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export LD_LIBRARY_PATH=$_gpu_root/.dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$_gpu_work/tools" "$_gpu_work/tests/models" "$_gpu_work/bench"
xz -dc "$_gpu_root/.dev/bin/webnn.xz" > "$_gpu_work/tools/webnn"
xz -dc "$_gpu_root/.dev/bin/webnn_tests.xz" > "$_gpu_work/tests/webnn_tests"
xz -dc "$_gpu_root/.dev/bin/webnn_gpu_bench.xz" > "$_gpu_work/bench/webnn_gpu_bench"
chmod +x "$_gpu_work/tools/webnn" "$_gpu_work/tests/webnn_tests" "$_gpu_work/bench/webnn_gpu_bench"
if [ -f "$_gpu_root/.dev/models.tar.xz" ]; then
  (cd "$_gpu_work/tests/models" && xz -dc "$_gpu_root/.dev/models.tar.xz" | tar xf - && cp det.weights det_640.weights)
fi
export BUILD_DIR=$_gpu_work
unset _gpu_root _gpu_work _f
