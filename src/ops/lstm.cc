// lstm and lstmCell: validation and shape inference.
#include "core/shape.h"
#include "ops/lstm.h"

namespace webnn::ops {
namespace {

const OperandDesc* Present(std::span<const OperandDesc* const> in, size_t i) { return i < in.size() ? in[i] : nullptr; }

// The spec requires hiddenSize * 8 to be a valid dimension: some platforms
// concatenate bias and recurrentBias (4 + 4 gates) into one tensor.
void CheckHiddenSize(const InferContext& ctx, uint32_t hidden_size) {
  if (hidden_size == 0 || uint64_t{hidden_size} * 8 > core::kMaxDimension)
    ctx.Fail("hiddenSize must be greater than 0 with hiddenSize * 8 at most ", core::kMaxDimension, ", got ",
             hidden_size);
}

void CheckActivations(const InferContext& ctx, const LstmAttrs& attrs) {
  if (attrs.activations.size() != 3)
    ctx.Fail("activations must have 3 entries (input/forget/output gate, cell gate, cell state filter), got ",
             attrs.activations.size());
}

// Checks an optional operand's data type (same as input) and exact shape.
void CheckOptional(const InferContext& ctx, const OperandDesc& input, const OperandDesc* d, const Shape& shape,
                   std::string_view what) {
  if (d == nullptr) return;
  CheckSameType(ctx, input, *d, "input", what);
  CheckShape(ctx, *d, shape, what);
}

std::vector<OperandDesc> InferLstm(const InferContext& ctx, const OpAttrs& attrs_base,
                                   std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<LstmAttrs>(attrs_base);
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
  const Dim gates = Dim::Static(4 * attrs.hiddenSize);
  const Dim peepholes = Dim::Static(3 * attrs.hiddenSize);
  CheckShape(ctx, weight, {directions, gates, input_size}, "weight");
  CheckShape(ctx, recurrent_weight, {directions, gates, hidden}, "recurrentWeight");
  CheckOptional(ctx, input, Present(in, 3), {directions, gates}, "bias");
  CheckOptional(ctx, input, Present(in, 4), {directions, gates}, "recurrentBias");
  CheckOptional(ctx, input, Present(in, 5), {directions, peepholes}, "peepholeWeight");
  CheckOptional(ctx, input, Present(in, 6), {directions, batch, hidden}, "initialHiddenState");
  CheckOptional(ctx, input, Present(in, 7), {directions, batch, hidden}, "initialCellState");
  CheckActivations(ctx, attrs);
  const OperandDesc state{input.type, {directions, batch, hidden}};
  std::vector<OperandDesc> outputs{state, state};
  if (attrs.returnSequence)
    outputs.push_back(OperandDesc{input.type, {Dim::Static(attrs.steps), directions, batch, hidden}});
  return outputs;
}

std::vector<OperandDesc> InferLstmCell(const InferContext& ctx, const OpAttrs& attrs_base,
                                       std::span<const OperandDesc* const> in) {
  const auto& attrs = AttrsAs<LstmAttrs>(attrs_base);
  const OperandDesc& input = *in[0];
  const OperandDesc& weight = *in[1];
  const OperandDesc& recurrent_weight = *in[2];
  const OperandDesc& hidden_state = *in[3];
  const OperandDesc& cell_state = *in[4];
  CheckRank(ctx, input, 2, "input");
  CheckRank(ctx, weight, 2, "weight");
  CheckRank(ctx, recurrent_weight, 2, "recurrentWeight");
  CheckRank(ctx, hidden_state, 2, "hiddenState");
  CheckRank(ctx, cell_state, 2, "cellState");
  CheckSameType(ctx, input, weight, "input", "weight");
  CheckSameType(ctx, input, recurrent_weight, "input", "recurrentWeight");
  CheckSameType(ctx, input, hidden_state, "input", "hiddenState");
  CheckSameType(ctx, input, cell_state, "input", "cellState");
  CheckHiddenSize(ctx, attrs.hiddenSize);
  const Dim& batch = input.shape[0];
  const Dim& input_size = input.shape[1];
  const Dim hidden = Dim::Static(attrs.hiddenSize);
  const Dim gates = Dim::Static(4 * attrs.hiddenSize);
  const Dim peepholes = Dim::Static(3 * attrs.hiddenSize);
  CheckShape(ctx, weight, {gates, input_size}, "weight");
  CheckShape(ctx, recurrent_weight, {gates, hidden}, "recurrentWeight");
  CheckShape(ctx, hidden_state, {batch, hidden}, "hiddenState");
  CheckShape(ctx, cell_state, {batch, hidden}, "cellState");
  CheckOptional(ctx, input, Present(in, 5), {gates}, "bias");
  CheckOptional(ctx, input, Present(in, 6), {gates}, "recurrentBias");
  CheckOptional(ctx, input, Present(in, 7), {peepholes}, "peepholeWeight");
  CheckActivations(ctx, attrs);
  const OperandDesc state{input.type, {batch, hidden}};
  return {state, state};
}

}  // namespace

const OpSchema& LstmSchema(OpKind op) {
  static const OpSchema kLstm{OpKind::lstm,
                              {{"input", core::kFloatTypes, -1, Rank(3)},
                               {"weight", {}, 0, Rank(3)},
                               {"recurrentWeight", {}, 0, Rank(3)},
                               {"bias", {}, 0, Rank(2), true},
                               {"recurrentBias", {}, 0, Rank(2), true},
                               {"peepholeWeight", {}, 0, Rank(2), true},
                               {"initialHiddenState", {}, 0, Rank(3), true},
                               {"initialCellState", {}, 0, Rank(3), true}},
                              {{"output0", {}, 0, Rank(3)}, {"output1", {}, 0, Rank(3)}, {"output2", {}, 0, Rank(4)}},
                              &InferLstm};
  static const OpSchema kLstmCell{OpKind::lstmCell,
                                  {{"input", core::kFloatTypes, -1, Rank(2)},
                                   {"weight", {}, 0, Rank(2)},
                                   {"recurrentWeight", {}, 0, Rank(2)},
                                   {"hiddenState", {}, 0, Rank(2)},
                                   {"cellState", {}, 0, Rank(2)},
                                   {"bias", {}, 0, Rank(1), true},
                                   {"recurrentBias", {}, 0, Rank(1), true},
                                   {"peepholeWeight", {}, 0, Rank(1), true}},
                                  {{"output0", {}, 0, Rank(2)}, {"output1", {}, 0, Rank(2)}},
                                  &InferLstmCell};
  switch (op) {
    case OpKind::lstm: return kLstm;
    case OpKind::lstmCell: return kLstmCell;
    default: throw std::logic_error("LstmSchema: not lstm or lstmCell");
  }
}

}  // namespace webnn::ops
