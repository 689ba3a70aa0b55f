// pad: validation and shape inference.
#include <stdexcept>

#include "ops/pad.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferPad(const InferContext& ctx, const OpAttrs& attrs,
                                  std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<PadAttrs>(attrs);
  const OperandDesc& input = *in[0];
  const uint32_t rank = input.rank();
  if (a.beginningPadding.size() != rank)
    ctx.Fail("beginningPadding must have ", rank, " entries (the input rank), got ", a.beginningPadding.size());
  if (a.endingPadding.size() != rank)
    ctx.Fail("endingPadding must have ", rank, " entries (the input rank), got ", a.endingPadding.size());
  OperandDesc out{input.type, Shape(rank)};
  for (uint32_t i = 0; i < rank; ++i) {
    const Dim& dim = input.shape[i];
    const uint64_t begin = a.beginningPadding[i];
    const uint64_t end = a.endingPadding[i];
    if (a.mode == MLPaddingMode::kReflection) {
      // Reflection mirrors without repeating the edge, so it has only dim - 1 values to offer.
      // A dynamic dim is checked against its upper bound here and its value at dispatch.
      if (begin >= dim.size)
        ctx.Fail("beginningPadding[", i, "] is ", begin, ", which must be less than input dimension ", i, " (",
                 ctx.DimToString(dim), ") in reflection mode");
      if (end >= dim.size)
        ctx.Fail("endingPadding[", i, "] is ", end, ", which must be less than input dimension ", i, " (",
                 ctx.DimToString(dim), ") in reflection mode");
    }
    out.shape[i] = ctx.MakeDim(begin + dim.size + end, {dim}, core::StrCat("output dimension ", i));
  }
  return {out};
}

}  // namespace

const OpSchema& PadSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::pad, {{"input", core::kAnySpecType}}, {{"output", {}, 0}}, &InferPad};
  if (op != OpKind::pad) throw std::logic_error("PadSchema: not pad");
  return kSchema;
}

}  // namespace webnn::ops
