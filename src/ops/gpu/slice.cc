// gpu kernel of slice: a box copy (transpose_copy.comp) from input[start + i * stride].
#include "ops/gpu/strided_copy.h"
#include "ops/slice.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& a = AttrsAs<SliceAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const std::vector<int64_t> in_strides = ContiguousStrides(in.shape);
  std::vector<int64_t> src(in.shape.size());
  int64_t offset = 0;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    offset += int64_t{a.starts[d]} * in_strides[d];
    src[d] = in_strides[d] * (a.strides ? (*a.strides)[d] : 1);
  }
  GpuPlan plan;
  StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(0), GpuBinding::Output(0), out.shape, src,
              offset, ContiguousStrides(out.shape), 0, {});
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_slice() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
