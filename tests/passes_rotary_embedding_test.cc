// FuseRotaryEmbedding (src/graph/fuse_rotary_embedding.cc) and the device's
// rotaryEmbedding kernel: which written-out RoPE graphs the pass rewrites (on
// graph::Graph and on graphs compiled for the device under test), which it
// leaves as built, and that both give the reference device's results with
// and without the passes: half and full tables, split or slices for the
// halves, either operand order, tables broadcast over batch and heads,
// head sizes off the vector width (D = 2, odd halves, 70), float16, and NaN
// / Inf in x and the tables.
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <variant>

#include "api/impl.h"
#include "cross_device.h"
#include "graph/graph.h"
#include "graph/passes.h"
#include "ops/concat.h"
#include "ops/device.h"
#include "ops/rotary_embedding.h"
#include "ops/slice.h"
#include "ops/split.h"
#include "pass_test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;
using graph::Graph;
using graph::OperandId;
using ops::OpKind;

// ---- graph::Graph level ------------------------------------------------------

core::OperandDesc Desc(std::vector<uint32_t> shape, core::DataType type = core::DataType::kFloat32) {
  return StaticDesc(type, shape);
}


// split(x) along `axis`: every output (PassNode gives the first only).
std::vector<OperandId> Split(Graph& g, OperandId x, std::variant<uint32_t, std::vector<uint32_t>> splits,
                             uint32_t axis) {
  auto attrs = std::make_shared<ops::SplitAttrs>();
  attrs->splits = std::move(splits);
  attrs->axis = axis;
  return g.AddNode(OpKind::split, "", {x}, attrs, ops::SchemaLimits(OpKind::split));
}
// x[..., start : start + size) of the last axis.
OperandId SliceLast(Graph& g, OperandId x, uint32_t start, uint32_t size) {
  auto attrs = std::make_shared<ops::SliceAttrs>();
  for (const core::Dim& d : g.operand(x).desc.shape) {
    attrs->starts.push_back(0);
    attrs->sizes.push_back(d.size);
  }
  attrs->starts.back() = start;
  attrs->sizes.back() = size;
  return PassNode(g, OpKind::slice, {x}, attrs);
}
OperandId Concat(Graph& g, OperandId a, OperandId b, uint32_t axis) {
  auto attrs = std::make_shared<ops::ConcatAttrs>();
  attrs->axis = axis;
  return PassNode(g, OpKind::concat, {a, b}, attrs);
}
OperandId Mul(Graph& g, OperandId a, OperandId b) { return PassNode(g, OpKind::mul, {a, b}); }
OperandId Sub(Graph& g, OperandId a, OperandId b) { return PassNode(g, OpKind::sub, {a, b}); }
OperandId Add(Graph& g, OperandId a, OperandId b) { return PassNode(g, OpKind::add, {a, b}); }

uint32_t LastAxis(const Graph& g, OperandId x) { return g.operand(x).desc.rank() - 1; }

// How a graph writes the pattern out.
struct Form {
  std::string halves = "split";  // "split" (2 parts), "split_sizes" ({h, h}), "slices"
  bool swap_muls = false;        // mul(cos, x1) ... instead of mul(x1, cos) ...
  bool swap_add = false;         // the add's operands the other way round
};

std::pair<OperandId, OperandId> Halves(Graph& g, OperandId x, const std::string& how) {
  const uint32_t d = g.operand(x).desc.shape.back().size, last = LastAxis(g, x);
  if (how == "slices") return {SliceLast(g, x, 0, d / 2), SliceLast(g, x, d / 2, d / 2)};
  const std::vector<OperandId> parts =
      how == "split" ? Split(g, x, 2u, last) : Split(g, x, std::vector<uint32_t>{d / 2, d / 2}, last);
  return {parts[0], parts[1]};
}

// concat(sub(x1 cos, x2 sin), add(x2 cos, x1 sin)).
OperandId HalfForm(Graph& g, OperandId x, OperandId cos, OperandId sin, const Form& f = {}) {
  const auto [x1, x2] = Halves(g, x, f.halves);
  auto mul = [&](OperandId a, OperandId t) { return f.swap_muls ? Mul(g, t, a) : Mul(g, a, t); };
  const OperandId first = Sub(g, mul(x1, cos), mul(x2, sin));
  const OperandId p = mul(x2, cos), q = mul(x1, sin);
  return Concat(g, first, f.swap_add ? Add(g, q, p) : Add(g, p, q), LastAxis(g, x));
}

