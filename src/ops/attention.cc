// attention: shape inference (validation happened when the fused ops were
// built; this runs again at dispatch for graphs with dynamic dimensions).
#include "ops/attention.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferAttention(const InferContext& ctx, const OpAttrs& attrs,
                                        std::span<const OperandDesc* const> in) {
  const OperandDesc& q = *in[0];
  const OperandDesc& k = *in[1];
  const OperandDesc& v = *in[2];
  CheckRank(ctx, q, 4, "query");
  CheckRank(ctx, k, 4, "key");
  CheckRank(ctx, v, 4, "value");
  const bool kt = AttrsAs<AttentionAttrs>(attrs).key_transposed;
  if (!MaybeEqual(k.shape[kt ? 2 : 3], q.shape[3]))
    ctx.Fail("the key's head size must equal the query's ", ctx.DimToString(q.shape[3]));
  if (!MaybeEqual(k.shape[kt ? 3 : 2], v.shape[2]))
    ctx.Fail("the key's length must equal the value's ", ctx.DimToString(v.shape[2]));
  if (q.shape[1].IsStatic() && k.shape[1].IsStatic() && (k.shape[1].size == 0 || q.shape[1].size % k.shape[1].size))
    ctx.Fail("the query heads ", q.shape[1].size, " must be a multiple of the key heads ", k.shape[1].size);
  if (in.size() > 3 && in[3] != nullptr) {
    // The mask broadcasts to the scores [B, Hq, S, T].
    const OperandDesc& mask = *in[3];
    const Shape scores{q.shape[0], q.shape[1], q.shape[2], v.shape[2]};
    if (mask.rank() > 4) ctx.Fail("the mask's rank ", mask.rank(), " exceeds 4");
    for (uint32_t i = 0; i < mask.rank(); ++i) {
      const Dim& m = mask.shape[mask.rank() - 1 - i];
      const Dim& s = scores[3 - i];
      if (!(m.IsStatic() && m.size == 1) && !MaybeEqual(m, s))
        ctx.Fail("the mask ", ctx.ShapeToString(mask.shape), " does not broadcast to the scores ",
                 ctx.ShapeToString(scores));
    }
  }
  return {OperandDesc{q.type, Shape{q.shape[0], q.shape[1], q.shape[2], v.shape[3]}}};
}

}  // namespace

const OpSchema& AttentionSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::attention,
                                {{"query", core::kFloatTypes, -1, Rank(4)},
                                 {"key", {}, 0, Rank(4)},
                                 {"value", {}, 0, Rank(4)},
                                 {"mask", {}, 0, kAnyRank, true}},
                                {{"output", {}, 0, Rank(4)}},
                                &InferAttention};
  if (op != OpKind::attention) throw std::logic_error("AttentionSchema: not attention");
  return kSchema;
}

}  // namespace webnn::ops
