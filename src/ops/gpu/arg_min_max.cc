// gpu kernel of argMin and argMax: shaders/arg_min_max.comp. The input is
// viewed as [outer, length, inner] around the axis; each of the outer * inner
// rows yields one index.
#include "core/strings.h"
#include "ops/arg_min_max.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const uint32_t axis = AttrsAs<ArgMinMaxAttrs>(s.attrs).axis;
  const GpuOperand& in = s.inputs[0];
  const AxisRows r = RowsAroundAxis(in.shape, axis);
  GpuDispatch d;
  d.shader = core::StrCat("arg_min_max.", TypeSuffix(in.type), ".", TypeSuffix(s.outputs[0].type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {r.rows, r.length, r.inner, r.workgroup_per_row ? 1u : 0u,
              s.op == OpKind::argMax ? 1u : 0u};
  d.groups = r.groups;
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_arg_min_max() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
