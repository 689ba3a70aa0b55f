// expand: validation and shape inference.
#include <stdexcept>

#include "ops/expand.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferExpand(const InferContext& ctx, const OpAttrs& attrs,
                                     std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<ExpandAttrs>(attrs);
  const OperandDesc& input = *in[0];
  if (a.newShape.size() > core::kMaxRank)
    ctx.Fail("newShape has ", a.newShape.size(), " entries, more than the maximum rank ", core::kMaxRank);
  OperandDesc out{input.type, Shape(a.newShape.size())};
  for (size_t i = 0; i < a.newShape.size(); ++i)
    out.shape[i] = ctx.ResolveDimension(a.newShape[i], core::StrCat("newShape[", i, "]"));

  // The spec's "unidirectionally broadcast the shapes" input -> newShape.
  if (input.rank() > out.rank())
    ctx.Fail("input ", ctx.ShapeToString(input.shape), " has rank ", input.rank(), ", more than newShape ",
             ctx.ShapeToString(out.shape), " (", out.rank(), ")");
  const size_t offset = out.rank() - input.rank();
  for (size_t i = 0; i < input.rank(); ++i) {
    const Dim& from = input.shape[i];
    const Dim& to = out.shape[i + offset];
    if (from.IsStatic() && from.size == 1) continue;
    // A dynamic `from` may be 1 at dispatch; a dynamic `to` may reach a static `from` if its bound allows.
    const bool possible = MaybeEqual(from, to) && !(from.IsStatic() && !to.IsStatic() && to.size < from.size);
    if (!possible)
      ctx.Fail("input ", ctx.ShapeToString(input.shape), " is not unidirectionally broadcastable to newShape ",
               ctx.ShapeToString(out.shape), " (input dimension ", i, ": ", ctx.DimToString(from), " vs ",
               ctx.DimToString(to), ")");
  }
  return {out};
}

}  // namespace

const OpSchema& ExpandSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::expand, {{"input", core::kAnySpecType}}, {{"output", {}, 0}},
                                &InferExpand};
  if (op != OpKind::expand) throw std::logic_error("ExpandSchema: not expand");
  return kSchema;
}

}  // namespace webnn::ops