// add(x cos, concat(neg(x2), x1) sin).
OperandId FullForm(Graph& g, OperandId x, OperandId cos, OperandId sin, const Form& f = {}) {
  const auto [x1, x2] = Halves(g, x, f.halves);
  auto mul = [&](OperandId a, OperandId t) { return f.swap_muls ? Mul(g, t, a) : Mul(g, a, t); };
  const OperandId p = mul(x, cos), q = mul(Concat(g, PassNode(g, OpKind::neg, {x2}), x1, LastAxis(g, x)), sin);
  return f.swap_add ? Add(g, q, p) : Add(g, p, q);
}

std::vector<std::string> LiveOps(Graph& g, const std::map<std::string, OperandId>& outputs, int expect_fused) {
  CHECK(graph::FuseRotaryEmbedding(g, outputs) == expect_fused);
  return SortedLiveOps(g, outputs);
}

// The node producing `out`, which must be a rotaryEmbedding of x, cos, sin.
void CheckNode(const Graph& g, OperandId out, OperandId x, OperandId cos, OperandId sin, bool full) {
  const graph::Node& node = g.nodes()[g.operand(out).producer];
  REQUIRE(node.op == OpKind::rotaryEmbedding);
  CHECK(node.inputs == std::vector<OperandId>{x, cos, sin});
  CHECK(ops::AttrsAs<ops::RotaryEmbeddingAttrs>(*node.attrs).full_tables == full);
  CHECK(g.operand(out).desc == g.operand(x).desc);
}

std::vector<Form> AllForms() {
  std::vector<Form> forms;
  for (const char* halves : {"split", "split_sizes", "slices"})
    for (bool swap_muls : {false, true})
      for (bool swap_add : {false, true}) forms.push_back(Form{halves, swap_muls, swap_add});
  return forms;
}

std::string Describe(const Form& f) {
  return f.halves + (f.swap_muls ? " muls swapped" : "") + (f.swap_add ? " add swapped" : "");
}

}  // namespace

TEST_CASE("fuse rotary embedding: half tables, every way of writing it", "[passes][rotary_embedding]") {
  for (const Form& f : AllForms()) {
    INFO(Describe(f));
    Graph g;
    const OperandId x = g.AddInput("x", Desc({1, 2, 3, 8}));
    const OperandId cos = g.AddInput("cos", Desc({1, 1, 3, 4}));
    const OperandId sin = g.AddInput("sin", Desc({1, 1, 3, 4}));
    const OperandId out = HalfForm(g, x, cos, sin, f);
    CHECK(LiveOps(g, {{"out", out}}, 1) == Strings{"rotaryEmbedding"});
    CheckNode(g, out, x, cos, sin, false);
  }
}

TEST_CASE("fuse rotary embedding: full tables (rotate_half), every way of writing it", "[passes][rotary_embedding]") {
  for (const Form& f : AllForms()) {
    INFO(Describe(f));
    Graph g;
    const OperandId x = g.AddInput("x", Desc({2, 3, 5, 6}));
    const OperandId cos = g.AddInput("cos", Desc({5, 6}));
    const OperandId sin = g.AddInput("sin", Desc({5, 6}));
    const OperandId out = FullForm(g, x, cos, sin, f);
    CHECK(LiveOps(g, {{"out", out}}, 1) == Strings{"rotaryEmbedding"});
    CheckNode(g, out, x, cos, sin, true);
  }
}

