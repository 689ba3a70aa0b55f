// logicalNot, logicalAnd, logicalOr, logicalXor, isNaN, isInfinite: validation
// and shape inference ("create an element-wise logical operation").
//
// isNaN/isInfinite: the spec's tensor-limits table lists "any" data type for
// `a`, but its algorithm throws a TypeError unless `a` is float32 or float16.
// The schema follows the algorithm so that opSupportLimits() never advertises
// a type that building rejects.
#include "ops/elementwise.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferLogicalUnary(const InferContext&, const OpAttrs&,
                                           std::span<const OperandDesc* const> in) {
  return {OperandDesc{DataType::kUint8, in[0]->shape}};
}

std::vector<OperandDesc> InferLogicalBinary(const InferContext& ctx, const OpAttrs&,
                                            std::span<const OperandDesc* const> in) {
  const OperandDesc& a = *in[0];
  const OperandDesc& b = *in[1];
  CheckSameType(ctx, a, b, "a", "b");
  return {OperandDesc{DataType::kUint8, BroadcastShapes(ctx, a.shape, b.shape, "a", "b")}};
}

const TensorSlot kUint8Output{"output", {DataType::kUint8}};

OpSchema UnarySchema(OpKind op, DataTypeSet allowed) {
  return OpSchema{op, {{"a", allowed}}, {kUint8Output}, &InferLogicalUnary};
}

OpSchema BinarySchema(OpKind op) {
  return OpSchema{op, {{"a", {DataType::kUint8}}, {"b", {}, 0}}, {kUint8Output}, &InferLogicalBinary};
}

}  // namespace

const OpSchema& LogicalSchema(OpKind op) {
  static const OpSchema kSchemas[] = {UnarySchema(OpKind::logicalNot, {DataType::kUint8}),
                                      BinarySchema(OpKind::logicalAnd),
                                      BinarySchema(OpKind::logicalOr),
                                      BinarySchema(OpKind::logicalXor),
                                      UnarySchema(OpKind::isNaN, core::kFloatTypes),
                                      UnarySchema(OpKind::isInfinite, core::kFloatTypes)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("LogicalSchema: not a logical op");
}

}  // namespace webnn::ops
