// FuseAttention (src/graph/fuse_attention.cc) and the device's attention
// kernel: which written-out attention graphs the pass rewrites (on
// graph::Graph and on graphs compiled for the device under test), and that
// they give the reference device's results with and without the passes:
// scale by mul / div / none, masks of every broadcast shape (causal, fully
// masked rows, random), grouped key/value heads, a key given transposed,
// head sizes off the vector width, sequence lengths around the kernel's tile,
// float16, and NaN / Inf in the operands; and, for the gpu kernel's split
// over keys (few query rows, long key sequences), masks that hide whole
// chunks of keys and NaN / Inf in one chunk only.
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "api/impl.h"
#include "cross_device.h"
#include "pass_test_util.h"
#include "graph/graph.h"
#include "graph/passes.h"
#include "ops/attention.h"
#include "ops/device.h"
#include "ops/expand.h"
#include "ops/matmul.h"
#include "ops/reshape.h"
#include "ops/softmax.h"
#include "ops/transpose.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;
using graph::Graph;
using graph::OperandId;
using ops::OpKind;

// ---- graph::Graph level ------------------------------------------------------

core::OperandDesc Desc(std::vector<uint32_t> shape) { return StaticDesc(core::DataType::kFloat32, shape); }


OperandId Matmul(Graph& g, OperandId a, OperandId b) {
  return PassNode(g, OpKind::matmul, {a, b}, std::make_shared<ops::MatmulAttrs>());
}
OperandId Softmax(Graph& g, OperandId x, uint32_t axis) {
  auto attrs = std::make_shared<ops::SoftmaxAttrs>();
  attrs->axis = axis;
  return PassNode(g, OpKind::softmax, {x}, attrs);
}
OperandId SwapLast(Graph& g, OperandId x) {
  auto attrs = std::make_shared<ops::TransposeAttrs>();
  attrs->permutation = std::vector<uint32_t>{0, 1, 3, 2};
  return PassNode(g, OpKind::transpose, {x}, attrs);
}

std::vector<std::string> LiveOps(Graph& g, const std::map<std::string, OperandId>& outputs) {
  graph::FuseAttention(g, outputs);
  return SortedLiveOps(g, outputs);
}

const ops::AttentionAttrs& AttrsOf(const Graph& g, OperandId out) {
  return ops::AttrsAs<ops::AttentionAttrs>(*g.nodes()[g.operand(out).producer].attrs);
}

}  // namespace

TEST_CASE("fuse attention: scale and mask forms", "[passes][attention]") {
  struct Form {
    const char* scale;  // "", "mul", "mul_first", "div"
    bool mask;
    bool mask_first;
  };
  for (const Form& f : std::vector<Form>{{"", false, false},
                                         {"mul", false, false},
                                         {"mul_first", true, false},
                                         {"div", true, true},
                                         {"", true, false}}) {
    Graph g;
    const OperandId q = g.AddInput("q", Desc({1, 2, 3, 8}));
    const OperandId k = g.AddInput("k", Desc({1, 2, 5, 8}));
    const OperandId v = g.AddInput("v", Desc({1, 2, 5, 4}));
    const OperandId mask = g.AddInput("mask", Desc({3, 5}));
    OperandId x = Matmul(g, q, SwapLast(g, k));
    const std::string scale = f.scale;
    if (scale == "mul") x = PassNode(g, OpKind::mul, {x, ScalarF32(g, 0.25f)});
    if (scale == "mul_first") x = PassNode(g, OpKind::mul, {ScalarF32(g, 0.25f), x});
    if (scale == "div") x = PassNode(g, OpKind::div, {x, ScalarF32(g, 4.0f)});
    if (f.mask) x = f.mask_first ? PassNode(g, OpKind::add, {mask, x}) : PassNode(g, OpKind::add, {x, mask});
    const OperandId out = Matmul(g, Softmax(g, x, 3), v);
    INFO("scale " << scale << " mask " << f.mask);
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"attention"});
    const graph::Node& node = g.nodes()[g.operand(out).producer];
    CHECK(node.inputs.size() == (f.mask ? 4u : 3u));
    CHECK(node.inputs[0] == q);
    CHECK(node.inputs[1] == k);
    CHECK(node.inputs[2] == v);
    CHECK(AttrsOf(g, out).scale == (scale.empty() ? 1.0f : scale == "div" ? 4.0f : 0.25f));
    CHECK(AttrsOf(g, out).divide == (scale == "div"));
    CHECK_FALSE(AttrsOf(g, out).key_transposed);
  }
}

