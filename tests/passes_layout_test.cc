// The internal-layout pass (src/graph/layout_pass.h): nchw convolutions run in
// nhwc with the transposes folded away between layout-agnostic ops. Structure
// (which nodes and how many transposes remain) and numerics (the device under
// test with and without graph passes against the reference device).
#include <map>
#include <random>
#include <sstream>

#include "api/impl.h"
#include "cross_device.h"
#include "graph/layout_pass.h"
#include "ops/conv2d.h"
#include "ops/op_kind.h"
#include "ops/pool2d.h"

namespace webnn::test {
namespace {

constexpr auto F32 = MLOperandDataType::kFloat32;
constexpr auto F16 = MLOperandDataType::kFloat16;

// Counts of the ops the compiled graph runs, by name ("conv2d nhwc" for convs
// running in nhwc).
std::map<std::string, int> CompiledOps(const MLGraph& graph) {
  const internal::GraphImpl& g = *graph.impl();
  std::map<std::string, int> counts;
  for (uint32_t n : g.nodes) {
    const graph::Node& node = g.ir->nodes()[n];
    std::string name(ops::OpName(node.op));
    if (node.op == ops::OpKind::conv2d &&
        static_cast<const ops::Conv2dAttrs&>(*node.attrs).inputLayout == MLInputOperandLayout::kNhwc)
      name += " nhwc";
    ++counts[name];
  }
  return counts;
}

// Deterministic constant data in [-scale, scale].
MLOperand Weights(MLGraphBuilder& b, MLOperandDataType type, std::vector<uint32_t> shape, double scale,
                  uint64_t seed) {
  InputSpec spec{type, shape, -scale, scale};
  std::mt19937_64 rng(seed);
  const std::vector<std::byte> data = RandomTensorData(spec, rng);
  MLOperandDescriptor desc{type, {}};
  for (uint32_t d : shape) desc.shape.emplace_back(d);
  return b.constant(desc, MLBufferSource(std::span<const std::byte>(data)));
}

MLConv2dOptions Conv(std::vector<uint32_t> padding, std::optional<MLOperand> bias = std::nullopt) {
  MLConv2dOptions o;
  o.padding = std::move(padding);
  o.bias = bias;
  return o;
}

// conv -> relu -> conv -> add(residual) -> maxPool -> conv, x: [2, 8, 10, 10].
// `mid`: the relu output is also a graph output.
MLNamedOperands ResidualNet(MLGraphBuilder& b, const MLOperand& x, MLOperandDataType type, bool mid) {
  MLOperand c1 = b.conv2d(x, Weights(b, type, {8, 8, 3, 3}, 0.1, 1), Conv({1, 1, 1, 1}, Weights(b, type, {8}, 0.1, 2)));
  MLOperand r = b.relu(c1);
  MLOperand c2 = b.conv2d(r, Weights(b, type, {8, 8, 3, 3}, 0.1, 3), Conv({1, 1, 1, 1}));
  MLOperand a = b.add(c2, r);
  MLPool2dOptions pool;
  pool.windowDimensions = std::vector<uint32_t>{2, 2};
  pool.strides = std::vector<uint32_t>{2, 2};
  MLOperand p = b.maxPool2d(a, pool);
  MLOperand c3 = b.conv2d(p, Weights(b, type, {6, 8, 1, 1}, 0.3, 4), Conv({0, 0, 0, 0}));
  MLNamedOperands out{{"out", c3}};
  if (mid) out["mid"] = r;
  return out;
}

// A PP-OCR-like block: stem conv, hard-swish from scalar constants, depthwise
// conv, batchNormalization, squeeze-excitation (global average pool, 1x1
// convs, hardSigmoid, mul), a per-channel constant scale, nearest upsampling,
// concat with a second branch from the input, convTranspose2d, sigmoid.
// x: [n, 3, 16, 16].
MLNamedOperands OcrLikeNet(MLGraphBuilder& b, const MLOperand& x, MLOperandDataType type) {
  MLConv2dOptions stem = Conv({1, 1, 1, 1}, Weights(b, type, {8}, 0.1, 11));
  stem.strides = std::vector<uint32_t>{2, 2};
  MLOperand y = b.conv2d(x, Weights(b, type, {8, 3, 3, 3}, 0.3, 10), stem);  // [n, 8, 8, 8]
  MLClampOptions six;
  six.minValue = 0;
  six.maxValue = 6;
  MLOperand hs = b.mul(y, b.div(b.clamp(b.add(y, b.constant(type, 3)), six), b.constant(type, 6)));
  MLConv2dOptions dw = Conv({1, 1, 1, 1});
  dw.groups = 8;
  MLOperand d = b.conv2d(hs, Weights(b, type, {8, 1, 3, 3}, 0.3, 12), dw);
  MLBatchNormalizationOptions bn;
  bn.scale = Weights(b, type, {8}, 1.0, 13);
  bn.bias = Weights(b, type, {8}, 0.5, 14);
  MLOperand mean = Weights(b, type, {8}, 0.2, 15);
  MLOperand var = b.add(b.abs(Weights(b, type, {8}, 1.0, 16)), b.constant(type, 0.5));
  MLOperand n = b.batchNormalization(d, mean, var, bn);
  MLOperand g = b.averagePool2d(n);  // [n, 8, 1, 1]
  MLOperand s = b.relu(b.conv2d(g, Weights(b, type, {4, 8, 1, 1}, 0.3, 17), Conv({0, 0, 0, 0})));
  MLOperand e = b.hardSigmoid(b.conv2d(s, Weights(b, type, {8, 4, 1, 1}, 0.3, 18), Conv({0, 0, 0, 0})));
  MLOperand se = b.mul(b.mul(n, e), Weights(b, type, {1, 8, 1, 1}, 1.0, 19));
  MLResample2dOptions up;
  up.scales = std::vector<float>{2, 2};
  MLOperand u = b.resample2d(se, up);  // [n, 8, 16, 16]
  MLOperand side = b.conv2d(x, Weights(b, type, {8, 3, 1, 1}, 0.5, 20), Conv({0, 0, 0, 0}));
  MLOperand cat = b.concat({u, side}, 1);  // [n, 16, 16, 16]
  MLConvTranspose2dOptions ct;
  ct.strides = std::vector<uint32_t>{2, 2};
  MLOperand t = b.convTranspose2d(cat, Weights(b, type, {16, 4, 2, 2}, 0.2, 21), ct);  // [n, 4, 32, 32]
  return {{"out", b.sigmoid(t)}};
}

MLGraph Build(const MLContextOptions& options, const std::vector<uint32_t>& shape,
              const std::function<MLNamedOperands(MLGraphBuilder&, const MLOperand&)>& body) {
  return BuildOrFallBackToCpu(options, "layout pass", [&](const MLContextOptions& o) {
    MLContext ctx = ML::createContext(o);
    MLGraphBuilder b(ctx);
    MLOperandDescriptor desc{F32, {}};
    for (uint32_t d : shape) desc.shape.emplace_back(d);
    MLOperand x = b.input("x", desc);
    return b.build(body(b, x));
  });
}

// The pass is opt-in (MLContextOptions::nhwcLayout); on the device under test.
MLContextOptions Nhwc() { return {.device = DeviceUnderTest(), .nhwcLayout = true}; }
MLContextOptions Default() { return {.device = DeviceUnderTest()}; }
MLContextOptions NoPasses() { return {.device = DeviceUnderTest(), .graphPasses = false}; }

TEST_CASE("layout pass: one conv runs in nhwc between two transposes", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  MLGraph g = Build(Nhwc(), {1, 4, 9, 9}, [](MLGraphBuilder& b, const MLOperand& x) {
    return MLNamedOperands{{"out", b.conv2d(x, Weights(b, F32, {8, 4, 3, 3}, 0.3, 1), Conv({1, 1, 1, 1}))}};
  });
  const auto ops = CompiledOps(g);
  CHECK(ops.at("transpose") == 2);
  CHECK(ops.at("conv2d nhwc") == 1);
  CHECK(ops.size() == 2);
  // Without passes the graph runs as built.
  MLGraph plain = Build(NoPasses(), {1, 4, 9, 9}, [](MLGraphBuilder& b, const MLOperand& x) {
    return MLNamedOperands{{"out", b.conv2d(x, Weights(b, F32, {8, 4, 3, 3}, 0.3, 1), Conv({1, 1, 1, 1}))}};
  });
  CHECK(CompiledOps(plain) == std::map<std::string, int>{{"conv2d", 1}});
}

TEST_CASE("layout pass: a residual chain keeps one transpose per input and output", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  MLGraph g = Build(Nhwc(), {2, 8, 10, 10}, [](MLGraphBuilder& b, const MLOperand& x) {
    return ResidualNet(b, x, F32, false);
  });
  const auto ops = CompiledOps(g);
  CHECK(ops.at("transpose") == 2);
  CHECK(ops.at("conv2d nhwc") == 3);
  CHECK(ops.at("add") == 1);
  CHECK(ops.at("maxPool2d") == 1);
  CHECK(!ops.count("relu"));  // fused into the first conv, and kept through the rewrite
  CHECK(!ops.count("conv2d"));
  const internal::GraphImpl& impl = *g.impl();
  for (uint32_t n : impl.nodes) {
    const graph::Node& node = impl.ir->nodes()[n];
    if (node.op == ops::OpKind::maxPool2d)
      CHECK(static_cast<const ops::Pool2dAttrs&>(*node.attrs).layout == MLInputOperandLayout::kNhwc);
  }
}

TEST_CASE("layout pass: an intermediate graph output gets its own transpose back", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  MLGraph g = Build(Nhwc(), {2, 8, 10, 10}, [](MLGraphBuilder& b, const MLOperand& x) {
    return ResidualNet(b, x, F32, true);
  });
  const auto ops = CompiledOps(g);
  CHECK(ops.at("transpose") == 3);
  CHECK(ops.at("conv2d nhwc") == 3);
  // The output descriptors are the graph's, in nchw.
  const auto outs = g.outputDescriptors();
  CHECK(outs.at("mid").shape == std::vector<MLDimension>{2, 8, 10, 10});
  CHECK(outs.at("out").shape == std::vector<MLDimension>{2, 6, 5, 5});
}

TEST_CASE("layout pass: a PP-OCR-like block has one transpose at each end", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  MLGraph g = Build(Nhwc(), {1, 3, 16, 16}, [](MLGraphBuilder& b, const MLOperand& x) {
    return OcrLikeNet(b, x, F32);
  });
  const auto ops = CompiledOps(g);
  // The two convs reading the 3-channel input stay nchw (a stem, see the next
  // test); their outputs are transposed to nhwc, and the output back.
  CHECK(ops.at("transpose") == 3);
  CHECK(ops.at("conv2d nhwc") == 3);
  CHECK(ops.at("conv2d") == 2);
}

TEST_CASE("layout pass: a stem of up to 3 channels stays nchw unless its input is nhwc already",
          "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  auto stem_then_conv = [](uint32_t channels) {
    return [channels](MLGraphBuilder& b, const MLOperand& x) {
      MLConv2dOptions s2 = Conv({1, 1, 1, 1});
      s2.strides = std::vector<uint32_t>{2, 2};
      MLOperand y = b.conv2d(x, Weights(b, F32, {8, channels, 3, 3}, 0.3, 1), s2);
      return MLNamedOperands{{"out", b.conv2d(y, Weights(b, F32, {8, 8, 3, 3}, 0.3, 2), Conv({1, 1, 1, 1}))}};
    };
  };
  // 3 channels: the stem runs nchw, its output is transposed for the next conv.
  auto ops = CompiledOps(Build(Nhwc(), {1, 3, 12, 12}, stem_then_conv(3)));
  CHECK(ops == std::map<std::string, int>{{"conv2d", 1}, {"conv2d nhwc", 1}, {"transpose", 2}});
  // 4 channels: both convs in nhwc, the input transposed.
  ops = CompiledOps(Build(Nhwc(), {1, 4, 12, 12}, stem_then_conv(4)));
  CHECK(ops == std::map<std::string, int>{{"conv2d nhwc", 2}, {"transpose", 2}});
  // An nhwc input transposed to nchw for the stem: its nhwc form is free, so
  // the stem runs nhwc and the transposes compose away.
  MLContext ctx = ML::createContext(Nhwc());
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {1, 12, 12, 3}});
  MLOperand t = b.transpose(x, {.permutation = std::vector<uint32_t>{0, 3, 1, 2}});
  ops = CompiledOps(b.build(stem_then_conv(3)(b, t)));
  CHECK(ops == std::map<std::string, int>{{"conv2d nhwc", 2}, {"transpose", 1}});
}

