// FuseNormalization (src/graph/fuse_normalization.cc) and the device's
// fusedNormalization kernel: which written-out RMSNorm / layerNorm graphs and
// residual adds the pass rewrites (on graph::Graph and on graphs compiled for
// the device under test), and that they give the reference device's results
// with and without the passes: every written form (pow or mul squares, div
// or reciprocal, operand orders), scale and bias present or not, one or two
// normalized axes, a residual add whose sum is or is not read elsewhere, the
// builtin layerNormalization after a residual add, float16, rows off the
// vector width, NaN / Inf and values whose squares overflow.
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "api/impl.h"
#include "cross_device.h"
#include "graph/graph.h"
#include "graph/passes.h"
#include "ops/device.h"
#include "ops/fused_normalization.h"
#include "ops/normalization.h"
#include "ops/reduce.h"
#include "pass_test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;
using graph::Graph;
using graph::OperandId;
using ops::OpKind;

// ---- graph::Graph level ------------------------------------------------------

core::OperandDesc Desc(std::vector<uint32_t> shape) { return StaticDesc(core::DataType::kFloat32, shape); }

OperandId Mean(Graph& g, OperandId x, std::vector<uint32_t> axes, bool keep = true) {
  auto attrs = std::make_shared<ops::ReduceAttrs>();
  attrs->axes = std::move(axes);
  attrs->keepDimensions = keep;
  return PassNode(g, OpKind::reduceMean, {x}, attrs);
}

// How a written-out norm is spelled.
struct Form {
  bool layer = false;        // subtract the mean first
  bool mul_square = false;   // mul(c, c) instead of pow(c, 2)
  bool reciprocal = false;   // mul(c, reciprocal(d)) instead of div(c, d)
  bool eps_first = false;    // add(eps, v)
  bool scale_first = false;  // mul(scale, y)
  float exponent = 2.0f;
  std::vector<uint32_t> axes{2};
};

// The norm of x; scale / bias kNoOperand to leave them out. Returns the
// output; `mean_out` receives the variance's reduceMean (to read it elsewhere).
OperandId WrittenNorm(Graph& g, OperandId x, const Form& f, OperandId scale, OperandId bias,
                      OperandId* var_out = nullptr) {
  OperandId c = x;
  if (f.layer) c = PassNode(g, OpKind::sub, {x, Mean(g, x, f.axes)});
  const OperandId sq = f.mul_square ? PassNode(g, OpKind::mul, {c, c}) : PassNode(g, OpKind::pow, {c, ScalarF32(g, f.exponent)});
  const OperandId v = Mean(g, sq, f.axes);
  if (var_out) *var_out = v;
  const OperandId eps = ScalarF32(g, 1e-5f);
  const OperandId d = PassNode(g, OpKind::sqrt, {f.eps_first ? PassNode(g, OpKind::add, {eps, v}) : PassNode(g, OpKind::add, {v, eps})});
  OperandId y = f.reciprocal ? PassNode(g, OpKind::mul, {c, PassNode(g, OpKind::reciprocal, {d})}) : PassNode(g, OpKind::div, {c, d});
  if (scale != graph::kNoOperand) y = f.scale_first ? PassNode(g, OpKind::mul, {scale, y}) : PassNode(g, OpKind::mul, {y, scale});
  if (bias != graph::kNoOperand) y = PassNode(g, OpKind::add, {y, bias});
  return y;
}

std::vector<std::string> LiveOps(Graph& g, const std::map<std::string, OperandId>& outputs) {
  graph::PassStats stats;
  graph::FuseNormalization(g, outputs, stats);
  return SortedLiveOps(g, outputs);
}

const graph::Node& ProducerNode(const Graph& g, OperandId out) { return g.nodes()[g.operand(out).producer]; }
const ops::FusedNormalizationAttrs& AttrsOf(const Graph& g, OperandId out) {
  return ops::AttrsAs<ops::FusedNormalizationAttrs>(*ProducerNode(g, out).attrs);
}

}  // namespace

