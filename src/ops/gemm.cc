// gemm: validation and shape inference.
#include "ops/gemm.h"

#include <cmath>

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferGemm(const InferContext& ctx, const OpAttrs& attrs_base,
                                   std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<GemmAttrs>(attrs_base);
  const OperandDesc& a = *in[0];
  const OperandDesc& b = *in[1];
  const OperandDesc* c = in.size() > 2 ? in[2] : nullptr;
  CheckRank(ctx, a, 2, "a");
  CheckRank(ctx, b, 2, "b");
  CheckSameType(ctx, a, b, "a", "b");
  // alpha and beta are WebIDL `double`: a binding would reject non-finite values.
  if (!std::isfinite(attrs.alpha)) ctx.Fail("alpha must be a finite number, got ", attrs.alpha);
  if (!std::isfinite(attrs.beta)) ctx.Fail("beta must be a finite number, got ", attrs.beta);

  const Dim& m = attrs.aTranspose ? a.shape[1] : a.shape[0];
  const Dim& k_a = attrs.aTranspose ? a.shape[0] : a.shape[1];
  const Dim& k_b = attrs.bTranspose ? b.shape[1] : b.shape[0];
  const Dim& n = attrs.bTranspose ? b.shape[0] : b.shape[1];
  if (!MaybeEqual(k_a, k_b))
    ctx.Fail("K of 'a' ", ctx.ShapeToString(a.shape), (attrs.aTranspose ? " (transposed)" : ""), " is ",
             ctx.DimToString(k_a), " but K of 'b' ", ctx.ShapeToString(b.shape),
             (attrs.bTranspose ? " (transposed)" : ""), " is ", ctx.DimToString(k_b));
  const Shape out{m, n};
  if (c != nullptr) {
    CheckRank(ctx, *c, RankRange{0, 2}, "c");
    CheckSameType(ctx, a, *c, "a", "c");
    if (!IsUnidirectionallyBroadcastable(c->shape, out))
      ctx.Fail("argument 'c' shape ", ctx.ShapeToString(c->shape),
               " is not unidirectionally broadcastable to the output shape ", ctx.ShapeToString(out));
  }
  return {OperandDesc{a.type, out}};
}

}  // namespace

const OpSchema& GemmSchema(OpKind op) {
  static const OpSchema kSchema{
      OpKind::gemm,
      {{"a", core::kFloatTypes, -1, Rank(2)}, {"b", {}, 0, Rank(2)}, {"c", {}, 0, RankRange{0, 2}, true}},
      {{"output", {}, 0, Rank(2)}},
      &InferGemm};
  if (op != OpKind::gemm) throw std::logic_error("GemmSchema: not gemm");
  return kSchema;
}

}  // namespace webnn::ops
