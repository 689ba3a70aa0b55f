// FuseElementwise (src/graph/fuse_elementwise.cc) and the device's
// fusedElementwise kernel: which chains the pass fuses (on graph::Graph
// directly and on graphs compiled for the device under test), and that fused
// graphs give bit-identical results to the unfused path on the same device
// and the reference device's results within tolerance, for random chains
// of unary, activation and binary ops with broadcast operands, odd sizes,
// multi-threaded sizes and NaN/Inf.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "api/impl.h"
#include "cross_device.h"
#include "pass_test_util.h"
#include "graph/graph.h"
#include "graph/passes.h"
#include "ops/activation.h"
#include "ops/cast.h"
#include "ops/device.h"
#include "ops/elementwise.h"
#include "ops/fused_elementwise.h"
#include "ops/resample2d.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;
using graph::Graph;
using graph::OperandId;
using ops::OpKind;

// ---- graph::Graph level ------------------------------------------------------

OperandId Act(Graph& g, OpKind op, OperandId x) { return PassNode(g, op, {x}, std::make_shared<ops::ActivationAttrs>()); }

OperandId In(Graph& g, const std::string& name, core::DataType type, std::vector<uint32_t> shape) {
  return g.AddInput(name, StaticDesc(type, shape));
}

// The live nodes' ops after FuseElementwise ("fusedElementwise[exp > add(x, #1)]"),
// sorted (the order among independent nodes is the lowering's business).
std::vector<std::string> FusedOps(Graph& g, const std::map<std::string, OperandId>& outputs, int* fused = nullptr,
                                  uint32_t max_inputs = UINT32_MAX, uint32_t max_steps = UINT32_MAX) {
  const int n = graph::FuseElementwise(g, outputs, max_inputs, max_steps);
  if (fused) *fused = n;
  std::vector<OperandId> ids;
  for (const auto& [name, id] : outputs) ids.push_back(id);
  std::vector<std::string> ops;
  for (uint32_t i : g.NodesReaching(ids)) {
    const graph::Node& node = g.nodes()[i];
    std::string s(ops::OpName(node.op));
    if (node.op == OpKind::fusedElementwise)
      s += "[" + ops::FusedElementwiseToString(ops::AttrsAs<ops::FusedElementwiseAttrs>(*node.attrs)) + "]";
    ops.push_back(s);
  }
  std::sort(ops.begin(), ops.end());
  return ops;
}


}  // namespace

TEST_CASE("fuse elementwise: a chain becomes one node", "[passes][fuse_elementwise]") {
  Graph g;
  const OperandId x = In(g, "x", core::DataType::kFloat32, {2, 3});
  const OperandId y = In(g, "y", core::DataType::kFloat32, {3});
  const OperandId out = Act(g, OpKind::relu, PassNode(g, OpKind::add, {PassNode(g, OpKind::exp, {x}), y}));
  int fused = 0;
  CHECK(FusedOps(g, {{"out", out}}, &fused) == Strings{"fusedElementwise[exp > add(x, #1) > relu]"});
  CHECK(fused == 1);
  // The fused node produces the old output operand, reads x and y.
  const graph::Node& node = g.nodes()[g.operand(out).producer];
  CHECK(node.inputs == std::vector<OperandId>{x, y});
  CHECK(g.operand(out).desc.shape == g.operand(x).desc.shape);
}

TEST_CASE("fuse elementwise: operand order, self operands, identity, start operand",
          "[passes][fuse_elementwise]") {
  Graph g;
  const OperandId x = In(g, "x", core::DataType::kFloat32, {4, 5});
  const OperandId c = In(g, "c", core::DataType::kFloat32, {5});
  // sub(c, x): the running value is the second operand; mul(x, x) reads it
  // twice; identity adds no step; c is read twice but is one input.
  OperandId v = PassNode(g, OpKind::sub, {c, PassNode(g, OpKind::neg, {x})});
  v = PassNode(g, OpKind::mul, {v, v});
  v = PassNode(g, OpKind::identity, {v});
  v = PassNode(g, OpKind::div, {v, c});
  CHECK(FusedOps(g, {{"out", v}}) == Strings{"fusedElementwise[neg > sub(#1, x) > mul(x, x) > div(x, #1)]"});
  CHECK(g.nodes()[g.operand(v).producer].inputs == std::vector<OperandId>{x, c});

  // A binary head starts from the operand with the output's shape.
  Graph h;
  const OperandId bias = In(h, "bias", core::DataType::kFloat32, {5});
  const OperandId z = In(h, "z", core::DataType::kFloat32, {4, 5});
  const OperandId w = Act(h, OpKind::sigmoid, PassNode(h, OpKind::add, {bias, z}));
  CHECK(FusedOps(h, {{"w", w}}) == Strings{"fusedElementwise[add(#1, x) > sigmoid]"});
  CHECK(h.nodes()[h.operand(w).producer].inputs == std::vector<OperandId>{z, bias});
}

