// reverse: validation and shape inference.
#include <stdexcept>

#include "ops/reverse.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferReverse(const InferContext& ctx, const OpAttrs& attrs,
                                      std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<ReverseAttrs>(attrs);
  const OperandDesc& input = *in[0];
  if (a.axes) CheckAxes(ctx, *a.axes, input.rank(), "axes");
  return {input};
}

}  // namespace

const OpSchema& ReverseSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::reverse, {{"input", core::kAnySpecType}}, {{"output", {}, 0}},
                                &InferReverse};
  if (op != OpKind::reverse) throw std::logic_error("ReverseSchema: not reverse");
  return kSchema;
}

}  // namespace webnn::ops
