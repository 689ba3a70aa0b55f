// Reference kernel of reverse: a byte copy of every element from its mirrored
// position along the reversed axes.
#include <cstring>

#include "ops/reference/ref_util.h"
#include "ops/reverse.h"

namespace webnn::ops::ref {

void RunReverse(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ReverseAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  std::vector<bool> reversed(input.rank(), !attrs.axes.has_value());  // absent axes: all of them
  if (attrs.axes)
    for (uint32_t axis : *attrs.axes) reversed.at(axis) = true;
  const std::vector<uint64_t> strides = Strides(input.shape);
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  std::vector<uint32_t> source(input.rank());
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    for (uint32_t d = 0; d < input.rank(); ++d) source[d] = reversed[d] ? input.shape[d] - 1 - idx[d] : idx[d];
    std::memcpy(out.data + i++ * element_size, input.data + Offset(source, strides) * element_size, element_size);
  });
}

}  // namespace webnn::ops::ref