TEST_CASE("fuse rotary embedding: table broadcasts, shared tables, float16", "[passes][rotary_embedding]") {
  // Tables per position only, per batch, or of every batch and head, and of
  // lower rank than x; x also read elsewhere (a graph output itself).
  for (const std::vector<uint32_t>& table :
       std::vector<std::vector<uint32_t>>{{1, 1, 3, 4}, {3, 4}, {2, 1, 3, 4}, {2, 5, 3, 4}, {4}, {1, 4}}) {
    INFO("tables " << core::ShapeToString(core::StaticShape(table)));
    Graph g;
    const OperandId x = g.AddInput("x", Desc({2, 5, 3, 8}));
    const OperandId cos = g.AddInput("cos", Desc(table));
    const OperandId sin = g.AddInput("sin", Desc(table));
    const OperandId out = HalfForm(g, x, cos, sin);
    CHECK(LiveOps(g, {{"out", out}, {"x", x}}, 1) == Strings{"rotaryEmbedding"});
    CheckNode(g, out, x, cos, sin, false);
  }
  {
    // q and k of a decoder layer, sharing the tables: two nodes.
    Graph g;
    const OperandId q = g.AddInput("q", Desc({1, 14, 7, 64}));
    const OperandId k = g.AddInput("k", Desc({1, 2, 7, 64}));
    const OperandId cos = g.AddInput("cos", Desc({1, 1, 7, 32}));
    const OperandId sin = g.AddInput("sin", Desc({1, 1, 7, 32}));
    const OperandId rq = HalfForm(g, q, cos, sin), rk = HalfForm(g, k, cos, sin);
    CHECK(LiveOps(g, {{"q", rq}, {"k", rk}}, 2) == Strings{"rotaryEmbedding", "rotaryEmbedding"});
    CheckNode(g, rq, q, cos, sin, false);
    CheckNode(g, rk, k, cos, sin, false);
  }
  {
    // Applied twice: the second reads the first's output.
    Graph g;
    const OperandId x = g.AddInput("x", Desc({3, 4}));
    const OperandId cos = g.AddInput("cos", Desc({3, 4}));
    const OperandId sin = g.AddInput("sin", Desc({3, 4}));
    const OperandId once = FullForm(g, x, cos, sin);
    const OperandId twice = HalfForm(g, once, g.AddInput("c2", Desc({3, 2})), g.AddInput("s2", Desc({3, 2})));
    CHECK(LiveOps(g, {{"out", twice}}, 2) == Strings{"rotaryEmbedding", "rotaryEmbedding"});
    CHECK(g.nodes()[g.operand(twice).producer].inputs[0] == once);
  }
  for (bool full : {false, true}) {
    Graph g;
    const auto f16 = core::DataType::kFloat16;
    const OperandId x = g.AddInput("x", Desc({1, 2, 3, 10}, f16));
    const OperandId cos = g.AddInput("cos", Desc({3, full ? 10u : 5u}, f16));
    const OperandId sin = g.AddInput("sin", Desc({3, full ? 10u : 5u}, f16));
    const OperandId out = full ? FullForm(g, x, cos, sin) : HalfForm(g, x, cos, sin);
    CHECK(LiveOps(g, {{"out", out}}, 1) == Strings{"rotaryEmbedding"});
    CheckNode(g, out, x, cos, sin, full);
  }
}

