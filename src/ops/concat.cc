// concat: validation and shape inference.
#include <stdexcept>

#include "ops/concat.h"

namespace webnn::ops {
namespace {

// The spec's "valid tensor count": 1 to 8192 operands.
constexpr size_t kMaxTensorCount = 8192;

std::vector<OperandDesc> InferConcat(const InferContext& ctx, const OpAttrs& attrs,
                                     std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<ConcatAttrs>(attrs);
  if (in.empty() || in.size() > kMaxTensorCount)
    ctx.Fail("inputs must have 1 to ", kMaxTensorCount, " operands, got ", in.size());
  const OperandDesc& first = *in[0];
  const uint32_t rank = first.rank();
  if (a.axis >= rank) ctx.Fail("axis ", a.axis, " must be less than the input rank ", rank);

  OperandDesc out = first;
  uint64_t axis_size = 0;
  std::vector<Dim> axis_dims;
  for (size_t i = 0; i < in.size(); ++i) {
    const OperandDesc& input = *in[i];
    if (input.type != first.type)
      ctx.Fail("inputs[", i, "] data type ", ToString(input.type), " must match inputs[0] (", ToString(first.type),
               ")");
    if (input.rank() != rank) ctx.Fail("inputs[", i, "] rank ", input.rank(), " must match inputs[0] (", rank, ")");
    for (uint32_t d = 0; d < rank; ++d) {
      if (d == a.axis) continue;
      if (!MaybeEqual(input.shape[d], first.shape[d]))
        ctx.Fail("inputs[", i, "] shape ", ctx.ShapeToString(input.shape), " must match inputs[0] ",
                 ctx.ShapeToString(first.shape), " except along axis ", a.axis, " (dimension ", d, " differs)");
      // A static size pins a dynamic one down.
      if (!out.shape[d].IsStatic() && input.shape[d].IsStatic()) out.shape[d] = input.shape[d];
    }
    axis_size += input.shape[a.axis].size;
    axis_dims.push_back(input.shape[a.axis]);
  }
  out.shape[a.axis] = ctx.MakeDim(axis_size, axis_dims, "concatenated size along axis");
  return {out};
}

}  // namespace

const OpSchema& ConcatSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::concat,
                                {{"inputs", core::kAnySpecType, -1, RanksFrom(1), false, true}},
                                {{"output", {}, 0, RanksFrom(1)}},
                                &InferConcat};
  if (op != OpKind::concat) throw std::logic_error("ConcatSchema: not concat");
  return kSchema;
}

}  // namespace webnn::ops
