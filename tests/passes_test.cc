// Graph passes (src/graph/passes.h): what they rewrite, checked on the
// program the device under test executes, and that graphs give the reference
// device's results with and without them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "api/impl.h"
#include "cross_device.h"
#include "graph/graph.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using Body = std::function<MLNamedOperands(MLGraphBuilder&)>;

// The ops a compiled graph runs, in order.
std::vector<std::string> ExecutedOps(MLDeviceType device, bool passes, const Body& body) {
  return BuildOrFallBackToCpu({.device = device, .graphPasses = passes}, "passes", [&](const MLContextOptions& o) {
    MLContext ctx = ML::createContext(o);
    MLGraphBuilder builder(ctx);
    MLGraph graph = builder.build(body(builder));
    std::vector<std::string> ops;
    for (uint32_t n : graph.impl()->nodes) ops.emplace_back(ops::OpName(graph.impl()->ir->nodes()[n].op));
    return ops;
  });
}

MLOperand Constant(MLGraphBuilder& b, std::vector<uint32_t> shape, float value) {
  size_t count = 1;
  for (uint32_t d : shape) count *= d;
  MLOperandDescriptor desc{MLOperandDataType::kFloat32, {}};
  for (uint32_t d : shape) desc.shape.emplace_back(d);
  return b.constant(desc, MLBufferSource(Bytes(std::vector<float>(count, value))));
}

MLOperand Input(MLGraphBuilder& b, const std::string& name, std::vector<uint32_t> shape) {
  MLOperandDescriptor desc{MLOperandDataType::kFloat32, {}};
  for (uint32_t d : shape) desc.shape.emplace_back(d);
  return b.input(name, desc);
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("passes: bias and activation fuse into conv2d, gemm, matmul", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  const Body conv_add_relu = [](MLGraphBuilder& b) {
    MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f));
    return MLNamedOperands{{"out", b.relu(b.add(y, Constant(b, {1, 4, 1, 1}, 0.5f)))}};
  };
  CHECK(ExecutedOps(DeviceUnderTest(), true, conv_add_relu) == Strings{"conv2d"});
  CHECK(ExecutedOps(DeviceUnderTest(), false, conv_add_relu) == Strings{"conv2d", "add", "relu"});
  // The reference device is the oracle: it runs graphs as built.
  CHECK(ExecutedOps(MLDeviceType::kReference, true, conv_add_relu) == Strings{"conv2d", "add", "relu"});

  const Body matmul_add_sigmoid = [](MLGraphBuilder& b) {
    MLOperand y = b.matmul(Input(b, "x", {2, 5, 6}), Constant(b, {6, 7}, 0.1f));
    return MLNamedOperands{{"out", b.sigmoid(b.add(Constant(b, {7}, 0.5f), y))}};
  };
  CHECK(ExecutedOps(DeviceUnderTest(), true, matmul_add_sigmoid) == Strings{"matmul"});

  const Body gemm_add_clamp = [](MLGraphBuilder& b) {
    MLOperand y = b.gemm(Input(b, "a", {5, 6}), Input(b, "b", {6, 7}));
    return MLNamedOperands{{"out", b.clamp(b.add(y, Input(b, "c", {5, 1})), {.minValue = MLNumber(0.0)})}};
  };
  CHECK(ExecutedOps(DeviceUnderTest(), true, gemm_add_clamp) == Strings{"gemm"});
}

TEST_CASE("passes: values still needed elsewhere are not fused away", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // The conv output is a graph output: the relu stays.
  CHECK(ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
          MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f));
          return MLNamedOperands{{"y", y}, {"out", b.relu(y)}};
        }) == Strings{"conv2d", "relu"});
  // Two readers of the conv output.
  const Strings two = ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
    MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f));
    return MLNamedOperands{{"a", b.relu(y)}, {"b", b.sigmoid(y)}};
  });
  CHECK(two.size() == 3);
  // Only one activation per producer; a second one stays a node.
  CHECK(ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
          MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f));
          return MLNamedOperands{{"out", b.tanh(b.relu(y))}};
        }) == Strings{"conv2d", "tanh"});
  // A conv whose bias is not a constant keeps the add; an add that broadcasts
  // along more than the channels is not a bias.
  CHECK(ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
          MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f),
                                 {.bias = Input(b, "bias", {4})});
          return MLNamedOperands{{"out", b.add(y, Constant(b, {1, 4, 1, 1}, 0.5f))}};
        }) == Strings{"conv2d", "add"});
  CHECK(ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
          MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f));
          return MLNamedOperands{{"out", b.add(y, Constant(b, {1, 4, 6, 1}, 0.5f))}};
        }) == Strings{"conv2d", "add"});
  // gemm whose C is taken, or beta != 1: the add stays.
  CHECK(ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
          MLOperand y = b.gemm(Input(b, "a", {5, 6}), Input(b, "b", {6, 7}), {.beta = 2.0});
          return MLNamedOperands{{"out", b.add(y, Input(b, "c", {7}))}};
        }) == Strings{"gemm", "add"});
  // A bias that is not constant cannot become conv2d's packed bias.
  CHECK(ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
          MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f));
          return MLNamedOperands{{"out", b.add(y, Input(b, "c", {1, 4, 1, 1}))}};
        }) == Strings{"conv2d", "add"});
}

