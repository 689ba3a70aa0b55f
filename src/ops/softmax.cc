// softmax: validation and shape inference. The output keeps the input's
// descriptor; the axis must name one of the input's dimensions.
#include <stdexcept>

#include "ops/softmax.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferSoftmax(const InferContext& ctx, const OpAttrs& attrs,
                                      std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<SoftmaxAttrs>(attrs);
  const OperandDesc& input = *in[0];
  if (a.axis >= input.rank())
    ctx.Fail("argument 'axis' must be less than the input rank ", input.rank(), ", got ", a.axis);
  return {OperandDesc{input.type, input.shape}};
}

}  // namespace

const OpSchema& SoftmaxSchema(OpKind op) {
  static const OpSchema kSoftmax{OpKind::softmax,
                                 {{"input", core::kFloatTypes, -1, RanksFrom(1)}},
                                 {{"output", {}, 0, RanksFrom(1)}},
                                 &InferSoftmax};
  if (op != OpKind::softmax) throw std::logic_error("SoftmaxSchema: not softmax");
  return kSoftmax;
}

}  // namespace webnn::ops