TEST_CASE("fuse normalization: the written-out forms", "[passes][normalization]") {
  std::vector<Form> forms;
  for (int bits = 0; bits < 32; ++bits) {
    Form f;
    f.layer = bits & 1, f.mul_square = bits & 2, f.reciprocal = bits & 4, f.eps_first = bits & 8,
    f.scale_first = bits & 16;
    forms.push_back(f);
  }
  Form two_axes;
  two_axes.axes = {1, 2};
  forms.push_back(two_axes);
  for (const Form& f : forms) {
    for (int params = 0; params < 3; ++params) {  // none, scale, scale + bias
      Graph g;
      const OperandId x = g.AddInput("x", Desc({2, 3, 8}));
      const std::vector<uint32_t> window = f.axes.size() == 2 ? std::vector<uint32_t>{3, 8} : std::vector<uint32_t>{8};
      const OperandId scale = params >= 1 ? g.AddInput("scale", Desc(window)) : graph::kNoOperand;
      const OperandId bias = params >= 2 ? g.AddInput("bias", Desc({1, 1, 8})) : graph::kNoOperand;
      if (params >= 2 && f.axes.size() == 2) continue;  // a [1, 1, 8] bias does not fit a [3, 8] window
      const OperandId out = WrittenNorm(g, x, f, scale, bias);
      INFO("layer " << f.layer << " mul_square " << f.mul_square << " reciprocal " << f.reciprocal << " eps_first "
                    << f.eps_first << " scale_first " << f.scale_first << " axes " << f.axes.size() << " params "
                    << params);
      CHECK(LiveOps(g, {{"out", out}}) == Strings{"fusedNormalization"});
      const graph::Node& node = ProducerNode(g, out);
      std::vector<OperandId> expected{x, graph::kNoOperand, scale, bias};
      while (expected.back() == graph::kNoOperand) expected.pop_back();
      CHECK(node.inputs == expected);
      CHECK(AttrsOf(g, out).rms == !f.layer);
      CHECK(AttrsOf(g, out).axes == f.axes.size());
      CHECK(AttrsOf(g, out).epsilon == Approx(1e-5));
      CHECK_FALSE(AttrsOf(g, out).sum_output);
    }
  }
}

TEST_CASE("fuse normalization: residual adds", "[passes][normalization]") {
  for (bool layer : {false, true}) {
    for (bool read_elsewhere : {false, true}) {
      Graph g;
      const OperandId a = g.AddInput("a", Desc({4, 8}));
      const OperandId b = g.AddInput("b", Desc({4, 8}));
      const OperandId x = PassNode(g, OpKind::add, {a, b});
      Form f;
      f.layer = layer;
      f.axes = {1};
      const OperandId out = WrittenNorm(g, x, f, g.AddInput("scale", Desc({8})), graph::kNoOperand);
      std::map<std::string, OperandId> outputs{{"out", out}};
      if (read_elsewhere) outputs["next"] = PassNode(g, OpKind::add, {x, a});
      INFO("layer " << layer << " sum read elsewhere " << read_elsewhere);
      const Strings ops = LiveOps(g, outputs);
      CHECK(std::count(ops.begin(), ops.end(), "fusedNormalization") == 1);
      CHECK(ops.size() == (read_elsewhere ? 2u : 1u));  // the residual add is gone
      const graph::Node& node = ProducerNode(g, out);
      CHECK(node.inputs[0] == a);
      CHECK(node.inputs[1] == b);
      CHECK(AttrsOf(g, out).sum_output == read_elsewhere);
      if (read_elsewhere) CHECK(g.operand(x).producer == g.operand(out).producer);
    }
  }
  {
    // The sum as a graph output is kept too.
    Graph g;
    const OperandId a = g.AddInput("a", Desc({4, 8}));
    const OperandId x = PassNode(g, OpKind::add, {a, g.AddInput("b", Desc({4, 8}))});
    const OperandId out = WrittenNorm(g, x, Form{.axes = {1}}, graph::kNoOperand, graph::kNoOperand);
    CHECK(LiveOps(g, {{"out", out}, {"x", x}}) == Strings{"fusedNormalization"});
    CHECK(AttrsOf(g, out).sum_output);
  }
  for (bool builtin : {false, true}) {
    // A bias (or scale) computed from the sum keeps the add: moved into the
    // node, the sum would be the node's output and feed its own input (the C
    // API fuzzer's program read a value before the step that computes it).
    Graph g;
    const OperandId a = g.AddInput("a", Desc({4, 8}));
    const OperandId x = PassNode(g, OpKind::add, {a, g.AddInput("b", Desc({4, 8}))});
    const OperandId from_sum = Mean(g, x, {0}, /*keep=*/false);  // [8], the window's shape
    OperandId out;
    if (builtin) {
      auto attrs = std::make_shared<ops::LayerNormalizationAttrs>();
      attrs->axes = std::vector<uint32_t>{1};
      out = PassNode(g, OpKind::layerNormalization, {x, from_sum, graph::kNoOperand}, attrs);
    } else {
      out = WrittenNorm(g, x, Form{.axes = {1}}, graph::kNoOperand, from_sum);
    }
    INFO("builtin " << builtin);
    const Strings ops = LiveOps(g, {{"out", out}});
    CHECK(std::count(ops.begin(), ops.end(), "add") == 1);
    CHECK(ops.size() == 3);  // add, reduceMean and the norm
    const graph::Node& node = ProducerNode(g, out);
    CHECK(node.inputs[0] == x);  // the sum, computed before the node
    if (!builtin) CHECK_FALSE(AttrsOf(g, out).sum_output);
  }
  {
    // An add that broadcasts is no residual: it stays.
    Graph g;
    const OperandId x = PassNode(g, OpKind::add, {g.AddInput("a", Desc({4, 8})), g.AddInput("b", Desc({8}))});
    const OperandId out = WrittenNorm(g, x, Form{.axes = {1}}, graph::kNoOperand, graph::kNoOperand);
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"add", "fusedNormalization"});
  }
}