TEST_CASE("layout pass: off unless requested", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  MLGraph g = Build(Default(), {1, 4, 9, 9}, [](MLGraphBuilder& b, const MLOperand& x) {
    return MLNamedOperands{{"out", b.conv2d(x, Weights(b, F32, {8, 4, 3, 3}, 0.3, 1), Conv({1, 1, 1, 1}))}};
  });
  CHECK(CompiledOps(g) == std::map<std::string, int>{{"conv2d", 1}});
}

TEST_CASE("layout pass: leaves non-constant filters and nhwc convs alone", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  MLContext ctx = ML::createContext(Nhwc());
  {
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {F32, {1, 4, 9, 9}});
    MLOperand w = b.input("w", {F32, {8, 4, 3, 3}});
    MLGraph g = b.build({{"out", b.relu(b.conv2d(x, w))}});
    CHECK(!CompiledOps(g).count("transpose"));
    CHECK(CompiledOps(g).at("conv2d") == 1);
  }
  {
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {F32, {1, 9, 9, 4}});
    MLConv2dOptions o;
    o.inputLayout = MLInputOperandLayout::kNhwc;
    o.filterLayout = MLConv2dFilterOperandLayout::kOhwi;
    MLGraph g = b.build({{"out", b.conv2d(x, Weights(b, F32, {8, 3, 3, 4}, 0.3, 1), o)}});
    CHECK(CompiledOps(g) == std::map<std::string, int>{{"conv2d nhwc", 1}});
  }
  {
    // nhwc input transposed to nchw for a conv: the two transposes compose away.
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {F32, {1, 9, 9, 4}});
    MLOperand t = b.transpose(x, {.permutation = std::vector<uint32_t>{0, 3, 1, 2}});
    MLOperand y = b.conv2d(t, Weights(b, F32, {8, 4, 3, 3}, 0.3, 1));
    MLGraph g = b.build({{"out", b.transpose(y, {.permutation = std::vector<uint32_t>{0, 2, 3, 1}})}});
    CHECK(CompiledOps(g) == std::map<std::string, int>{{"conv2d nhwc", 1}});
  }
}

