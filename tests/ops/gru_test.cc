// Tests of gru and gruCell: validation and the reference kernels. Expected
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
const std::vector<MLRecurrentNetworkActivation> kReluRelu{kRelu, kRelu};

template <typename Options>
Options Labeled(Options o) {
  o.label = "r";
  return o;
}
}  // namespace

TEST_CASE("gruCell with reset after and before the recurrent product, both layouts", "[gru]") {
  // x = 2, h = 1; zrn rows: W = [1, 0.5, 2], R = [0.5, 1, 3], bias = [0.25, 0, 1], recurrentBias = [0, 0.5, -1].
  // z = 0.25 + 2 + 0.5 = 2.75, r = 0.5 + 1 + 1 = 2.5.
  // resetAfter:  n = 1 + 4 + 2.5 * (-1 + 3) = 10;   h' = 2.75 * 1 + 10 * (1 - 2.75) = -14.75.
  // otherwise:   n = 0 + 4 + 3 * (2.5 * 1) = 11.5;  h' = 2.75 + 11.5 * (-1.75) = -17.375.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 1}, {2}), Tensor<float>(kF32, {3, 1}, {1, 0.5, 2}),
                  Tensor<float>(kF32, {3, 1}, {0.5, 1, 3}), Tensor<float>(kF32, {1, 1}, {1}),
                  Tensor<float>(kF32, {3}, {0.25, 0, 1}), Tensor<float>(kF32, {3}, {0, 0.5, -1}),
                  // The same weights in rzn order.
                  Tensor<float>(kF32, {3, 1}, {0.5, 1, 2}), Tensor<float>(kF32, {3, 1}, {1, 0.5, 3}),
                  Tensor<float>(kF32, {3}, {0, 0.25, 1}), Tensor<float>(kF32, {3}, {0.5, 0, -1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   MLGruCellOptions after{.bias = in[4], .recurrentBias = in[5], .activations = kReluRelu};
                   MLGruCellOptions before = after;
                   before.resetAfter = false;
                   MLGruCellOptions rzn{.bias = in[8], .recurrentBias = in[9], .resetAfter = false,
                                        .layout = MLGruWeightLayout::kRzn, .activations = kReluRelu};
                   return MLNamedOperands{{"after", b.gruCell(in[0], in[1], in[2], in[3], 1, after)},
                                          {"before", b.gruCell(in[0], in[1], in[2], in[3], 1, before)},
                                          {"rzn", b.gruCell(in[0], in[6], in[7], in[3], 1, rzn)}};
                 });
  CHECK(FromBytes<float>(out["after"].data) == std::vector<float>{-14.75f});
  CHECK(FromBytes<float>(out["before"].data) == std::vector<float>{-17.375f});
  CHECK(FromBytes<float>(out["rzn"].data) == std::vector<float>{-17.375f});
}

TEST_CASE("gruCell default activations are sigmoid and tanh", "[gru]") {
  // x = 1, h = 0.5, W = [0.25, 0.5, 0.75], R = [-0.5, 1, 1.5]:
  // z = sigmoid(0) = 0.5, r = sigmoid(1), n = tanh(0.75 + r * 0.75), h' = 0.25 + 0.5 * n.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 1}, {1}), Tensor<float>(kF32, {3, 1}, {0.25, 0.5, 0.75}),
                  Tensor<float>(kF32, {3, 1}, {-0.5, 1, 1.5}), Tensor<float>(kF32, {1, 1}, {0.5})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", b.gruCell(in[0], in[1], in[2], in[3], 1)}};
                 });
  const double r = 1 / (1 + std::exp(-1.0));
  const double expected = 0.25 + 0.5 * std::tanh(0.75 + r * 0.75);
  CHECK(FromBytes<float>(out["out"].data)[0] == Approx(expected).epsilon(1e-7));
}

