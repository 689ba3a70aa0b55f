// Reference kernels of gru and gruCell, written from the spec's emulation:
//   z = f(Wz x + Rz h + bz + Rbz)            (update gate)
//   r = f(Wr x + Rr h + br + Rbr)            (reset gate)
//   resetAfter:  n = g(Wn x + bn + r * (Rn h + Rbn))
//   otherwise:   n = g(Wn x + Rn (r * h) + bn + Rbn)
//   h' = z * h + (1 - z) * n
// with f, g = activations[0], activations[1] and the gate rows ordered by the
// layout (zrn or rzn). gru runs the cell over the steps, backward over reversed
// time, "both" as two independent directions. The hidden state is carried in
// float64 from step to step; only the outputs are rounded (once).
#include <algorithm>
#include <cmath>

#include "ops/gru.h"
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


// One direction's parameters; bias pointers are null when absent.
struct GruWeights {
  const double* weight;            // [3 * hidden, input_size]
  const double* recurrent_weight;  // [3 * hidden, hidden]
  const double* bias;              // [3 * hidden]
  const double* recurrent_bias;    // [3 * hidden]
};

// h_out = gruCell(x, h) for `batch` rows. x: [batch, input_size], h and h_out: [batch, hidden].
void GruCellStep(const GruAttrs& attrs, uint64_t batch, uint64_t input_size, const double* x, const double* h,
                 const GruWeights& w, double* h_out) {
  const uint64_t hidden = attrs.hiddenSize;
  const bool zrn = attrs.layout == MLGruWeightLayout::kZrn;
  const uint64_t z_row = (zrn ? 0 : 1) * hidden;
  const uint64_t r_row = (zrn ? 1 : 0) * hidden;
  const uint64_t n_row = 2 * hidden;
  auto bias = [&](const double* b, uint64_t row) { return b != nullptr ? b[row] : 0.0; };
  auto input_part = [&](uint64_t b, uint64_t row) {
    return Dot(w.weight + row * input_size, x + b * input_size, input_size);
  };
  auto hidden_part = [&](const double* state, uint64_t row) {
    return Dot(w.recurrent_weight + row * hidden, state, hidden);
  };

  std::vector<double> z(hidden), r(hidden), reset_hidden(hidden);
  for (uint64_t b = 0; b < batch; ++b) {
    const double* hb = h + b * hidden;
    for (uint64_t j = 0; j < hidden; ++j) {
      z[j] = Activate(attrs.activations[0], (bias(w.bias, z_row + j) + bias(w.recurrent_bias, z_row + j)) +
                                                (input_part(b, z_row + j) + hidden_part(hb, z_row + j)));
      r[j] = Activate(attrs.activations[0], (bias(w.bias, r_row + j) + bias(w.recurrent_bias, r_row + j)) +
                                                (input_part(b, r_row + j) + hidden_part(hb, r_row + j)));
      reset_hidden[j] = r[j] * hb[j];
    }
    for (uint64_t j = 0; j < hidden; ++j) {
      const uint64_t row = n_row + j;
      double n;
      if (attrs.resetAfter) {
        n = bias(w.bias, row) + (input_part(b, row) + r[j] * (bias(w.recurrent_bias, row) + hidden_part(hb, row)));
      } else {
        n = (bias(w.bias, row) + bias(w.recurrent_bias, row)) +
            (input_part(b, row) + hidden_part(reset_hidden.data(), row));
      }
      n = Activate(attrs.activations[1], n);
      h_out[b * hidden + j] = z[j] * hb[j] + n * (1.0 - z[j]);
    }
  }
}

void GruCell(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<GruAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const uint64_t batch = input.shape[0];
  const uint64_t input_size = input.shape[1];
  const Float64Values x(input, "gru: x in float64");
  const Float64Values weight(ctx.inputs[1], "gru: weight in float64");
  const Float64Values recurrent_weight(ctx.inputs[2], "gru: recurrent_weight in float64");
  const Float64Values h(ctx.inputs[3], "gru: h in float64");
  const Float64Values bias(InputOrAbsent(ctx, 4), "gru: bias in float64");
  const Float64Values recurrent_bias(InputOrAbsent(ctx, 5), "gru: recurrent_bias in float64");
  const GruWeights w{weight.data(), recurrent_weight.data(), bias.DataOrNull(0), recurrent_bias.DataOrNull(0)};
  Float64Values h_out(batch * attrs.hiddenSize, 0.0, "gru: the new state");
  GruCellStep(attrs, batch, input_size, x.data(), h.data(), w, h_out.data());
  for (uint64_t i = 0; i < h_out.size(); ++i) Store<double>(ctx.outputs[0], i, h_out[i]);
}

void Gru(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<GruAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const uint64_t steps = input.shape[0];
  const uint64_t batch = input.shape[1];
  const uint64_t input_size = input.shape[2];
  const uint64_t hidden = attrs.hiddenSize;
  const uint64_t directions = attrs.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const uint64_t gates = 3 * hidden;
  const Float64Values x(input, "gru: x in float64");
  const Float64Values weight(ctx.inputs[1], "gru: weight in float64");
  const Float64Values recurrent_weight(ctx.inputs[2], "gru: recurrent_weight in float64");
  const Float64Values bias(InputOrAbsent(ctx, 3), "gru: bias in float64");
  const Float64Values recurrent_bias(InputOrAbsent(ctx, 4), "gru: recurrent_bias in float64");
  const Float64Values initial_hidden(InputOrAbsent(ctx, 5), "gru: initial_hidden in float64");
  const bool return_sequence = attrs.returnSequence && ctx.outputs.size() > 1;

  const uint64_t state_size = batch * hidden;
  for (uint64_t dir = 0; dir < directions; ++dir) {
    const GruWeights w{weight.data() + dir * gates * input_size, recurrent_weight.data() + dir * gates * hidden,
                       bias.DataOrNull(dir * gates), recurrent_bias.DataOrNull(dir * gates)};
    Float64Values h(state_size, 0.0, "gru: the state");
    if (!initial_hidden.empty()) std::copy_n(initial_hidden.data() + dir * state_size, state_size, h.data());
    Float64Values next(state_size, 0.0, "gru: the next state");
    const bool backward = dir == 1 || attrs.direction == MLRecurrentNetworkDirection::kBackward;
    for (uint64_t step = 0; step < steps; ++step) {
      const uint64_t t = backward ? steps - step - 1 : step;
      GruCellStep(attrs, batch, input_size, x.data() + t * batch * input_size, h.data(), w, next.data());
      h.swap(next);
      // The sequence is indexed by input time: the backward direction's state
      // after consuming input t is stored at t.
      if (return_sequence)
        for (uint64_t i = 0; i < state_size; ++i)
          Store<double>(ctx.outputs[1], (t * directions + dir) * state_size + i, h[i]);
    }
    for (uint64_t i = 0; i < state_size; ++i) Store<double>(ctx.outputs[0], dir * state_size + i, h[i]);
  }
}

}  // namespace

void RunGru(const KernelContext& ctx) {
  switch (ctx.op) {
    case OpKind::gru: return Gru(ctx);
    case OpKind::gruCell: return GruCell(ctx);
    default: throw std::logic_error("RunGru: not gru or gruCell");
  }
}

}  // namespace webnn::ops::ref
