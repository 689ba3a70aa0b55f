// gpu kernel of where: shaders/where.comp, by element width.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& out = s.outputs[0];
  const uint32_t n = Count32(out.elements());
  GpuDispatch d;
  d.shader = core::StrCat("where.", ByteLengthFor(out.type, 1) * 8);
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Input(2), GpuBinding::Output(0)};
  d.params = {n};
  PushShape(d.params, out.shape);
  bool same = true;
  for (size_t i = 0; i < 3; ++i) {
    PushBroadcastStrides(d.params, s.inputs[i].shape, out.shape);
    same = same && s.inputs[i].shape == out.shape;
  }
  d.params.push_back(same ? 1u : 0u);
  d.groups = GridFor(n);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_where() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
