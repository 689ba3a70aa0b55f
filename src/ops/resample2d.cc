// resample2d: validation and output shape.
#include "ops/resample2d.h"

#include <cmath>

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferResample2d(const InferContext& ctx, const OpAttrs& base,
                                         std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<Resample2dAttrs>(base);
  const OperandDesc& input = *in[0];

  if (attrs.scales.size() != 2) ctx.Fail("scales must have 2 entries, got ", attrs.scales.size());
  for (float s : attrs.scales)
    if (!(s > 0)) ctx.Fail("scales must be greater than 0, got ", core::ListToString(attrs.scales));
  if (attrs.sizes) {
    if (attrs.sizes->size() != 2) ctx.Fail("sizes must have 2 entries, got ", attrs.sizes->size());
    if ((*attrs.sizes)[0] == 0 || (*attrs.sizes)[1] == 0)
      ctx.Fail("sizes must be greater than 0, got ", core::ListToString(*attrs.sizes));
  }
  if (attrs.axes.size() != 2) ctx.Fail("axes must have 2 entries, got ", attrs.axes.size());
  CheckAxes(ctx, attrs.axes, input.rank(), "axes");

  Shape out = input.shape;
  for (size_t i = 0; i < 2; ++i) {
    const uint32_t axis = attrs.axes[i];
    const Dim& from = input.shape[axis];
    if (attrs.sizes) {
      out[axis] = ctx.MakeDim((*attrs.sizes)[i], {}, core::StrCat("output size of axis ", axis));
      continue;
    }
    // A float scale has 24 significant bits and a dimension 31, so the product
    // is exact in long double's 64-bit significand; double could round it up
    // across an integer before the floor.
    const long double size = std::floor(static_cast<long double>(from.size) * attrs.scales[i]);
    if (size < 1)
      ctx.Fail("output size of axis ", axis, " is floor(", from.size, " * ", attrs.scales[i],
               ") = 0; it must be at least 1");
    if (size > core::kMaxDimension)
      ctx.Fail("output size of axis ", axis, " is floor(", from.size, " * ", attrs.scales[i],
               "), more than the maximum ", core::kMaxDimension);
    out[axis] = ctx.MakeDim(static_cast<uint64_t>(size), {from}, core::StrCat("output size of axis ", axis));
  }
  return {OperandDesc{input.type, std::move(out)}};
}

}  // namespace

const OpSchema& Resample2dSchema(OpKind op) {
  static const OpSchema kSchema{
      OpKind::resample2d,
      {{"input", {DataType::kFloat32, DataType::kFloat16, DataType::kUint8, DataType::kInt8}, -1, Rank(4)}},
      {{"output", {}, 0, Rank(4)}},
      &InferResample2d};
  if (op != OpKind::resample2d) throw std::logic_error("Resample2dSchema: not resample2d");
  return kSchema;
}

}  // namespace webnn::ops