TEST_CASE("fuse elementwise: a device's input and step limits cut chains", "[passes][fuse_elementwise]") {
  // x > add(#1) > add(#2) > add(#3) > exp > neg: 4 inputs, 5 steps.
  auto build = [](Graph& g) {
    OperandId v = In(g, "x", core::DataType::kFloat32, {2, 3});
    for (int i = 1; i <= 3; ++i) v = PassNode(g, OpKind::add, {v, In(g, "c" + std::to_string(i), core::DataType::kFloat32, {3})});
    return PassNode(g, OpKind::neg, {PassNode(g, OpKind::exp, {v})});
  };
  {
    Graph g;
    const OperandId out = build(g);
    CHECK(FusedOps(g, {{"out", out}}) == Strings{"fusedElementwise[add(x, #1) > add(x, #2) > add(x, #3) > exp > neg]"});
  }
  {
    // At most 3 inputs: the third add starts a new chain.
    Graph g;
    const OperandId out = build(g);
    int fused = 0;
    CHECK(FusedOps(g, {{"out", out}}, &fused, 3) ==
          Strings{"fusedElementwise[add(x, #1) > add(x, #2)]", "fusedElementwise[add(x, #1) > exp > neg]"});
    CHECK(fused == 2);
    for (const graph::Node& node : g.nodes())
      if (node.op == OpKind::fusedElementwise) CHECK(node.inputs.size() <= 3);
  }
  {
    // At most 2 steps: three chains; a one-node remainder stays itself.
    Graph g;
    const OperandId out = build(g);
    CHECK(FusedOps(g, {{"out", out}}, nullptr, UINT32_MAX, 2) ==
          Strings{"fusedElementwise[add(x, #1) > add(x, #2)]", "fusedElementwise[add(x, #1) > exp]", "neg"});
  }
}

TEST_CASE("fuse elementwise: shared intermediates and graph outputs split chains", "[passes][fuse_elementwise]") {
  {
    // e has two readers: exp stays; sin > add is one chain, cos stays.
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {8});
    const OperandId e = PassNode(g, OpKind::exp, {x});
    const OperandId out = PassNode(g, OpKind::add, {PassNode(g, OpKind::sin, {e}), PassNode(g, OpKind::cos, {e})});
    CHECK(FusedOps(g, {{"out", out}}) == Strings{"cos", "exp", "fusedElementwise[sin > add(x, #1)]"});
  }
  {
    // e is a graph output: the chain restarts after it.
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {8});
    const OperandId e = PassNode(g, OpKind::exp, {PassNode(g, OpKind::abs, {x})});
    const OperandId out = PassNode(g, OpKind::neg, {Act(g, OpKind::tanh, e)});
    CHECK(FusedOps(g, {{"e", e}, {"out", out}}) ==
          Strings{"fusedElementwise[abs > exp]", "fusedElementwise[tanh > neg]"});
  }
  {
    // A single element-wise op, and one between non-element-wise ops, stay.
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {2, 8});
    const OperandId out = PassNode(g, OpKind::exp, {x});
    int fused = -1;
    CHECK(FusedOps(g, {{"out", out}}, &fused) == Strings{"exp"});
    CHECK(fused == 0);
  }
  {
    // A value read by two nodes of the same chain (x > exp > add(exp, x)) is fine.
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {8});
    const OperandId a = PassNode(g, OpKind::abs, {x});
    const OperandId out = PassNode(g, OpKind::add, {PassNode(g, OpKind::exp, {a}), a});
    CHECK(FusedOps(g, {{"out", out}}) == Strings{"abs", "fusedElementwise[exp > add(x, #0)]"});
  }
}

TEST_CASE("fuse elementwise: only float32 chains", "[passes][fuse_elementwise]") {
  for (core::DataType type : {core::DataType::kFloat16, core::DataType::kInt32, core::DataType::kInt8}) {
    Graph g;
    const OperandId x = In(g, "x", type, {4});
    const OperandId out = PassNode(g, OpKind::neg, {PassNode(g, OpKind::abs, {x})});
    CHECK(FusedOps(g, {{"out", out}}) == Strings{"abs", "neg"});
  }
  // cast ends a chain: it changes the type.
  Graph g;
  const OperandId x = In(g, "x", core::DataType::kFloat32, {4});
  auto cast = std::make_shared<ops::CastAttrs>();
  cast->dataType = core::DataType::kFloat32;
  const OperandId out = PassNode(g, OpKind::neg, {PassNode(g, OpKind::cast, {PassNode(g, OpKind::abs, {x})}, cast)});
  CHECK(FusedOps(g, {{"out", out}}) == Strings{"abs", "cast", "neg"});
}

