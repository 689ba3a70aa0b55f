// gpu kernel of transpose: one strided box copy (strided_copy.h).
#include <algorithm>
#include <cstdlib>
#include <utility>

#include "core/shape.h"
#include "core/strings.h"
#include "ops/gpu/strided_copy.h"
#include "ops/transpose.h"
#include "webnn/types.h"

namespace webnn::ops::gpu {

namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const std::vector<uint32_t> perm =
      ResolvePermutation(AttrsAs<TransposeAttrs>(s.attrs), static_cast<uint32_t>(in.shape.size()));
  const std::vector<int64_t> in_strides = ContiguousStrides(in.shape);
  // Output axis d walks input axis perm[d]; the output is written in order.
  std::vector<int64_t> src(out.shape.size());
  for (size_t d = 0; d < out.shape.size(); ++d) src[d] = in_strides[perm[d]];
  GpuPlan plan;
  StridedCopy(plan, s.max_binding_bytes, in.type, GpuBinding::Input(0), GpuBinding::Output(0), out.shape, src, 0,
              ContiguousStrides(out.shape), 0, {});
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_transpose() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
