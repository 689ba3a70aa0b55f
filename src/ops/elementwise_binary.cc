// add, sub, mul, div, max, min, pow: validation and shape inference.
#include "ops/elementwise.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferElementwiseBinary(const InferContext& ctx, const OpAttrs&,
                                                std::span<const OperandDesc* const> in) {
  const OperandDesc& a = *in[0];
  const OperandDesc& b = *in[1];
  CheckSameType(ctx, a, b, "a", "b");
  return {OperandDesc{a.type, BroadcastShapes(ctx, a.shape, b.shape, "a", "b")}};
}

OpSchema MakeSchema(OpKind op) {
  return OpSchema{op,
                  {{"a", core::kAnySpecType}, {"b", {}, 0}},
                  {{"output", {}, 0}},
                  &InferElementwiseBinary};
}

}  // namespace

const OpSchema& ElementwiseBinarySchema(OpKind op) {
  static const OpSchema kSchemas[] = {MakeSchema(OpKind::add), MakeSchema(OpKind::sub), MakeSchema(OpKind::mul),
                                      MakeSchema(OpKind::div), MakeSchema(OpKind::max), MakeSchema(OpKind::min),
                                      MakeSchema(OpKind::pow)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("ElementwiseBinarySchema: not a binary op");
}

}  // namespace webnn::ops
