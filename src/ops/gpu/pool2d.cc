// gpu kernel of averagePool2d, l2Pool2d, maxPool2d: shaders/pool2d.comp, one
// output element per invocation (windows are small; no shared-memory reuse).
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/pool2d.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<Pool2dAttrs>(s.attrs);
  const GpuOperand& input = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const Pool2dGeometry g = ComputePool2dGeometry(attrs, input.shape, out.shape);
  const uint32_t op = s.op == OpKind::maxPool2d ? 0 : s.op == OpKind::averagePool2d ? 1 : 2;
  const uint32_t total = Count32(out.elements());
  Count32(input.elements());
  GpuDispatch d;
  d.shader = core::StrCat("pool2d.", TypeSuffix(out.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {total, op, attrs.layout == MLInputOperandLayout::kNhwc ? 1u : 0u, g.channels, g.in_h, g.in_w,
              g.out_h, g.out_w, g.window_h, g.window_w, g.stride_h, g.stride_w, g.dilation_h, g.dilation_w,
              g.pad_top, g.pad_left};
  d.groups = GridFor(total);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_pool2d() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