namespace {

// ---- compiled graphs ---------------------------------------------------------

using Body = std::function<MLNamedOperands(MLGraphBuilder&)>;

MLOperand Input(MLGraphBuilder& b, const std::string& name, std::vector<uint32_t> shape) {
  MLOperandDescriptor desc{T::kFloat32, {}};
  for (uint32_t d : shape) desc.shape.emplace_back(d);
  return b.input(name, desc);
}

MLOperand Constant(MLGraphBuilder& b, std::vector<uint32_t> shape, float value) {
  size_t count = 1;
  for (uint32_t d : shape) count *= d;
  MLOperandDescriptor desc{T::kFloat32, {}};
  for (uint32_t d : shape) desc.shape.emplace_back(d);
  return b.constant(desc, MLBufferSource(Bytes(std::vector<float>(count, value))));
}

std::vector<std::string> ExecutedOps(bool passes, const Body& body) {
  return BuildOrFallBackToCpu(
      {.device = DeviceUnderTest(), .graphPasses = passes}, "fuse elementwise", [&](const MLContextOptions& o) {
        MLContext ctx = ML::createContext(o);
        MLGraphBuilder builder(ctx);
        MLGraph graph = builder.build(body(builder));
        std::vector<std::string> ops;
        for (uint32_t n : graph.impl()->nodes) ops.emplace_back(ops::OpName(graph.impl()->ir->nodes()[n].op));
        return ops;
      });
}

}  // namespace

TEST_CASE("fuse elementwise: runs after the activation fusion", "[passes][fuse_elementwise][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // relu goes into gemm; exp > mul > tanh is one chain.
  const Body body = [](MLGraphBuilder& b) {
    MLOperand y = b.relu(b.gemm(Input(b, "a", {5, 6}), Constant(b, {6, 7}, 0.1f)));
    return MLNamedOperands{{"out", b.tanh(b.mul(b.exp(y), Input(b, "s", {1, 7})))}};
  };
  CHECK(ExecutedOps(true, body) == Strings{"gemm", "fusedElementwise"});
  CHECK(ExecutedOps(false, body) == Strings{"gemm", "relu", "exp", "mul", "tanh"});
  // Internal ops are not WebNN operators.
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  CHECK(ctx.opSupportLimits().operators.count("fusedElementwise") == 0);
  CHECK(ops::ParseOpKind("fusedElementwise") == std::nullopt);
  CHECK(ops::OpName(OpKind::fusedElementwise) == "fusedElementwise");
  CHECK(ops::IsInternalOp(OpKind::fusedElementwise));
}