TEST_CASE("fuse rotary embedding: what stays as built", "[passes][rotary_embedding]") {
  const Strings half_ops{"add", "concat", "mul", "mul", "mul", "mul", "split", "sub"};
  const Strings full_ops{"add", "concat", "mul", "mul", "neg", "split"};
  struct Inputs {
    OperandId x, cos, sin;
  };
  auto inputs = [](Graph& g, std::vector<uint32_t> table = {3, 4}) {
    return Inputs{g.AddInput("x", Desc({2, 3, 8})), g.AddInput("cos", Desc(table)), g.AddInput("sin", Desc(table))};
  };
  SECTION("an intermediate read elsewhere or a graph output") {
    // Each intermediate of the half form in turn as a second graph output.
    for (int which = 0; which < 5; ++which) {
      INFO("half form, intermediate " << which);
      Graph g;
      const auto [x, cos, sin] = inputs(g);
      const auto [x1, x2] = Halves(g, x, "split");
      const OperandId m1 = Mul(g, x1, cos), m2 = Mul(g, x2, sin);
      const OperandId first = Sub(g, m1, m2);
      const OperandId second = Add(g, Mul(g, x2, cos), Mul(g, x1, sin));
      const OperandId out = Concat(g, first, second, 2);
      const OperandId extra[] = {x1, x2, m1, first, second};
      const auto ops = LiveOps(g, {{"out", out}, {"extra", extra[which]}}, 0);
      CHECK(std::count(ops.begin(), ops.end(), "rotaryEmbedding") == 0);
    }
    {
      Graph g;  // x2 read by a third node
      const auto [x, cos, sin] = inputs(g);
      const auto [x1, x2] = Halves(g, x, "slices");
      const OperandId out = Concat(g, Sub(g, Mul(g, x1, cos), Mul(g, x2, sin)),
                                   Add(g, Mul(g, x2, cos), Mul(g, x1, sin)), 2);
      const OperandId other = PassNode(g, OpKind::neg, {x2});
      CHECK(LiveOps(g, {{"out", out}, {"other", other}}, 0) ==
            Strings{"add", "concat", "mul", "mul", "mul", "mul", "neg", "slice", "slice", "sub"});
    }
    for (int which = 0; which < 3; ++which) {
      INFO("full form, intermediate " << which);
      Graph g;
      const auto [x, cos, sin] = inputs(g, {3, 8});
      const auto [x1, x2] = Halves(g, x, "split");
      const OperandId neg = PassNode(g, OpKind::neg, {x2});
      const OperandId rotated = Concat(g, neg, x1, 2);
      const OperandId out = Add(g, Mul(g, x, cos), Mul(g, rotated, sin));
      const OperandId extra[] = {x1, neg, rotated};
      const auto ops = LiveOps(g, {{"out", out}, {"extra", extra[which]}}, 0);
      CHECK(std::count(ops.begin(), ops.end(), "rotaryEmbedding") == 0);
    }
  }
  SECTION("halves that are not x's halves") {
    {
      Graph g;  // quarters: the first two of four parts
      const auto [x, cos, sin] = inputs(g, {3, 2});
      const std::vector<OperandId> parts = Split(g, x, 4u, 2);
      const OperandId out = Concat(g, Sub(g, Mul(g, parts[0], cos), Mul(g, parts[1], sin)),
                                   Add(g, Mul(g, parts[1], cos), Mul(g, parts[0], sin)), 2);
      CHECK(LiveOps(g, {{"out", out}}, 0) == half_ops);
    }
    {
      Graph g;  // two slices of the same width that overlap: [0, 4) and [1, 5)
      const auto [x, cos, sin] = inputs(g);
      const OperandId x1 = SliceLast(g, x, 0, 4), x2 = SliceLast(g, x, 1, 4);
      const OperandId out = Concat(g, Sub(g, Mul(g, x1, cos), Mul(g, x2, sin)),
                                   Add(g, Mul(g, x2, cos), Mul(g, x1, sin)), 2);
      CHECK(LiveOps(g, {{"out", out}}, 0) == Strings{"add", "concat", "mul", "mul", "mul", "mul", "slice", "slice", "sub"});
    }
    {
      Graph g;  // the halves the other way round: x2 in x1's place
      const auto [x, cos, sin] = inputs(g);
      const auto [x1, x2] = Halves(g, x, "split");
      const OperandId out = Concat(g, Sub(g, Mul(g, x2, cos), Mul(g, x1, sin)),
                                   Add(g, Mul(g, x1, cos), Mul(g, x2, sin)), 2);
      CHECK(LiveOps(g, {{"out", out}}, 0) == half_ops);
    }
    {
      Graph g;  // rotate_half as concat(x1, neg(x2)): not the rotation
      const auto [x, cos, sin] = inputs(g, {3, 8});
      const auto [x1, x2] = Halves(g, x, "split");
      const OperandId out = Add(g, Mul(g, x, cos), Mul(g, Concat(g, x1, PassNode(g, OpKind::neg, {x2}), 2), sin));
      CHECK(LiveOps(g, {{"out", out}}, 0) == full_ops);
    }
    {
      Graph g;  // the halves of another tensor than the one multiplied by cos
      const auto [x, cos, sin] = inputs(g, {3, 8});
      const OperandId other = g.AddInput("other", Desc({2, 3, 8}));
      const auto [x1, x2] = Halves(g, other, "split");
      const OperandId out = Add(g, Mul(g, x, cos), Mul(g, Concat(g, PassNode(g, OpKind::neg, {x2}), x1, 2), sin));
      CHECK(LiveOps(g, {{"out", out}}, 0) == full_ops);
    }
  }
  SECTION("the wrong axis") {
    {
      Graph g;  // split and concat along axis 1 (x [2, 4, 8], tables [2, 8])
      const OperandId x = g.AddInput("x", Desc({2, 4, 8}));
      const OperandId cos = g.AddInput("cos", Desc({2, 8})), sin = g.AddInput("sin", Desc({2, 8}));
      const std::vector<OperandId> p = Split(g, x, 2u, 1);
      const OperandId out =
          Concat(g, Sub(g, Mul(g, p[0], cos), Mul(g, p[1], sin)), Add(g, Mul(g, p[1], cos), Mul(g, p[0], sin)), 1);
      CHECK(LiveOps(g, {{"out", out}}, 0) == half_ops);
    }
    {
      Graph g;  // halves of the last axis, concatenated along axis 1
      const auto [x, cos, sin] = inputs(g);
      const auto [x1, x2] = Halves(g, x, "split");
      const OperandId out = Concat(g, Sub(g, Mul(g, x1, cos), Mul(g, x2, sin)),
                                   Add(g, Mul(g, x2, cos), Mul(g, x1, sin)), 1);
      CHECK(LiveOps(g, {{"out", out}}, 0) == half_ops);
    }
  }
  SECTION("the sub's operands swapped") {
    Graph g;
    const auto [x, cos, sin] = inputs(g);
    const auto [x1, x2] = Halves(g, x, "split");
    const OperandId out = Concat(g, Sub(g, Mul(g, x2, sin), Mul(g, x1, cos)),
                                 Add(g, Mul(g, x2, cos), Mul(g, x1, sin)), 2);
    CHECK(LiveOps(g, {{"out", out}}, 0) == half_ops);
  }
  SECTION("tables of the wrong width or shape") {
    {
      Graph g;  // half form, tables of width 1 (they broadcast along the half)
      const auto [x, cos, sin] = inputs(g, {3, 1});
      CHECK(LiveOps(g, {{"out", HalfForm(g, x, cos, sin)}}, 0) == half_ops);
    }
    {
      Graph g;  // full form, tables of width 1
      const auto [x, cos, sin] = inputs(g, {3, 1});
      CHECK(LiveOps(g, {{"out", FullForm(g, x, cos, sin)}}, 0) == full_ops);
    }
    {
      Graph g;  // cos and sin of different shapes
      const OperandId x = g.AddInput("x", Desc({2, 3, 8}));
      const OperandId cos = g.AddInput("cos", Desc({3, 4})), sin = g.AddInput("sin", Desc({1, 3, 4}));
      CHECK(LiveOps(g, {{"out", HalfForm(g, x, cos, sin)}}, 0) == half_ops);
    }
    {
      Graph g;  // tables that broadcast x to a bigger output
      const OperandId x = g.AddInput("x", Desc({3, 8}));
      const OperandId cos = g.AddInput("cos", Desc({2, 3, 4})), sin = g.AddInput("sin", Desc({2, 3, 4}));
      CHECK(LiveOps(g, {{"out", HalfForm(g, x, cos, sin)}}, 0) == half_ops);
    }
  }
  SECTION("cos and sin swapped in one half, or two different tables") {
    {
      Graph g;  // second half add(x2 sin, x1 cos)
      const auto [x, cos, sin] = inputs(g);
      const auto [x1, x2] = Halves(g, x, "split");
      const OperandId out = Concat(g, Sub(g, Mul(g, x1, cos), Mul(g, x2, sin)),
                                   Add(g, Mul(g, x2, sin), Mul(g, x1, cos)), 2);
      CHECK(LiveOps(g, {{"out", out}}, 0) == half_ops);
    }
    {
      Graph g;  // another cos in the second half
      const auto [x, cos, sin] = inputs(g);
      const OperandId cos2 = g.AddInput("cos2", Desc({3, 4}));
      const auto [x1, x2] = Halves(g, x, "split");
      const OperandId out = Concat(g, Sub(g, Mul(g, x1, cos), Mul(g, x2, sin)),
                                   Add(g, Mul(g, x2, cos2), Mul(g, x1, sin)), 2);
      CHECK(LiveOps(g, {{"out", out}}, 0) == half_ops);
    }
  }
}

