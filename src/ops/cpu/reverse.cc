// cpu kernel of reverse: a view with negative strides on the reversed axes,
// copied by StridedCopy (transpose.cc): reversing an outer axis reorders row
// copies, reversing the innermost one reverses lanes in registers.
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/reverse.h"

namespace webnn::ops::cpu {
namespace {

void RunReverse(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ReverseAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  std::vector<bool> reversed(input.rank(), !attrs.axes.has_value());  // absent axes: all of them
  if (attrs.axes)
    for (uint32_t axis : *attrs.axes) reversed.at(axis) = true;
  const size_t element_bytes = ElementBytes(input.type);
  const std::vector<int64_t> in_strides = ByteStrides(input.shape, element_bytes);
  StridedView view;
  view.element_bytes = element_bytes;
  for (uint32_t d = 0; d < input.rank(); ++d) {
    view.sizes.push_back(input.shape[d]);
    if (reversed[d] && input.shape[d] > 1) {
      view.strides.push_back(-in_strides[d]);
      view.offset += in_strides[d] * (input.shape[d] - 1);
    } else {
      view.strides.push_back(in_strides[d]);
    }
  }
  StridedCopy(view, input.data, out.data, ctx.parallel);
}

}  // namespace

// Every data type the schema allows: the kernel moves 1, 2, 4 or 8-byte elements.
void RegisterReverseKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunReverse, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
