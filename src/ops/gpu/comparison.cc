// gpu kernel of equal, notEqual, greater, greaterOrEqual, lesser,
// lesserOrEqual: shaders/comparison.comp.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

uint32_t OpCode(OpKind op) {
  switch (op) {
    case OpKind::equal: return 0;
    case OpKind::notEqual: return 1;
    case OpKind::greater: return 2;
    case OpKind::greaterOrEqual: return 3;
    case OpKind::lesser: return 4;
    case OpKind::lesserOrEqual: return 5;
    default: throw NotSupportedError(core::StrCat("gpu comparison: no op code for ", OpName(op)));
  }
}

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& a = s.inputs[0];
  const GpuOperand& b = s.inputs[1];
  const GpuOperand& out = s.outputs[0];
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.shader = core::StrCat("comparison.", TypeSuffix(a.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0)};
  d.params = {n, OpCode(s.op)};
  d.constants = {OpCode(s.op)};
  PushShape(d.params, out.shape);
  PushBroadcastStrides(d.params, a.shape, out.shape);
  PushBroadcastStrides(d.params, b.shape, out.shape);
  d.params.push_back(a.shape == out.shape && b.shape == out.shape ? 1u : 0u);
  d.groups = GridFor(n);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_comparison() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