TEST_CASE("fuse attention: grouped key/value heads and a transposed key", "[passes][attention]") {
  {
    // k and v [1, 2, T, 8] repeated 3 times for 6 query heads.
    Graph g;
    const OperandId q = g.AddInput("q", Desc({1, 6, 4, 8}));
    const OperandId k = g.AddInput("k", Desc({1, 2, 7, 8}));
    const OperandId v = g.AddInput("v", Desc({1, 2, 7, 8}));
    auto repeat = [&](OperandId x) {
      auto r1 = std::make_shared<ops::ReshapeAttrs>();
      for (uint32_t d : {1u, 2u, 1u, 7u, 8u}) r1->newShape.emplace_back(d);
      auto ex = std::make_shared<ops::ExpandAttrs>();
      for (uint32_t d : {1u, 2u, 3u, 7u, 8u}) ex->newShape.emplace_back(d);
      auto r2 = std::make_shared<ops::ReshapeAttrs>();
      for (uint32_t d : {1u, 6u, 7u, 8u}) r2->newShape.emplace_back(d);
      return PassNode(g, OpKind::reshape, {PassNode(g, OpKind::expand, {PassNode(g, OpKind::reshape, {x}, r1)}, ex)}, r2);
    };
    const OperandId out = Matmul(g, Softmax(g, Matmul(g, q, SwapLast(g, repeat(k))), 3), repeat(v));
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"attention"});
    const graph::Node& node = g.nodes()[g.operand(out).producer];
    CHECK(node.inputs == std::vector<OperandId>{q, k, v});
  }
  {
    // The key given as [B, H, D, T]: no transpose to look through.
    Graph g;
    const OperandId q = g.AddInput("q", Desc({2, 2, 3, 8}));
    const OperandId kt = g.AddInput("kt", Desc({2, 2, 8, 5}));
    const OperandId v = g.AddInput("v", Desc({2, 2, 5, 8}));
    const OperandId out = Matmul(g, Softmax(g, Matmul(g, q, kt), 3), v);
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"attention"});
    CHECK(AttrsOf(g, out).key_transposed);
  }
}

TEST_CASE("fuse attention: what stays as built", "[passes][attention]") {
  auto build = [](Graph& g, uint32_t axis, bool scores_out, bool weights_out, float scale_shape_elems) {
    const OperandId q = g.AddInput("q", Desc({1, 2, 3, 8}));
    const OperandId k = g.AddInput("k", Desc({1, 2, 5, 8}));
    const OperandId v = g.AddInput("v", Desc({1, 2, 5, 4}));
    const OperandId scores = Matmul(g, q, SwapLast(g, k));
    OperandId x = scores;
    if (scale_shape_elems > 1) x = PassNode(g, OpKind::mul, {x, g.AddInput("s", Desc({5}))});  // not a scalar constant
    const OperandId p = Softmax(g, x, axis);
    const OperandId out = axis == 3 ? Matmul(g, p, v) : Matmul(g, p, g.AddInput("w", Desc({1, 2, 5, 4})));
    std::map<std::string, OperandId> outputs{{"out", out}};
    if (scores_out) outputs["scores"] = scores;
    if (weights_out) outputs["p"] = p;
    return outputs;
  };
  {
    Graph g;  // softmax along another axis
    auto outputs = build(g, 2, false, false, 0);
    CHECK(LiveOps(g, outputs) == Strings{"matmul", "matmul", "softmax", "transpose"});
  }
  {
    Graph g;  // the scores are a graph output
    auto outputs = build(g, 3, true, false, 0);
    CHECK(LiveOps(g, outputs) == Strings{"matmul", "matmul", "softmax", "transpose"});
  }
  {
    Graph g;  // the softmax weights are a graph output
    auto outputs = build(g, 3, false, true, 0);
    CHECK(LiveOps(g, outputs) == Strings{"matmul", "matmul", "softmax", "transpose"});
  }
  {
    Graph g;  // scaled by a tensor, not a scalar constant
    auto outputs = build(g, 3, false, false, 5);
    CHECK(LiveOps(g, outputs) == Strings{"matmul", "matmul", "mul", "softmax", "transpose"});
  }
}

