// gpu kernel of tile: a box copy (transpose_copy.comp) over the output that
// reads input[i mod dim] per axis.
#include "ops/gpu/strided_copy.h"

namespace webnn::ops::gpu {


namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  GpuPlan plan;
  StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(0), GpuBinding::Output(0), out.shape,
              ContiguousStrides(in.shape), 0, ContiguousStrides(out.shape), 0, in.shape);
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_tile() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