namespace {

// ---- numerics ----------------------------------------------------------------

struct Step {
  std::string op;
  int operand = -2;  // binary: -1 the running value itself, else the extra input index
  bool swap = false;  // binary: op(extra, x)
  double alpha = 0, beta = 0;
  std::optional<MLNumber> lo, hi;
};

bool IsBinary(const std::string& op) {
  return op == "add" || op == "sub" || op == "mul" || op == "div" || op == "max" || op == "min" || op == "pow";
}

MLOperand ApplyStep(MLGraphBuilder& b, const Step& s, const MLOperand& x, const std::vector<MLOperand>& extras) {
  const std::string& op = s.op;
  if (IsBinary(op)) {
    const MLOperand& e = s.operand < 0 ? x : extras[s.operand];
    const MLOperand& l = s.swap ? e : x;
    const MLOperand& r = s.swap ? x : e;
    if (op == "add") return b.add(l, r);
    if (op == "sub") return b.sub(l, r);
    if (op == "mul") return b.mul(l, r);
    if (op == "div") return b.div(l, r);
    if (op == "max") return b.max(l, r);
    if (op == "min") return b.min(l, r);
    return b.pow(l, r);
  }
  return ApplyUnaryOp(b, op, x, {.alpha = s.alpha, .beta = s.beta, .lo = s.lo, .hi = s.hi});
}

// Ops whose result stays within a small relative distance of the reference's
// when their input carries a few ulp of error (no poles, steps, periodic
// functions of large arguments or cancellation-sensitive logarithms): random
// chains of these are also checked against the reference device.
const std::vector<std::string> kTameOps = {
    "abs", "neg", "relu", "clamp", "sigmoid", "tanh", "erf", "gelu", "elu", "leakyRelu",
    "hardSigmoid", "hardSwish", "softsign", "softplus", "linear", "exp", "add", "sub", "mul", "max", "min"};
const std::vector<std::string> kAllOps = {
    "abs", "ceil", "cos", "erf", "exp", "floor", "identity", "log", "neg", "reciprocal", "roundEven", "sin",
    "sign", "sqrt", "tan", "elu", "gelu", "hardSigmoid", "hardSwish", "leakyRelu", "linear", "relu", "sigmoid",
    "softplus", "softsign", "tanh", "clamp", "add", "sub", "mul", "div", "max", "min", "pow"};

struct Case {
  std::vector<uint32_t> shape;                 // in0 (the chain's start)
  std::vector<std::vector<uint32_t>> extras;  // binary operands
  std::vector<Step> steps;
};

// A shape that broadcasts to `s`: dims dropped from the left or set to 1.
std::vector<uint32_t> BroadcastableTo(const std::vector<uint32_t>& s, std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0: return s;
    case 1: return {};  // scalar
    case 2: return s.empty() ? std::vector<uint32_t>{} : std::vector<uint32_t>{s.back()};  // per last axis
    case 3: return std::vector<uint32_t>{1};
    default: {
      std::vector<uint32_t> r(s.begin() + static_cast<std::ptrdiff_t>(rng() % (s.size() + 1) / 2), s.end());
      for (uint32_t& d : r)
        if (rng() % 2) d = 1;
      return r;
    }
  }
}

Case RandomCase(std::mt19937_64& rng, const std::vector<uint32_t>& shape, const std::vector<std::string>& pool) {
  Case c;
  // The start is usually full-size; sometimes a broadcast operand, with a
  // full-size one added first so the output keeps `shape`.
  c.shape = rng() % 4 == 0 ? BroadcastableTo(shape, rng) : shape;
  const size_t length = 2 + rng() % 5;
  for (size_t i = 0; i < length; ++i) {
    Step s;
    s.op = pool[rng() % pool.size()];
    if (i == 0 && c.shape != shape) s.op = "add";
    if (IsBinary(s.op)) {
      if (i == 0 && c.shape != shape) {
        c.extras.push_back(shape);
        s.operand = 0;
      } else if (rng() % 6 == 0) {
        s.operand = -1;  // op(x, x)
      } else if (!c.extras.empty() && rng() % 4 == 0) {
        s.operand = static_cast<int>(rng() % c.extras.size());  // an operand read twice
      } else {
        c.extras.push_back(BroadcastableTo(shape, rng));
        s.operand = static_cast<int>(c.extras.size() - 1);
      }
      s.swap = rng() % 2;
    }
    std::uniform_real_distribution<double> coef(-2, 2);
    s.alpha = coef(rng);
    s.beta = coef(rng);
    if (s.op == "elu" && s.alpha < 0) s.alpha = -s.alpha;  // any finite alpha is valid; keep it typical
    if (s.op == "clamp") {
      const double lo = coef(rng), hi = lo + std::fabs(coef(rng));
      if (rng() % 3) s.lo = MLNumber(lo);
      if (rng() % 3) s.hi = MLNumber(hi);
    }
    c.steps.push_back(s);
  }
  return c;
}

std::string Describe(const Case& c) {
  std::ostringstream os;
  auto shape = [&](const std::vector<uint32_t>& s) {
    os << "[";
    for (size_t i = 0; i < s.size(); ++i) os << (i ? "," : "") << s[i];
    os << "]";
  };
  os << "x";
  shape(c.shape);
  for (const Step& s : c.steps) {
    os << " > " << s.op;
    if (IsBinary(s.op)) {
      const std::string e = s.operand < 0 ? "x" : "e" + std::to_string(s.operand);
      os << (s.swap ? "(" + e + ", x)" : "(x, " + e + ")");
    }
  }
  for (size_t i = 0; i < c.extras.size(); ++i) {
    os << " e" << i;
    shape(c.extras[i]);
  }
  return os.str();
}

std::vector<InputSpec> Specs(const Case& c, double special) {
  std::vector<InputSpec> specs{{T::kFloat32, c.shape, -2, 2, special}};
  for (const auto& e : c.extras) specs.push_back({T::kFloat32, e, 0.5, 2, special});
  return specs;
}

GraphBody MakeBody(const Case& c) {
  return [c](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    std::vector<MLOperand> extras(in.begin() + 1, in.end());
    MLOperand x = in[0];
    for (const Step& s : c.steps) x = ApplyStep(b, s, x, extras);
    return MLNamedOperands{{"out", x}};
  };
}

