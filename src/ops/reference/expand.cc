// Reference kernel of expand: each output element is a byte copy of the input
// element numpy broadcasting maps it to.
#include <cstring>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunExpand(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint64_t> strides = BroadcastStrides(input.shape, out.shape);
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    std::memcpy(out.data + i++ * element_size, input.data + Offset(idx, strides) * element_size, element_size);
  });
}

}  // namespace webnn::ops::ref
