// The device's kernels of gru and gruCell against the reference device.
//
// WPT's tolerances (6 ULP gru, 3 ULP gruCell) are met on the WPT vectors
// (`webnn conformance`); on random data the gate sums mix signs, and where
// z * h + (1 - z) * n cancels any float32 rounding is many ULP of the result,
// so these sweeps bound the absolute error instead: sigmoid/tanh keep every
// state in [-1, 1] and the float32 kernels stay within ~1e-6 of the float64
// reference (float16: one rounding of a value <= 1, <= 2^-11, plus the
// float32 differences that can move it across a rounding boundary).
#include <sstream>

#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

struct GruCase {
  bool cell = false;
  uint32_t steps = 1, batch = 1, input_size = 1, hidden = 1;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::kForward;
  MLGruWeightLayout layout = MLGruWeightLayout::kZrn;
  bool reset_after = true, return_sequence = false;
  bool bias = false, recurrent_bias = false, initial_hidden = false;
  std::vector<MLRecurrentNetworkActivation> activations = {MLRecurrentNetworkActivation::kSigmoid,
                                                           MLRecurrentNetworkActivation::kTanh};
  bool constant_weights = false;
  MLOperandDataType type = MLOperandDataType::kFloat32;
  double lo = -1, hi = 1;
  double special_fraction = 0;
};

std::string Describe(const GruCase& c) {
  std::ostringstream os;
  os << (c.cell ? "gruCell" : "gru") << " steps " << c.steps << " batch " << c.batch << " input " << c.input_size
     << " hidden " << c.hidden << " dir " << int(c.direction) << " layout " << int(c.layout) << " resetAfter "
     << c.reset_after << " seq " << c.return_sequence << " bias " << c.bias << c.recurrent_bias
     << c.initial_hidden << " act " << int(c.activations[0]) << int(c.activations[1]) << " const "
     << c.constant_weights << (c.type == MLOperandDataType::kFloat16 ? " f16" : " f32") << " special "
     << c.special_fraction;
  return os.str();
}

void Check(const GruCase& c, uint64_t seed, double atol) {
  const uint32_t dirs = c.direction == MLRecurrentNetworkDirection::kBoth ? 2 : 1;
  const uint32_t gates = 3 * c.hidden;
  auto spec = [&](std::vector<uint32_t> shape, bool constant) {
    return InputSpec{c.type, std::move(shape), c.lo, c.hi, c.special_fraction, constant};
  };
  std::vector<InputSpec> specs;
  if (c.cell) {
    specs = {spec({c.batch, c.input_size}, false), spec({gates, c.input_size}, c.constant_weights),
             spec({gates, c.hidden}, c.constant_weights), spec({c.batch, c.hidden}, false)};
  } else {
    specs = {spec({c.steps, c.batch, c.input_size}, false), spec({dirs, gates, c.input_size}, c.constant_weights),
             spec({dirs, gates, c.hidden}, c.constant_weights)};
  }
  const int bias = c.bias ? static_cast<int>(specs.size()) : -1;
  if (c.bias) specs.push_back(c.cell ? spec({gates}, c.constant_weights) : spec({dirs, gates}, c.constant_weights));
  const int rbias = c.recurrent_bias ? static_cast<int>(specs.size()) : -1;
  if (c.recurrent_bias)
    specs.push_back(c.cell ? spec({gates}, c.constant_weights) : spec({dirs, gates}, c.constant_weights));
  const int h0 = !c.cell && c.initial_hidden ? static_cast<int>(specs.size()) : -1;
  if (h0 >= 0) specs.push_back(spec({dirs, c.batch, c.hidden}, false));

  CheckAgainstReference(
      DeviceUnderTest(), Describe(c), specs,
      [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
        MLNamedOperands outs;
        if (c.cell) {
          MLGruCellOptions o;
          if (bias >= 0) o.bias = in[bias];
          if (rbias >= 0) o.recurrentBias = in[rbias];
          o.resetAfter = c.reset_after;
          o.layout = c.layout;
          o.activations = c.activations;
          outs["h"] = g.gruCell(in[0], in[1], in[2], in[3], c.hidden, o);
          return outs;
        }
        MLGruOptions o;
        if (bias >= 0) o.bias = in[bias];
        if (rbias >= 0) o.recurrentBias = in[rbias];
        if (h0 >= 0) o.initialHiddenState = in[h0];
        o.resetAfter = c.reset_after;
        o.returnSequence = c.return_sequence;
        o.direction = c.direction;
        o.layout = c.layout;
        o.activations = c.activations;
        const auto r = g.gru(in[0], in[1], in[2], c.steps, c.hidden, o);
        for (size_t i = 0; i < r.size(); ++i) outs["out" + std::to_string(i)] = r[i];
        return outs;
      },
      Tolerance::Atol(atol), seed);
}