// Runs `body` with `data` on a context made from `options`; returns "out".
std::vector<float> Run(const MLContextOptions& options, const std::vector<InputSpec>& specs,
                       const std::vector<std::vector<std::byte>>& data, const GraphBody& body,
                       std::vector<std::string>* executed = nullptr) {
  MLContext ctx = ML::createContext(options);
  MLGraphBuilder builder(ctx);
  std::vector<MLOperand> operands;
  for (size_t i = 0; i < specs.size(); ++i) {
    MLOperandDescriptor desc{T::kFloat32, {}};
    for (uint32_t d : specs[i].shape) desc.shape.emplace_back(d);
    operands.push_back(builder.input("in" + std::to_string(i), desc));
  }
  const MLNamedOperands outs = body(builder, operands);
  MLGraph graph = builder.build(outs);
  if (executed)
    for (uint32_t n : graph.impl()->nodes) executed->emplace_back(ops::OpName(graph.impl()->ir->nodes()[n].op));
  MLNamedTensors inputs, outputs;
  for (size_t i = 0; i < specs.size(); ++i) {
    MLTensor t = ctx.createTensor({T::kFloat32, specs[i].shape, false, true});
    ctx.writeTensor(t, MLBufferSource(std::span<const std::byte>(data[i])));
    inputs["in" + std::to_string(i)] = t;
  }
  const MLOperand& out = outs.at("out");
  std::vector<uint32_t> shape;
  for (const MLDimension& d : out.shape()) shape.push_back(static_cast<uint32_t>(d.size()));
  outputs["out"] = ctx.createTensor({T::kFloat32, shape, true, false});
  ctx.dispatch(graph, inputs, outputs);
  return FromBytes<float>(ctx.readTensor(outputs["out"]));
}

// Fused == unfused on the same device, bit for bit (any NaN matches any NaN).
void CheckIdentical(const std::vector<float>& fused, const std::vector<float>& unfused) {
  REQUIRE(fused.size() == unfused.size());
  size_t bad = 0, first = 0;
  for (size_t k = 0; k < fused.size(); ++k) {
    const bool same = (std::isnan(fused[k]) && std::isnan(unfused[k])) ||
                      std::memcmp(&fused[k], &unfused[k], sizeof(float)) == 0;
    if (!same && bad++ == 0) first = k;
  }
  if (bad)
    FAIL_CHECK(bad << " of " << fused.size() << " elements differ from the unfused result; first at " << first
                   << ": fused " << fused[first] << ", unfused " << unfused[first]);
}

// Within 1e-3 relative (plus 1e-3 absolute) of the reference; NaN and
// infinities must match.
void CheckNear(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0, first = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    const double g = got[k], w = want[k];
    bool ok;
    if (std::isnan(g) || std::isnan(w)) ok = std::isnan(g) && std::isnan(w);
    else if (std::isinf(g) || std::isinf(w)) ok = g == w || std::fabs(w) > 1e37 || std::fabs(g) > 1e37;
    else ok = std::fabs(g - w) <= 1e-3 * (1 + std::fabs(w));
    if (!ok && bad++ == 0) first = k;
  }
  if (bad)
    FAIL_CHECK(bad << " of " << got.size() << " elements differ from the reference; first at " << first << ": got "
                   << got[first] << ", reference " << want[first]);
}

// Runs a case on the reference device and on the device under test with and
// without passes.
void CheckCase(const Case& c, uint64_t seed, double special, bool against_reference) {
  INFO(Describe(c) << " (seed " << seed << ")");
  const std::vector<InputSpec> specs = Specs(c, special);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::byte>> data;
  for (const InputSpec& s : specs) data.push_back(RandomTensorData(s, rng));
  const GraphBody body = MakeBody(c);
  std::vector<std::string> executed;
  std::vector<float> fused, unfused;
  if (!RunUnlessUnsupported(DeviceUnderTest(), Describe(c), [&] {
        fused = Run({.device = DeviceUnderTest(), .graphPasses = true}, specs, data, body, &executed);
        unfused = Run({.device = DeviceUnderTest(), .graphPasses = false}, specs, data, body);
      }))
    return;
  // Every chain of two or more steps that are not all identity is fused: into
  // one node, or more where it exceeds the device's limits.
  const auto fused_nodes = std::count(executed.begin(), executed.end(), "fusedElementwise");
  const ops::DeviceFusions limits = ops::FindDevice(DeviceUnderTest())->Fusions();
  if (c.extras.size() + 1 <= limits.elementwise_max_inputs && c.steps.size() <= limits.elementwise_max_steps)
    CHECK(fused_nodes == 1);
  else
    CHECK(fused_nodes >= 2);
  CheckIdentical(fused, unfused);
  if (against_reference) {
    const auto want = Run({.device = MLDeviceType::kReference}, specs, data, body);
    CheckNear(fused, want);
  }
}

}  // namespace

