// gpu kernel of concat: one box copy (transpose_copy.comp) per input into its
// place along the axis of the output.
#include "ops/concat.h"
#include "ops/gpu/strided_copy.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const uint32_t axis = AttrsAs<ConcatAttrs>(s.attrs).axis;
  const GpuOperand& out = s.outputs[0];
  const std::vector<int64_t> out_strides = ContiguousStrides(out.shape);
  GpuPlan plan;
  int64_t offset = 0;
  for (uint32_t i = 0; i < s.inputs.size(); ++i) {
    const GpuOperand& in = s.inputs[i];
    StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(i), GpuBinding::Output(0), in.shape,
                ContiguousStrides(in.shape), 0, out_strides, offset * out_strides[axis], {});
    offset += in.shape[axis];
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_concat() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
