// Reference kernels of lstm and lstmCell, written from the spec's emulation:
//   i = f(Pi * c + Wi x + Ri h + bi + Rbi)   (input gate)
//   f = f(Pf * c + Wf x + Rf h + bf + Rbf)   (forget gate)
//   g = g(Wg x + Rg h + bg + Rbg)            (cell gate)
//   o = f(Po * c + Wo x + Ro h + bo + Rbo)   (output gate; the spec's emulation
//                                              uses the incoming cell state c here)
//   c' = f * c + i * g
//   h' = o * h(c')
// with f, g, h = activations[0], [1], [2]; gate rows ordered by the layout
// (iofg or ifgo); peephole weights always ordered i, o, f. lstm runs the cell
// over the steps, backward over reversed time, "both" as two independent
// directions. States are carried in float64 from step to step; only the
// outputs are rounded (once).
#include <algorithm>
#include <cmath>

#include "ops/lstm.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

double Activate(MLRecurrentNetworkActivation activation, double x) {
  switch (activation) {
    case MLRecurrentNetworkActivation::kRelu: return std::isnan(x) ? x : (x > 0 ? x : 0.0);
    case MLRecurrentNetworkActivation::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
    case MLRecurrentNetworkActivation::kTanh: return std::tanh(x);
  }
  return x;
}


// One direction's parameters; optional ones are null when absent.
struct LstmWeights {
  const double* weight;            // [4 * hidden, input_size]
  const double* recurrent_weight;  // [4 * hidden, hidden]
  const double* bias;              // [4 * hidden]
  const double* recurrent_bias;    // [4 * hidden]
  const double* peephole;          // [3 * hidden]
};

// (h_out, c_out) = lstmCell(x, h, c) for `batch` rows. x: [batch, input_size];
// h, c, h_out, c_out: [batch, hidden].
void LstmCellStep(const LstmAttrs& attrs, uint64_t batch, uint64_t input_size, const double* x, const double* h,
                  const double* c, const LstmWeights& w, double* h_out, double* c_out) {
  const uint64_t hidden = attrs.hiddenSize;
  const bool iofg = attrs.layout == MLLstmWeightLayout::kIofg;
  const uint64_t i_row = 0;
  const uint64_t o_row = (iofg ? 1 : 3) * hidden;
  const uint64_t f_row = (iofg ? 2 : 1) * hidden;
  const uint64_t g_row = (iofg ? 3 : 2) * hidden;
  auto at = [](const double* p, uint64_t k) { return p != nullptr ? p[k] : 0.0; };

  for (uint64_t b = 0; b < batch; ++b) {
    const double* xb = x + b * input_size;
    const double* hb = h + b * hidden;
    const double* cb = c + b * hidden;
    // Wx + Rh + bias + recurrentBias of gate row `row`, summed as the emulation groups it.
    auto gate_sum = [&](uint64_t row) {
      return (at(w.bias, row) + at(w.recurrent_bias, row)) +
             (Dot(w.weight + row * input_size, xb, input_size) + Dot(w.recurrent_weight + row * hidden, hb, hidden));
    };
    for (uint64_t j = 0; j < hidden; ++j) {
      const double gate_i = Activate(attrs.activations[0], cb[j] * at(w.peephole, j) + gate_sum(i_row + j));
      const double gate_f =
          Activate(attrs.activations[0], cb[j] * at(w.peephole, 2 * hidden + j) + gate_sum(f_row + j));
      const double gate_g = Activate(attrs.activations[1], gate_sum(g_row + j));
      const double gate_o = Activate(attrs.activations[0], cb[j] * at(w.peephole, hidden + j) + gate_sum(o_row + j));
      const double cell = gate_f * cb[j] + gate_i * gate_g;
      c_out[b * hidden + j] = cell;
      h_out[b * hidden + j] = gate_o * Activate(attrs.activations[2], cell);
    }
  }
}