namespace {

// ---- compiled graphs ---------------------------------------------------------

struct AttentionCase {
  T type = T::kFloat32;
  uint32_t batch = 1, q_heads = 2, kv_heads = 2, s = 3, t = 5, d = 8, dv = 8;
  std::string scale = "mul";  // "", "mul", "div"
  // "", "causal" (-Inf above the diagonal; `diagonal` shifts it, so rows
  // can be fully masked), "window" (-Inf below the diagonal: with S = 1 the
  // first `diagonal` keys), "random" ([B, 1, S, T] values), "row" ([T]),
  // "column" ([S, 1]).
  std::string mask;
  int32_t diagonal = 0;
  bool key_transposed = false;  // k given as [B, Hkv, D, T] (kv_heads == q_heads)
  double special = 0;           // NaN / Inf share in q, k, v
  // "key" or "value": `inject_value` added to element 0 of key / value row
  // `inject_at` of the last key/value head (batch 0), so that one chunk of
  // the split over keys holds it (the key not transposed).
  std::string inject;
  uint32_t inject_at = 0;
  float inject_value = 0;
};

std::string Describe(const AttentionCase& c) {
  std::ostringstream os;
  os << "attention " << (c.type == T::kFloat16 ? "f16" : "f32") << " B " << c.batch << " Hq " << c.q_heads << " Hkv "
     << c.kv_heads << " S " << c.s << " T " << c.t << " D " << c.d << " Dv " << c.dv << " scale '" << c.scale
     << "' mask '" << c.mask << "' diagonal " << c.diagonal << (c.key_transposed ? " key transposed" : "")
     << " special " << c.special;
  if (!c.inject.empty()) os << " " << c.inject << " row " << c.inject_at << " + " << c.inject_value;
  return os.str();
}

std::vector<InputSpec> Specs(const AttentionCase& c) {
  std::vector<InputSpec> specs{
      InputSpec{c.type, {c.batch, c.q_heads, c.s, c.d}, -1, 1, c.special},
      InputSpec{c.type, c.key_transposed ? std::vector<uint32_t>{c.batch, c.kv_heads, c.d, c.t}
                                         : std::vector<uint32_t>{c.batch, c.kv_heads, c.t, c.d},
                -1, 1, c.special},
      InputSpec{c.type, {c.batch, c.kv_heads, c.t, c.dv}, -1, 1, c.special}};
  if (c.mask == "random") specs.push_back(InputSpec{c.type, {c.batch, 1, c.s, c.t}, -4, 1, 0});
  if (c.mask == "row") specs.push_back(InputSpec{c.type, {c.t}, -4, 1, 0});
  if (c.mask == "column") specs.push_back(InputSpec{c.type, {c.s, 1}, -4, 1, 0});
  return specs;
}

MLOperand Body(const AttentionCase& c, MLGraphBuilder& b, const std::vector<MLOperand>& in) {
  const uint32_t g = c.q_heads / c.kv_heads;
  auto repeat = [&](const MLOperand& x, uint32_t rows, uint32_t cols) {
    if (g == 1) return x;
    const MLOperand u = b.reshape(x, {c.batch, c.kv_heads, 1, rows, cols});
    return b.reshape(b.expand(u, {c.batch, c.kv_heads, g, rows, cols}), {c.batch, c.q_heads, rows, cols});
  };
  auto inject = [&](const MLOperand& x, const char* which, uint32_t width) {
    if (c.inject != which) return x;
    const size_t count = static_cast<size_t>(c.batch) * c.kv_heads * c.t * width;
    const size_t at = (static_cast<size_t>(c.kv_heads - 1) * c.t + c.inject_at) * width;
    std::vector<std::byte> bytes;
    if (c.type == T::kFloat32) {
      std::vector<float> data(count, 0.0f);
      data[at] = c.inject_value;
      bytes = Bytes(data);
    } else {
      std::vector<uint16_t> data(count, core::FloatToHalfBits(0.0f));
      data[at] = core::FloatToHalfBits(c.inject_value);
      bytes = Bytes(data);
    }
    MLOperandDescriptor desc{c.type, {c.batch, c.kv_heads, c.t, width}};
    return b.add(x, b.constant(desc, MLBufferSource(bytes)));
  };
  const MLOperand key = inject(in[1], "key", c.d), value = inject(in[2], "value", c.dv);
  const MLOperand kt = c.key_transposed ? key
                                        : b.transpose(repeat(key, c.t, c.d),
                                                      {.permutation = std::vector<uint32_t>{0, 1, 3, 2}});
  MLOperand x = b.matmul(in[0], kt);
  if (c.scale == "mul") x = b.mul(x, b.constant(c.type, MLNumber(0.35)));
  if (c.scale == "div") x = b.div(x, b.constant(c.type, MLNumber(3.0)));
  if (c.mask == "causal" || c.mask == "window") {
    std::vector<std::byte> ones;
    const size_t count = static_cast<size_t>(c.s) * c.t;
    if (c.type == T::kFloat32) ones = Bytes(std::vector<float>(count, 1.0f));
    else ones = Bytes(std::vector<uint16_t>(count, core::FloatToHalfBits(1.0f)));
    MLOperandDescriptor desc{c.type, {c.s, c.t}};
    const MLOperand lower = b.triangular(b.constant(desc, MLBufferSource(ones)),
                                         {.upper = c.mask == "window", .diagonal = c.diagonal});
    x = b.add(x, b.where(b.equal(lower, b.constant(c.type, MLNumber(0.0))), b.constant(c.type, MLNumber(-INFINITY)),
                         b.constant(c.type, MLNumber(0.0))));
  } else if (!c.mask.empty()) {
    x = b.add(x, in[3]);
  }
  return b.matmul(b.softmax(x, 3), repeat(value, c.t, c.dv));
}

Tolerance ToleranceOf(const AttentionCase& c) {
  // Outputs are convex combinations of values in [-1, 1]. float32: the
  // scores' rounding (D products) moves the weights by ~1e-6 relative.
  // float16: the unfused graph rounds the scores and the weights to float16
  // (2^-11 relative), the fused kernel only its output.
  // Scaled for float16: its special values (65504, ...) leave [-1, 1].
  return c.type == T::kFloat16 ? Tolerance::Scaled(1e-2) : Tolerance::Atol(2e-5);
}

void Check(const AttentionCase& c, uint64_t seed, bool passes = true) {
  CheckWithPasses(Describe(c), passes, Specs(c),
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", Body(c, g, in)}};
                        },
                        ToleranceOf(c), seed);
}

