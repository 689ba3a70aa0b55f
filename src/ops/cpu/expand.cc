// cpu kernel of expand: a view of the input with stride 0 on every broadcast
// dim, copied by StridedCopy (transpose.cc): rows are copied from the input
// (which stays in cache) or, when the innermost dim is broadcast, filled with
// one element.
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"

namespace webnn::ops::cpu {
namespace {

void RunExpand(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t element_bytes = ElementBytes(input.type);
  const std::vector<int64_t> in_strides = ByteStrides(input.shape, element_bytes);
  const size_t lead = out.rank() - input.rank();  // numpy: right-aligned
  StridedView view;
  view.element_bytes = element_bytes;
  for (uint32_t d = 0; d < out.rank(); ++d) {
    view.sizes.push_back(out.shape[d]);
    view.strides.push_back(d < lead || input.shape[d - lead] == 1 ? 0 : in_strides[d - lead]);
  }
  StridedCopy(view, input.data, out.data, ctx.parallel);
}

}  // namespace

// Every data type the schema allows: the kernel moves 1, 2, 4 or 8-byte elements.
void RegisterExpandKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunExpand, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
