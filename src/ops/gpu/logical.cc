// gpu kernel of logicalNot, logicalAnd, logicalOr, logicalXor, isNaN,
// isInfinite: shaders/logical.comp and logical_not.comp.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& a = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.groups = GridFor(n);
  switch (s.op) {
    case OpKind::logicalNot:
      d.shader = "logical_not.u8";
      d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
      d.params = {n};
      return {{d}, {}};
    case OpKind::isNaN:
    case OpKind::isInfinite:
      d.shader = core::StrCat("logical.", TypeSuffix(a.type));
      d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
      d.params = {n, s.op == OpKind::isNaN ? 0u : 1u};
      return {{d}, {}};
    default: break;
  }
  const GpuOperand& b = s.inputs[1];
  d.shader = "logical.u8";
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0)};
  d.params = {n, s.op == OpKind::logicalAnd ? 1u : s.op == OpKind::logicalOr ? 2u : 3u};
  PushShape(d.params, out.shape);
  PushBroadcastStrides(d.params, a.shape, out.shape);
  PushBroadcastStrides(d.params, b.shape, out.shape);
  d.params.push_back(a.shape == out.shape && b.shape == out.shape ? 1u : 0u);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_logical() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
