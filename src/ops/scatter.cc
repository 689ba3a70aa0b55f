// scatterElements, scatterND: validation and shape inference.
#include <stdexcept>

#include "ops/scatter.h"

namespace webnn::ops {
namespace {

constexpr DataTypeSet kIndexTypes{DataType::kInt32, DataType::kUint32, DataType::kInt64};

bool ShapesMaybeEqual(const Shape& a, const Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!MaybeEqual(a[i], b[i])) return false;
  return true;
}

std::vector<OperandDesc> InferScatterElements(const InferContext& ctx, const OpAttrs& attrs,
                                              std::span<const OperandDesc* const> in) {
  const uint32_t axis = AttrsAs<ScatterAttrs>(attrs).axis;
  const OperandDesc& input = *in[0];
  const OperandDesc& indices = *in[1];
  const OperandDesc& updates = *in[2];
  if (indices.rank() != input.rank())
    ctx.Fail("argument 'indices' must have the input rank ", input.rank(), ", got ", indices.rank());
  if (updates.rank() != input.rank())
    ctx.Fail("argument 'updates' must have the input rank ", input.rank(), ", got ", updates.rank());
  if (axis >= input.rank()) ctx.Fail("axis ", axis, " must be less than the input rank ", input.rank());
  for (uint32_t i = 0; i < input.rank(); ++i) {
    if (i != axis && !MaybeEqual(indices.shape[i], input.shape[i]))
      ctx.Fail("argument 'indices' shape ", ctx.ShapeToString(indices.shape), " must equal the input shape ",
               ctx.ShapeToString(input.shape), " except on axis ", axis, " (dimension ", i, " differs)");
  }
  if (!ShapesMaybeEqual(updates.shape, indices.shape))
    ctx.Fail("argument 'updates' shape ", ctx.ShapeToString(updates.shape), " must equal the indices shape ",
             ctx.ShapeToString(indices.shape));
  return {input};
}

std::vector<OperandDesc> InferScatterNd(const InferContext& ctx, const OpAttrs&,
                                        std::span<const OperandDesc* const> in) {
  const OperandDesc& input = *in[0];
  const OperandDesc& indices = *in[1];
  const OperandDesc& updates = *in[2];
  CheckRank(ctx, indices, RanksFrom(1), "indices");  // the schema's rule, repeated: back() needs it
  const Dim& last = indices.shape.back();
  if (!last.IsStatic())
    ctx.Fail("the last dimension of 'indices' (", ctx.DimToString(last), ") must be static: it sets the updates rank");
  if (last.size > input.rank())
    ctx.Fail("the last dimension of 'indices' (", last.size, ") must not exceed the input rank ", input.rank());
  // indices.shape[:-1] + input.shape[coordinateSize:]
  Shape expected(indices.shape.begin(), indices.shape.end() - 1);
  expected.insert(expected.end(), input.shape.begin() + last.size, input.shape.end());
  if (!ShapesMaybeEqual(updates.shape, expected))
    ctx.Fail("argument 'updates' shape ", ctx.ShapeToString(updates.shape), " must be ", ctx.ShapeToString(expected),
             " (indices.shape[:-1] + input.shape[", last.size, ":])");
  return {input};
}

OpSchema MakeSchema(OpKind op) {
  switch (op) {
    case OpKind::scatterElements:
      return OpSchema{op,
                      {{"input", core::kAnySpecType, -1, RanksFrom(1)},
                       {"indices", kIndexTypes, -1, RanksFrom(1)},
                       {"updates", {}, 0, RanksFrom(1)}},
                      {{"output", {}, 0, RanksFrom(1)}},
                      &InferScatterElements};
    case OpKind::scatterND:
      return OpSchema{op,
                      {{"input", core::kAnySpecType, -1, RanksFrom(1)},
                       {"indices", kIndexTypes, -1, RanksFrom(1)},
                       {"updates", {}, 0}},
                      {{"output", {}, 0, RanksFrom(1)}},
                      &InferScatterNd};
    default: throw std::logic_error("ScatterSchema: not a scatter op");
  }
}

}  // namespace

const OpSchema& ScatterSchema(OpKind op) {
  static const OpSchema kSchemas[] = {MakeSchema(OpKind::scatterElements), MakeSchema(OpKind::scatterND)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("ScatterSchema: not a scatter op");
}

}  // namespace webnn::ops
