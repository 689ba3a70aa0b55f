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

// All of a tensor as float64 (empty for an absent optional operand).
std::vector<double> LoadAll(const TensorView& t) {
  std::vector<double> v;
  if (!t.present()) return v;
  v.resize(t.elements());
  for (uint64_t i = 0; i < v.size(); ++i) v[i] = Load<double>(t, i);
  return v;
}

const TensorView& InputOrAbsent(const KernelContext& ctx, size_t i) {
  static const TensorView kAbsent;
  return i < ctx.inputs.size() ? ctx.inputs[i] : kAbsent;
}

const double* DataOrNull(const std::vector<double>& v, uint64_t offset) {
  return v.empty() ? nullptr : v.data() + offset;
}

double Dot(const double* a, const double* b, uint64_t n) {
  double sum = -0.0;  // the identity of IEEE addition: keeps a sum of -0 terms -0
  for (uint64_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
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
  const std::vector<double> x = LoadAll(input);
  const std::vector<double> weight = LoadAll(ctx.inputs[1]);
  const std::vector<double> recurrent_weight = LoadAll(ctx.inputs[2]);
  const std::vector<double> h = LoadAll(ctx.inputs[3]);
  const std::vector<double> bias = LoadAll(InputOrAbsent(ctx, 4));
  const std::vector<double> recurrent_bias = LoadAll(InputOrAbsent(ctx, 5));
  const GruWeights w{weight.data(), recurrent_weight.data(), DataOrNull(bias, 0), DataOrNull(recurrent_bias, 0)};
  std::vector<double> h_out(batch * attrs.hiddenSize);
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
  const std::vector<double> x = LoadAll(input);
  const std::vector<double> weight = LoadAll(ctx.inputs[1]);
  const std::vector<double> recurrent_weight = LoadAll(ctx.inputs[2]);
  const std::vector<double> bias = LoadAll(InputOrAbsent(ctx, 3));
  const std::vector<double> recurrent_bias = LoadAll(InputOrAbsent(ctx, 4));
  const std::vector<double> initial_hidden = LoadAll(InputOrAbsent(ctx, 5));
  const bool return_sequence = attrs.returnSequence && ctx.outputs.size() > 1;

  const uint64_t state_size = batch * hidden;
  for (uint64_t dir = 0; dir < directions; ++dir) {
    const GruWeights w{weight.data() + dir * gates * input_size, recurrent_weight.data() + dir * gates * hidden,
                       DataOrNull(bias, dir * gates), DataOrNull(recurrent_bias, dir * gates)};
    std::vector<double> h(state_size, 0.0);
    if (!initial_hidden.empty()) std::copy_n(initial_hidden.begin() + dir * state_size, state_size, h.begin());
    std::vector<double> next(state_size);
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
