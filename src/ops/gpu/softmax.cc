// gpu kernel of softmax: shaders/softmax.comp. The input is viewed as
// [outer, length, inner] around the axis; each of the outer * inner rows is
// normalized on its own (max, sum of exp(x - max), divide).
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/softmax.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const uint32_t axis = AttrsAs<SoftmaxAttrs>(s.attrs).axis;
  const GpuOperand& in = s.inputs[0];
  const AxisRows r = RowsAroundAxis(in.shape, axis);
  GpuDispatch d;
  d.shader = core::StrCat("softmax.", TypeSuffix(in.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {r.rows, r.length, r.inner, r.workgroup_per_row ? 1u : 0u};
  d.groups = r.groups;
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_softmax() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