TEST_CASE("gruCell float16 with two batch rows and two hidden units", "[gru]") {
  // z = r = 0 (zero weights/biases), so h' = n = relu(Wn x + bn) and the state is ignored.
  // Wn = [[1, 0], [0, 2]] (hidden x input), bn = [0.5, -1].
  std::vector<double> weight(6 * 2, 0.0);
  weight[8] = 1;
  weight[11] = 2;
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(kF16, {2, 2}, Half({1, 3, -2, 0.25})), Tensor<uint16_t>(kF16, {6, 2}, Half(weight)),
                  Tensor<uint16_t>(kF16, {6, 2}, Half(std::vector<double>(12, 0.0))),
                  Tensor<uint16_t>(kF16, {2, 2}, Half({7, 7, 7, 7})),
                  Tensor<uint16_t>(kF16, {6}, Half({0, 0, 0, 0, 0.5, -1}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"out", b.gruCell(in[0], in[1], in[2], in[3], 2, {.bias = in[4], .activations = kReluRelu})}};
                 });
  // Row 0: [1 + 0.5, 6 - 1] = [1.5, 5]; row 1: [relu(-1.5), relu(0.5 - 1)] = [0, 0].
  CHECK(FromHalf(FromBytes<uint16_t>(out["out"].data)) == std::vector<double>{1.5, 5, 0, 0});
}

namespace {
// z = 0 and r = 1 in both directions, so h' = n = relu(x + Rn * h), Rn = 2
// forward and 3 backward.
std::vector<HostTensor> BothDirectionInputs(MLOperandDataType type) {
  auto t = [&](std::vector<uint32_t> shape, std::vector<double> v) {
    return type == kF16 ? Tensor<uint16_t>(type, std::move(shape), Half(v))
                        : Tensor<float>(type, std::move(shape), std::vector<float>(v.begin(), v.end()));
  };
  return {t({2, 1, 1}, {1, 2}), t({2, 3, 1}, {0, 0, 1, 0, 0, 1}), t({2, 3, 1}, {0, 0, 2, 0, 0, 3}),
          t({2, 3}, {0, 1, 0, 0, 1, 0}), t({2, 1, 1}, {1, -1})};
}
std::vector<double> Values(const HostTensor& t) {
  if (t.type == kF16) return FromHalf(FromBytes<uint16_t>(t.data));
  auto f = FromBytes<float>(t.data);
  return std::vector<double>(f.begin(), f.end());
}
}  // namespace

TEST_CASE("gru in both directions returns the last states and the sequence", "[gru]") {
  for (auto type : {kF32, kF16}) {
    auto out = Run(MLDeviceType::kReference, BothDirectionInputs(type),
                   [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                     MLGruOptions o{.bias = in[3], .returnSequence = true,
                                    .direction = MLRecurrentNetworkDirection::kBoth, .activations = kReluRelu};
                     auto plain = b.gru(in[0], in[1], in[2], 2, 1, o);
                     o.initialHiddenState = in[4];
                     o.resetAfter = false;
                     auto initial = b.gru(in[0], in[1], in[2], 2, 1, o);
                     return MLNamedOperands{{"last", plain[0]}, {"sequence", plain[1]},
                                            {"last_init", initial[0]}, {"sequence_init", initial[1]}};
                   });
    // Forward: 1, then 2 + 2 * 1 = 4. Backward from t = 1: 2, then 1 + 3 * 2 = 7.
    CHECK(out["last"].shape == std::vector<uint32_t>{2, 1, 1});
    CHECK(Values(out["last"]) == std::vector<double>{4, 7});
    CHECK(out["sequence"].shape == std::vector<uint32_t>{2, 2, 1, 1});
    CHECK(Values(out["sequence"]) == std::vector<double>{1, 7, 4, 2});
    // Initial states 1 and -1. Forward: 1 + 2 = 3, 2 + 6 = 8. Backward: relu(2 - 3) = 0, 1 + 0 = 1.
    CHECK(Values(out["last_init"]) == std::vector<double>{8, 1});
    CHECK(Values(out["sequence_init"]) == std::vector<double>{3, 1, 8, 0});
  }
}

