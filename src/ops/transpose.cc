// transpose: validation and shape inference.
#include <stdexcept>

#include "ops/transpose.h"

namespace webnn::ops {

std::vector<uint32_t> ResolvePermutation(const TransposeAttrs& attrs, uint32_t rank) {
  if (attrs.permutation) return *attrs.permutation;
  std::vector<uint32_t> reversed(rank);
  for (uint32_t i = 0; i < rank; ++i) reversed[i] = rank - 1 - i;
  return reversed;
}

namespace {

std::vector<OperandDesc> InferTranspose(const InferContext& ctx, const OpAttrs& attrs,
                                        std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<TransposeAttrs>(attrs);
  const OperandDesc& input = *in[0];
  const uint32_t rank = input.rank();
  if (a.permutation) {
    if (a.permutation->size() != rank)
      ctx.Fail("permutation must have ", rank, " entries (the input rank), got ", a.permutation->size());
    CheckAxes(ctx, *a.permutation, rank, "permutation");
  }
  const std::vector<uint32_t> perm = ResolvePermutation(a, rank);
  OperandDesc out{input.type, Shape(rank)};
  for (uint32_t i = 0; i < rank; ++i) out.shape[i] = input.shape[perm[i]];
  return {out};
}

}  // namespace

const OpSchema& TransposeSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::transpose, {{"input", core::kAnySpecType}}, {{"output", {}, 0}},
                                &InferTranspose};
  if (op != OpKind::transpose) throw std::logic_error("TransposeSchema: not transpose");
  return kSchema;
}

}  // namespace webnn::ops
