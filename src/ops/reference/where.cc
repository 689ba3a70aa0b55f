// Reference kernel of where: a selection, so each output element is a byte copy
// of the chosen input element (exact for every type, NaN payloads included).
// All three operands broadcast to the output shape; non-zero conditions are true.
#include <cstring>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunWhere(const KernelContext& ctx) {
  const TensorView& condition = ctx.inputs[0];
  const TensorView& true_value = ctx.inputs[1];
  const TensorView& false_value = ctx.inputs[2];
  const TensorView& out = ctx.outputs[0];
  // The schema allows only whole-byte types (the spec's eight), never int4/uint4.
  const uint64_t element_size = ByteLengthFor(out.type, 1);
  const auto c_strides = BroadcastStrides(condition.shape, out.shape);
  const auto t_strides = BroadcastStrides(true_value.shape, out.shape);
  const auto f_strides = BroadcastStrides(false_value.shape, out.shape);
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    const bool take_true = Load<uint64_t>(condition, Offset(idx, c_strides)) != 0;
    const std::byte* src = take_true ? true_value.data + Offset(idx, t_strides) * element_size
                                     : false_value.data + Offset(idx, f_strides) * element_size;
    std::memcpy(out.data + i * element_size, src, element_size);
    ++i;
  });
}

}  // namespace webnn::ops::ref
