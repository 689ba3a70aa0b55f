// Tests of lstm and lstmCell: validation and the reference kernels. Expected
// values are worked by hand from the spec's emulation (relu activations keep
// the arithmetic exact).
#include <cmath>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
constexpr auto kF32 = MLOperandDataType::kFloat32;
constexpr auto kF16 = MLOperandDataType::kFloat16;
constexpr auto kRelu = MLRecurrentNetworkActivation::kRelu;
const std::vector<MLRecurrentNetworkActivation> kRelu3{kRelu, kRelu, kRelu};

template <typename Options>
Options Labeled(Options o) {
  o.label = "r";
  return o;
}

HostTensor Values(MLOperandDataType type, std::vector<uint32_t> shape, const std::vector<double>& v) {
  if (type == kF16) return Tensor<uint16_t>(type, std::move(shape), Half(v));
  return Tensor<float>(type, std::move(shape), std::vector<float>(v.begin(), v.end()));
}
std::vector<double> Values(const HostTensor& t) {
  if (t.type == kF16) return FromHalf(FromBytes<uint16_t>(t.data));
  auto f = FromBytes<float>(t.data);
  return std::vector<double>(f.begin(), f.end());
}
}  // namespace

TEST_CASE("lstmCell with peepholes in iofg and ifgo layouts", "[lstm]") {
  // x = 1, h = 1, c = 2. iofg rows: W = [1, 2, 0.5, 3], R = [0.5, 0, 1, -1], bias = [0, 0, 0, 1],
  // recurrentBias = [0.5, 0, 0, 0]; peepholes (always i, o, f) = [1, 0.5, 0.25].
  // i = 2 * 1 + 0.5 + 1 + 0.5 = 4, f = 2 * 0.25 + 0.5 + 1 = 2, g = 1 + 3 - 1 = 3,
  // o = 2 * 0.5 + 2 = 3 (the spec's emulation uses the incoming c, not c'),
  // c' = 2 * 2 + 4 * 3 = 16, h' = 3 * relu(16) = 48.
  for (auto type : {kF32, kF16}) {
    auto out = Run(MLDeviceType::kReference,
                   {Values(type, {1, 1}, {1}), Values(type, {4, 1}, {1, 2, 0.5, 3}),
                    Values(type, {4, 1}, {0.5, 0, 1, -1}), Values(type, {1, 1}, {1}), Values(type, {1, 1}, {2}),
                    Values(type, {4}, {0, 0, 0, 1}), Values(type, {4}, {0.5, 0, 0, 0}),
                    Values(type, {3}, {1, 0.5, 0.25}),
                    // ifgo order of the same gates.
                    Values(type, {4, 1}, {1, 0.5, 3, 2}), Values(type, {4, 1}, {0.5, 1, -1, 0}),
                    Values(type, {4}, {0, 0, 1, 0})},
                   [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                     auto iofg = b.lstmCell(in[0], in[1], in[2], in[3], in[4], 1,
                                            {.bias = in[5], .recurrentBias = in[6], .peepholeWeight = in[7],
                                             .activations = kRelu3});
                     auto ifgo = b.lstmCell(in[0], in[8], in[9], in[3], in[4], 1,
                                            {.bias = in[10], .recurrentBias = in[6], .peepholeWeight = in[7],
                                             .layout = MLLstmWeightLayout::kIfgo, .activations = kRelu3});
                     return MLNamedOperands{{"h", iofg[0]}, {"c", iofg[1]}, {"h2", ifgo[0]}, {"c2", ifgo[1]}};
                   });
    CHECK(Values(out["h"]) == std::vector<double>{48});
    CHECK(Values(out["c"]) == std::vector<double>{16});
    CHECK(Values(out["h2"]) == std::vector<double>{48});
    CHECK(Values(out["c2"]) == std::vector<double>{16});
  }
}

