// Reference kernel of tile: output[i] is a byte copy of input[i mod dim] per axis.
#include <cstring>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunTile(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint64_t> strides = Strides(input.shape);
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  std::vector<uint32_t> source(input.rank());
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    for (uint32_t d = 0; d < input.rank(); ++d) source[d] = idx[d] % input.shape[d];
    std::memcpy(out.data + i++ * element_size, input.data + Offset(source, strides) * element_size, element_size);
  });
}

}  // namespace webnn::ops::ref