std::vector<std::string> ExecutedOps(const AttentionCase& c) {
  return CompiledOps({.device = DeviceUnderTest()}, "attention", Specs(c),
                     [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                       return MLNamedOperands{{"out", Body(c, b, in)}};
                     });
}

}  // namespace

TEST_CASE("attention: the device runs one node where it fuses", "[device][attention]") {
  if (!ops::FindDevice(DeviceUnderTest())->Fusions().attention) {
    WARN("the " << DeviceUnderTestName() << " device does not fuse attention: structure not checked");
    return;
  }
  AttentionCase c;
  c.q_heads = 6, c.kv_heads = 2, c.mask = "random";
  CHECK(ExecutedOps(c) == Strings{"attention"});
  c.mask = "causal";  // the mask's own ops stay (constant folding is not a pass yet)
  const std::vector<std::string> ops = ExecutedOps(c);
  CHECK(std::count(ops.begin(), ops.end(), "attention") == 1);
  CHECK(std::count(ops.begin(), ops.end(), "softmax") == 0);
  CHECK(std::count(ops.begin(), ops.end(), "expand") == 0);
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  CHECK(ctx.opSupportLimits().operators.count("attention") == 0);
  CHECK(ops::IsInternalOp(OpKind::attention));
}

TEST_CASE("attention: random shapes, scales and masks against the reference", "[device][attention]") {
  std::mt19937_64 rng(77);
  uint64_t seed = 1;
  const std::vector<std::string> masks = {"", "causal", "random", "row", "column"};
  const std::vector<std::string> scales = {"", "mul", "div"};
  const std::vector<std::pair<uint32_t, uint32_t>> heads = {{1, 1}, {2, 2}, {4, 2}, {6, 1}, {7, 7}};
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (int trial = 0; trial < 24; ++trial) {
      AttentionCase c;
      c.type = type;
      c.batch = 1 + static_cast<uint32_t>(rng() % 2);
      std::tie(c.q_heads, c.kv_heads) = heads[rng() % heads.size()];
      const uint32_t sizes[] = {1, 2, 3, 5, 16, 17, 33, 64, 65, 70};
      c.s = sizes[rng() % std::size(sizes)];
      c.t = sizes[rng() % std::size(sizes)];
      const uint32_t dims[] = {1, 4, 8, 16, 20, 64, 70};
      c.d = dims[rng() % std::size(dims)];
      c.dv = dims[rng() % std::size(dims)];
      c.scale = scales[rng() % scales.size()];
      c.mask = masks[rng() % masks.size()];
      c.key_transposed = c.q_heads == c.kv_heads && rng() % 3 == 0;
      Check(c, seed++);
    }
  }
}

