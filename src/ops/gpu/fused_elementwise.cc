// gpu kernel of fusedElementwise (the internal op of the FuseElementwise graph
// pass): shaders/fused_elementwise.comp, the chain's program as
// specialization constants. The shader has 7 input bindings and 16 step
// constants; the pass makes no longer chains for this device
// (GpuDevice::Fusions).
#include "core/strings.h"
#include "ops/fused_elementwise.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/fused_elementwise_limits.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

constexpr uint32_t kRunningOperand = 15;  // fused_elementwise.comp's kRunning

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<FusedElementwiseAttrs>(s.attrs);
  const GpuOperand& out = s.outputs[0];
  if (s.inputs.size() > kFusedElementwiseMaxInputs || attrs.steps.size() > kFusedElementwiseMaxSteps)
    throw NotSupportedError(core::StrCat("gpu device: fusedElementwise of ", s.inputs.size(), " inputs and ",
                                         attrs.steps.size(), " steps exceeds ", kFusedElementwiseMaxInputs, " and ",
                                         kFusedElementwiseMaxSteps));
  for (size_t i = 0; i < s.inputs.size(); ++i)
    if (attrs.upsampled(i))
      throw NotSupportedError("gpu device: fusedElementwise with an upsampled operand (the pass leaves them out "
                              "for this device: DeviceFusions::elementwise_upsampled)");
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.shader = "fused_elementwise";
  d.bindings = {GpuBinding::Output(0)};
  for (uint32_t k = 0; k < kFusedElementwiseMaxInputs; ++k)
    d.bindings.push_back(GpuBinding::Input(k < s.inputs.size() ? k : 0));

  d.params = {n};
  PushShape(d.params, out.shape);
  uint32_t direct = 0;
  for (uint32_t k = 0; k < kFusedElementwiseMaxInputs; ++k) {
    const std::vector<uint32_t>& shape = k < s.inputs.size() ? s.inputs[k].shape : out.shape;
    PushBroadcastStrides(d.params, shape, out.shape);
    if (shape == out.shape) direct |= 1u << k;
  }
  d.params.push_back(direct);

  d.constants = {static_cast<uint32_t>(attrs.steps.size())};
  for (const FusedElementwiseStep& step : attrs.steps) {
    if (IsElementwiseBinary(step.op)) {
      const uint32_t operand = step.operand == FusedElementwiseStep::kRunningValue
                                   ? kRunningOperand
                                   : static_cast<uint32_t>(step.operand);
      d.constants.push_back((64 + BinaryOpCode(step.op)) | (operand << 8) | (step.running_is_b ? 0x1000u : 0u));
      d.params.insert(d.params.end(), 5, 0u);
    } else {
      d.constants.push_back(UnaryOpCode(step.op));
      const UnaryFloatArgs a = FloatArgs(step.op, step.activation, DataType::kFloat32);
      d.params.insert(d.params.end(), {a.alpha, a.beta, a.has_bounds, a.lo, a.hi});
    }
  }
  d.constants.resize(1 + kFusedElementwiseMaxSteps, 0);
  d.groups = GridFor(n);
  // Operands all of the output's shape may be split into sub-ranges like any
  // element-wise op; broadcasting ones must fit one binding.
  if (direct != (1u << kFusedElementwiseMaxInputs) - 1) return {{d}, {}};
  return SplitElementwise(d, n, 4, s.max_binding_bytes);
}

}  // namespace

GpuKernelEntry GpuKernel_fused_elementwise() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
