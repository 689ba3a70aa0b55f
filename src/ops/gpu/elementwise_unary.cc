// gpu kernel of abs, ceil, cos, erf, exp, floor, identity, log, neg,
// reciprocal, roundEven, sin, sign, sqrt, tan: shaders/elementwise_unary.comp
// (shared with the activations, activation.cc), identity by
// shaders/elementwise_unary_copy.comp.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

// The shader's op codes.
uint32_t OpCode(OpKind op) {
  switch (op) {
    case OpKind::abs: return 0;
    case OpKind::ceil: return 1;
    case OpKind::cos: return 2;
    case OpKind::erf: return 3;
    case OpKind::exp: return 4;
    case OpKind::floor: return 5;
    case OpKind::log: return 6;
    case OpKind::neg: return 7;
    case OpKind::reciprocal: return 8;
    case OpKind::roundEven: return 9;
    case OpKind::sin: return 10;
    case OpKind::sign: return 11;
    case OpKind::sqrt: return 12;
    case OpKind::tan: return 13;
    default: throw NotSupportedError(core::StrCat("gpu elementwise_unary: no op code for ", OpName(op)));
  }
}

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
  d.params = {n, OpCode(s.op), 0, 0, 0, 0, 0, 0, 0};
  d.constants = {OpCode(s.op)};
  return SplitElementwise(d, n, bytes, s.max_binding_bytes);
}

}  // namespace

GpuKernelEntry GpuKernel_elementwise_unary() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