TEST_CASE("rotaryEmbedding: shape inference", "[passes][rotary_embedding]") {
  // The node as a pass makes it, validated as a builder would: the message
  // of the TypeError, or "" when it is accepted.
  auto infer = [](std::vector<uint32_t> x, std::vector<uint32_t> cos, std::vector<uint32_t> sin, bool full) {
    Graph g;
    auto attrs = std::make_shared<ops::RotaryEmbeddingAttrs>();
    attrs->full_tables = full;
    const OperandId in[] = {g.AddInput("x", Desc(x)), g.AddInput("cos", Desc(cos)), g.AddInput("sin", Desc(sin))};
    return ErrorMessage([&] {
      const OperandId out = PassNode(g, OpKind::rotaryEmbedding, {in[0], in[1], in[2]}, attrs);
      CHECK(g.operand(out).desc == Desc(x));
    });
  };
  CHECK(infer({2, 3, 8}, {3, 4}, {3, 4}, false).empty());
  CHECK(infer({2, 3, 8}, {2, 1, 8}, {2, 1, 8}, true).empty());
  CHECK(infer({2}, {1}, {1}, false).empty());
  CHECK(infer({2, 3, 7}, {3, 3}, {3, 3}, false).find("last dimension 7 must be static and even") != std::string::npos);
  CHECK(infer({2, 3, 8}, {3, 8}, {3, 8}, false).find("must broadcast to [2, 3, 4] (half tables") != std::string::npos);
  CHECK(infer({2, 3, 8}, {3, 4}, {3, 4}, true).find("must broadcast to [2, 3, 8] (full tables") != std::string::npos);
  CHECK(infer({3, 8}, {2, 3, 4}, {2, 3, 4}, false).find("[2, 3, 4] must broadcast") != std::string::npos);
  CHECK(infer({2, 3, 8}, {2, 3, 4}, {3, 4}, false).find("argument 'sin' shape must be [2, 3, 4]") != std::string::npos);
}

