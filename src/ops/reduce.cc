// reduceL1, reduceL2, reduceLogSum, reduceLogSumExp, reduceMax, reduceMean,
// reduceMin, reduceProduct, reduceSum, reduceSumSquare: validation and shape
// inference (the spec's "create reduction operation").
#include <stdexcept>

#include "ops/reduce.h"

namespace webnn::ops {

std::vector<uint32_t> ResolveReduceAxes(const ReduceAttrs& attrs, uint32_t rank) {
  if (attrs.axes) return *attrs.axes;
  std::vector<uint32_t> all(rank);
  for (uint32_t i = 0; i < rank; ++i) all[i] = i;
  return all;
}

namespace {

// The spec's "calculate reduction output sizes"; `axes` must be validated.
Shape ReductionOutputShape(const Shape& input, const std::vector<uint32_t>& axes, bool keep_dimensions) {
  std::vector<bool> reduced(input.size(), false);
  for (uint32_t axis : axes) reduced[axis] = true;
  Shape out;
  for (size_t i = 0; i < input.size(); ++i) {
    if (!reduced[i]) out.push_back(input[i]);
    else if (keep_dimensions) out.push_back(Dim::Static(1));
  }
  return out;
}

std::vector<OperandDesc> InferReduce(const InferContext& ctx, const OpAttrs& attrs,
                                     std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<ReduceAttrs>(attrs);
  const OperandDesc& input = *in[0];
  if (a.axes) CheckAxes(ctx, *a.axes, input.rank(), "axes");
  const std::vector<uint32_t> axes = ResolveReduceAxes(a, input.rank());
  return {OperandDesc{input.type, ReductionOutputShape(input.shape, axes, a.keepDimensions)}};
}

// The spec's allowedDataTypes argument of each reduction method.
DataTypeSet ReduceInputTypes(OpKind op) {
  switch (op) {
    case OpKind::reduceL2:
    case OpKind::reduceLogSum:
    case OpKind::reduceLogSumExp:
    case OpKind::reduceMean: return core::kFloatTypes;
    case OpKind::reduceMax:
    case OpKind::reduceMin: return core::kAnySpecType;
    default:
      return DataTypeSet{DataType::kFloat32, DataType::kFloat16, DataType::kInt32,
                         DataType::kUint32,  DataType::kInt64,   DataType::kUint64};
  }
}

OpSchema MakeSchema(OpKind op) {
  return OpSchema{op, {{"input", ReduceInputTypes(op)}}, {{"output", {}, 0}}, &InferReduce};
}

}  // namespace

const OpSchema& ReduceSchema(OpKind op) {
  static const OpSchema kSchemas[] = {
      MakeSchema(OpKind::reduceL1),        MakeSchema(OpKind::reduceL2),   MakeSchema(OpKind::reduceLogSum),
      MakeSchema(OpKind::reduceLogSumExp), MakeSchema(OpKind::reduceMax),  MakeSchema(OpKind::reduceMean),
      MakeSchema(OpKind::reduceMin),       MakeSchema(OpKind::reduceProduct), MakeSchema(OpKind::reduceSum),
      MakeSchema(OpKind::reduceSumSquare)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("ReduceSchema: not a reduction op");
}

}  // namespace webnn::ops