void LstmCell(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<LstmAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const uint64_t batch = input.shape[0];
  const uint64_t input_size = input.shape[1];
  const Float64Values x(input, "lstm: x in float64");
  const Float64Values weight(ctx.inputs[1], "lstm: weight in float64");
  const Float64Values recurrent_weight(ctx.inputs[2], "lstm: recurrent_weight in float64");
  const Float64Values h(ctx.inputs[3], "lstm: h in float64");
  const Float64Values c(ctx.inputs[4], "lstm: c in float64");
  const Float64Values bias(InputOrAbsent(ctx, 5), "lstm: bias in float64");
  const Float64Values recurrent_bias(InputOrAbsent(ctx, 6), "lstm: recurrent_bias in float64");
  const Float64Values peephole(InputOrAbsent(ctx, 7), "lstm: peephole in float64");
  const LstmWeights w{weight.data(), recurrent_weight.data(), bias.DataOrNull(0), recurrent_bias.DataOrNull(0),
                      peephole.DataOrNull(0)};
  const uint64_t state_size = batch * attrs.hiddenSize;
  Float64Values h_out(state_size, 0.0, "lstm: the new state"), c_out(state_size, 0.0, "lstm: the new cell state");
  LstmCellStep(attrs, batch, input_size, x.data(), h.data(), c.data(), w, h_out.data(), c_out.data());
  for (uint64_t i = 0; i < state_size; ++i) {
    Store<double>(ctx.outputs[0], i, h_out[i]);
    Store<double>(ctx.outputs[1], i, c_out[i]);
  }
}

void Lstm(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<LstmAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const uint64_t steps = input.shape[0];
  const uint64_t batch = input.shape[1];
  const uint64_t input_size = input.shape[2];
  const uint64_t hidden = attrs.hiddenSize;
  const uint64_t directions = attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const uint64_t gates = 4 * hidden;
  const Float64Values x(input, "lstm: x in float64");
  const Float64Values weight(ctx.inputs[1], "lstm: weight in float64");
  const Float64Values recurrent_weight(ctx.inputs[2], "lstm: recurrent_weight in float64");
  const Float64Values bias(InputOrAbsent(ctx, 3), "lstm: bias in float64");
  const Float64Values recurrent_bias(InputOrAbsent(ctx, 4), "lstm: recurrent_bias in float64");
  const Float64Values peephole(InputOrAbsent(ctx, 5), "lstm: peephole in float64");
  const Float64Values initial_hidden(InputOrAbsent(ctx, 6), "lstm: initial_hidden in float64");
  const Float64Values initial_cell(InputOrAbsent(ctx, 7), "lstm: initial_cell in float64");
  const bool return_sequence = attrs.returnSequence && ctx.outputs.size() > 2;

  const uint64_t state_size = batch * hidden;
  for (uint64_t dir = 0; dir < directions; ++dir) {
    const LstmWeights w{weight.data() + dir * gates * input_size, recurrent_weight.data() + dir * gates * hidden,
                        bias.DataOrNull(dir * gates), recurrent_bias.DataOrNull(dir * gates),
                        peephole.DataOrNull(dir * 3 * hidden)};
    Float64Values h(state_size, 0.0, "lstm: the state"), c(state_size, 0.0, "lstm: the cell state");
    if (!initial_hidden.empty()) std::copy_n(initial_hidden.data() + dir * state_size, state_size, h.data());
    if (!initial_cell.empty()) std::copy_n(initial_cell.data() + dir * state_size, state_size, c.data());
    Float64Values next_h(state_size, 0.0, "lstm: the next state"), next_c(state_size, 0.0, "lstm: the next cell state");
    const bool backward = dir == 1 || attrs.direction == MLRecurrentNetworkDirection::kBackward;
    for (uint64_t step = 0; step < steps; ++step) {
      const uint64_t t = backward ? steps - step - 1 : step;
      LstmCellStep(attrs, batch, input_size, x.data() + t * batch * input_size, h.data(), c.data(), w, next_h.data(),
                   next_c.data());
      h.swap(next_h);
      c.swap(next_c);
      // The sequence is indexed by input time: the backward direction's state
      // after consuming input t is stored at t.
      if (return_sequence)
        for (uint64_t i = 0; i < state_size; ++i)
          Store<double>(ctx.outputs[2], (t * directions + dir) * state_size + i, h[i]);
    }
    for (uint64_t i = 0; i < state_size; ++i) {
      Store<double>(ctx.outputs[0], dir * state_size + i, h[i]);
      Store<double>(ctx.outputs[1], dir * state_size + i, c[i]);
    }
  }
}

}  // namespace

void RunLstm(const KernelContext& ctx) {
  switch (ctx.op) {
    case OpKind::lstm: return Lstm(ctx);
    case OpKind::lstmCell: return LstmCell(ctx);
    default: throw std::logic_error("RunLstm: not lstm or lstmCell");
  }
}

}  // namespace webnn::ops::ref