TEST_CASE("gru backward without returnSequence has one output", "[gru]") {
  auto inputs = BothDirectionInputs(kF32);
  // Direction 1's weights alone.
  inputs[1] = Tensor<float>(kF32, {1, 3, 1}, {0, 0, 1});
  inputs[2] = Tensor<float>(kF32, {1, 3, 1}, {0, 0, 3});
  inputs[3] = Tensor<float>(kF32, {1, 3}, {0, 1, 0});
  inputs.pop_back();
  auto out = Run(MLDeviceType::kReference, inputs, [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    auto outs = b.gru(in[0], in[1], in[2], 2, 1,
                      {.bias = in[3], .direction = MLRecurrentNetworkDirection::kBackward, .activations = kReluRelu});
    CHECK(outs.size() == 1);
    return MLNamedOperands{{"last", outs[0]}};
  });
  CHECK(FromBytes<float>(out["last"].data) == std::vector<float>{7});
}

TEST_CASE("gru and gruCell validation names op, label and argument", "[gru][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto input = b.input("input", {kF32, {2, 3, 4}});
  auto weight = b.input("weight", {kF32, {1, 15, 4}});
  auto recurrent = b.input("recurrent", {kF32, {1, 15, 5}});
  CHECK(ErrorMessage([&] {
          b.gru(input, weight, recurrent, 2, 5,
                Labeled(MLGruOptions{.activations = std::vector{kRelu, kRelu, kRelu}}));
        }) == "gru [r]: activations must have 2 entries (update/reset gate, new gate), got 3");
  CHECK(ErrorMessage([&] { b.gru(input, weight, recurrent, 2, 4294967295u, Labeled(MLGruOptions{})); }) ==
        "gru [r]: hiddenSize must be greater than 0 with hiddenSize * 6 at most 2147483647, got 4294967295");
  CHECK(ErrorMessage([&] { b.gru(input, weight, recurrent, 2, 0, Labeled(MLGruOptions{})); }).find("gru [r]: ") ==
        0);
  CHECK(ErrorMessage([&] { b.gru(input, weight, recurrent, 3, 5, Labeled(MLGruOptions{})); }) ==
        "gru [r]: argument 'input' shape [2, 3, 4] must have steps (3) as dimension 0");
  CHECK(ErrorMessage([&] { b.gru(input, weight, recurrent, 0, 5, Labeled(MLGruOptions{})); }) ==
        "gru [r]: steps must be greater than 0");
  CHECK(ErrorMessage([&] {
          b.gru(input, weight, recurrent, 2, 5,
                Labeled(MLGruOptions{.direction = MLRecurrentNetworkDirection::kBoth}));
        }) == "gru [r]: argument 'weight' shape must be [2, 15, 4], got [1, 15, 4]");
  auto h315 = b.input("h315", {kF32, {1, 3, 15}});
  CHECK(ErrorMessage([&] {
          b.gru(input, weight, recurrent, 2, 5, Labeled(MLGruOptions{.initialHiddenState = h315}));
        }) == "gru [r]: argument 'initialHiddenState' shape must be [1, 3, 5], got [1, 3, 15]");
  auto bias20 = b.input("bias20", {kF32, {1, 20}});
  CHECK(ErrorMessage([&] { b.gru(input, weight, recurrent, 2, 5, Labeled(MLGruOptions{.recurrentBias = bias20})); }) ==
        "gru [r]: argument 'recurrentBias' shape must be [1, 15], got [1, 20]");
  auto ints = b.input("ints", {MLOperandDataType::kUint32, {2, 3, 4}});
  CHECK(ErrorName([&] { b.gru(ints, weight, recurrent, 2, 5); }) == "TypeError");
  auto outs = b.gru(input, weight, recurrent, 2, 5, {.returnSequence = true});
  REQUIRE(outs.size() == 2);
  CHECK(outs[1].shape().size() == 4);

  auto cell_input = b.input("cell_input", {kF32, {3, 4}});
  auto cell_weight = b.input("cell_weight", {kF32, {15, 4}});
  auto cell_recurrent = b.input("cell_recurrent", {kF32, {15, 5}});
  auto hidden = b.input("hidden", {kF32, {3, 5}});
  auto hidden_bad = b.input("hidden_bad", {kF32, {3, 15}});
  CHECK(ErrorMessage([&] {
          b.gruCell(cell_input, cell_weight, cell_recurrent, hidden_bad, 5, Labeled(MLGruCellOptions{}));
        }) == "gruCell [r]: argument 'hiddenState' shape must be [3, 5], got [3, 15]");
  auto bias_u8 = b.input("bias_u8", {MLOperandDataType::kUint8, {15}});
  CHECK(ErrorMessage([&] {
          b.gruCell(cell_input, cell_weight, cell_recurrent, hidden, 5, Labeled(MLGruCellOptions{.bias = bias_u8}));
        }) == "gruCell [r]: argument 'bias' data type uint8 is not supported; allowed: float32, float16");
  CHECK(ErrorMessage([&] {
          b.gruCell(cell_input, cell_weight, cell_recurrent, hidden, 5,
                    Labeled(MLGruCellOptions{.activations = std::vector{kRelu}}));
        }) == "gruCell [r]: activations must have 2 entries (update/reset gate, new gate), got 1");
  CHECK(ErrorName([&] { b.gruCell(b.input("v", {kF32, {3}}), cell_weight, cell_recurrent, hidden, 5); }) ==
        "TypeError");
  CHECK(b.gruCell(cell_input, cell_weight, cell_recurrent, hidden, 5).shape().size() == 2);
}

