// The device's kernels of lstm and lstmCell against the reference device.
//
// WPT's tolerances (3 ULP lstm, 1 ULP lstmCell; 10 ULP lstm float16) are met
// on the WPT vectors (`webnn conformance`); on random data the gate sums mix
// signs and cancel, where any float32 rounding is many ULP of the result, so
// these sweeps bound the absolute error instead: with sigmoid/tanh every
// hidden state is in [-1, 1] and the float32 kernels stay within ~1e-6 of the
// float64 reference (float16: one rounding of a value <= 1 plus float32
// differences that can move it across a rounding boundary).
#include <sstream>

#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

struct LstmCase {
  bool cell = false;
  uint32_t steps = 1, batch = 1, input_size = 1, hidden = 1;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::kForward;
  MLLstmWeightLayout layout = MLLstmWeightLayout::kIofg;
  bool return_sequence = false;
  bool bias = false, recurrent_bias = false, peephole = false, initial_hidden = false, initial_cell = false;
  std::vector<MLRecurrentNetworkActivation> activations = {MLRecurrentNetworkActivation::kSigmoid,
                                                           MLRecurrentNetworkActivation::kTanh,
                                                           MLRecurrentNetworkActivation::kTanh};
  bool constant_weights = false;
  MLOperandDataType type = MLOperandDataType::kFloat32;
  double lo = -1, hi = 1;
  double special_fraction = 0;
};

std::string Describe(const LstmCase& c) {
  std::ostringstream os;
  os << (c.cell ? "lstmCell" : "lstm") << " steps " << c.steps << " batch " << c.batch << " input "
     << c.input_size << " hidden " << c.hidden << " dir " << int(c.direction) << " layout " << int(c.layout)
     << " seq " << c.return_sequence << " bias/rbias/peep/h0/c0 " << c.bias << c.recurrent_bias << c.peephole
     << c.initial_hidden << c.initial_cell << " act " << int(c.activations[0]) << int(c.activations[1])
     << int(c.activations[2]) << " const " << c.constant_weights
     << (c.type == MLOperandDataType::kFloat16 ? " f16" : " f32") << " special " << c.special_fraction;
  return os.str();
}

void Check(const LstmCase& c, uint64_t seed, double atol) {
  const uint32_t dirs = c.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const uint32_t gates = 4 * c.hidden;
  auto spec = [&](std::vector<uint32_t> shape, bool constant) {
    return InputSpec{c.type, std::move(shape), c.lo, c.hi, c.special_fraction, constant};
  };
  // Per-direction operands of lstm carry a leading [dirs]; lstmCell's do not.
  auto per_dir = [&](std::vector<uint32_t> shape) {
    if (!c.cell) shape.insert(shape.begin(), dirs);
    return shape;
  };
  std::vector<InputSpec> specs;
  if (c.cell) {
    specs = {spec({c.batch, c.input_size}, false), spec({gates, c.input_size}, c.constant_weights),
             spec({gates, c.hidden}, c.constant_weights), spec({c.batch, c.hidden}, false),
             spec({c.batch, c.hidden}, false)};
  } else {
    specs = {spec({c.steps, c.batch, c.input_size}, false), spec({dirs, gates, c.input_size}, c.constant_weights),
             spec({dirs, gates, c.hidden}, c.constant_weights)};
  }
  auto add = [&](bool present, InputSpec s) {
    if (!present) return -1;
    specs.push_back(std::move(s));
    return static_cast<int>(specs.size()) - 1;
  };
  const int bias = add(c.bias, spec(per_dir({gates}), c.constant_weights));
  const int rbias = add(c.recurrent_bias, spec(per_dir({gates}), c.constant_weights));
  const int peephole = add(c.peephole, spec(per_dir({3 * c.hidden}), c.constant_weights));
  const int h0 = add(!c.cell && c.initial_hidden, spec({dirs, c.batch, c.hidden}, false));
  const int c0 = add(!c.cell && c.initial_cell, spec({dirs, c.batch, c.hidden}, false));

  CheckAgainstReference(
      DeviceUnderTest(), Describe(c), specs,
      [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        MLNamedOperands outs;
        std::vector<MLOperand> r;
        if (c.cell) {
          MLLstmCellOptions o;
          if (bias >= 0) o.bias = in[bias];
          if (rbias >= 0) o.recurrentBias = in[rbias];
          if (peephole >= 0) o.peepholeWeight = in[peephole];
          o.layout = c.layout;
          o.activations = c.activations;
          r = g.lstmCell(in[0], in[1], in[2], in[3], in[4], c.hidden, o);
        } else {
          MLLstmOptions o;
          if (bias >= 0) o.bias = in[bias];
          if (rbias >= 0) o.recurrentBias = in[rbias];
          if (peephole >= 0) o.peepholeWeight = in[peephole];
          if (h0 >= 0) o.initialHiddenState = in[h0];
          if (c0 >= 0) o.initialCellState = in[c0];
          o.returnSequence = c.return_sequence;
          o.direction = c.direction;
          o.layout = c.layout;
          o.activations = c.activations;
          r = g.lstm(in[0], in[1], in[2], c.steps, c.hidden, o);
        }
        for (size_t i = 0; i < r.size(); ++i) outs["out" + std::to_string(i)] = r[i];
        return outs;
      },
      Tolerance::Scaled(atol), seed);
}

