// gru and gruCell: validation and shape inference.
#include "core/shape.h"
#include "ops/gru.h"

namespace webnn::ops {
namespace {

const OperandDesc* Present(std::span<const OperandDesc* const> in, size_t i) { return i < in.size() ? in[i] : nullptr; }

// The spec requires hiddenSize * 6 to be a valid dimension: some platforms
// concatenate bias and recurrentBias (3 + 3 gates) into one tensor.
void CheckHiddenSize(const InferContext& ctx, uint32_t hidden_size) {
  if (hidden_size == 0 || uint64_t{hidden_size} * 6 > core::kMaxDimension)
    ctx.Fail("hiddenSize must be greater than 0 with hiddenSize * 6 at most ", core::kMaxDimension, ", got ",
             hidden_size);
}

void CheckActivations(const InferContext& ctx, const GruAttrs& attrs) {
  if (attrs.activations.size() != 2)
    ctx.Fail("activations must have 2 entries (update/reset gate, new gate), got ", attrs.activations.size());
}

// Checks an optional operand's data type (same as input) and exact shape.
void CheckOptional(const InferContext& ctx, const OperandDesc& input, const OperandDesc* d, const Shape& shape,
                   std::string_view what) {
  if (d == nullptr) return;
  CheckSameType(ctx, input, *d, "input", what);
  CheckShape(ctx, *d, shape, what);
}

std::vector<OperandDesc> InferGru(const InferContext& ctx, const OpAttrs& attrs_base,
                                  std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<GruAttrs>(attrs_base);
  const OperandDesc& input = *in[0];
  const OperandDesc& weight = *in[1];
  const OperandDesc& recurrent_weight = *in[2];
  CheckRank(ctx, input, 3, "input");
  CheckRank(ctx, weight, 3, "weight");
  CheckRank(ctx, recurrent_weight, 3, "recurrentWeight");
  CheckSameType(ctx, input, weight, "input", "weight");
  CheckSameType(ctx, input, recurrent_weight, "input", "recurrentWeight");
  if (attrs.steps == 0) ctx.Fail("steps must be greater than 0");
  if (!MaybeEqual(input.shape[0], Dim::Static(attrs.steps)))
    ctx.Fail("argument 'input' shape ", ctx.ShapeToString(input.shape), " must have steps (", attrs.steps,
             ") as dimension 0");
  CheckHiddenSize(ctx, attrs.hiddenSize);
  const Dim& batch = input.shape[1];
  const Dim& input_size = input.shape[2];
  const Dim directions = Dim::Static(attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1);
  const Dim hidden = Dim::Static(attrs.hiddenSize);
  const Dim gates = Dim::Static(3 * attrs.hiddenSize);
  CheckShape(ctx, weight, {directions, gates, input_size}, "weight");
  CheckShape(ctx, recurrent_weight, {directions, gates, hidden}, "recurrentWeight");
  CheckOptional(ctx, input, Present(in, 3), {directions, gates}, "bias");
  CheckOptional(ctx, input, Present(in, 4), {directions, gates}, "recurrentBias");
  CheckOptional(ctx, input, Present(in, 5), {directions, batch, hidden}, "initialHiddenState");
  CheckActivations(ctx, attrs);
  std::vector<OperandDesc> outputs{OperandDesc{input.type, {directions, batch, hidden}}};
  if (attrs.returnSequence)
    outputs.push_back(OperandDesc{input.type, {Dim::Static(attrs.steps), directions, batch, hidden}});
  return outputs;
}

std::vector<OperandDesc> InferGruCell(const InferContext& ctx, const OpAttrs& attrs_base,
                                      std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<GruAttrs>(attrs_base);
  const OperandDesc& input = *in[0];
  const OperandDesc& weight = *in[1];
  const OperandDesc& recurrent_weight = *in[2];
  const OperandDesc& hidden_state = *in[3];
  CheckRank(ctx, input, 2, "input");
  CheckRank(ctx, weight, 2, "weight");
  CheckRank(ctx, recurrent_weight, 2, "recurrentWeight");
  CheckRank(ctx, hidden_state, 2, "hiddenState");
  CheckSameType(ctx, input, weight, "input", "weight");
  CheckSameType(ctx, input, recurrent_weight, "input", "recurrentWeight");
  CheckSameType(ctx, input, hidden_state, "input", "hiddenState");
  CheckHiddenSize(ctx, attrs.hiddenSize);
  const Dim& batch = input.shape[0];
  const Dim& input_size = input.shape[1];
  const Dim hidden = Dim::Static(attrs.hiddenSize);
  const Dim gates = Dim::Static(3 * attrs.hiddenSize);
  CheckShape(ctx, weight, {gates, input_size}, "weight");
  CheckShape(ctx, recurrent_weight, {gates, hidden}, "recurrentWeight");
  CheckShape(ctx, hidden_state, {batch, hidden}, "hiddenState");
  CheckOptional(ctx, input, Present(in, 4), {gates}, "bias");
  CheckOptional(ctx, input, Present(in, 5), {gates}, "recurrentBias");
  CheckActivations(ctx, attrs);
  return {OperandDesc{input.type, {batch, hidden}}};
}

}  // namespace

const OpSchema& GruSchema(OpKind op) {
  static const OpSchema kGru{OpKind::gru,
                             {{"input", core::kFloatTypes, -1, Rank(3)},
                              {"weight", {}, 0, Rank(3)},
                              {"recurrentWeight", {}, 0, Rank(3)},
                              {"bias", {}, 0, Rank(2), true},
                              {"recurrentBias", {}, 0, Rank(2), true},
                              {"initialHiddenState", {}, 0, Rank(3), true}},
                             {{"output0", {}, 0, Rank(3)}, {"output1", {}, 0, Rank(4)}},
                             &InferGru};
  static const OpSchema kGruCell{OpKind::gruCell,
                                 {{"input", core::kFloatTypes, -1, Rank(2)},
                                  {"weight", {}, 0, Rank(2)},
                                  {"recurrentWeight", {}, 0, Rank(2)},
                                  {"hiddenState", {}, 0, Rank(2)},
                                  {"bias", {}, 0, Rank(1), true},
                                  {"recurrentBias", {}, 0, Rank(1), true}},
                                 {{"output", {}, 0, Rank(2)}},
                                 &InferGruCell};
  switch (op) {
    case OpKind::gru: return kGru;
    case OpKind::gruCell: return kGruCell;
    default: throw std::logic_error("GruSchema: not gru or gruCell");
  }
}

}  // namespace webnn::ops
