// rotaryEmbedding: shape inference (validation happened when the fused ops
// were built; this runs again at dispatch for graphs with dynamic
// dimensions).
#include "ops/rotary_embedding.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferRotaryEmbedding(const InferContext& ctx, const OpAttrs& attrs,
                                              std::span<const OperandDesc* const> in) {
  const OperandDesc& x = *in[0];
  const OperandDesc& cos = *in[1];
  const OperandDesc& sin = *in[2];
  // The kernel splits the last axis in halves: its size must be known.
  const Dim& d = x.shape.back();
  if (!d.IsStatic() || d.size % 2 != 0)
    ctx.Fail("the input's last dimension ", ctx.DimToString(d), " must be static and even");
  const bool full = AttrsAs<RotaryEmbeddingAttrs>(attrs).full_tables;
  const Dim width = Dim::Static(full ? d.size : d.size / 2);
  CheckShape(ctx, sin, cos.shape, "sin");
  // The tables broadcast to x's shape with the last dimension `width`, and do
  // not make it bigger.
  Shape target = x.shape;
  target.back() = width;
  bool fits = cos.rank() >= 1 && cos.rank() <= x.rank() && MaybeEqual(cos.shape.back(), width);
  for (uint32_t i = 1; fits && i < cos.rank(); ++i) {
    const Dim& t = cos.shape[cos.rank() - 1 - i];
    fits = (t.IsStatic() && t.size == 1) || MaybeEqual(t, target[x.rank() - 1 - i]);
  }
  if (!fits)
    ctx.Fail("the cos and sin tables ", ctx.ShapeToString(cos.shape), " must broadcast to ",
             ctx.ShapeToString(target), " (", full ? "full" : "half", " tables of the input ",
             ctx.ShapeToString(x.shape), ")");
  return {x};
}

}  // namespace

const OpSchema& RotaryEmbeddingSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::rotaryEmbedding,
                                {{"input", core::kFloatTypes, -1, RanksFrom(1)},
                                 {"cos", {}, 0, RanksFrom(1)},
                                 {"sin", {}, 0, RanksFrom(1)}},
                                {{"output", {}, 0, RanksFrom(1)}},
                                &InferRotaryEmbedding};
  if (op != OpKind::rotaryEmbedding) throw std::logic_error("RotaryEmbeddingSchema: not rotaryEmbedding");
  return kSchema;
}

}  // namespace webnn::ops
