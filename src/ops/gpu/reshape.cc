// gpu kernel of reshape: the row-major bytes are unchanged, and the device gives
// every value its own memory, so it is a contiguous copy (transpose_copy.comp).
#include "ops/gpu/strided_copy.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const std::vector<uint32_t> flat{Count32(in.elements())};
  GpuPlan plan;
  StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(0), GpuBinding::Output(0), flat, {1}, 0, {1},
              0, {});
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_reshape() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