TEST_CASE("fuse normalization: builtin layerNormalization after a residual add", "[passes][normalization]") {
  auto build = [](Graph& g, bool residual, std::optional<std::vector<uint32_t>> axes) {
    const OperandId a = g.AddInput("a", Desc({2, 4, 8}));
    const OperandId x = residual ? PassNode(g, OpKind::add, {a, g.AddInput("b", Desc({2, 4, 8}))}) : a;
    auto attrs = std::make_shared<ops::LayerNormalizationAttrs>();
    attrs->axes = axes;
    attrs->epsilon = 1e-3;
    const std::vector<uint32_t> window = axes && axes->size() == 1 ? std::vector<uint32_t>{8} : std::vector<uint32_t>{4, 8};
    return PassNode(g, OpKind::layerNormalization, {x, g.AddInput("scale", Desc(window)), graph::kNoOperand}, attrs);
  };
  {
    Graph g;
    const OperandId out = build(g, true, std::vector<uint32_t>{2});
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"fusedNormalization"});
    CHECK_FALSE(AttrsOf(g, out).rms);
    CHECK(AttrsOf(g, out).axes == 1);
    CHECK(AttrsOf(g, out).epsilon == 1e-3);
    CHECK(ProducerNode(g, out).inputs.size() == 3);  // input, residual, scale
  }
  {
    Graph g;  // default axes [1, 2]: the trailing two
    const OperandId out = build(g, true, std::nullopt);
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"fusedNormalization"});
    CHECK(AttrsOf(g, out).axes == 2);
  }
  {
    Graph g;  // without a residual add it stays as built
    const OperandId out = build(g, false, std::vector<uint32_t>{2});
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"layerNormalization"});
  }
  {
    // The sum is also the scale and bias, and a graph output: the add stays
    // (as the fused node's second output the sum would be read by the node
    // that computes it; found probing the passes for FuseBiases' bug).
    Graph g;
    const OperandId x = PassNode(g, OpKind::add, {g.AddInput("a", Desc({8})), g.AddInput("b", Desc({8}))});
    auto attrs = std::make_shared<ops::LayerNormalizationAttrs>();
    attrs->axes = std::vector<uint32_t>{0};
    const OperandId out = PassNode(g, OpKind::layerNormalization, {x, x, x}, attrs);
    CHECK(LiveOps(g, {{"out", out}, {"sum", x}}) == Strings{"add", "fusedNormalization"});
    CHECK(ProducerNode(g, out).inputs[0] == x);
  }
  {
    Graph g;  // axes that are not the trailing ones
    const OperandId a = g.AddInput("a", Desc({2, 4, 8}));
    const OperandId x = PassNode(g, OpKind::add, {a, g.AddInput("b", Desc({2, 4, 8}))});
    auto attrs = std::make_shared<ops::LayerNormalizationAttrs>();
    attrs->axes = std::vector<uint32_t>{1};
    const OperandId out = PassNode(g, OpKind::layerNormalization, {x, graph::kNoOperand, graph::kNoOperand}, attrs);
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"add", "layerNormalization"});
  }
}

