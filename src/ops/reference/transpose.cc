// Reference kernel of transpose: a byte copy of every element to its permuted
// position (no value conversion, so NaN payloads and float16 subnormals survive).
#include <cstring>

#include "ops/reference/ref_util.h"
#include "ops/transpose.h"

namespace webnn::ops::ref {

void RunTranspose(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint32_t> perm = ResolvePermutation(AttrsAs<TransposeAttrs>(ctx.attrs), input.rank());
  const std::vector<uint64_t> input_strides = Strides(input.shape);
  // Output axis d walks input axis perm[d].
  std::vector<uint64_t> strides(out.rank());
  for (uint32_t d = 0; d < out.rank(); ++d) strides[d] = input_strides[perm[d]];
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    std::memcpy(out.data + i++ * element_size, input.data + Offset(idx, strides) * element_size, element_size);
  });
}

}  // namespace webnn::ops::ref