namespace {

// ---- compiled graphs ---------------------------------------------------------

struct RopeCase {
  T type = T::kFloat32;
  std::vector<uint32_t> x{1, 2, 3, 8};
  std::vector<uint32_t> tables{1, 1, 3, 4};  // last: D / 2, or D with `full`
  bool full = false;
  Form form;
  // Second half add(x2 sin, x1 cos): not RoPE, stays as built.
  bool tables_swapped = false;
  double special = 0;  // NaN / Inf share in x and the tables
};

std::string Describe(const RopeCase& c) {
  std::ostringstream os;
  os << "rope " << (c.type == T::kFloat16 ? "f16" : "f32") << (c.full ? " full" : " half") << " x "
     << core::ShapeToString(core::StaticShape(c.x)) << " tables " << core::ShapeToString(core::StaticShape(c.tables))
     << " " << Describe(c.form) << (c.tables_swapped ? " tables swapped" : "") << " special " << c.special;
  return os.str();
}

std::vector<InputSpec> Specs(const RopeCase& c) {
  return {InputSpec{c.type, c.x, -1, 1, c.special}, InputSpec{c.type, c.tables, -1, 1, c.special},
          InputSpec{c.type, c.tables, -1, 1, c.special}};
}

MLOperand Body(const RopeCase& c, MLGraphBuilder& b, const std::vector<MLOperand>& in) {
  const MLOperand &x = in[0], &cos = in[1], &sin = in[2];
  const uint32_t rank = static_cast<uint32_t>(c.x.size()), last = rank - 1, h = c.x.back() / 2;
  MLOperand x1, x2;
  if (c.form.halves == "slices") {
    std::vector<uint32_t> starts(rank, 0), sizes = c.x;
    sizes[last] = h;
    x1 = b.slice(x, starts, sizes);
    starts[last] = h;
    x2 = b.slice(x, starts, sizes);
  } else {
    const MLSplits splits = c.form.halves == "split" ? MLSplits(2u) : MLSplits(std::vector<uint32_t>{h, h});
    const std::vector<MLOperand> parts = b.split(x, splits, {.axis = last});
    x1 = parts[0];
    x2 = parts[1];
  }
  auto mul = [&](const MLOperand& a, const MLOperand& t) { return c.form.swap_muls ? b.mul(t, a) : b.mul(a, t); };
  auto add = [&](const MLOperand& p, const MLOperand& q) { return c.form.swap_add ? b.add(q, p) : b.add(p, q); };
  if (c.full) return add(mul(x, cos), mul(b.concat({b.neg(x2), x1}, last), sin));
  const MLOperand second = c.tables_swapped ? add(mul(x2, sin), mul(x1, cos)) : add(mul(x2, cos), mul(x1, sin));
  return b.concat({b.sub(mul(x1, cos), mul(x2, sin)), second}, last);
}

Tolerance ToleranceOf(const RopeCase& c) {
  // float32: the kernels round the graph's products and sums as its ops do
  // (the reference's float64 ops rounded to float32 give the same): exact.
  // float16: the unfused graph rounds both products to float16 (2^-11
  // relative, products up to 1 in magnitude) before the sum; the kernel
  // rounds once. Scaled: relative for the huge special values.
  return c.type == T::kFloat16 ? Tolerance::Scaled(3e-3) : Tolerance::Ulp(0);
}

void Check(const RopeCase& c, uint64_t seed, bool passes = true) {
  CheckWithPasses(Describe(c), passes, Specs(c),
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", Body(c, g, in)}};
                        },
                        ToleranceOf(c), seed);
}