// The device under test with and without passes against the reference.
void CheckBoth(const std::string& what, const std::vector<InputSpec>& inputs, const GraphBody& body, Tolerance tol,
               uint64_t seed) {
  CheckAgainstReference(Nhwc(), what + " (passes)", inputs, body, tol, seed);
  CheckAgainstReference(NoPasses(), what + " (no passes)", inputs, body, tol, seed);
}

Tolerance TolFor(MLOperandDataType type) { return Tolerance::Atol(type == F16 ? 2e-2 : 1e-4); }

TEST_CASE("layout pass: small nets match the reference", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  for (MLOperandDataType type : {F32, F16}) {
    const std::string t = type == F16 ? " f16" : " f32";
    CheckBoth("residual" + t, {{type, {2, 8, 10, 10}}},
              [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return ResidualNet(b, in[0], type, true); },
              TolFor(type), 1);
    CheckBoth("ocr-like" + t, {{type, {2, 3, 16, 16}}},
              [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return OcrLikeNet(b, in[0], type); },
              TolFor(type), 2);
  }
}

// A random conv stack: channels, kernels, strides, padding, dilations, groups
// and depthwise layers, bias, fused activations, residual adds where shapes
// agree, an average pool or an upsampling now and then, an intermediate output.
struct StackCase {
  MLOperandDataType type;
  std::vector<uint32_t> input;
  uint64_t seed;
};

