// fusedElementwise: attributes and shape inference (the output is the
// broadcast of every input). Runs at dispatch for graphs with dynamic
// dimensions; validation happened when the fused ops were built.
#include "ops/fused_elementwise.h"

namespace webnn::ops {
namespace {

std::vector<OperandDesc> InferFusedElementwise(const InferContext& ctx, const OpAttrs& attrs,
                                               std::span<const OperandDesc* const> in) {
  if (in.empty() || in[0] == nullptr) ctx.Fail("needs at least one input");
  const auto& fused = static_cast<const FusedElementwiseAttrs&>(attrs);
  Shape shape = in[0]->shape;
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i] == nullptr) ctx.Fail("input ", i, " is missing");
    Shape input = in[i]->shape;
    if (fused.upsampled(i)) {
      if (input.size() < 2) ctx.Fail("inputs[", i, "] is upsampled along two axes but has rank ", input.size());
      for (size_t a = 0; a < 2; ++a) {
        core::Dim& d = input[input.size() - 2 + a];
        d = core::Dim::Static(d.size * fused.upsample[i][a]);
      }
    }
    shape = BroadcastShapes(ctx, shape, input, "output", core::StrCat("inputs[", i, "]"));
  }
  return {OperandDesc{in[0]->type, std::move(shape)}};
}

}  // namespace

bool IsElementwiseBinary(OpKind op) { return OpFamily(op) == "ElementwiseBinary"; }

bool IsFusableElementwise(OpKind op) {
  return OpFamily(op) == "ElementwiseUnary" || IsActivation(op) || IsElementwiseBinary(op);
}

std::string FusedElementwiseToString(const FusedElementwiseAttrs& attrs) {
  std::string s;
  for (const FusedElementwiseStep& step : attrs.steps) {
    if (!s.empty()) s += " > ";
    s += OpName(step.op);
    if (IsElementwiseBinary(step.op)) {
      const std::string other = step.operand == FusedElementwiseStep::kRunningValue
                                    ? std::string("x")
                                    : core::StrCat("#", step.operand);
      s += step.running_is_b ? core::StrCat("(", other, ", x)") : core::StrCat("(x, ", other, ")");
    }
  }
  for (size_t i = 0; i < attrs.upsample.size(); ++i)
    if (attrs.upsampled(i)) s += core::StrCat(" #", i, " upsampled ", attrs.upsample[i][0], "x", attrs.upsample[i][1]);
  return s;
}

const OpSchema& FusedElementwiseSchema(OpKind op) {
  static const OpSchema kSchema{OpKind::fusedElementwise,
                                {{"inputs", DataTypeSet{DataType::kFloat32}, -1, kAnyRank, false, true}},
                                {{"output", DataTypeSet{DataType::kFloat32}}},
                                &InferFusedElementwise};
  if (op != OpKind::fusedElementwise) throw std::logic_error("FusedElementwiseSchema: not fusedElementwise");
  return kSchema;
}

}  // namespace webnn::ops