// The ops the compiled graph runs, sorted.
std::vector<std::string> ExecutedOps(const RopeCase& c) {
  return CompiledOps({.device = DeviceUnderTest()}, "rotary embedding", Specs(c),
                     [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                       return MLNamedOperands{{"out", Body(c, b, in)}};
                     });
}

// Tables for x: its leading dimensions each kept or made 1, some of the
// leading ones dropped, the last `width`.
std::vector<uint32_t> RandomTables(std::mt19937_64& rng, const std::vector<uint32_t>& x, uint32_t width) {
  std::vector<uint32_t> t = x;
  t.back() = width;
  for (size_t i = 0; i + 1 < t.size(); ++i)
    if (rng() % 2) t[i] = 1;
  const size_t drop = rng() % t.size();
  return std::vector<uint32_t>(t.begin() + static_cast<std::ptrdiff_t>(drop), t.end());
}

}  // namespace

TEST_CASE("rotaryEmbedding: the device runs one node where it fuses", "[device][rotary_embedding]") {
  if (!ops::FindDevice(DeviceUnderTest())->Fusions().rotary_embedding) {
    WARN("the " << DeviceUnderTestName() << " device does not fuse rotary embeddings: structure not checked");
    return;
  }
  for (const Form& f : AllForms()) {
    for (bool full : {false, true}) {
      RopeCase c;
      c.form = f;
      c.full = full;
      c.tables = {1, 1, 3, full ? 8u : 4u};
      INFO(Describe(c));
      CHECK(ExecutedOps(c) == Strings{"rotaryEmbedding"});
    }
  }
  RopeCase refused;
  refused.tables_swapped = true;
  const std::vector<std::string> ops = ExecutedOps(refused);
  CHECK(std::count(ops.begin(), ops.end(), "rotaryEmbedding") == 0);
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  CHECK(ctx.opSupportLimits().operators.count("rotaryEmbedding") == 0);
  CHECK(ops::IsInternalOp(OpKind::rotaryEmbedding));
}

TEST_CASE("rotaryEmbedding: random shapes, forms and table broadcasts against the reference",
          "[device][rotary_embedding]") {
  std::mt19937_64 rng(31);
  uint64_t seed = 1;
  const std::vector<Form> forms = AllForms();
  // Halves of 1, odd, off and on the vector widths.
  const uint32_t dims[] = {2, 4, 6, 8, 14, 16, 34, 64, 70, 128};
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (int trial = 0; trial < 40; ++trial) {
      RopeCase c;
      c.type = type;
      c.full = rng() % 2;
      c.form = forms[rng() % forms.size()];
      const uint32_t rank = 1 + static_cast<uint32_t>(rng() % 4);
      c.x = RandomShape(rng, rank, 7);
      c.x.back() = dims[rng() % std::size(dims)];
      c.tables = RandomTables(rng, c.x, c.full ? c.x.back() : c.x.back() / 2);
      Check(c, seed++);
    }
  }
}

TEST_CASE("rotaryEmbedding: decoder shapes, with and without passes", "[device][rotary_embedding]") {
  uint64_t seed = 100;
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (uint32_t s : {1u, 7u, 130u}) {
      // q of 14 heads and k of 2, tables [B, 1, S, 32] (and HF's full [S, 64]).
      for (uint32_t heads : {14u, 2u}) {
        RopeCase half{type, {1, heads, s, 64}, {1, 1, s, 32}};
        Check(half, seed++);
        Check(half, seed++, /*passes=*/false);
        RopeCase full{type, {2, heads, s, 64}, {s, 64}, true};
        Check(full, seed++);
      }
      RopeCase per_batch{type, {3, 2, s, 64}, {3, 1, s, 32}};
      Check(per_batch, seed++);
    }
  }
}