TEST_CASE("lstmCell default activations are sigmoid, tanh, tanh", "[lstm]") {
  // Zero weights; bias (iofg) = [0, 1, -1, 0.5]; c = 1:
  // c' = sigmoid(-1) * 1 + sigmoid(0) * tanh(0.5), h' = sigmoid(1) * tanh(c').
  auto out = Run(MLDeviceType::kReference,
                 {Values(kF32, {1, 1}, {3}), Values(kF32, {4, 1}, {0, 0, 0, 0}), Values(kF32, {4, 1}, {0, 0, 0, 0}),
                  Values(kF32, {1, 1}, {5}), Values(kF32, {1, 1}, {1}), Values(kF32, {4}, {0, 1, -1, 0.5})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   auto outs = b.lstmCell(in[0], in[1], in[2], in[3], in[4], 1, {.bias = in[5]});
                   return MLNamedOperands{{"h", outs[0]}, {"c", outs[1]}};
                 });
  auto sigmoid = [](double x) { return 1 / (1 + std::exp(-x)); };
  const double c = sigmoid(-1) + 0.5 * std::tanh(0.5);
  CHECK(Values(out["c"])[0] == Approx(c).epsilon(1e-7));
  CHECK(Values(out["h"])[0] == Approx(sigmoid(1) * std::tanh(c)).epsilon(1e-7));
}

namespace {
// i = o = f = 1 (bias), g = relu(x + h), so c' = c + g and h' = relu(c').
std::vector<HostTensor> LstmInputs(MLOperandDataType type, uint32_t directions) {
  std::vector<double> weight, recurrent, bias;
  for (uint32_t d = 0; d < directions; ++d) {
    weight.insert(weight.end(), {0, 0, 0, 1});
    recurrent.insert(recurrent.end(), {0, 0, 0, 1});
    bias.insert(bias.end(), {1, 1, 1, 0});
  }
  return {Values(type, {2, 1, 1}, {1, 2}), Values(type, {directions, 4, 1}, weight),
          Values(type, {directions, 4, 1}, recurrent), Values(type, {directions, 4}, bias)};
}
}  // namespace

TEST_CASE("lstm backward returns hidden, cell and the sequence in input time order", "[lstm]") {
  const auto inputs = LstmInputs(kF32, 1);
  auto out = Run(MLDeviceType::kReference, inputs, [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    auto outs = b.lstm(in[0], in[1], in[2], 2, 1,
                       {.bias = in[3], .returnSequence = true, .direction = MLRecurrentNetworkDirection::kBackward,
                        .activations = kRelu3});
    return MLNamedOperands{{"h", outs[0]}, {"c", outs[1]}, {"seq", outs[2]}};
  });
  // t = 1: g = 2, c = 2, h = 2. t = 0: g = 1 + 2 = 3, c = 5, h = 5.
  CHECK(Values(out["h"]) == std::vector<double>{5});
  CHECK(Values(out["c"]) == std::vector<double>{5});
  CHECK(out["seq"].shape == std::vector<uint32_t>{2, 1, 1, 1});
  CHECK(Values(out["seq"]) == std::vector<double>{5, 2});
}

TEST_CASE("lstm in both directions slices peepholes per direction", "[lstm]") {
  auto inputs = LstmInputs(kF16, 2);
  // Direction 1 only: forget-gate peephole 0.5.
  inputs.push_back(Values(kF16, {2, 3}, {0, 0, 0, 0, 0, 0.5}));
  auto out = Run(MLDeviceType::kReference, inputs, [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    auto outs = b.lstm(in[0], in[1], in[2], 2, 1,
                       {.bias = in[3], .peepholeWeight = in[4], .returnSequence = true,
                        .direction = MLRecurrentNetworkDirection::kBoth, .activations = kRelu3});
    return MLNamedOperands{{"h", outs[0]}, {"c", outs[1]}, {"seq", outs[2]}};
  });
  // Forward: c = h = 1, then g = 2 + 1, c = h = 4.
  // Backward: t = 1: f = 1, g = 2, c = h = 2; t = 0: f = 0.5 * 2 + 1 = 2, g = 1 + 2 = 3, c = 2 * 2 + 3 = 7.
  CHECK(Values(out["h"]) == std::vector<double>{4, 7});
  CHECK(Values(out["c"]) == std::vector<double>{4, 7});
  CHECK(out["seq"].shape == std::vector<uint32_t>{2, 2, 1, 1});
  CHECK(Values(out["seq"]) == std::vector<double>{1, 7, 4, 2});
}

