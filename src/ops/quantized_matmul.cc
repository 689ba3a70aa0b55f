// quantizedMatmul: shape inference (validation happened when the fused
// matmul/gemm and dequantizeLinear were built; this runs again at dispatch
// for graphs with dynamic dimensions).
#include "ops/quantized_matmul.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferQuantizedMatmul(const InferContext& ctx, const OpAttrs& attrs,
                                              std::span<const OperandDesc* const> in) {
  const OperandDesc& a = *in[0];
  const OperandDesc& w = *in[1];
  CheckRank(ctx, a, RanksFrom(2), "a");
  CheckRank(ctx, w, 2, "weight");
  const bool transposed = AttrsAs<QuantizedMatmulAttrs>(attrs).weight_transposed;
  const Dim& k = w.shape[transposed ? 1 : 0];
  if (!MaybeEqual(a.shape.back(), k))
    ctx.Fail("the columns of 'a' ", ctx.ShapeToString(a.shape), " must equal the rows of the weight ",
             ctx.ShapeToString(w.shape));
  if (AttrsAs<QuantizedMatmulAttrs>(attrs).gated) {
    const OperandDesc* up = in.size() > 5 ? in[5] : nullptr;
    if (!up || up->type != w.type || up->shape != w.shape)
      ctx.Fail("a gated quantizedMatmul needs an up weight of the weight's type and shape ",
               ctx.ShapeToString(w.shape));
    if (in.size() > 4 && in[4]) ctx.Fail("a gated quantizedMatmul takes no bias");
  }
  Shape out(a.shape.begin(), a.shape.end() - 1);
  out.push_back(w.shape[transposed ? 0 : 1]);
  return {OperandDesc{a.type, std::move(out)}};
}

}  // namespace

const OpSchema& QuantizedMatmulSchema(OpKind op) {
  static const OpSchema kSchema{
      OpKind::quantizedMatmul,
      {{"a", core::kFloatTypes, -1, RanksFrom(2)},
       {"weight", DataTypeSet{DataType::kInt4, DataType::kUint4, DataType::kInt8, DataType::kUint8}, -1, Rank(2)},
       {"scale", {}, 0, Rank(2)},
       {"zeroPoint", {}, 1, Rank(2)},
       {"bias", {}, 0, kAnyRank, true},
       {"upWeight", {}, 1, Rank(2), true},
       {"upScale", {}, 0, Rank(2), true},
       {"upZeroPoint", {}, 1, Rank(2), true}},
      {{"output", {}, 0, RanksFrom(2)}},
      &InferQuantizedMatmul};
  if (op != OpKind::quantizedMatmul) throw std::logic_error("QuantizedMatmulSchema: not quantizedMatmul");
  return kSchema;
}

}  // namespace webnn::ops
