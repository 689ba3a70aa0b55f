// gpu kernel of add, sub, mul, div, max, min, pow: shaders/elementwise_binary.comp.
#include "core/strings.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& a = s.inputs[0];
  const GpuOperand& b = s.inputs[1];
  const GpuOperand& out = s.outputs[0];
  const bool same_shapes = a.shape == out.shape && b.shape == out.shape;
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.shader = core::StrCat("elementwise_binary.", TypeSuffix(out.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0)};
  d.params = {n, BinaryOpCode(s.op)};
  d.constants = {BinaryOpCode(s.op)};
  PushShape(d.params, out.shape);
  PushBroadcastStrides(d.params, a.shape, out.shape);
  PushBroadcastStrides(d.params, b.shape, out.shape);
  d.params.push_back(same_shapes ? 1u : 0u);
  d.groups = GridFor(n);
  // Same-shape operands larger than one binding may span (128 MiB on
  // lavapipe) run over sub-ranges; broadcasting ones are refused at build.
  if (!same_shapes) return {{d}, {}};
  return SplitElementwise(d, n, ByteLengthFor(out.type, 1), s.max_binding_bytes);
}

}  // namespace

GpuKernelEntry GpuKernel_elementwise_binary() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
