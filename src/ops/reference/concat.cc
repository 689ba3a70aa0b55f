// Reference kernel of concat.
//
// Viewed as [outer, axis, inner], the output's row `o` is the inputs' rows `o`
// one after another, so each input contributes one contiguous block per outer
// index. Elements are copied bit for bit.
#include <cstring>
#include <stdexcept>

#include "ops/concat.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunConcat(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ConcatAttrs>(ctx.attrs);
  const TensorView& out = ctx.outputs[0];
  if (BitsPerElement(out.type) % 8 != 0) throw std::logic_error("concat: sub-byte data type");
  const uint64_t element_bytes = BitsPerElement(out.type) / 8;
  uint64_t outer = 1;
  for (uint32_t d = 0; d < attrs.axis; ++d) outer *= out.shape[d];
  uint64_t inner_bytes = element_bytes;
  for (uint32_t d = attrs.axis + 1; d < out.rank(); ++d) inner_bytes *= out.shape[d];

  std::byte* dst = out.data;
  for (uint64_t o = 0; o < outer; ++o) {
    for (const TensorView& input : ctx.inputs) {
      const uint64_t block = input.shape[attrs.axis] * inner_bytes;
      std::memcpy(dst, input.data + o * block, block);
      dst += block;
    }
  }
}

}  // namespace webnn::ops::ref
