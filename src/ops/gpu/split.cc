// gpu kernel of split: one box copy (transpose_copy.comp) per output from its
// range along the axis of the input.
#include "ops/gpu/strided_copy.h"
#include "ops/split.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const uint32_t axis = AttrsAs<SplitAttrs>(s.attrs).axis;
  const GpuOperand& in = s.inputs[0];
  const std::vector<int64_t> in_strides = ContiguousStrides(in.shape);
  GpuPlan plan;
  int64_t offset = 0;
  for (uint32_t i = 0; i < s.outputs.size(); ++i) {
    const GpuOperand& out = s.outputs[i];
    StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(0), GpuBinding::Output(i), out.shape,
                in_strides, offset * in_strides[axis], ContiguousStrides(out.shape), 0, {});
    offset += out.shape[axis];
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_split() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