TEST_CASE("rotaryEmbedding: NaN and Inf in x and the tables", "[device][rotary_embedding]") {
  uint64_t seed = 200;
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (bool full : {false, true}) {
      for (uint32_t d : {6u, 64u, 70u}) {
        RopeCase c{type, {2, 3, 9, d}, {1, 1, 9, full ? d : d / 2}, full};
        c.special = 0.05;
        Check(c, seed++);
      }
    }
  }
}

TEST_CASE("rotaryEmbedding: graphs left as built still run", "[device][rotary_embedding]") {
  uint64_t seed = 300;
  for (T type : {T::kFloat32, T::kFloat16}) {
    RopeCase swapped{type, {1, 2, 5, 8}, {5, 4}};
    swapped.tables_swapped = true;
    Check(swapped, seed++);
    RopeCase narrow{type, {1, 2, 5, 8}, {5, 1}};  // tables of width 1
    Check(narrow, seed++);
    RopeCase narrow_full{type, {1, 2, 5, 8}, {5, 1}, true};
    Check(narrow_full, seed++);
  }
}

TEST_CASE("rotaryEmbedding: a dynamic sequence length", "[device][rotary_embedding]") {
  // The decoder's form: x [1, 2, S, 8] and tables [1, 1, S, 4] with S named
  // the same, inferred at dispatch. Returns the output and the compiled ops.
  auto build_and_run = [](MLDeviceType device, uint32_t s) {
    MLContext ctx = ML::createContext({.device = device});
    MLGraphBuilder b(ctx);
    const MLDimension seq = MLDynamicDimension{"s", 16};
    const MLOperand x = b.input("x", {T::kFloat32, {1, 2, seq, 8}});
    const MLOperand cos = b.input("cos", {T::kFloat32, {1, 1, seq, 4}});
    const MLOperand sin = b.input("sin", {T::kFloat32, {1, 1, seq, 4}});
    const RopeCase c;  // the half form, split
    MLGraph graph = b.build({{"out", Body(c, b, {x, cos, sin})}});
    std::vector<std::string> ops;
    for (uint32_t n : graph.impl()->nodes) ops.emplace_back(ops::OpName(graph.impl()->ir->nodes()[n].op));
    std::vector<float> xs(2 * s * 8), cs(s * 4), ss(s * 4);
    for (size_t i = 0; i < xs.size(); ++i) xs[i] = 0.37f * static_cast<float>(i % 11) - 1.5f;
    for (size_t i = 0; i < cs.size(); ++i) {
      cs[i] = std::cos(0.3f * static_cast<float>(i));
      ss[i] = std::sin(0.3f * static_cast<float>(i));
    }
    MLTensor xt = ctx.createTensor({T::kFloat32, {1, 2, s, 8}, false, true});
    MLTensor ct = ctx.createTensor({T::kFloat32, {1, 1, s, 4}, false, true});
    MLTensor st = ctx.createTensor({T::kFloat32, {1, 1, s, 4}, false, true});
    MLTensor ot = ctx.createTensor({T::kFloat32, {1, 2, s, 8}, true, false});
    ctx.writeTensor(xt, xs);
    ctx.writeTensor(ct, cs);
    ctx.writeTensor(st, ss);
    ctx.dispatch(graph, {{"x", xt}, {"cos", ct}, {"sin", st}}, {{"out", ot}});
    return std::make_pair(FromBytes<float>(ctx.readTensor(ot)), ops);
  };
  const bool fuses = ops::FindDevice(DeviceUnderTest())->Fusions().rotary_embedding;
  for (uint32_t s : {1u, 5u, 16u}) {
    INFO("S " << s);
    const auto want = build_and_run(MLDeviceType::kReference, s).first;
    std::pair<std::vector<float>, std::vector<std::string>> got;
    if (!RunUnlessUnsupported(DeviceUnderTest(), "rope, dynamic S", [&] { got = build_and_run(DeviceUnderTest(), s); }))
      continue;
    if (fuses) CHECK(got.second == Strings{"rotaryEmbedding"});
    REQUIRE(got.first.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) CHECK(got.first[i] == Approx(want[i]).margin(1e-6));
  }
}
