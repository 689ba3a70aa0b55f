// gpu kernel of prelu: shaders/prelu.comp.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& input = s.inputs[0];
  const GpuOperand& slope = s.inputs[1];
  const GpuOperand& out = s.outputs[0];
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.shader = core::StrCat("prelu.", TypeSuffix(out.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0)};
  d.params = {n};
  PushShape(d.params, out.shape);
  PushBroadcastStrides(d.params, input.shape, out.shape);
  PushBroadcastStrides(d.params, slope.shape, out.shape);
  d.params.push_back(input.shape == out.shape && slope.shape == out.shape ? 1u : 0u);
  d.groups = GridFor(n);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_prelu() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
