// gpu kernel of reverse: a box copy (transpose_copy.comp) that starts at the
// last element of each reversed axis and walks it with a negative stride.
#include "ops/gpu/strided_copy.h"
#include "ops/reverse.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& a = AttrsAs<ReverseAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  std::vector<bool> reversed(in.shape.size(), !a.axes.has_value());  // absent axes: all of them
  if (a.axes)
    for (uint32_t axis : *a.axes) reversed.at(axis) = true;
  std::vector<int64_t> src = ContiguousStrides(in.shape);
  int64_t offset = 0;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (!reversed[d]) continue;
    offset += int64_t{in.shape[d] - 1} * src[d];
    src[d] = -src[d];
  }
  GpuPlan plan;
  StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(0), GpuBinding::Output(0), in.shape, src,
              offset, ContiguousStrides(in.shape), 0, {});
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_reverse() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
