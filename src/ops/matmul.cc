// matmul: validation and shape inference.
#include "ops/matmul.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferMatmul(const InferContext& ctx, const OpAttrs&, std::span<const OperandDesc* const> in) {
  const OperandDesc& a = *in[0];
  const OperandDesc& b = *in[1];
  // The slots already require rank >= 2; kept so Infer never indexes out of range.
  CheckRank(ctx, a, RanksFrom(2), "a");
  CheckRank(ctx, b, RanksFrom(2), "b");
  CheckSameType(ctx, a, b, "a", "b");
  const Dim& rows_a = a.shape[a.rank() - 2];
  const Dim& cols_a = a.shape[a.rank() - 1];
  const Dim& rows_b = b.shape[b.rank() - 2];
  const Dim& cols_b = b.shape[b.rank() - 1];
  if (!MaybeEqual(cols_a, rows_b))
    ctx.Fail("the columns of 'a' ", ctx.ShapeToString(a.shape), " (", ctx.DimToString(cols_a),
             ") must equal the rows of 'b' ", ctx.ShapeToString(b.shape), " (", ctx.DimToString(rows_b), ")");
  const Shape batch_a(a.shape.begin(), a.shape.end() - 2);
  const Shape batch_b(b.shape.begin(), b.shape.end() - 2);
  Shape out = BroadcastShapes(ctx, batch_a, batch_b, "a[:-2]", "b[:-2]");
  out.push_back(rows_a);
  out.push_back(cols_b);
  return {OperandDesc{a.type, std::move(out)}};
}

}  // namespace

const OpSchema& MatmulSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::matmul,
                                {{"a", core::kFloatTypes, -1, RanksFrom(2)}, {"b", {}, 0, RanksFrom(2)}},
                                {{"output", {}, 0, RanksFrom(2)}},
                                &InferMatmul};
  if (op != OpKind::matmul) throw std::logic_error("MatmulSchema: not matmul");
  return kSchema;
}

}  // namespace webnn::ops