TEST_CASE("fuse elementwise: random chains match the unfused path and the reference",
          "[passes][fuse_elementwise][numerics][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  std::mt19937_64 rng(20240611);
  const std::vector<std::vector<uint32_t>> big = {{3, 7, 4099}, {300001}, {2, 3, 5, 4097}, {65536}};
  for (int i = 0; i < 120; ++i) {
    std::vector<uint32_t> shape;
    if (i % 10 == 9) shape = big[(i / 10) % big.size()];
    else shape = RandomShape(rng, static_cast<uint32_t>(rng() % 5), 9);
    const bool tame = i % 2 == 0;
    Case c = RandomCase(rng, shape, tame ? kTameOps : kAllOps);
    // A chain of identities is only a copy (not fused); make sure there is an op.
    if (std::all_of(c.steps.begin(), c.steps.end(), [](const Step& s) { return s.op == "identity"; }))
      c.steps[0].op = "neg";
    CheckCase(c, rng(), i % 3 == 0 ? 0.05 : 0.0, tame);
  }
}

TEST_CASE("fuse elementwise: chains beyond a device's input and step limits", "[passes][fuse_elementwise][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // 24 steps reading 10 distinct operands (the gpu device fuses 16 steps and
  // 7 inputs per node): cut into several fused nodes, same results.
  std::mt19937_64 rng(77);
  for (const std::vector<uint32_t>& shape : {std::vector<uint32_t>{3, 5, 7}, std::vector<uint32_t>{70001}}) {
    Case c;
    c.shape = shape;
    for (int i = 0; i < 24; ++i) {
      Step s;
      s.op = i % 2 ? kTameOps[rng() % kTameOps.size()] : "add";
      if (s.op == "identity") s.op = "neg";
      if (IsBinary(s.op)) {
        if (i % 4 == 0 || c.extras.size() < 9) c.extras.push_back(BroadcastableTo(shape, rng));
        s.operand = static_cast<int>(c.extras.size() - 1);
        s.swap = i % 3 == 0;
      }
      std::uniform_real_distribution<double> coef(-2, 2);
      s.alpha = coef(rng);
      s.beta = coef(rng);
      c.steps.push_back(s);
    }
    CheckCase(c, rng(), 0.02, true);
  }
}

TEST_CASE("fuse elementwise: structured chains against the reference with WPT tolerances",
          "[passes][fuse_elementwise][numerics][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // Well-conditioned chains whose error stays within the sum of the ops' WPT
  // tolerances (ulp), with and without the pass.
  struct Structured {
    std::string name;
    std::vector<InputSpec> inputs;
    GraphBody body;
    double ulp;
  };
  const std::vector<uint32_t> s = {3, 37, 1031};  // 114K elements: every thread, odd rows
  const std::vector<Structured> cases = {
      {"bias > relu > clamp",
       {{T::kFloat32, s, -2, 2, 0.02}, {T::kFloat32, {1031}}},
       [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
         return MLNamedOperands{
             {"out", b.clamp(b.relu(b.add(in[0], in[1])), {.maxValue = MLNumber(1.5)})}};
       },
       0},
      {"gelu-like: mul > mul > add > tanh > add > mul",
       {{T::kFloat32, s, -3, 3}, {T::kFloat32, {}, 0.5, 0.5, 0, true}},
       [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
         MLOperand x = in[0];
         MLOperand t = b.tanh(b.add(b.mul(b.mul(x, x), in[1]), in[1]));
         return MLNamedOperands{{"out", b.mul(b.add(t, in[1]), in[1])}};
       },
       16 + 4},
      {"exp > mul(per-channel) > sigmoid > sqrt",
       {{T::kFloat32, s, -4, 4, 0.02}, {T::kFloat32, {3, 1, 1}, 0.5, 2}},
       [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
         return MLNamedOperands{{"out", b.sqrt(b.sigmoid(b.mul(b.exp(in[0]), in[1])))}};
       },
       1 + 1 + 34 + 1 + 8},
      {"abs > log > neg > div > max",
       {{T::kFloat32, s, 2, 8, 0.02}, {T::kFloat32, {37, 1}, 1, 2}, {T::kFloat32, s, -3, 0}},
       [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
         return MLNamedOperands{{"out", b.max(b.div(b.neg(b.log(b.abs(in[0]))), in[1]), in[2])}};
       },
       3 + 2 + 2},
  };
  uint64_t seed = 7;
  for (const Structured& c : cases)
    for (bool passes : {true, false})
      CheckAgainstReference(MLContextOptions{.device = DeviceUnderTest(), .graphPasses = passes},
                            c.name + (passes ? " (fused)" : " (unfused)"), c.inputs, c.body, Tolerance::Ulp(c.ulp),
                            seed++);
}