// The cell state is not bounded by 1 (c = f * c + i * g grows by <= 1 a step),
// and with relu activations and +-65504 inputs the outputs reach 1e4 and
// more: Check scales the tolerance with the value above 1 (Tolerance::Scaled;
// without FMA, SSE4 rounds twice where the others round once).
double Atol(const LstmCase& c) {
  return (c.type == MLOperandDataType::kFloat16 ? 2e-3 : 2e-6) * (c.steps + 1);
}

LstmCase RandomCase(std::mt19937_64& rng, bool cell) {
  LstmCase c;
  c.cell = cell;
  c.steps = 1 + rng() % 4;
  c.batch = 1 + rng() % 5;
  c.input_size = 1 + rng() % 21;
  c.hidden = 1 + rng() % 21;
  c.direction = static_cast<MLRecurrentNetworkDirection>(rng() % 3);
  c.layout = rng() % 2 ? MLLstmWeightLayout::kIofg : MLLstmWeightLayout::kIfgo;
  c.return_sequence = rng() % 2;
  c.bias = rng() % 2;
  c.recurrent_bias = rng() % 2;
  c.peephole = rng() % 2;
  c.initial_hidden = rng() % 2;
  c.initial_cell = rng() % 2;
  c.constant_weights = rng() % 2;
  return c;
}

}  // namespace

TEST_CASE("lstm and lstmCell match reference over every option", "[device][lstm]") {
  std::mt19937_64 rng(71);
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 40; ++trial) {
      LstmCase c = RandomCase(rng, trial % 4 == 3);
      c.type = type;
      Check(c, rng(), Atol(c));
    }
  }
}

TEST_CASE("lstm activations: relu, tanh and sigmoid in every slot", "[device][lstm]") {
  using A = MLRecurrentNetworkActivation;
  std::mt19937_64 rng(72);
  const std::vector<std::vector<A>> sets = {{A::kRelu, A::kRelu, A::kRelu},
                                            {A::kTanh, A::kSigmoid, A::kRelu},
                                            {A::kSigmoid, A::kRelu, A::kSigmoid}};
  for (const auto& acts : sets) {
    for (int trial = 0; trial < 4; ++trial) {
      LstmCase c = RandomCase(rng, trial == 3);
      c.activations = acts;
      // relu lets the states grow: small data, few steps.
      c.steps = std::min<uint32_t>(c.steps, 2);
      c.lo = -0.5;
      c.hi = 0.5;
      Check(c, rng(), 1e-5);
    }
  }
}

TEST_CASE("lstm NaN, Inf and signed zeros", "[device][lstm]") {
  std::mt19937_64 rng(73);
  for (int trial = 0; trial < 8; ++trial) {
    LstmCase c = RandomCase(rng, trial % 2);
    c.special_fraction = 0.03;
    c.type = trial % 4 < 2 ? MLOperandDataType::kFloat32 : MLOperandDataType::kFloat16;
    Check(c, rng(), Atol(c));
  }
}

TEST_CASE("lstm large sizes", "[device][lstm]") {
  LstmCase c;
  c.steps = 3;
  c.batch = 9;
  c.input_size = 70;
  c.hidden = 100;  // step GEMM 9 x 400 x 100: above the threading threshold
  c.direction = MLRecurrentNetworkDirection::kBoth;
  c.bias = c.recurrent_bias = c.peephole = c.initial_hidden = c.initial_cell = true;
  c.return_sequence = true;
  uint64_t seed = 74;
  for (bool constant : {true, false}) {
    c.constant_weights = constant;
    Check(c, seed++, 1e-5);
  }
  c.batch = 1;  // GEMV steps, directions in parallel
  c.hidden = 40;
  Check(c, seed++, 1e-5);
}

TEST_CASE("cpu lstm on every compiled SIMD target", "[cpu][lstm]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(75);
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("target " << hwy::TargetName(target));
    for (int trial = 0; trial < 4; ++trial) {
      LstmCase c = RandomCase(rng, trial == 3);
      c.hidden = 5 + trial * 6;  // partial vectors on every target
      Check(c, rng(), Atol(c));
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}
