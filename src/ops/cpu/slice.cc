// cpu kernel of slice: a strided view of the input (strides * step, offset at
// the starts) copied by StridedCopy (transpose.cc): contiguous rows become row
// copies, a step on the innermost axis becomes gathers.
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/slice.h"

namespace webnn::ops::cpu {
namespace {

void RunSlice(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<SliceAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t element_bytes = ElementBytes(input.type);
  const std::vector<int64_t> in_strides = ByteStrides(input.shape, element_bytes);
  StridedView view;
  view.element_bytes = element_bytes;
  for (uint32_t d = 0; d < input.rank(); ++d) {
    const int64_t step = attrs.strides ? (*attrs.strides)[d] : 1;
    view.sizes.push_back(out.shape[d]);
    view.strides.push_back(in_strides[d] * step);
    view.offset += in_strides[d] * attrs.starts[d];
  }
  StridedCopy(view, input.data, out.data, ctx.parallel);
}

}  // namespace

// Every data type the schema allows: the kernel moves 1, 2, 4 or 8-byte elements.
void RegisterSliceKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunSlice, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