namespace {

// Every activation with non-default options where it has them.
const std::vector<std::pair<std::string, std::function<MLOperand(MLGraphBuilder&, MLOperand)>>>& Activations() {
  static const std::vector<std::pair<std::string, std::function<MLOperand(MLGraphBuilder&, MLOperand)>>> list = {
      {"relu", [](MLGraphBuilder& b, MLOperand x) { return b.relu(x); }},
      {"clamp", [](MLGraphBuilder& b, MLOperand x) {
         return b.clamp(x, {.minValue = MLNumber(-0.25), .maxValue = MLNumber(0.75)});
       }},
      {"clamp-min", [](MLGraphBuilder& b, MLOperand x) { return b.clamp(x, {.minValue = MLNumber(0.1)}); }},
      {"sigmoid", [](MLGraphBuilder& b, MLOperand x) { return b.sigmoid(x); }},
      {"hardSigmoid", [](MLGraphBuilder& b, MLOperand x) { return b.hardSigmoid(x, {.alpha = 0.3, .beta = 0.4}); }},
      {"hardSwish", [](MLGraphBuilder& b, MLOperand x) { return b.hardSwish(x); }},
      {"leakyRelu", [](MLGraphBuilder& b, MLOperand x) { return b.leakyRelu(x, {.alpha = 0.2}); }},
      {"gelu", [](MLGraphBuilder& b, MLOperand x) { return b.gelu(x); }},
      {"elu", [](MLGraphBuilder& b, MLOperand x) { return b.elu(x, {.alpha = 0.7}); }},
      {"softplus", [](MLGraphBuilder& b, MLOperand x) { return b.softplus(x); }},
      {"softsign", [](MLGraphBuilder& b, MLOperand x) { return b.softsign(x); }},
      {"tanh", [](MLGraphBuilder& b, MLOperand x) { return b.tanh(x); }},
      {"linear", [](MLGraphBuilder& b, MLOperand x) { return b.linear(x, {.alpha = 1.5, .beta = -0.25}); }},
  };
  return list;
}

// Runs `body` on the device under test with and without passes against the
// reference.
void CheckBothWays(const std::string& what, const std::vector<InputSpec>& inputs, const GraphBody& body,
                   MLOperandDataType type, uint64_t seed) {
  // Sums of up to ~50 products of values in [-1, 1): float32 within 1e-4;
  // float16 rounds each op's result when unfused (a few ULP of values < 16).
  const Tolerance tol = Tolerance::Atol(type == MLOperandDataType::kFloat16 ? 0.05 : 2e-4);
  for (bool passes : {true, false}) {
    INFO(what << (passes ? " (passes)" : " (no passes)"));
    const size_t compared =
        CheckAgainstReference({.device = DeviceUnderTest(), .graphPasses = passes}, what, inputs, body, tol, seed);
    if (!MayLeaveOpsOut(DeviceUnderTest())) CHECK(compared > 0);  // else 0 when unsupported
  }
}

}  // namespace