TEST_CASE("fuse elementwise: dynamic dimensions are inferred at dispatch", "[passes][fuse_elementwise][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  auto build_and_run = [](MLDeviceType device, uint32_t batch) {
    MLContext ctx = ML::createContext({.device = device});
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {T::kFloat32, {MLDynamicDimension{"batch", 8}, 5}});
    MLOperand y = b.input("y", {T::kFloat32, {5}});
    MLGraph graph = b.build({{"out", b.tanh(b.mul(b.exp(x), y))}});
    std::vector<float> xs(batch * 5), ys(5);
    for (size_t i = 0; i < xs.size(); ++i) xs[i] = 0.1f * static_cast<float>(i) - 1.0f;
    for (size_t i = 0; i < ys.size(); ++i) ys[i] = 0.5f + 0.25f * static_cast<float>(i);
    MLTensor xt = ctx.createTensor({T::kFloat32, {batch, 5}, false, true});
    MLTensor yt = ctx.createTensor({T::kFloat32, {5}, false, true});
    MLTensor ot = ctx.createTensor({T::kFloat32, {batch, 5}, true, false});
    ctx.writeTensor(xt, xs);
    ctx.writeTensor(yt, ys);
    ctx.dispatch(graph, {{"x", xt}, {"y", yt}}, {{"out", ot}});
    return FromBytes<float>(ctx.readTensor(ot));
  };
  for (uint32_t batch : {1u, 3u, 8u}) {
    const auto want = build_and_run(MLDeviceType::kReference, batch);
    std::vector<float> got;
    if (!RunUnlessUnsupported(DeviceUnderTest(), "dynamic batch", [&] { got = build_and_run(DeviceUnderTest(), batch); }))
      continue;
    CheckNear(got, want);
  }
}

// ---- upsampled operands (a nearest-neighbour resample2d by whole factors) ----

namespace {

OperandId Resample(Graph& g, OperandId x, std::vector<uint32_t> sizes, MLInterpolationMode mode,
                   std::vector<uint32_t> axes = {2, 3}) {
  auto attrs = std::make_shared<ops::Resample2dAttrs>();
  attrs->mode = mode;
  attrs->sizes = sizes;
  attrs->axes = axes;
  return PassNode(g, OpKind::resample2d, {x}, attrs);
}

}  // namespace

TEST_CASE("fuse elementwise: a nearest upsample by whole factors is read upsampled", "[passes][fuse_elementwise]") {
  const auto nearest = MLInterpolationMode::kNearestNeighbor;
  {  // relu(add(x, upsample(y))): the chain reads y, upsampled 2x3.
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {1, 2, 4, 9});
    const OperandId y = In(g, "y", core::DataType::kFloat32, {1, 2, 2, 3});
    const OperandId out = Act(g, OpKind::relu, PassNode(g, OpKind::add, {x, Resample(g, y, {4, 9}, nearest)}));
    CHECK(FusedOps(g, {{"out", out}}) == Strings{"fusedElementwise[add(x, #1) > relu #1 upsampled 2x3]"});
    CHECK(g.nodes()[g.operand(out).producer].inputs == std::vector<OperandId>{x, y});
  }
  {  // The upsampled copy first: the chain starts with the other operand.
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {1, 2, 4, 6});
    const OperandId y = In(g, "y", core::DataType::kFloat32, {1, 2, 4, 2});
    const OperandId out = Act(g, OpKind::relu, PassNode(g, OpKind::sub, {Resample(g, y, {4, 6}, nearest), x}));
    CHECK(FusedOps(g, {{"out", out}}) == Strings{"fusedElementwise[sub(#1, x) > relu #1 upsampled 1x3]"});
  }
  {  // Another reader keeps the resample; the chain still reads y.
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {2, 1, 4, 4});
    const OperandId y = In(g, "y", core::DataType::kFloat32, {2, 1, 2, 2});
    const OperandId r = Resample(g, y, {4, 4}, nearest);
    const OperandId out = Act(g, OpKind::relu, PassNode(g, OpKind::mul, {x, r}));
    CHECK(FusedOps(g, {{"out", out}, {"r", r}}) ==
          Strings{"fusedElementwise[mul(x, #1) > relu #1 upsampled 2x2]", "resample2d"});
  }
  // Not read upsampled: a factor that is not whole, linear interpolation,
  // other axes, a device without the form (the resample's output is read).
  for (int c = 0; c < 4; ++c) {
    Graph g;
    const OperandId x = In(g, "x", core::DataType::kFloat32, {1, 2, 5, 6});
    const OperandId y = In(g, "y", core::DataType::kFloat32, {1, 2, c == 0 ? 2u : 5u, 3});
    const OperandId r = c == 2 ? Resample(g, In(g, "z", core::DataType::kFloat32, {1, 1, 5, 6}), {2, 6}, nearest, {1, 3})
                               : Resample(g, y, {5, 6}, c == 1 ? MLInterpolationMode::kLinear : nearest);
    const OperandId out = Act(g, OpKind::relu, PassNode(g, OpKind::add, {x, r}));
    const int fused = graph::FuseElementwise(g, {{"out", out}}, UINT32_MAX, UINT32_MAX, /*upsampled=*/c != 3);
    CHECK(fused == 1);
    CHECK(g.nodes()[g.operand(out).producer].inputs == std::vector<OperandId>{x, r});
  }
}