TEST_CASE("gru keeps a dynamic batch dimension and runs with its concrete size", "[gru]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {2, MLDynamicDimension{"batch", 4}, 1}});
  auto constant = [&](std::vector<uint32_t> shape, std::vector<float> v) {
    MLOperandDescriptor desc{kF32, {}};
    for (uint32_t d : shape) desc.shape.emplace_back(d);
    return b.constant(desc, MLBufferSource(Bytes(v)));
  };
  auto outs = b.gru(x, constant({2, 3, 1}, {0, 0, 1, 0, 0, 1}), constant({2, 3, 1}, {0, 0, 2, 0, 0, 3}), 2, 1,
                    {.bias = constant({2, 3}, {0, 1, 0, 0, 1, 0}), .returnSequence = true,
                     .direction = MLRecurrentNetworkDirection::kBoth, .activations = kReluRelu});
  REQUIRE(outs.size() == 2);
  CHECK(outs[0].shape() == std::vector<MLDimension>{2, MLDynamicDimension{"batch", 4}, 1});
  MLGraph graph = b.build({{"last", outs[0]}, {"sequence", outs[1]}});

  // Two batch rows, [1, 2] over time and [2, 0]: forward 1, 4 / 2, 4; backward 2, 7 / 0, 2.
  MLTensor in = ctx.createTensor({kF32, {2, 2, 1}, false, true});
  ctx.writeTensor(in, MLBufferSource(Bytes(std::vector<float>{1, 2, 2, 0})));
  MLTensor last = ctx.createTensor({kF32, {2, 2, 1}, true, false});
  MLTensor sequence = ctx.createTensor({kF32, {2, 2, 2, 1}, true, false});
  ctx.dispatch(graph, {{"x", in}}, {{"last", last}, {"sequence", sequence}});
  CHECK(FromBytes<float>(ctx.readTensor(last)) == std::vector<float>{4, 4, 7, 2});
  CHECK(FromBytes<float>(ctx.readTensor(sequence)) == std::vector<float>{1, 2, 7, 2, 4, 4, 2, 0});
}
