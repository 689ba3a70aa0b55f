// gpu kernel of expand: a box copy (transpose_copy.comp) that reads stride 0
// along broadcast axes.
#include "ops/gpu/strided_copy.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  // numpy broadcasting: aligned at the last axis, stride 0 where the input has size 1.
  const std::vector<int64_t> in_strides = ContiguousStrides(in.shape);
  std::vector<int64_t> src(out.shape.size(), 0);
  const size_t lead = out.shape.size() - in.shape.size();
  for (size_t i = 0; i < in.shape.size(); ++i) src[lead + i] = in.shape[i] == 1 ? 0 : in_strides[i];
  GpuPlan plan;
  StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(0), GpuBinding::Output(0), out.shape, src, 0,
              ContiguousStrides(out.shape), 0, {});
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_expand() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
