// equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual: validation
// and shape inference ("create an element-wise logical operation" with `b`).
#include "ops/elementwise.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferComparison(const InferContext& ctx, const OpAttrs&,
                                         std::span<const OperandDesc* const> in) {
  const OperandDesc& a = *in[0];
  const OperandDesc& b = *in[1];
  CheckSameType(ctx, a, b, "a", "b");
  return {OperandDesc{DataType::kUint8, BroadcastShapes(ctx, a.shape, b.shape, "a", "b")}};
}

OpSchema MakeSchema(OpKind op) {
  return OpSchema{op,
                  {{"a", core::kAnySpecType}, {"b", {}, 0}},
                  {{"output", {DataType::kUint8}}},
                  &InferComparison};
}

}  // namespace

const OpSchema& ComparisonSchema(OpKind op) {
  static const OpSchema kSchemas[] = {MakeSchema(OpKind::equal),   MakeSchema(OpKind::notEqual),
                                      MakeSchema(OpKind::greater), MakeSchema(OpKind::greaterOrEqual),
                                      MakeSchema(OpKind::lesser),  MakeSchema(OpKind::lesserOrEqual)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("ComparisonSchema: not a comparison op");
}

}  // namespace webnn::ops
