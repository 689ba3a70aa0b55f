// fusedNormalization: shape inference (validation happened when the fused ops
// were built; this runs again at dispatch for graphs with dynamic dimensions).
#include "ops/fused_normalization.h"

#include <algorithm>

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferFusedNormalization(const InferContext& ctx, const OpAttrs& attrs,
                                                 std::span<const OperandDesc* const> in) {
  const auto& a = AttrsAs<FusedNormalizationAttrs>(attrs);
  const OperandDesc& x = *in[0];
  if (a.axes == 0 || a.axes > x.rank())
    ctx.Fail("the normalized axes ", a.axes, " must be between 1 and the input's rank ", x.rank());
  const OperandDesc* residual = in.size() > 1 ? in[1] : nullptr;
  bool same_shape = residual && residual->rank() == x.rank();
  for (size_t k = 0; same_shape && k < x.rank(); ++k) same_shape = core::MaybeEqual(residual->shape[k], x.shape[k]);
  if (residual && !same_shape)
    ctx.Fail("the residual ", ctx.ShapeToString(residual->shape), " must have the input's shape ",
             ctx.ShapeToString(x.shape));
  if (a.sum_output && !residual) ctx.Fail("a sum output needs a residual");
  const Shape window(x.shape.end() - a.axes, x.shape.end());  // for messages
  for (size_t i = 2; i < in.size(); ++i) {
    if (!in[i]) continue;
    const std::string_view what = i == 2 ? "scale" : "bias";
    const Shape& s = in[i]->shape;
    if (!FitsNormalizedWindow(s, x.shape, a.axes))
      ctx.Fail("the ", what, " ", ctx.ShapeToString(s), " must have the normalized window's shape ",
               ctx.ShapeToString(window));
  }
  std::vector<OperandDesc> out{OperandDesc{x.type, x.shape}};
  if (a.sum_output) out.push_back(OperandDesc{x.type, x.shape});
  return out;
}

}  // namespace

bool FitsNormalizedWindow(const Shape& s, const Shape& input, uint32_t axes) {
  if (s.size() < axes || axes > input.size()) return false;
  for (size_t k = 0; k < s.size(); ++k) {
    const size_t from_end = s.size() - 1 - k;
    const bool fits = from_end >= axes ? s[k].IsStatic() && s[k].size == 1
                                       : core::MaybeEqual(s[k], input[input.size() - 1 - from_end]);
    if (!fits) return false;
  }
  return true;
}

uint32_t TrailingAxesCount(std::vector<uint32_t> axes, uint32_t rank) {
  std::sort(axes.begin(), axes.end());
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != rank - axes.size() + i) return 0;
  return static_cast<uint32_t>(axes.size());
}

const OpSchema& FusedNormalizationSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::fusedNormalization,
                                {{"input", core::kFloatTypes, -1, RanksFrom(1)},
                                 {"residual", {}, 0, RanksFrom(1), true},
                                 {"scale", {}, 0, kAnyRank, true},
                                 {"bias", {}, 0, kAnyRank, true}},
                                {{"output", {}, 0, RanksFrom(1)}, {"sum", {}, 0, RanksFrom(1)}},
                                &InferFusedNormalization};
  if (op != OpKind::fusedNormalization) throw std::logic_error("FusedNormalizationSchema: not fusedNormalization");
  return kSchema;
}

}  // namespace webnn::ops