TEST_CASE("passes: an operand that would be read by the fused node computing it stays unfused", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // add(y, y) once became the product's own bias: the fused node read its own
  // output, which nothing computed any more (found by the builder fuzzer).
  const Body gemm_twice = [](MLGraphBuilder& b) {
    MLOperand y = b.gemm(Input(b, "a", {5, 6}), Input(b, "b", {6, 7}));
    return MLNamedOperands{{"out", b.add(y, y)}};
  };
  CHECK(ExecutedOps(DeviceUnderTest(), true, gemm_twice) == Strings{"gemm", "add"});
  const Body matmul_twice = [](MLGraphBuilder& b) {
    MLOperand y = b.matmul(Input(b, "a", {1, 6}), Constant(b, {6, 7}, 0.1f));
    return MLNamedOperands{{"out", b.add(y, y)}};
  };
  CHECK(ExecutedOps(DeviceUnderTest(), true, matmul_twice) == Strings{"matmul", "add"});
  CheckBothWays("gemm+add(y, y)", {{.shape = {5, 6}}, {.shape = {6, 7}}},
                [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                  MLOperand y = b.gemm(in[0], in[1]);
                  return MLNamedOperands{{"out", b.add(y, y)}};
                },
                MLOperandDataType::kFloat32, 3);
  // The same kind of graph for the residual-add fusion: the sum is the
  // layerNormalization's input, scale and bias, and a graph output.
  const auto norm_of_sum = [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    MLOperand s = b.add(in[0], in[1]);
    MLLayerNormalizationOptions o;
    o.scale = s;
    o.bias = s;
    o.axes = std::vector<uint32_t>{0};
    return MLNamedOperands{{"out", b.layerNormalization(s, o)}, {"sum", s}};
  };
  CHECK(ExecutedOps(DeviceUnderTest(), true, [&](MLGraphBuilder& b) {
          return norm_of_sum(b, {Input(b, "a", {8}), Input(b, "b", {8})});
        }) == Strings{"add", "fusedNormalization"});
  CheckBothWays("add+layerNormalization(s, scale s, bias s)", {{.shape = {8}}, {.shape = {8}}}, norm_of_sum,
                MLOperandDataType::kFloat32, 4);
}

TEST_CASE("passes: fused conv2d / convTranspose2d / gemm / matmul match the reference", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  std::mt19937_64 rng(7);
  uint64_t seed = 1;
  for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (const auto& named_activation : Activations()) {
      // (Not a structured binding: clang 14 cannot capture those in lambdas.)
      const auto& name = named_activation.first;
      const auto& act = named_activation.second;
      const std::string t = type == MLOperandDataType::kFloat16 ? " f16" : " f32";
      auto spec = [&](std::vector<uint32_t> shape, bool constant) {
        return InputSpec{.type = type, .shape = std::move(shape), .constant = constant};
      };
      const uint32_t c = 1 + rng() % 7, h = 1 + rng() % 9, w = 1 + rng() % 9, k = 1 + rng() % 6;
      // conv2d nchw + bias add + activation.
      CheckBothWays("conv2d+add+" + name + t,
                    {spec({2, c, h + 2, w + 2}, false), spec({k, c, 3, 3}, true), spec({1, k, 1, 1}, true)},
                    [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                      MLOperand y = b.conv2d(in[0], in[1], {.padding = std::vector<uint32_t>{1, 0, 0, 1}});
                      return MLNamedOperands{{"out", act(b, b.add(y, in[2]))}};
                    },
                    type, seed++);
      // Depthwise nhwc with its own bias + activation.
      CheckBothWays("depthwise nhwc+" + name + t,
                    {spec({1, h, w, c}, false), spec({1, 3, 3, c}, true), spec({c}, true)},
                    [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                      MLOperand y = b.conv2d(in[0], in[1],
                                             {.padding = std::vector<uint32_t>{1, 1, 1, 1},
                                              .groups = c,
                                              .inputLayout = MLInputOperandLayout::kNhwc,
                                              .filterLayout = MLConv2dFilterOperandLayout::kIhwo,
                                              .bias = in[2]});
                      return MLNamedOperands{{"out", act(b, y)}};
                    },
                    type, seed++);
      // convTranspose2d + bias add + activation.
      CheckBothWays("convTranspose2d+add+" + name + t,
                    {spec({1, c, h, w}, false), spec({c, k, 3, 3}, true), spec({k, 1, 1}, true)},
                    [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                      MLOperand y = b.convTranspose2d(in[0], in[1], {.strides = std::vector<uint32_t>{2, 2}});
                      return MLNamedOperands{{"out", act(b, b.add(y, in[2]))}};
                    },
                    type, seed++);
      // gemm (transposed A) + add of a [M, 1] C + activation.
      const uint32_t m = 1 + rng() % 40, n = 1 + rng() % 40, kk = 1 + rng() % 40;
      CheckBothWays("gemm+add+" + name + t, {spec({kk, m}, false), spec({kk, n}, true), spec({m, 1}, false)},
                    [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                      MLOperand y = b.gemm(in[0], in[1], {.alpha = 0.5, .aTranspose = true});
                      return MLNamedOperands{{"out", act(b, b.add(y, in[2]))}};
                    },
                    type, seed++);
      // Batched matmul with a broadcast constant B + bias along N + activation.
      CheckBothWays("matmul+add+" + name + t, {spec({3, m, kk}, false), spec({kk, n}, true), spec({n}, true)},
                    [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                      return MLNamedOperands{{"out", act(b, b.add(b.matmul(in[0], in[1]), in[2]))}};
                    },
                    type, seed++);
    }
  }
}