TEST_CASE("fuse normalization: what stays as built", "[passes][normalization]") {
  auto count_fused = [](Graph& g, const std::map<std::string, OperandId>& outputs) {
    const Strings ops = LiveOps(g, outputs);
    return std::count(ops.begin(), ops.end(), "fusedNormalization");
  };
  {
    Graph g;  // not the trailing axis
    const OperandId x = g.AddInput("x", Desc({2, 3, 8}));
    CHECK(count_fused(g, {{"out", WrittenNorm(g, x, Form{.axes = {1}}, graph::kNoOperand, graph::kNoOperand)}}) == 0);
  }
  {
    Graph g;  // pow(x, 3)
    const OperandId x = g.AddInput("x", Desc({2, 8}));
    CHECK(count_fused(g, {{"out", WrittenNorm(g, x, Form{.exponent = 3, .axes = {1}}, graph::kNoOperand,
                                               graph::kNoOperand)}}) == 0);
  }
  {
    Graph g;  // the variance is read elsewhere
    const OperandId x = g.AddInput("x", Desc({2, 8}));
    OperandId v;
    const OperandId out = WrittenNorm(g, x, Form{.axes = {1}}, graph::kNoOperand, graph::kNoOperand, &v);
    CHECK(count_fused(g, {{"out", out}, {"v", v}}) == 0);
  }
  {
    Graph g;  // epsilon not a constant
    const OperandId x = g.AddInput("x", Desc({2, 8}));
    const OperandId eps = g.AddInput("eps", Desc({}));
    const OperandId d = PassNode(g, OpKind::sqrt, {PassNode(g, OpKind::add, {Mean(g, PassNode(g, OpKind::mul, {x, x}), {1}), eps})});
    CHECK(count_fused(g, {{"out", PassNode(g, OpKind::div, {x, d})}}) == 0);
  }
  {
    Graph g;  // div(d, x): not a normalization
    const OperandId x = g.AddInput("x", Desc({2, 8}));
    const OperandId d = PassNode(g, OpKind::sqrt, {PassNode(g, OpKind::add, {Mean(g, PassNode(g, OpKind::mul, {x, x}), {1}), ScalarF32(g, 1e-5f)})});
    CHECK(count_fused(g, {{"out", PassNode(g, OpKind::div, {d, x})}}) == 0);
  }
  {
    // A per-row scale ([2, 1]) is not a per-window one: the norm fuses, the mul stays.
    Graph g;
    const OperandId x = g.AddInput("x", Desc({2, 8}));
    const OperandId out = WrittenNorm(g, x, Form{.axes = {1}}, g.AddInput("s", Desc({2, 1})), graph::kNoOperand);
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"fusedNormalization", "mul"});
  }
  {
    // layerNorm whose centred values are read elsewhere: RMSNorm of them, the sub stays.
    Graph g;
    const OperandId x = g.AddInput("x", Desc({2, 8}));
    const OperandId c = PassNode(g, OpKind::sub, {x, Mean(g, x, {1})});
    const OperandId d = PassNode(g, OpKind::sqrt, {PassNode(g, OpKind::add, {Mean(g, PassNode(g, OpKind::mul, {c, c}), {1}), ScalarF32(g, 1e-5f)})});
    const OperandId out = PassNode(g, OpKind::div, {c, d});
    CHECK(LiveOps(g, {{"out", out}, {"c", c}}) == Strings{"fusedNormalization", "reduceMean", "sub"});
    CHECK(AttrsOf(g, out).rms);
  }
}

