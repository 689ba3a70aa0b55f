// gpu kernel of quantizeLinear and dequantizeLinear:
// shaders/quantize_linear.comp. scale and zeroPoint are blockwise broadcast:
// input index idx uses parameter index idx[d] / (inputDim[d] / scaleDim[d]).
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

bool Packed(DataType t) { return t == DataType::kInt4 || t == DataType::kUint4; }

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& scale = s.inputs[1];
  const GpuOperand& zero_point = s.inputs[2];
  const bool quantize = s.op == OpKind::quantizeLinear;
  const uint32_t n = Count32(in.elements());
  GpuDispatch d;
  d.shader = quantize ? core::StrCat("quantize_linear.", TypeSuffix(in.type), ".", TypeSuffix(zero_point.type))
                      : core::StrCat("dequantize_linear.", TypeSuffix(in.type), ".", TypeSuffix(scale.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Input(2), GpuBinding::Output(0)};
  d.params = {n};
  PushShape(d.params, in.shape);
  std::vector<uint32_t> blocks, param_strides(core::kMaxRank, 0);
  for (size_t i = 0; i < core::kMaxRank; ++i) blocks.push_back(i < in.shape.size() ? in.shape[i] / scale.shape[i] : 1);
  for (size_t i = in.shape.size(), st = 1; i-- > 0;) {
    param_strides[i] = scale.shape[i] == 1 ? 0 : static_cast<uint32_t>(st);
    st *= scale.shape[i];
  }
  d.params.insert(d.params.end(), blocks.begin(), blocks.end());
  d.params.insert(d.params.end(), param_strides.begin(), param_strides.end());
  d.params.push_back(scale.elements() == 1 ? 1u : 0u);
  // A packed 4-bit output is written a byte (two elements) per invocation, so
  // that no two invocations write the same byte.
  d.groups = GridFor(quantize && Packed(zero_point.type) ? (uint64_t{n} + 1) / 2 : n);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_quantize_linear() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
