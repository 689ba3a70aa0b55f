// gather, gatherElements, gatherND: validation and shape inference.
#include <stdexcept>

#include "ops/gather.h"

namespace webnn::ops {
namespace {

constexpr DataTypeSet kIndexTypes{DataType::kInt32, DataType::kUint32, DataType::kInt64};

void CheckAxis(const InferContext& ctx, uint32_t axis, const OperandDesc& input) {
  if (axis >= input.rank()) ctx.Fail("axis ", axis, " must be less than the input rank ", input.rank());
}

// Of two dims that must be equal, the one that says more: a static size over a dynamic one.
Dim MoreKnown(const Dim& a, const Dim& b) { return a.IsStatic() ? a : b; }

std::vector<OperandDesc> InferGather(const InferContext& ctx, const OpAttrs& attrs,
                                     std::span<const OperandDesc* const> in) {
  const uint32_t axis = AttrsAs<GatherAttrs>(attrs).axis;
  const OperandDesc& input = *in[0];
  const OperandDesc& indices = *in[1];
  CheckAxis(ctx, axis, input);
  // input[:axis] + indices.shape + input[axis + 1:]
  OperandDesc out{input.type, {}};
  out.shape.insert(out.shape.end(), input.shape.begin(), input.shape.begin() + axis);
  out.shape.insert(out.shape.end(), indices.shape.begin(), indices.shape.end());
  out.shape.insert(out.shape.end(), input.shape.begin() + axis + 1, input.shape.end());
  return {out};
}

std::vector<OperandDesc> InferGatherElements(const InferContext& ctx, const OpAttrs& attrs,
                                             std::span<const OperandDesc* const> in) {
  const uint32_t axis = AttrsAs<GatherAttrs>(attrs).axis;
  const OperandDesc& input = *in[0];
  const OperandDesc& indices = *in[1];
  if (indices.rank() != input.rank())
    ctx.Fail("argument 'indices' must have the input rank ", input.rank(), ", got ", indices.rank());
  CheckAxis(ctx, axis, input);
  OperandDesc out{input.type, indices.shape};
  for (uint32_t i = 0; i < input.rank(); ++i) {
    if (i == axis) continue;
    if (!MaybeEqual(indices.shape[i], input.shape[i]))
      ctx.Fail("argument 'indices' shape ", ctx.ShapeToString(indices.shape), " must equal the input shape ",
               ctx.ShapeToString(input.shape), " except on axis ", axis, " (dimension ", i, " differs)");
    out.shape[i] = MoreKnown(indices.shape[i], input.shape[i]);
  }
  return {out};
}

// The last dimension of gatherND/scatterND indices: how many leading input axes a coordinate names.
uint32_t CoordinateSize(const InferContext& ctx, const OperandDesc& input, const OperandDesc& indices) {
  CheckRank(ctx, indices, RanksFrom(1), "indices");  // the schema's rule, repeated: back() needs it
  const Dim& last = indices.shape.back();
  if (!last.IsStatic())
    ctx.Fail("the last dimension of 'indices' (", ctx.DimToString(last), ") must be static: it sets the output rank");
  if (last.size > input.rank())
    ctx.Fail("the last dimension of 'indices' (", last.size, ") must not exceed the input rank ", input.rank());
  return last.size;
}

// indices.shape[:-1] + input.shape[coordinateSize:]
Shape NdSliceShape(const OperandDesc& input, const OperandDesc& indices, uint32_t coordinate_size) {
  Shape shape(indices.shape.begin(), indices.shape.end() - 1);
  shape.insert(shape.end(), input.shape.begin() + coordinate_size, input.shape.end());
  return shape;
}

std::vector<OperandDesc> InferGatherNd(const InferContext& ctx, const OpAttrs&,
                                       std::span<const OperandDesc* const> in) {
  const OperandDesc& input = *in[0];
  const OperandDesc& indices = *in[1];
  const uint32_t coordinate_size = CoordinateSize(ctx, input, indices);
  return {OperandDesc{input.type, NdSliceShape(input, indices, coordinate_size)}};
}

OpSchema MakeSchema(OpKind op) {
  switch (op) {
    case OpKind::gather:
      // The output of a 1-D input gathered with 0-D indices is 0-D (WPT validation expects
      // it to build), so the output allows rank 0 although the spec's table says "1 to N".
      return OpSchema{op,
                      {{"input", core::kAnySpecType, -1, RanksFrom(1)}, {"indices", kIndexTypes}},
                      {{"output", {}, 0}},
                      &InferGather};
    case OpKind::gatherElements:
      return OpSchema{op,
                      {{"input", core::kAnySpecType, -1, RanksFrom(1)}, {"indices", kIndexTypes, -1, RanksFrom(1)}},
                      {{"output", {}, 0, RanksFrom(1)}},
                      &InferGatherElements};
    case OpKind::gatherND:
      return OpSchema{op,
                      {{"input", core::kAnySpecType, -1, RanksFrom(1)}, {"indices", kIndexTypes, -1, RanksFrom(1)}},
                      {{"output", {}, 0}},
                      &InferGatherNd};
    default: throw std::logic_error("GatherSchema: not a gather op");
  }
}

}  // namespace

const OpSchema& GatherSchema(OpKind op) {
  static const OpSchema kSchemas[] = {MakeSchema(OpKind::gather), MakeSchema(OpKind::gatherElements),
                                      MakeSchema(OpKind::gatherND)};
  for (const OpSchema& s : kSchemas)
    if (s.kind == op) return s;
  throw std::logic_error("GatherSchema: not a gather op");
}

}  // namespace webnn::ops