namespace {

// ---- compiled graphs ---------------------------------------------------------

struct NormCase {
  T type = T::kFloat32;
  std::vector<uint32_t> shape{3, 8};
  uint32_t axes = 1;
  std::string form = "rms";  // "rms", "layer", "builtin" (layerNormalization after a residual add)
  bool mul_square = false, reciprocal = false;
  bool scale = true, bias = false;
  bool residual = false;
  bool sum_read = false;  // the residual sum is read by another op too
  double lo = -1, hi = 1;
  double special = 0;
};

std::string Describe(const NormCase& c) {
  std::ostringstream os;
  os << "normalization " << c.form << (c.type == T::kFloat16 ? " f16" : " f32") << " shape [";
  for (uint32_t d : c.shape) os << d << ",";
  os << "] axes " << c.axes << (c.mul_square ? " mul-square" : "") << (c.reciprocal ? " reciprocal" : "")
     << (c.scale ? " scale" : "") << (c.bias ? " bias" : "") << (c.residual ? " residual" : "")
     << (c.sum_read ? " sum-read" : "") << " range [" << c.lo << ", " << c.hi << "] special " << c.special;
  return os.str();
}

std::vector<uint32_t> Window(const NormCase& c) {
  return std::vector<uint32_t>(c.shape.end() - c.axes, c.shape.end());
}

std::vector<InputSpec> Specs(const NormCase& c) {
  std::vector<InputSpec> specs{InputSpec{c.type, c.shape, c.lo, c.hi, c.special}};
  if (c.residual) specs.push_back(InputSpec{c.type, c.shape, -1, 1, c.special});
  if (c.scale) specs.push_back(InputSpec{c.type, Window(c), -2, 2, 0});
  if (c.bias) specs.push_back(InputSpec{c.type, Window(c), -1, 1, 0});
  return specs;
}

MLNamedOperands Body(const NormCase& c, MLGraphBuilder& b, const std::vector<MLOperand>& in) {
  size_t next = 0;
  MLOperand x = in[next++];
  if (c.residual) x = b.add(x, in[next++]);
  std::optional<MLOperand> scale, bias;
  if (c.scale) scale = in[next++];
  if (c.bias) bias = in[next++];
  const uint32_t rank = static_cast<uint32_t>(c.shape.size());
  std::vector<uint32_t> axes;
  for (uint32_t a = rank - c.axes; a < rank; ++a) axes.push_back(a);
  MLOperand y;
  if (c.form == "builtin") {
    y = b.layerNormalization(x, {.scale = scale, .bias = bias, .axes = axes, .epsilon = 1e-4});
  } else {
    const MLOperand eps = b.constant(c.type, MLNumber(1e-4));
    MLOperand centred = x;
    if (c.form == "layer") centred = b.sub(x, b.reduceMean(x, {.axes = axes, .keepDimensions = true}));
    const MLOperand sq = c.mul_square ? b.mul(centred, centred) : b.pow(centred, b.constant(c.type, MLNumber(2.0)));
    const MLOperand d = b.sqrt(b.add(b.reduceMean(sq, {.axes = axes, .keepDimensions = true}), eps));
    y = c.reciprocal ? b.mul(centred, b.reciprocal(d)) : b.div(centred, d);
    if (scale) y = b.mul(y, *scale);
    if (bias) y = b.add(*bias, y);
  }
  MLNamedOperands out{{"out", y}};
  if (c.sum_read) out["next"] = b.add(x, in[0]);
  return out;
}

bool DeviceFuses() { return ops::FindDevice(DeviceUnderTest())->Fusions().normalization; }

Tolerance ToleranceOf(const NormCase& c) {
  // float16: the unfused graph rounds the mean, the variance and their
  // square root to float16 (2^-11 relative each); a written-out layerNorm's
  // x - mean then carries the mean's rounding, up to 2^-12 |x|, against the
  // row's spread (two values of a row can be close), which the fused node
  // and the builtin op, subtracting an unrounded mean, do not.
  if (c.type == T::kFloat16) return Tolerance::Scaled(c.form == "layer" ? 3e-2 : 1e-2);
  // Rows far from zero, unfused on a device whose float32 reduceMean rounds
  // the mean to float32: x - mean is off by up to an ULP of the mean, 6e-5
  // at 1000, against a spread of 0.29. The fused kernel's float64 moments
  // are held to the tight bound.
  if (c.lo > 100 && !DeviceFuses()) return Tolerance::Scaled(2e-3);
  // float32: a few ULPs of |y| <~ 2 * 2.
  return Tolerance::Scaled(1e-5);
}

void Check(const NormCase& c, uint64_t seed, bool passes = true) {
  CheckWithPasses(Describe(c), passes, Specs(c),
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) { return Body(c, g, in); },
                        ToleranceOf(c), seed);
}

