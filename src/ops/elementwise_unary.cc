// abs, ceil, cos, erf, exp, floor, identity, log, neg, reciprocal, roundEven,
// sin, sign, sqrt, tan: validation and shape inference ("create an element-wise
// unary operation"). The only failing step beyond the generic checks is the
// per-op allowed data-type list, which the schema carries; the output is a copy
// of the input's descriptor.
#include "ops/elementwise.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferElementwiseUnary(const InferContext&, const OpAttrs&,
                                               std::span<const OperandDesc* const> in) {
  return {*in[0]};
}

// abs, neg, sign: « float32, float16, int64, int32, int8 ».
constexpr DataTypeSet kSignedNumericTypes{DataType::kFloat32, DataType::kFloat16, DataType::kInt64,
                                          DataType::kInt32, DataType::kInt8};

OpSchema MakeSchema(OpKind op, DataTypeSet allowed) {
  return OpSchema{op, {{"input", allowed}}, {{"output", {}, 0}}, &InferElementwiseUnary};
}

}  // namespace

const OpSchema& ElementwiseUnarySchema(OpKind op) {
  static const OpSchema kSchemas[] = {
      MakeSchema(OpKind::abs, kSignedNumericTypes),     MakeSchema(OpKind::ceil, core::kFloatTypes),
      MakeSchema(OpKind::cos, core::kFloatTypes),       MakeSchema(OpKind::erf, core::kFloatTypes),
      MakeSchema(OpKind::exp, core::kFloatTypes),       MakeSchema(OpKind::floor, core::kFloatTypes),
      MakeSchema(OpKind::identity, core::kAnySpecType), MakeSchema(OpKind::log, core::kFloatTypes),
      MakeSchema(OpKind::neg, kSignedNumericTypes),     MakeSchema(OpKind::reciprocal, core::kFloatTypes),
      MakeSchema(OpKind::roundEven, core::kFloatTypes), MakeSchema(OpKind::sin, core::kFloatTypes),
      MakeSchema(OpKind::sign, kSignedNumericTypes),    MakeSchema(OpKind::sqrt, core::kFloatTypes),
      MakeSchema(OpKind::tan, core::kFloatTypes)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("ElementwiseUnarySchema: not a unary op");
}

}  // namespace webnn::ops