MLNamedOperands RandomStack(MLGraphBuilder& b, MLOperand x, const StackCase& c, std::string* description) {
  std::mt19937_64 rng(c.seed);
  auto pick = [&](uint32_t lo, uint32_t hi) { return lo + static_cast<uint32_t>(rng() % (hi - lo + 1)); };
  uint32_t ch = c.input[1], h = c.input[2], w = c.input[3];
  std::ostringstream os;
  MLNamedOperands outs;
  const uint32_t layers = pick(2, 5);
  for (uint32_t l = 0; l < layers; ++l) {
    const uint32_t kind = pick(0, 9);
    if (kind == 9 && h >= 2 && w >= 2) {
      MLPool2dOptions p;
      p.windowDimensions = std::vector<uint32_t>{2, 2};
      p.strides = std::vector<uint32_t>{pick(1, 2), pick(1, 2)};
      x = rng() % 2 ? b.averagePool2d(x, p) : b.maxPool2d(x, p);
      h = (h - 2) / (*p.strides)[0] + 1;
      w = (w - 2) / (*p.strides)[1] + 1;
      os << " pool";
      continue;
    }
    if (kind == 8 && h * w <= 64) {
      MLResample2dOptions r;
      r.scales = std::vector<float>{2, 2};
      r.mode = rng() % 2 ? MLInterpolationMode::kLinear : MLInterpolationMode::kNearestNeighbor;
      x = b.resample2d(x, r);
      h *= 2, w *= 2;
      os << " up";
      continue;
    }
    const bool depthwise = kind >= 6;
    MLConv2dOptions o;
    o.groups = depthwise ? ch : (ch % 2 == 0 && rng() % 3 == 0 ? 2 : 1);
    const uint32_t cout = depthwise ? ch : o.groups * pick(1, 8);
    const uint32_t kh = pick(1, 3) * 2 - 1 + (rng() % 4 == 0 ? 1 : 0), kw = pick(1, 3) * 2 - 1;
    const uint32_t sh = pick(1, 2), sw = pick(1, 2);
    const uint32_t dh = rng() % 5 == 0 ? 2 : 1, dw = 1;
    o.strides = std::vector<uint32_t>{sh, sw};
    o.dilations = std::vector<uint32_t>{dh, dw};
    o.padding = std::vector<uint32_t>{pick(0, 2), pick(0, 2), pick(0, 2), pick(0, 2)};
    const auto& pad = *o.padding;
    const int64_t oh = ops::ConvOutputSize(h, kh, pad[0], pad[1], sh, dh);
    const int64_t ow = ops::ConvOutputSize(w, kw, pad[2], pad[3], sw, dw);
    if (oh < 1 || ow < 1) continue;
    const uint32_t fan_in = ch / o.groups * kh * kw;
    if (rng() % 2) o.bias = Weights(b, c.type, {cout}, 0.2, c.seed * 100 + l + 50);
    MLOperand y = b.conv2d(x, Weights(b, c.type, {cout, ch / o.groups, kh, kw}, 1.5 / std::sqrt(double(fan_in)),
                                      c.seed * 100 + l),
                           o);
    os << " conv" << ch << "->" << cout << " g" << o.groups << " k" << kh << "x" << kw << " s" << sh << sw << " d"
       << dh << " pad" << pad[0] << pad[1] << pad[2] << pad[3];
    const uint32_t act = pick(0, 3);
    if (act == 1) y = b.relu(y);
    if (act == 2) y = b.clamp(y, {.minValue = 0, .maxValue = 6});
    if (cout == ch && uint32_t(oh) == h && uint32_t(ow) == w && rng() % 2) {
      y = b.add(y, x);
      os << " +res";
    }
    x = y, ch = cout, h = static_cast<uint32_t>(oh), w = static_cast<uint32_t>(ow);
    if (l == 0 && rng() % 3 == 0) {
      outs["mid"] = x;
      os << " [out]";
    }
  }
  outs["out"] = x;
  *description = os.str();
  return outs;
}