TEST_CASE("passes: fused clamps keep NaN and infinities as the ops do", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // A 1x1 identity conv and an identity matmul pass the values through to
  // the fused relu / clamp.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {nan, -inf, inf, -1.0f, 2.0f, -0.0f};
  for (bool use_clamp : {false, true}) {
    auto act = [&](MLGraphBuilder& b, MLOperand y) {
      return use_clamp ? b.clamp(y, {.minValue = MLNumber(-0.5), .maxValue = MLNumber(1.0)}) : b.relu(y);
    };
    const auto body = [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
      MLOperand conv = b.conv2d(in[0], Constant(b, {1, 1, 1, 1}, 1.0f));
      MLOperand mm = b.matmul(b.reshape(in[0], {6, 1}), Constant(b, {1, 1}, 1.0f));
      return MLNamedOperands{{"conv", act(b, conv)}, {"matmul", act(b, mm)}};
    };
    const std::vector<HostTensor> inputs = {Tensor(MLOperandDataType::kFloat32, {1, 1, 1, 6}, x)};
    auto want = Run(MLDeviceType::kReference, inputs, body);
    std::map<std::string, HostTensor> got;
    if (!RunUnlessUnsupported(DeviceUnderTest(), use_clamp ? "fused clamp" : "fused relu",
                              [&] { got = Run(DeviceUnderTest(), inputs, body); }))
      continue;
    for (const char* out : {"conv", "matmul"}) {
      const auto w = FromBytes<float>(want[out].data), g = FromBytes<float>(got[out].data);
      REQUIRE(w.size() == g.size());
      for (size_t i = 0; i < w.size(); ++i) {
        INFO(out << (use_clamp ? " clamp" : " relu") << " element " << i);
        if (std::isnan(w[i])) CHECK(std::isnan(g[i]));
        else CHECK(g[i] == w[i]);
      }
    }
  }
}

TEST_CASE("passes: affine maps and batchNormalization fold into conv2d weights", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // conv -> mul(per-channel) -> add(scalar) -> batchNormalization -> relu: one conv.
  const auto body = [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    MLOperand y = b.conv2d(in[0], in[1], {.padding = std::vector<uint32_t>{1, 1, 1, 1}, .bias = in[2]});
    y = b.add(b.mul(in[3], y), in[4]);
    y = b.batchNormalization(y, in[5], in[6], {.scale = in[7], .bias = in[8], .epsilon = 1e-3});
    return MLNamedOperands{{"out", b.relu(y)}};
  };
  const auto spec = [](std::vector<uint32_t> shape, double lo = -1, double hi = 1) {
    return InputSpec{.shape = std::move(shape), .lo = lo, .hi = hi, .constant = true};
  };
  const std::vector<InputSpec> inputs = {InputSpec{.shape = {2, 3, 9, 7}},
                                         spec({5, 3, 3, 3}),
                                         spec({5}),
                                         spec({1, 5, 1, 1}),
                                         spec({}),
                                         spec({5}),
                                         spec({5}, 0.5, 2),
                                         spec({5}),
                                         spec({5})};
  CheckBothWays("conv+mul+add+batchNorm+relu", inputs, body, MLOperandDataType::kFloat32, 11);
  CHECK(ExecutedOps(DeviceUnderTest(), true, [&](MLGraphBuilder& b) {
          std::vector<MLOperand> in = {Input(b, "x", {2, 3, 9, 7}), Constant(b, {5, 3, 3, 3}, 0.1f),
                                       Constant(b, {5}, 0.2f),      Constant(b, {1, 5, 1, 1}, 1.5f),
                                       Constant(b, {}, 0.25f),      Constant(b, {5}, 0.1f),
                                       Constant(b, {5}, 1.0f),      Constant(b, {5}, 2.0f),
                                       Constant(b, {5}, -1.0f)};
          return body(b, in);
        }) == Strings{"conv2d"});
  // nhwc with an hwio filter: the channel axis is last in both.
  CheckBothWays("nhwc conv+mul+add",
                {InputSpec{.shape = {1, 6, 5, 4}}, spec({3, 3, 4, 2}), spec({2}), spec({2})},
                [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                  MLOperand y = b.conv2d(in[0], in[1],
                                         {.inputLayout = MLInputOperandLayout::kNhwc,
                                          .filterLayout = MLConv2dFilterOperandLayout::kHwio});
                  return MLNamedOperands{{"out", b.add(b.mul(y, in[2]), in[3])}};
                },
                MLOperandDataType::kFloat32, 12);
  // A scale that is not a constant stays a mul.
  CHECK(ExecutedOps(DeviceUnderTest(), true, [](MLGraphBuilder& b) {
          MLOperand y = b.conv2d(Input(b, "x", {1, 3, 8, 8}), Constant(b, {4, 3, 3, 3}, 0.1f));
          return MLNamedOperands{{"out", b.mul(y, Input(b, "s", {1, 4, 1, 1}))}};
        }) == Strings{"conv2d", "mul"});
}

