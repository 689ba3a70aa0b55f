// Reference kernel of slice: a byte copy of input[start + i * stride] per axis.
#include <cstring>

#include "ops/reference/ref_util.h"
#include "ops/slice.h"

namespace webnn::ops::ref {

void RunSlice(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<SliceAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint64_t> strides = Strides(input.shape);
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  std::vector<uint32_t> source(input.rank());
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    for (uint32_t d = 0; d < input.rank(); ++d) {
      const uint32_t step = attrs.strides ? (*attrs.strides)[d] : 1;
      source[d] = attrs.starts[d] + idx[d] * step;
    }
    std::memcpy(out.data + i++ * element_size, input.data + Offset(source, strides) * element_size, element_size);
  });
}

}  // namespace webnn::ops::ref