TEST_CASE("layout pass: random conv stacks match the reference", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  std::mt19937_64 rng(2024);
  for (int i = 0; i < 24; ++i) {
    StackCase c;
    c.type = i % 3 == 2 ? F16 : F32;
    c.input = {static_cast<uint32_t>(1 + rng() % 3), static_cast<uint32_t>(1 + rng() % 9),
               static_cast<uint32_t>(5 + rng() % 10), static_cast<uint32_t>(5 + rng() % 10)};
    c.seed = 1000 + i;
    std::string description;
    {  // the description, from one build
      MLContext ctx = ML::createContext(Nhwc());
      MLGraphBuilder b(ctx);
      MLOperand x = b.input("x", {c.type, {c.input[0], c.input[1], c.input[2], c.input[3]}});
      RandomStack(b, x, c, &description);
    }
    std::ostringstream what;
    what << "stack " << i << (c.type == F16 ? " f16" : " f32") << " x[" << c.input[0] << "," << c.input[1] << ","
         << c.input[2] << "," << c.input[3] << "]" << description;
    std::string ignored;
    CheckBoth(what.str(), {{c.type, c.input}},
              [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return RandomStack(b, in[0], c, &ignored); },
              TolFor(c.type), c.seed);
  }
}

TEST_CASE("layout pass: named dynamic dimensions", "[passes][layout][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // x: [batch, 8, height, 10]; the transposed operands carry the names.
  auto body = [](MLGraphBuilder& b, const MLOperand& x) { return ResidualNet(b, x, F32, true); };
  auto run = [&](const MLContextOptions& options, const std::vector<uint32_t>& shape,
                 const std::vector<float>& data) {
    MLContext ctx = ML::createContext(options);
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {F32, {MLDynamicDimension{"batch", 3}, 8, MLDynamicDimension{"height", 16}, 10}});
    MLNamedOperands outs = body(b, x);
    MLGraph g = b.build(outs);
    if (options.device != MLDeviceType::kReference) CHECK(CompiledOps(g).at("transpose") == 3);
    MLTensor xt = ctx.createTensor({F32, shape, false, true});
    ctx.writeTensor(xt, data);
    const auto shapes = g.computeShapes({{"x", shape}});
    MLNamedTensors out_tensors;
    for (const auto& [name, s] : shapes) out_tensors[name] = ctx.createTensor({F32, s, true, false});
    ctx.dispatch(g, {{"x", xt}}, out_tensors);
    std::map<std::string, std::vector<float>> result;
    for (const auto& [name, t] : out_tensors) result[name] = FromBytes<float>(ctx.readTensor(t));
    return result;
  };
  for (const std::vector<uint32_t>& shape : {std::vector<uint32_t>{2, 8, 7, 10}, std::vector<uint32_t>{1, 8, 12, 10}}) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> data(2ull * 8 * 12 * 10);
    data.resize(shape[0] * 8 * shape[2] * 10);
    for (float& v : data) v = u(rng);
    const auto want = run({.device = MLDeviceType::kReference}, shape, data);
    const auto got = run(Nhwc(), shape, data);
    for (const auto& [name, w] : want) {
      INFO(name << " for x " << shape[0] << "x8x" << shape[2] << "x10");
      REQUIRE(got.at(name).size() == w.size());
      for (size_t k = 0; k < w.size(); ++k) REQUIRE(std::fabs(got.at(name)[k] - w[k]) <= 1e-4);
    }
  }
}

}  // namespace
}  // namespace webnn::test