double Atol(const GruCase& c) { return c.type == MLOperandDataType::kFloat16 ? 2e-3 : 2e-6; }

GruCase RandomCase(std::mt19937_64& rng, bool cell) {
  GruCase c;
  c.cell = cell;
  c.steps = 1 + rng() % 4;
  c.batch = 1 + rng() % 5;
  c.input_size = 1 + rng() % 21;
  c.hidden = 1 + rng() % 21;
  c.direction = static_cast<MLRecurrentNetworkDirection>(rng() % 3);
  c.layout = rng() % 2 ? MLGruWeightLayout::kZrn : MLGruWeightLayout::kRzn;
  c.reset_after = rng() % 2;
  c.return_sequence = rng() % 2;
  c.bias = rng() % 2;
  c.recurrent_bias = rng() % 2;
  c.initial_hidden = rng() % 2;
  c.constant_weights = rng() % 2;
  return c;
}

}  // namespace

TEST_CASE("gru and gruCell match reference over every option", "[device][gru]") {
  std::mt19937_64 rng(61);
  for (auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 40; ++trial) {
      GruCase c = RandomCase(rng, trial % 4 == 3);
      c.type = type;
      Check(c, rng(), Atol(c));
    }
  }
}

TEST_CASE("gru activations: relu, tanh and sigmoid in both slots", "[device][gru]") {
  using A = MLRecurrentNetworkActivation;
  std::mt19937_64 rng(62);
  const std::vector<std::vector<A>> sets = {{A::kRelu, A::kRelu}, {A::kTanh, A::kSigmoid}, {A::kSigmoid, A::kRelu},
                                            {A::kRelu, A::kTanh}};
  for (const auto& acts : sets) {
    for (int trial = 0; trial < 4; ++trial) {
      GruCase c = RandomCase(rng, trial == 3);
      c.activations = acts;
      // relu lets the state grow: small data, few steps, a bound relative to the growth.
      c.steps = std::min<uint32_t>(c.steps, 2);
      c.lo = -0.5;
      c.hi = 0.5;
      Check(c, rng(), 1e-5);
    }
  }
}

TEST_CASE("gru NaN, Inf and signed zeros", "[device][gru]") {
  std::mt19937_64 rng(63);
  for (int trial = 0; trial < 8; ++trial) {
    GruCase c = RandomCase(rng, trial % 2);
    c.special_fraction = 0.03;
    c.type = trial % 4 < 2 ? MLOperandDataType::kFloat32 : MLOperandDataType::kFloat16;
    Check(c, rng(), Atol(c));
  }
}

TEST_CASE("gru large sizes", "[device][gru]") {
  GruCase c;
  c.steps = 3;
  c.batch = 9;
  c.input_size = 70;
  c.hidden = 130;  // step GEMM 9 x 390 x 130: above the threading threshold
  c.direction = MLRecurrentNetworkDirection::kBoth;
  c.bias = c.recurrent_bias = c.initial_hidden = true;
  c.return_sequence = true;
  uint64_t seed = 64;
  for (bool reset_after : {true, false}) {
    for (bool constant : {true, false}) {
      c.reset_after = reset_after;
      c.constant_weights = constant;
      // 200-term gate sums of +-1 terms: float32 rounding ~ 2^-24 * sqrt(200) * |sum|.
      Check(c, seed++, 2e-5);
    }
  }
  c.batch = 1;  // GEMV steps, directions in parallel
  c.hidden = 33;
  Check(c, seed++, 2e-5);
}

TEST_CASE("cpu gru on every compiled SIMD target", "[cpu][gru]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(65);
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("target " << hwy::TargetName(target));
    for (int trial = 0; trial < 4; ++trial) {
      GruCase c = RandomCase(rng, trial == 3);
      c.hidden = 5 + trial * 6;  // partial vectors on every target
      Check(c, rng(), Atol(c));
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}