TEST_CASE("passes: hardSwish written out becomes one op fused into the conv", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // div(mul(a, clamp(a + 3, 0, 6)), 6) and mul(a, div(clamp(3 + a, 0, 6), 6)).
  const auto relu6 = [](MLGraphBuilder& b, MLOperand a, bool three_first) {
    MLOperand three = Constant(b, {}, 3.0f);
    return b.clamp(three_first ? b.add(three, a) : b.add(a, three),
                   {.minValue = MLNumber(0.0), .maxValue = MLNumber(6.0)});
  };
  for (bool div_last : {true, false}) {
    const auto body = [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
      MLOperand a = b.conv2d(in[0], in[1], {.padding = std::vector<uint32_t>{1, 1, 1, 1}});
      MLOperand six = Constant(b, {}, 6.0f);
      MLOperand hs = div_last ? b.div(b.mul(a, relu6(b, a, false)), six) : b.mul(b.div(relu6(b, a, true), six), a);
      return MLNamedOperands{{"out", hs}};
    };
    const std::vector<InputSpec> inputs = {InputSpec{.shape = {1, 4, 11, 9}, .lo = -4, .hi = 4},
                                           InputSpec{.shape = {6, 4, 3, 3}, .constant = true}};
    CheckBothWays(div_last ? "div(mul(a, relu6(a + 3)), 6)" : "mul(div(relu6(3 + a), 6), a)", inputs, body,
                  MLOperandDataType::kFloat32, 13);
    CHECK(ExecutedOps(DeviceUnderTest(), true, [&](MLGraphBuilder& b) {
            return body(b, {Input(b, "x", {1, 4, 11, 9}), Constant(b, {6, 4, 3, 3}, 0.1f)});
          }) == Strings{"conv2d"});
  }
  // Another constant than 3 or 6, or an intermediate read elsewhere: unchanged.
  CHECK(ExecutedOps(DeviceUnderTest(), true, [&](MLGraphBuilder& b) {
          MLOperand a = Input(b, "x", {1, 4, 5, 5});
          MLOperand r = b.clamp(b.add(a, Constant(b, {}, 2.0f)), {.minValue = MLNumber(0.0), .maxValue = MLNumber(6.0)});
          return MLNamedOperands{{"out", b.div(b.mul(a, r), Constant(b, {}, 6.0f))}};
        }) != Strings{"hardSwish"});
  const Strings kept = ExecutedOps(DeviceUnderTest(), true, [&](MLGraphBuilder& b) {
    MLOperand a = Input(b, "x", {1, 4, 5, 5});
    MLOperand r = relu6(b, a, false);
    return MLNamedOperands{{"out", b.div(b.mul(a, r), Constant(b, {}, 6.0f))}, {"r", r}};
  });
  CHECK(std::count(kept.begin(), kept.end(), "hardSwish") == 0);
}

