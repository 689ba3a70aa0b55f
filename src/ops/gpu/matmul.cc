// gpu kernel of matmul: shaders/matmul.comp (the tiled product it shares with
// gemm) with alpha 1, A and B row-major and the batch dimensions broadcast
// through per-batch matrix strides.
#include <algorithm>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/matmul.h"
#include "webnn/types.h"

namespace webnn::ops::gpu {
namespace {

constexpr uint32_t kMaxBatchRank = 6;  // rank <= 8, minus the two matrix dimensions

// Matrix strides (in elements) of an operand's batch dimensions, right-aligned
// to the output's batch dimensions; 0 where broadcast.
void PushMatrixStrides(std::vector<uint32_t>& params, const std::vector<uint32_t>& shape, size_t out_batch_rank) {
  const size_t rank = shape.size() - 2;
  std::vector<uint32_t> strides(kMaxBatchRank, 0);
  uint64_t stride = uint64_t{shape[rank]} * shape[rank + 1];
  for (size_t i = rank; i-- > 0;) {
    const size_t o = out_batch_rank - rank + i;
    strides[o] = shape[i] == 1 ? 0 : Count32(stride);
    stride *= shape[i];
  }
  params.insert(params.end(), strides.begin(), strides.end());
}

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& a = s.inputs[0];
  const GpuOperand& b = s.inputs[1];
  const GpuOperand& out = s.outputs[0];
  if (AttrsAs<MatmulAttrs>(s.attrs).activation)
    throw NotSupportedError("gpu device: matmul with a fused activation is not supported");
  const bool has_bias = s.has_input(2);
  const size_t rank = out.shape.size();
  const uint32_t m = out.shape[rank - 2], n = out.shape[rank - 1], k = a.shape[a.shape.size() - 1];
  const size_t batch_rank = rank - 2;
  uint64_t batches = 1;
  for (size_t i = 0; i < batch_rank; ++i) batches *= out.shape[i];

  GpuDispatch d;
  d.shader = core::StrCat("matmul.", TypeSuffix(out.type));
  // A fused bias (the fusion pass's third input, [N] or one value) is C with beta 1.
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0),
                GpuBinding::Input(has_bias ? 2 : 0)};
  const uint32_t bias_cs = has_bias && s.inputs[2].elements() == n && n != 1 ? 1u : 0u;
  d.params = {m, n, k, k, 1, n, 1, FloatBits(1.0f), FloatBits(1.0f), has_bias ? 1u : 0u, 0, bias_cs,
              Count32(batches), static_cast<uint32_t>(batch_rank)};
  for (size_t i = 0; i < kMaxBatchRank; ++i) d.params.push_back(i < batch_rank ? out.shape[i] : 1);
  PushMatrixStrides(d.params, a.shape, batch_rank);
  PushMatrixStrides(d.params, b.shape, batch_rank);
  d.groups = {std::min<uint32_t>((n + 63) / 64, 65535), std::min<uint32_t>((m + 63) / 64, 65535),
              static_cast<uint32_t>(std::min<uint64_t>(batches, 65535))};
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_matmul() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
