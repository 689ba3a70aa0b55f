// where: validation and shape inference. The spec broadcasts trueValue with
// falseValue first, then condition with that result.
#include "ops/elementwise.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferWhere(const InferContext& ctx, const OpAttrs&, std::span<const OperandDesc* const> in) {
  const OperandDesc& condition = *in[0];
  const OperandDesc& true_value = *in[1];
  const OperandDesc& false_value = *in[2];
  CheckSameType(ctx, true_value, false_value, "trueValue", "falseValue");
  const Shape values = BroadcastShapes(ctx, true_value.shape, false_value.shape, "trueValue", "falseValue");
  return {OperandDesc{true_value.type, BroadcastShapes(ctx, condition.shape, values, "condition",
                                                       "broadcast of trueValue and falseValue")}};
}

}  // namespace

const OpSchema& WhereSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::where,
                                {{"condition", {DataType::kUint8}},
                                 {"trueValue", core::kAnySpecType},
                                 {"falseValue", {}, 1}},
                                {{"output", {}, 1}},
                                &InferWhere};
  if (op != OpKind::where) throw std::logic_error("WhereSchema: not where");
  return kSchema;
}

}  // namespace webnn::ops
