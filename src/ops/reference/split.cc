// Reference kernel of split.
//
// Viewed as [outer, axis, inner], output k takes rows [start_k, start_k + size_k)
// of the axis for every outer index: one contiguous block of the input each.
// Elements are copied bit for bit.
#include <cstring>
#include <stdexcept>

#include "ops/reference/ref_util.h"
#include "ops/split.h"

namespace webnn::ops::ref {

void RunSplit(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<SplitAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  if (BitsPerElement(input.type) % 8 != 0) throw std::logic_error("split: sub-byte data type");
  const uint64_t element_bytes = BitsPerElement(input.type) / 8;
  uint64_t outer = 1;
  for (uint32_t d = 0; d < attrs.axis; ++d) outer *= input.shape[d];
  uint64_t inner_bytes = element_bytes;
  for (uint32_t d = attrs.axis + 1; d < input.rank(); ++d) inner_bytes *= input.shape[d];

  const std::byte* src = input.data;
  for (uint64_t o = 0; o < outer; ++o) {
    for (const TensorView& output : ctx.outputs) {
      const uint64_t block = output.shape[attrs.axis] * inner_bytes;
      std::memcpy(output.data + o * block, src, block);
      src += block;
    }
  }
}

}  // namespace webnn::ops::ref
