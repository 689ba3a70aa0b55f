// gpu kernel of abs, ceil, cos, erf, exp, floor, identity, log, neg,
// reciprocal, roundEven, sin, sign, sqrt, tan: shaders/elementwise_unary.comp
// (shared with the activations, activation.cc), identity by
// shaders/elementwise_unary_copy.comp.
#include "core/strings.h"
#include "ops/gpu/elementwise_codes.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.groups = GridFor(n);
  const uint64_t bytes = ByteLengthFor(in.type, 1);
  if (s.op == OpKind::identity) {
    d.shader = core::StrCat("elementwise_unary_copy.", bytes * 8);
    d.params = {n};
    return SplitElementwise(d, n, bytes, s.max_binding_bytes);
  }
  if (!IsFloatingPoint(in.type) && s.op != OpKind::abs && s.op != OpKind::neg && s.op != OpKind::sign)
    throw NotSupportedError(core::StrCat("gpu device: ", OpName(s.op), " has no ", ToString(in.type), " kernel"));
  d.shader = core::StrCat("elementwise_unary.", TypeSuffix(in.type));
  d.params = {n, UnaryOpCode(s.op), 0, 0, 0, 0, 0, 0, 0};
  d.constants = {UnaryOpCode(s.op)};
  return SplitElementwise(d, n, bytes, s.max_binding_bytes);
}

}  // namespace

GpuKernelEntry GpuKernel_elementwise_unary() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