TEST_CASE("lstm starts from the initial hidden and cell states", "[lstm]") {
  auto inputs = LstmInputs(kF32, 1);
  inputs.push_back(Values(kF32, {1, 1, 1}, {1}));
  inputs.push_back(Values(kF32, {1, 1, 1}, {10}));
  auto out = Run(MLDeviceType::kReference, inputs, [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    auto outs = b.lstm(in[0], in[1], in[2], 2, 1,
                       {.bias = in[3], .initialHiddenState = in[4], .initialCellState = in[5], .activations = kRelu3});
    CHECK(outs.size() == 2);
    return MLNamedOperands{{"h", outs[0]}, {"c", outs[1]}};
  });
  // t = 0: g = 1 + 1 = 2, c = 12, h = 12. t = 1: g = 2 + 12 = 14, c = h = 26.
  CHECK(Values(out["h"]) == std::vector<double>{26});
  CHECK(Values(out["c"]) == std::vector<double>{26});
}

TEST_CASE("lstm and lstmCell validation names op, label and argument", "[lstm][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto input = b.input("input", {kF32, {10, 5, 3}});
  auto weight = b.input("weight", {kF32, {1, 32, 3}});
  auto recurrent = b.input("recurrent", {kF32, {1, 32, 8}});
  CHECK(ErrorMessage([&] {
          b.lstm(input, weight, recurrent, 10, 8, Labeled(MLLstmOptions{.activations = std::vector{kRelu, kRelu}}));
        }) ==
        "lstm [r]: activations must have 3 entries (input/forget/output gate, cell gate, cell state filter), got 2");
  CHECK(ErrorMessage([&] { b.lstm(input, weight, recurrent, 10, 4294967295u, Labeled(MLLstmOptions{})); }) ==
        "lstm [r]: hiddenSize must be greater than 0 with hiddenSize * 8 at most 2147483647, got 4294967295");
  CHECK(ErrorMessage([&] { b.lstm(input, weight, recurrent, 0, 8, Labeled(MLLstmOptions{})); }) ==
        "lstm [r]: steps must be greater than 0");
  auto peephole = b.input("peephole", {kF32, {1, 32}});
  CHECK(ErrorMessage([&] {
          b.lstm(input, weight, recurrent, 10, 8, Labeled(MLLstmOptions{.peepholeWeight = peephole}));
        }) == "lstm [r]: argument 'peepholeWeight' shape must be [1, 24], got [1, 32]");
  auto cell_bad = b.input("cell_bad", {kF32, {1, 5, 1000}});
  CHECK(ErrorMessage([&] {
          b.lstm(input, weight, recurrent, 10, 8, Labeled(MLLstmOptions{.initialCellState = cell_bad}));
        }) == "lstm [r]: argument 'initialCellState' shape must be [1, 5, 8], got [1, 5, 1000]");
  auto half_peephole = b.input("half_peephole", {kF16, {1, 24}});
  CHECK(ErrorName([&] { b.lstm(input, weight, recurrent, 10, 8, {.peepholeWeight = half_peephole}); }) ==
        "TypeError");
  auto outs = b.lstm(input, weight, recurrent, 10, 8, {.returnSequence = true});
  REQUIRE(outs.size() == 3);
  CHECK(outs[2].shape().size() == 4);

  auto cell_input = b.input("cell_input", {kF32, {3, 4}});
  auto cell_weight = b.input("cell_weight", {kF32, {20, 4}});
  auto cell_recurrent = b.input("cell_recurrent", {kF32, {20, 5}});
  auto state = b.input("state", {kF32, {3, 5}});
  auto state_bad = b.input("state_bad", {kF32, {3, 1000}});
  CHECK(ErrorMessage([&] {
          b.lstmCell(cell_input, cell_weight, cell_recurrent, state, state_bad, 5, Labeled(MLLstmCellOptions{}));
        }) == "lstmCell [r]: argument 'cellState' shape must be [3, 5], got [3, 1000]");
  auto scalar = b.input("scalar", {kF32, {}});
  CHECK(ErrorMessage([&] {
          b.lstmCell(cell_input, cell_weight, cell_recurrent, state, state, 5,
                     Labeled(MLLstmCellOptions{.peepholeWeight = scalar}));
        }).find("lstmCell [r]: argument 'peepholeWeight'") == 0);
  auto weight_bad = b.input("weight_bad", {kF32, {1000, 4}});
  CHECK(ErrorMessage([&] {
          b.lstmCell(cell_input, weight_bad, cell_recurrent, state, state, 5, Labeled(MLLstmCellOptions{}));
        }) == "lstmCell [r]: argument 'weight' shape must be [20, 4], got [1000, 4]");
  CHECK(b.lstmCell(cell_input, cell_weight, cell_recurrent, state, state, 5).size() == 2);
}