TEST_CASE("passes: scalar mul / add after a fused activation join its epilogue", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  struct Case {
    const char* what;
    std::function<MLOperand(MLGraphBuilder&, const std::vector<MLOperand>&)> producer;
    std::vector<InputSpec> inputs;
  };
  const std::vector<Case> cases = {
      {"conv2d",
       [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
         return b.conv2d(in[0], in[1], {.padding = std::vector<uint32_t>{1, 1, 1, 1}});
       },
       {InputSpec{.shape = {1, 3, 7, 6}}, InputSpec{.shape = {4, 3, 3, 3}, .constant = true}}},
      // A pointwise conv on a plane wide enough for cpu's DirectNchw tiles,
      // which apply the epilogue row by row after storing a tile: 11 output
      // channels (a partial block of rows), 12 x 37 pixels (a partial vector).
      {"conv2d 1x1",
       [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return b.conv2d(in[0], in[1]); },
       {InputSpec{.shape = {1, 5, 12, 37}}, InputSpec{.shape = {11, 5, 1, 1}, .constant = true}}},
      {"convTranspose2d",
       [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return b.convTranspose2d(in[0], in[1]); },
       {InputSpec{.shape = {1, 3, 5, 4}}, InputSpec{.shape = {3, 2, 3, 3}, .constant = true}}},
      {"gemm", [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return b.gemm(in[0], in[1]); },
       {InputSpec{.shape = {9, 17}}, InputSpec{.shape = {17, 5}}}},
      {"matmul", [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return b.matmul(in[0], in[1]); },
       {InputSpec{.shape = {2, 9, 17}}, InputSpec{.shape = {17, 5}, .constant = true}}},
  };
  uint64_t seed = 40;
  for (const Case& c : cases) {
    for (const char* act : {"relu", "hardSwish", "sigmoid", "clamp"}) {
      const auto body = [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        MLOperand y = ApplyUnaryOp(b, act, c.producer(b, in), {.lo = MLNumber(-0.5), .hi = MLNumber(0.5)});
        y = b.add(Constant(b, {1}, 0.25f), b.mul(y, Constant(b, {}, -1.5f)));
        return MLNamedOperands{{"out", b.mul(y, Constant(b, {}, 2.0f))}};
      };
      CheckBothWays(std::string(c.what) + "+" + act + "+mul+add+mul", c.inputs, body, MLOperandDataType::kFloat32,
                    seed++);
      CHECK(ExecutedOps(DeviceUnderTest(), true, [&](MLGraphBuilder& b) {
              std::vector<MLOperand> in;
              for (size_t i = 0; i < c.inputs.size(); ++i) {
                if (c.inputs[i].constant) in.push_back(Constant(b, c.inputs[i].shape, 0.1f));
                else in.push_back(Input(b, "in" + std::to_string(i), c.inputs[i].shape));
              }
              return body(b, in);
            }).size() == 1);
    }
  }
}

TEST_CASE("passes: bias, batchNormalization and relu fold into convTranspose2d", "[passes][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // PP-OCR det's head: convTranspose2d -> add(bias) -> batchNormalization -> relu.
  const std::vector<std::pair<MLConvTranspose2dFilterOperandLayout, std::vector<uint32_t>>> layouts = {
      {MLConvTranspose2dFilterOperandLayout::kIohw, {3, 5, 2, 2}},
      {MLConvTranspose2dFilterOperandLayout::kHwoi, {2, 2, 5, 3}},
      {MLConvTranspose2dFilterOperandLayout::kOhwi, {5, 2, 2, 3}}};
  uint64_t seed = 60;
  for (const auto& layout_and_shape : layouts) {
    const auto layout = layout_and_shape.first;
    const auto& filter_shape = layout_and_shape.second;
    const auto body = [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
      MLOperand y = b.convTranspose2d(in[0], in[1], {.strides = std::vector<uint32_t>{2, 2}, .filterLayout = layout});
      y = b.batchNormalization(b.add(y, in[2]), in[3], in[4], {.scale = in[5], .bias = in[6]});
      return MLNamedOperands{{"out", b.relu(y)}};
    };
    const auto c = [](std::vector<uint32_t> shape, double lo = -1, double hi = 1) {
      return InputSpec{.shape = std::move(shape), .lo = lo, .hi = hi, .constant = true};
    };
    CheckBothWays("convTranspose2d+add+batchNorm+relu", {InputSpec{.shape = {1, 3, 6, 5}}, c(filter_shape),
                  c({1, 5, 1, 1}), c({5}), c({5}, 0.5, 2), c({5}), c({5})},
                  body, MLOperandDataType::kFloat32, seed++);
    CHECK(ExecutedOps(DeviceUnderTest(), true, [&](MLGraphBuilder& b) {
            return body(b, {Input(b, "x", {1, 3, 6, 5}), Constant(b, filter_shape, 0.1f), Constant(b, {1, 5, 1, 1}, 0.2f),
                            Constant(b, {5}, 0.1f), Constant(b, {5}, 1.0f), Constant(b, {5}, 2.0f),
                            Constant(b, {5}, -1.0f)});
          }) == Strings{"convTranspose2d"});
  }
}