TEST_CASE("fuse elementwise: upsampled operands match the unfused path and the reference",
          "[passes][fuse_elementwise][numerics][device]") {
  if (!DeviceUnderTestRunsPasses()) return;
  // Factors {y, x} with 1, non-powers of two and 16 (a whole vector per
  // element), widths with vector tails, batch 2, NaN/Inf.
  struct UpCase {
    std::vector<uint32_t> small;
    std::array<uint32_t, 2> f;
  };
  const std::vector<UpCase> cases = {
      {{1, 3, 5, 8}, {2, 2}},  {{2, 2, 3, 20}, {2, 2}}, {{1, 2, 4, 7}, {1, 3}}, {{1, 1, 3, 5}, {3, 1}},
      {{1, 2, 9, 9}, {2, 4}},  {{1, 1, 2, 3}, {1, 16}}, {{1, 3, 40, 40}, {2, 2}},  {{1, 4, 17, 33}, {2, 2}},
      {{1, 96, 20, 20}, {2, 2}}};
  uint64_t seed = 500;
  for (const UpCase& u : cases)
    for (const bool swap : {false, true}) {
      std::vector<uint32_t> big = u.small;
      const size_t rank = big.size();
      big[rank - 2] *= u.f[0], big[rank - 1] *= u.f[1];
      std::ostringstream name;
      name << "upsample " << u.f[0] << "x" << u.f[1] << " of " << u.small[0] << "x" << u.small[1] << "x" << u.small[2]
           << "x" << u.small[3] << (swap ? " (first operand)" : "");
      INFO(name.str());
      const std::vector<InputSpec> specs = {{T::kFloat32, big, -1, 1, 0.02}, {T::kFloat32, u.small, -1, 1, 0.02}};
      std::mt19937_64 rng(++seed);
      std::vector<std::vector<std::byte>> data;
      for (const InputSpec& s : specs) data.push_back(RandomTensorData(s, rng));
      const GraphBody body = [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        MLResample2dOptions o;
        o.sizes = std::vector<uint32_t>{big[rank - 2], big[rank - 1]};
        o.axes = std::vector<uint32_t>{uint32_t(rank - 2), uint32_t(rank - 1)};
        const MLOperand up = b.resample2d(in[1], o);
        return MLNamedOperands{{"out", b.tanh(swap ? b.sub(up, b.exp(in[0])) : b.add(b.exp(in[0]), up))}};
      };
      std::vector<std::string> executed;
      std::vector<float> fused, unfused;
      if (!RunUnlessUnsupported(DeviceUnderTest(), name.str(), [&] {
            fused = Run({.device = DeviceUnderTest(), .graphPasses = true}, specs, data, body, &executed);
            unfused = Run({.device = DeviceUnderTest(), .graphPasses = false}, specs, data, body);
          }))
        continue;
      const bool reads_upsampled = ops::FindDevice(DeviceUnderTest())->Fusions().elementwise_upsampled;
      CHECK(std::count(executed.begin(), executed.end(), "resample2d") == (reads_upsampled ? 0 : 1));
      CheckIdentical(fused, unfused);
      CheckNear(fused, Run({.device = MLDeviceType::kReference}, specs, data, body));
    }
}