std::vector<std::string> ExecutedOps(const NormCase& c) {
  return CompiledOps({.device = DeviceUnderTest()}, "normalization", Specs(c),
                     [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return Body(c, b, in); });
}

}  // namespace

TEST_CASE("normalization: the device runs one node where it fuses", "[device][normalization]") {
  if (!DeviceFuses()) {
    WARN("the " << DeviceUnderTestName() << " device does not fuse normalizations: structure not checked");
    return;
  }
  for (const char* form : {"rms", "layer", "builtin"}) {
    NormCase c;
    c.form = form;
    c.bias = true;
    c.residual = true;
    INFO(form);
    CHECK(ExecutedOps(c) == Strings{"fusedNormalization"});
    c.sum_read = true;  // the sum is the node's second output; the other add reads it
    CHECK(ExecutedOps(c) == Strings{"add", "fusedNormalization"});
    c.type = T::kFloat16;  // a float16 epsilon and exponent are recognized too
    CHECK(ExecutedOps(c) == Strings{"add", "fusedNormalization"});
  }
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  CHECK(ctx.opSupportLimits().operators.count("fusedNormalization") == 0);
  CHECK(ops::IsInternalOp(OpKind::fusedNormalization));
}

TEST_CASE("normalization: random shapes and forms against the reference", "[device][normalization]") {
  std::mt19937_64 rng(91);
  uint64_t seed = 1;
  const std::vector<std::string> forms = {"rms", "layer", "builtin"};
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (int trial = 0; trial < 40; ++trial) {
      NormCase c;
      c.type = type;
      c.form = forms[rng() % forms.size()];
      const uint32_t rank = 1 + static_cast<uint32_t>(rng() % 3);
      const uint32_t sizes[] = {1, 2, 3, 7, 8, 16, 17, 33, 64, 70, 896};
      c.shape.clear();
      for (uint32_t r = 0; r < rank; ++r) c.shape.push_back(sizes[rng() % std::size(sizes)]);
      c.axes = 1 + static_cast<uint32_t>(rng() % std::min<uint32_t>(rank, 2));
      c.mul_square = rng() % 2, c.reciprocal = rng() % 2;
      c.scale = rng() % 2, c.bias = rng() % 2;
      c.residual = rng() % 2;
      c.sum_read = c.residual && rng() % 2;
      Check(c, seed++);
    }
  }
}

TEST_CASE("normalization: decoder shapes, with and without passes", "[device][normalization]") {
  uint64_t seed = 100;
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (uint32_t rows : {1u, 128u}) {
      NormCase rms{type, {1, rows, 896}, 1, "rms"};
      rms.residual = rms.sum_read = true;
      Check(rms, seed++);
      Check(rms, seed++, /*passes=*/false);
      NormCase layer{type, {1, rows, 120}, 1, "layer"};  // PP-OCRv4 rec's SVTR blocks
      layer.bias = true;
      Check(layer, seed++);
    }
  }
}

TEST_CASE("normalization: far from zero, NaN, Inf and squares that overflow", "[device][normalization]") {
  uint64_t seed = 200;
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (const char* form : {"rms", "layer", "builtin"}) {
      // Rows far from zero: layerNorm's variance cancels relative to the mean.
      NormCase offset{type, {4, 33}, 1, form};
      // (float16: its ULP at 30 is 1/64, 5 % of the spread, lost by the
      // written-out graph's own rounding of the mean; 4 keeps it under 1 %.)
      offset.lo = type == T::kFloat16 ? 4 : 1000, offset.hi = offset.lo + 1;
      Check(offset, seed++);
      // NaN, Inf, -0 and the type's extremes (whose squares overflow: the
      // written-out graph then divides by Inf).
      NormCase special{type, {6, 17}, 1, form};
      special.bias = true;
      special.residual = true;
      special.special = 0.05;
      Check(special, seed++);
      // float16 squares overflow from |x| = 256.
      NormCase big{type, {3, 9}, 1, form};
      big.lo = -400, big.hi = 400;
      Check(big, seed++);
    }
  }
}