TEST_CASE("attention: decode and prefill shapes, with and without passes", "[device][attention]") {
  uint64_t seed = 100;
  for (T type : {T::kFloat32, T::kFloat16}) {
    AttentionCase decode{type, 1, 14, 2, 1, 130, 64, 64, "mul"};
    Check(decode, seed++);
    Check(decode, seed++, /*passes=*/false);
    AttentionCase prefill{type, 1, 14, 2, 130, 130, 64, 64, "mul", "causal"};
    Check(prefill, seed++);
    Check(prefill, seed++, /*passes=*/false);
  }
}

TEST_CASE("attention: fully masked rows, NaN and Inf", "[device][attention]") {
  uint64_t seed = 200;
  for (T type : {T::kFloat32, T::kFloat16}) {
    // diagonal -1: the first row is -Inf everywhere (softmax gives NaN), and
    // the causal tiles are skipped where the keys and values are finite.
    AttentionCase masked{type, 1, 4, 2, 70, 70, 16, 16, "mul", "causal", -1};
    Check(masked, seed++);
    // NaN / Inf / huge values in q, k and v: NaN rows, Inf * 0 weights under the mask.
    for (const char* mask : {"", "causal"}) {
      AttentionCase special{type, 1, 2, 1, 9, 70, 8, 8, "div", mask};
      special.special = 0.02;
      Check(special, seed++);
    }
  }
}

TEST_CASE("attention: few rows over long keys (split over keys)", "[device][attention]") {
  // Decode-like steps (one query position, a handful of heads) over a tile
  // and a key to thousands of keys: the gpu kernel splits such rows' keys
  // into chunks and merges the chunks' partial softmaxes. The masks leave
  // whole chunks -Inf at the end (causal), at the start (window) or
  // everywhere (causal, diagonal -1: NaN rows).
  uint64_t seed = 300;
  const std::vector<std::pair<uint32_t, uint32_t>> heads = {{1, 1}, {2, 1}, {4, 2}, {7, 7}, {14, 2}};
  const uint32_t lengths[] = {65, 513, 1000, 2049};
  int n = 0;
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (uint32_t t : lengths) {
      for (const auto& [hq, hkv] : heads) {
        AttentionCase c{type, 1, hq, hkv, 1, t, 64, 64, "mul"};
        switch (n++ % 6) {
          case 0: break;
          case 1: c.mask = "causal"; break;  // S = 1: key 0 only
          case 2: c.mask = "causal", c.diagonal = static_cast<int32_t>(t / 2); break;
          case 3: c.mask = "window", c.diagonal = static_cast<int32_t>(t > 70 ? t - 70 : 30); break;
          case 4: c.mask = "random", c.scale = "div"; break;
          case 5: c.mask = "causal", c.diagonal = -1; break;
        }
        if (hq == 7) c.d = 20, c.dv = 300;  // Dv over two workgroups
        if (hq == 2) c.batch = 2;
        Check(c, seed++);
      }
    }
  }
}

TEST_CASE("attention: NaN and Inf in one chunk of a split row", "[device][attention]") {
  // In the last key/value head only, so the other heads' rows stay finite.
  // A NaN key or a +Inf score makes its rows NaN; an Inf value gives Inf
  // where weighted, and 0 * Inf = NaN where masked, also when the masked
  // keys fill whole chunks (whose maximum is -Inf).
  uint64_t seed = 400;
  const float inf = INFINITY, nan = NAN;
  for (T type : {T::kFloat32, T::kFloat16}) {
    struct Inject {
      uint32_t t;
      const char* which;
      uint32_t at;
      float value;
      const char* mask;
      int32_t diagonal;
    };
    for (const Inject& in : std::vector<Inject>{{513, "value", 300, inf, "", 0},
                                                {513, "value", 300, -inf, "causal", 100},
                                                {513, "value", 40, nan, "window", 200},
                                                {1000, "key", 700, nan, "", 0},
                                                {1000, "key", 5, inf, "", 0},
                                                {2049, "key", 1500, -inf, "causal", 1200},
                                                {2049, "value", 2048, inf, "random", 0}}) {
      AttentionCase c{type, 1, 14, 2, 1, in.t, 64, 64, "mul", in.mask, in.diagonal};
      c.inject = in.which, c.inject_at = in.at, c.inject_value = in.value;
      Check(c, seed++);
      c.q_heads = 1, c.kv_heads = 1;
      Check(c, seed++);
    }
  }
}
