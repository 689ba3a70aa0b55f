// FuseQuantizedMatmul (src/graph/fuse_quantized_matmul.cc) and the device's
// quantizedMatmul kernel: which matmul / gemm + dequantizeLinear patterns the
// pass rewrites (on graph::Graph directly and on graphs compiled for the
// device under test), and that the fused graphs give the reference device's
// results within matmul's tolerance, with and without the passes, for
// int4/uint4/int8/uint8 weights, float32/float16 activations, block sizes 16 to
// 256, per-column and odd blocks, every M around the GEMV / GEMM switch, odd N
// (partial column groups), batched A, gemm with bTranspose and a bias, fused
// bias and activations, and NaN/Inf in A and in the scales.
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
#include "ops/cpu/quantized_matmul_amx.h"
#include "ops/device.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
#include "ops/quantized_matmul.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;
using graph::Graph;
using graph::OperandId;
using ops::OpKind;

// ---- graph::Graph level ------------------------------------------------------

core::OperandDesc Desc(core::DataType type, std::vector<uint32_t> shape) { return StaticDesc(type, shape); }

OperandId Const(Graph& g, core::DataType type, std::vector<uint32_t> shape) {
  const core::OperandDesc desc = Desc(type, shape);
  return g.AddHostConstant(desc, std::vector<std::byte>(ByteLengthFor(type, core::ElementCount(core::Sizes(desc.shape)))));
}


// dequantizeLinear of a constant [rows, cols] weight of `type` with a
// float32 scale and zero point of shape `params`.
OperandId Dequantized(Graph& g, core::DataType type, std::vector<uint32_t> shape, std::vector<uint32_t> params,
                      bool constant_weight = true) {
  const OperandId w = constant_weight ? Const(g, type, shape) : g.AddInput("w", Desc(type, shape));
  return PassNode(g, OpKind::dequantizeLinear,
              {w, Const(g, core::DataType::kFloat32, params), Const(g, type, params)});
}

// The live nodes' ops after FuseQuantizedMatmul, sorted.
std::vector<std::string> LiveOps(Graph& g, const std::map<std::string, OperandId>& outputs, int* fused = nullptr) {
  const int n = graph::FuseQuantizedMatmul(g, outputs);
  if (fused) *fused = n;
  return SortedLiveOps(g, outputs);
}


std::shared_ptr<ops::GemmAttrs> GemmOptions(bool b_transpose, double alpha = 1, double beta = 1,
                                            bool a_transpose = false) {
  auto attrs = std::make_shared<ops::GemmAttrs>();
  attrs->bTranspose = b_transpose;
  attrs->aTranspose = a_transpose;
  attrs->alpha = alpha;
  attrs->beta = beta;
  return attrs;
}

}  // namespace

TEST_CASE("fuse quantized matmul: matmul of a constant dequantizeLinear", "[passes][quantized_matmul]") {
  for (core::DataType type : {core::DataType::kInt4, core::DataType::kUint4, core::DataType::kInt8,
                              core::DataType::kUint8}) {
    Graph g;
    const OperandId a = g.AddInput("a", Desc(core::DataType::kFloat32, {2, 3, 64}));
    const OperandId w = Dequantized(g, type, {64, 24}, {2, 24});
    const OperandId out = PassNode(g, OpKind::matmul, {a, w}, std::make_shared<ops::MatmulAttrs>());
    int fused = 0;
    CHECK(LiveOps(g, {{"out", out}}, &fused) == Strings{"quantizedMatmul"});
    CHECK(fused == 1);
    // It reads a and the dequantizeLinear's constants, produces the old output.
    const graph::Node& node = g.nodes()[g.operand(out).producer];
    const graph::Node& dq = g.nodes()[g.operand(w).producer];
    CHECK(node.inputs == std::vector<OperandId>{a, dq.inputs[0], dq.inputs[1], dq.inputs[2]});
    CHECK(g.operand(out).desc.shape == Desc(core::DataType::kFloat32, {2, 3, 24}).shape);
    CHECK_FALSE(ops::AttrsAs<ops::QuantizedMatmulAttrs>(*node.attrs).weight_transposed);
  }
}

TEST_CASE("fuse quantized matmul: gemm forms", "[passes][quantized_matmul]") {
  auto build = [](Graph& g, std::shared_ptr<ops::GemmAttrs> attrs, std::vector<uint32_t> c_shape) {
    const bool bt = attrs->bTranspose, at = attrs->aTranspose;
    const OperandId a = g.AddInput("a", Desc(core::DataType::kFloat32, at ? std::vector<uint32_t>{32, 5}
                                                                          : std::vector<uint32_t>{5, 32}));
    const OperandId w = bt ? Dequantized(g, core::DataType::kInt4, {8, 32}, {8, 2})
                           : Dequantized(g, core::DataType::kInt4, {32, 8}, {2, 8});
    std::vector<OperandId> in{a, w};
    if (!c_shape.empty()) in.push_back(Const(g, core::DataType::kFloat32, c_shape));
    return PassNode(g, OpKind::gemm, in, attrs);
  };
  {
    Graph g;  // bTranspose, C along N: fused, C becomes the bias
    const OperandId out = build(g, GemmOptions(true), {8});
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"quantizedMatmul"});
    const graph::Node& node = g.nodes()[g.operand(out).producer];
    CHECK(node.inputs.size() == 5);
    CHECK(ops::AttrsAs<ops::QuantizedMatmulAttrs>(*node.attrs).weight_transposed);
  }
  {
    Graph g;
    const OperandId out = build(g, GemmOptions(false), {1, 8});
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"quantizedMatmul"});
  }
  // Not a plain product plus a bias: left alone.
  for (auto [attrs, c] : std::vector<std::pair<std::shared_ptr<ops::GemmAttrs>, std::vector<uint32_t>>>{
           {GemmOptions(false, 2.0), {}},              // alpha
           {GemmOptions(false, 1.0, 0.5), {8}},         // beta
           {GemmOptions(false, 1.0, 1.0), {5, 8}},      // C varies along M
           {GemmOptions(false, 1.0, 1.0, true), {}}}) {  // aTranspose
    Graph g;
    const OperandId out = build(g, attrs, c);
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"dequantizeLinear", "gemm"});
  }
}

TEST_CASE("fuse quantized matmul: what stays as built", "[passes][quantized_matmul]") {
  {
    // The weight is an input, not a constant.
    Graph g;
    const OperandId a = g.AddInput("a", Desc(core::DataType::kFloat32, {3, 32}));
    const OperandId w = Dequantized(g, core::DataType::kInt8, {32, 4}, {1, 4}, /*constant_weight=*/false);
    const OperandId out = PassNode(g, OpKind::matmul, {a, w}, std::make_shared<ops::MatmulAttrs>());
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"dequantizeLinear", "matmul"});
  }
  {
    // A dequantized weight of rank 3 (batched B).
    Graph g;
    const OperandId a = g.AddInput("a", Desc(core::DataType::kFloat32, {2, 3, 32}));
    const OperandId w = Dequantized(g, core::DataType::kInt8, {2, 32, 4}, {2, 1, 4});
    const OperandId out = PassNode(g, OpKind::matmul, {a, w}, std::make_shared<ops::MatmulAttrs>());
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"dequantizeLinear", "matmul"});
  }
  {
    // A (float) weight read by a matmul as its first operand.
    Graph g;
    const OperandId b = g.AddInput("b", Desc(core::DataType::kFloat32, {4, 3}));
    const OperandId w = Dequantized(g, core::DataType::kInt8, {5, 4}, {1, 4});
    const OperandId out = PassNode(g, OpKind::matmul, {w, b}, std::make_shared<ops::MatmulAttrs>());
    CHECK(LiveOps(g, {{"out", out}}) == Strings{"dequantizeLinear", "matmul"});
  }
  {
    // The dequantized weight is also a graph output: it stays for that, the
    // matmul is fused all the same.
    Graph g;
    const OperandId a = g.AddInput("a", Desc(core::DataType::kFloat32, {3, 32}));
    const OperandId w = Dequantized(g, core::DataType::kUint4, {32, 4}, {4, 4});
    const OperandId out = PassNode(g, OpKind::matmul, {a, w}, std::make_shared<ops::MatmulAttrs>());
    CHECK(LiveOps(g, {{"out", out}, {"w", w}}) == Strings{"dequantizeLinear", "quantizedMatmul"});
  }
}

namespace {

// ---- compiled graphs ---------------------------------------------------------

struct QuantCase {
  T act = T::kFloat32;      // a, scale, bias, output
  T code = T::kInt4;        // weight and zero point
  uint32_t k = 64, n = 24;  // the weight is [k, n] ([n, k] for gemm bTranspose)
  std::vector<uint32_t> a_batch = {};  // A's shape is a_batch + [m, k]
  uint32_t m = 1;
  uint32_t scale_k = 2;     // scale shape [scale_k, scale_n] (blocks of k / scale_k rows)
  uint32_t scale_n = 0;     // 0: n
  bool gemm = false, b_transpose = false;
  bool bias = false;
  bool bias_input = false;  // the bias is a graph input, not a constant
  // SwiGLU: a second (up) weight of the same shape, mul(mul(g, sigmoid(g)), u),
  // with the operand orders swapped when `swiglu_swapped`.
  bool swiglu = false, swiglu_swapped = false;
  std::string activation;   // "", "relu", "clamp", "sigmoid"
  bool nonnegative = false;  // A >= 0 and weights >= 0: no cancellation, ULP tolerance
  double a_max = 1;          // A uniform in [-a_max, a_max) ([0, a_max) when nonnegative)
  double special_a = 0, special_scale = 0;
};

std::string Describe(const QuantCase& c) {
  std::ostringstream os;
  os << (c.gemm ? "gemm" : "matmul") << " a[";
  for (uint32_t d : c.a_batch) os << d << ",";
  os << c.m << "," << c.k << "] " << (c.act == T::kFloat16 ? "f16" : "f32") << " x dequantizeLinear("
     << ToString(c.code) << (c.b_transpose ? " [n,k]" : " [k,n]") << " k " << c.k << " n " << c.n << ", scale ["
     << c.scale_k << "," << (c.scale_n ? c.scale_n : c.n) << "])" << (c.bias ? " + bias" : "")
     << (c.bias_input ? " (an input)" : "")
     << (c.activation.empty() ? "" : " > " + c.activation) << (c.nonnegative ? " nonnegative" : "")
     << " |a| < " << c.a_max << " special " << c.special_a << "/" << c.special_scale << (c.swiglu ? " swiglu" : "")
     << (c.swiglu_swapped ? " swapped" : "");
  return os.str();
}

std::pair<double, double> CodeRange(T t) {
  switch (t) {
    case T::kInt4: return {-8, 7};
    case T::kUint4: return {0, 15};
    case T::kInt8: return {-128, 127};
    default: return {0, 255};
  }
}

std::vector<InputSpec> Specs(const QuantCase& c) {
  const auto [lo, hi] = CodeRange(c.code);
  const uint32_t scale_n = c.scale_n ? c.scale_n : c.n;
  std::vector<uint32_t> a_shape = c.a_batch;
  a_shape.push_back(c.m);
  a_shape.push_back(c.k);
  const std::vector<uint32_t> w_shape = c.b_transpose ? std::vector<uint32_t>{c.n, c.k} : std::vector<uint32_t>{c.k, c.n};
  const std::vector<uint32_t> p_shape =
      c.b_transpose ? std::vector<uint32_t>{scale_n, c.scale_k} : std::vector<uint32_t>{c.scale_k, scale_n};
  // |weight| <= (hi - lo) * max|scale| = 1: scales up to 1 / (hi - lo).
  const double s_max = 1.0 / (hi - lo);
  std::vector<InputSpec> specs{
      InputSpec{c.act, a_shape, c.nonnegative ? 0.0 : -c.a_max, c.a_max, c.special_a, false},
      InputSpec{c.code, w_shape, lo, hi, 0, true},
      InputSpec{c.act, p_shape, c.nonnegative ? s_max / 4 : -s_max, s_max, c.special_scale, true},
      // Nonnegative weights: the zero point is the lowest code.
      InputSpec{c.code, p_shape, c.nonnegative ? lo : lo, c.nonnegative ? lo : hi, 0, true}};
  if (c.bias) specs.push_back(InputSpec{c.act, {c.n}, c.nonnegative ? 0.0 : -1.0, 1.0, 0, !c.bias_input});
  if (c.swiglu) {  // the up projection's weight, scale and zero point
    const std::vector<InputSpec> up(specs.begin() + 1, specs.begin() + 4);
    specs.insert(specs.end(), up.begin(), up.end());
  }
  return specs;
}

MLOperand Body(const QuantCase& c, MLGraphBuilder& g, const std::vector<MLOperand>& in) {
  const MLOperand w = g.dequantizeLinear(in[1], in[2], in[3]);
  if (c.swiglu) {
    auto project = [&](const MLOperand& weight) {
      MLGemmOptions options;
      options.bTranspose = c.b_transpose;
      return c.gemm ? g.gemm(in[0], weight, options) : g.matmul(in[0], weight);
    };
    const MLOperand gate = project(w);
    const MLOperand up = project(g.dequantizeLinear(in[4], in[5], in[6]));
    if (c.swiglu_swapped) return g.mul(up, g.mul(g.sigmoid(gate), gate));
    return g.mul(g.mul(gate, g.sigmoid(gate)), up);
  }
  MLOperand y;
  if (c.gemm) {
    MLGemmOptions options;
    options.bTranspose = c.b_transpose;
    if (c.bias) options.c = in[4];
    y = g.gemm(in[0], w, options);
  } else {
    y = g.matmul(in[0], w);
    if (c.bias) y = g.add(y, in[4]);
  }
  if (c.activation == "relu") y = g.relu(y);
  if (c.activation == "clamp") y = g.clamp(y, {.minValue = MLNumber(-0.25), .maxValue = MLNumber(0.5)});
  if (c.activation == "sigmoid") y = g.sigmoid(y);
  return y;
}

Tolerance ToleranceOf(const QuantCase& c) {
  // matmul's: 2 K ULP without cancellation; else K * (float32 or float16
  // accumulation error) with |a| <= 1 and |w| <= 1; a bias adds one rounding.
  const double k = c.k + (c.bias ? 1 : 0);
  // SwiGLU: silu(g) * u with |g|, |u| <= K moves each projection's error by
  // the other's magnitude (~sqrt(K) for random signs, K at most).
  if (c.swiglu) return Tolerance::Scaled(k * std::sqrt(k) * (c.act == T::kFloat16 ? 2e-3 : 1e-6));
  if (c.nonnegative) return Tolerance::Ulp(2.0 * k);
  return Tolerance::Atol(k * (c.act == T::kFloat16 ? 2e-3 : 5e-7));
}

void Check(const QuantCase& c, uint64_t seed, bool passes = true) {
  CheckWithPasses(Describe(c), passes, Specs(c),
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", Body(c, g, in)}};
                        },
                        ToleranceOf(c), seed);
}

// The ops of the compiled graph of case `c` on the device under test.
std::vector<std::string> ExecutedOps(const QuantCase& c, bool passes) {
  std::vector<InputSpec> specs = Specs(c);  // the weights and their parameters as constants
  for (size_t i = 1; i < specs.size(); ++i) specs[i].constant = true;
  return CompiledOps({.device = DeviceUnderTest(), .graphPasses = passes}, "quantized matmul", specs,
                     [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                       return MLNamedOperands{{"out", Body(c, b, in)}};
                     });
}

bool DeviceUnderTestFusesQuantizedMatmul() {
  return ops::FindDevice(DeviceUnderTest())->Fusions().quantized_matmul;
}

}  // namespace

TEST_CASE("quantized matmul: the device runs one node where it fuses", "[device][quantized_matmul]") {
  QuantCase c;
  c.bias = true;
  c.activation = "relu";
  c.m = 3;
  CHECK(ExecutedOps(c, false) == Strings{"add", "dequantizeLinear", "matmul", "relu"});
  if (!DeviceUnderTestFusesQuantizedMatmul()) {
    WARN("the " << DeviceUnderTestName() << " device does not fuse quantized matmuls: structure not checked");
    return;
  }
  // The bias and relu go into the matmul first, then the matmul and its
  // dequantizeLinear become one node.
  CHECK(ExecutedOps(c, true) == Strings{"quantizedMatmul"});
  c.gemm = c.b_transpose = true;
  CHECK(ExecutedOps(c, true) == Strings{"quantizedMatmul"});
  // Internal ops are not WebNN operators.
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  CHECK(ctx.opSupportLimits().operators.count("quantizedMatmul") == 0);
  CHECK(ops::ParseOpKind("quantizedMatmul") == std::nullopt);
  CHECK(ops::IsInternalOp(OpKind::quantizedMatmul));
}

TEST_CASE("quantized matmul: every code type, block size and M, against the reference",
          "[device][quantized_matmul]") {
  std::mt19937_64 rng(2024);
  uint64_t seed = 1;
  for (T act : {T::kFloat32, T::kFloat16}) {
    for (T code : {T::kInt4, T::kUint4, T::kInt8, T::kUint8}) {
      // Block sizes 16..256 and per-column (one block of K); M on both sides
      // of the cpu's GEMV / GEMM switch (4) and the gpu's (16, and N a
      // multiple of the codes in a word); N with partial column groups.
      for (uint32_t block : {16u, 32u, 64u, 128u, 256u}) {
        QuantCase c{act, code};
        c.scale_k = 1 + static_cast<uint32_t>(rng() % 3);
        c.k = block * c.scale_k;
        c.n = 1 + static_cast<uint32_t>(rng() % 40);
        c.m = 1 + static_cast<uint32_t>(rng() % 8);
        c.nonnegative = rng() % 2;
        Check(c, seed++);
      }
      for (uint32_t n : {33u, 40u}) {
        for (uint32_t m : {1u, 2u, 3u, 4u, 5u, 16u, 17u, 65u}) {
          QuantCase c{act, code};
          c.m = m;
          c.k = 96;
          c.scale_k = 1;  // per column
          c.n = n;
          Check(c, seed++);
        }
      }
      // K split over gpu workgroups in runs that cross blocks of 25 rows.
      QuantCase split{act, code};
      split.m = 3, split.k = 200, split.scale_k = 8, split.n = 16;
      Check(split, seed++);
    }
  }
}

TEST_CASE("quantized matmul: odd blocks, broadcast scales, batched A, wide N", "[device][quantized_matmul]") {
  uint64_t seed = 100;
  for (T act : {T::kFloat32, T::kFloat16}) {
    for (T code : {T::kInt4, T::kUint4, T::kInt8}) {
      QuantCase odd{act, code};  // blocks of 7 rows: 4-bit rows in pairs leave a low nibble alone
      odd.k = 21;
      odd.scale_k = 3;
      odd.n = 19;
      odd.m = 2;
      Check(odd, seed++);
      odd.m = 9;
      Check(odd, seed++);
      QuantCase one{act, code};  // one scale for the whole weight; one for each 8 columns
      one.k = 40, one.n = 32, one.scale_k = 1, one.scale_n = 1;
      Check(one, seed++);
      one.scale_k = 5, one.scale_n = 4;
      Check(one, seed++);
      QuantCase batched{act, code};
      batched.a_batch = {2, 3};
      batched.m = 2;  // 12 rows in all: the GEMM path
      batched.k = 64, batched.n = 70, batched.scale_k = 2;
      Check(batched, seed++);
      batched.a_batch = {2, 1};
      batched.m = 1;  // 2 rows: the GEMV path
      Check(batched, seed++);
    }
  }
  // Wide N and K (several GEMM tiles, chunks of columns, multi-threaded).
  for (uint32_t m : {1u, 4u, 64u}) {
    QuantCase wide;
    wide.m = m, wide.k = 512, wide.n = 1000, wide.scale_k = 16;
    wide.nonnegative = true;
    Check(wide, seed++);
  }
  // The cpu GEMM path's other shapes: A past 512 KiB (row blocks, K blocks
  // per B micro-panel), blocks of 48 that do not divide a 256-row K block, and
  // more rows than one packing of A (512).
  QuantCase deep;
  deep.m = 40, deep.k = 4096, deep.n = 50, deep.scale_k = 128;
  Check(deep, seed++);
  QuantCase misaligned;
  misaligned.m = 20, misaligned.k = 528, misaligned.n = 45, misaligned.scale_k = 11;
  Check(misaligned, seed++);
  QuantCase tall;
  tall.m = 600, tall.k = 64, tall.n = 24, tall.scale_k = 2;
  Check(tall, seed++);
}

// The cpu device's prefill GEMM runs on AMX tiles where the CPU has them
// (A split into three bfloat16, quantized_matmul_amx.cc); these cases run
// with that path allowed and then forbidden, so that both are checked here.
TEST_CASE("quantized matmul: the AMX GEMM and the GEMM core against the reference", "[device][quantized_matmul]") {
  if (DeviceUnderTest() == MLDeviceType::kCpu && !ops::cpu::qmm::AmxAvailable())
    WARN("this CPU has no AMX: the cpu device's AMX GEMM is not exercised");
  struct AllowAmx {
    explicit AllowAmx(bool allowed) { ops::cpu::qmm::SetAmxAllowed(allowed); }
    ~AllowAmx() { ops::cpu::qmm::SetAmxAllowed(true); }
  };
  std::mt19937_64 rng(777);
  uint64_t seed = 900;
  for (bool amx : {true, false}) {
    INFO("AMX allowed: " << amx);
    const AllowAmx allow(amx);
    for (T code : {T::kInt4, T::kUint4, T::kInt8, T::kUint8}) {
      // K steps of 32 rows, and of 16 for blocks of 16 and 48; segments of
      // 256 rows within a block of 512; row pairs with 1, 16, 31 or 32 rows
      // in the last (and 15 rows: the GEMM core); partial column panels and
      // groups.
      for (uint32_t block : {16u, 32u, 48u, 64u, 512u}) {
        QuantCase c{T::kFloat32, code};
        c.scale_k = block == 512 ? 2 : 1 + static_cast<uint32_t>(rng() % 3);
        c.k = block * c.scale_k;
        const uint32_t rows[] = {15, 16, 31, 32, 33, 48, 65};
        c.m = rows[rng() % std::size(rows)];
        c.n = 1 + static_cast<uint32_t>(rng() % 90);
        c.gemm = c.b_transpose = rng() % 2;
        Check(c, seed++);
      }
    }
    // One block per column over K = 1,280: K chunks of 512 rows, the last of 256.
    QuantCase deep;
    deep.m = 40, deep.k = 1280, deep.n = 48, deep.scale_k = 1;
    Check(deep, seed++);
    // Bias and clamp (added in the first segment, applied after the last), and
    // SwiGLU's interleaved gate and up columns.
    QuantCase clamped;
    clamped.m = 17, clamped.k = 96, clamped.n = 50, clamped.scale_k = 3;
    clamped.bias = true;
    clamped.activation = "clamp";
    Check(clamped, seed++);
    QuantCase gated;
    gated.swiglu = true;
    gated.m = 20, gated.k = 64, gated.n = 40, gated.scale_k = 2;
    Check(gated, seed++);
    // A outside 2^-96 <= |a| < 2^32 (subnormal floats, which AMX would read as
    // 0, and large ones) takes the GEMM core; tiny normal ones split exactly.
    for (double a_max : {1e-37, 1e-25, 1e10}) {
      QuantCase range;
      range.m = 16, range.k = 64, range.n = 20, range.scale_k = 2;
      range.nonnegative = true;
      range.a_max = a_max;
      Check(range, seed++);
    }
  }
}

TEST_CASE("quantized matmul: gemm, bias and activations", "[device][quantized_matmul]") {
  uint64_t seed = 200;
  for (T act : {T::kFloat32, T::kFloat16}) {
    for (uint32_t m : {1u, 6u}) {
      for (const char* activation : {"", "relu", "clamp", "sigmoid"}) {
        QuantCase c{act, T::kInt4};
        c.m = m, c.k = 64, c.n = 40, c.scale_k = 2;
        c.bias = true;
        c.activation = activation;
        Check(c, seed++);
        c.gemm = true;
        Check(c, seed++);
        c.b_transpose = true;
        Check(c, seed++);
        Check(c, seed++, /*passes=*/false);
        c.bias_input = true;  // (as WPT's "quantized gemm with bias": no data when the graph is compiled)
        Check(c, seed++);
      }
    }
  }
}

TEST_CASE("quantized matmul: NaN and Inf in A and in the scales", "[device][quantized_matmul]") {
  // Short K, as in matmul's test: a product of two specials can overflow in
  // float32 where the float64 reference does not.
  uint64_t seed = 300;
  for (T act : {T::kFloat32, T::kFloat16}) {
    for (uint32_t m : {1u, 3u, 8u}) {
      QuantCase c{act, T::kInt4};
      c.m = m, c.k = 16, c.n = 36, c.scale_k = 1;
      c.nonnegative = true;
      c.special_a = 0.05;
      Check(c, seed++);
      c.special_a = 0;
      c.special_scale = 0.1;
      Check(c, seed++);
      Check(c, seed++, /*passes=*/false);
    }
  }
}

TEST_CASE("fuse swiglu: the gate and up projections of one input", "[passes][quantized_matmul]") {
  auto build = [](Graph& g, bool same_a, bool swapped, bool read_g, core::DataType up_type,
                  std::map<std::string, OperandId>& outputs) {
    const OperandId a = g.AddInput("a", Desc(core::DataType::kFloat32, {3, 64}));
    const OperandId a2 = same_a ? a : g.AddInput("a2", Desc(core::DataType::kFloat32, {3, 64}));
    auto matmul = [&](OperandId x, core::DataType type) {
      return PassNode(g, OpKind::matmul, {x, Dequantized(g, type, {64, 40}, {2, 40})}, std::make_shared<ops::MatmulAttrs>());
    };
    const OperandId gate = matmul(a, core::DataType::kInt4), up = matmul(a2, up_type);
    const OperandId sig = PassNode(g, OpKind::sigmoid, {gate}, std::make_shared<ops::ActivationAttrs>());
    const OperandId silu = swapped ? PassNode(g, OpKind::mul, {sig, gate}) : PassNode(g, OpKind::mul, {gate, sig});
    outputs["out"] = swapped ? PassNode(g, OpKind::mul, {up, silu}) : PassNode(g, OpKind::mul, {silu, up});
    if (read_g) outputs["g"] = gate;
  };
  auto live = [](Graph& g, const std::map<std::string, OperandId>& outputs) {
    graph::FuseQuantizedMatmul(g, outputs);
    graph::FuseSwiGlu(g, outputs);
    return SortedLiveOps(g, outputs);
  };
  for (bool swapped : {false, true}) {
    Graph g;
    std::map<std::string, OperandId> outputs;
    build(g, true, swapped, false, core::DataType::kInt4, outputs);
    INFO("swapped " << swapped);
    CHECK(live(g, outputs) == Strings{"quantizedMatmul"});
    const graph::Node& node = g.nodes()[g.operand(outputs["out"]).producer];
    CHECK(ops::AttrsAs<ops::QuantizedMatmulAttrs>(*node.attrs).gated);
    CHECK(node.inputs.size() == 8);
  }
  {
    Graph g;  // two inputs: two projections and the element-wise ops stay
    std::map<std::string, OperandId> outputs;
    build(g, false, false, false, core::DataType::kInt4, outputs);
    CHECK(live(g, outputs) == Strings{"mul", "mul", "quantizedMatmul", "quantizedMatmul", "sigmoid"});
  }
  {
    Graph g;  // the gate is read elsewhere
    std::map<std::string, OperandId> outputs;
    build(g, true, false, true, core::DataType::kInt4, outputs);
    CHECK(live(g, outputs) == Strings{"mul", "mul", "quantizedMatmul", "quantizedMatmul", "sigmoid"});
  }
  {
    Graph g;  // weights of different types
    std::map<std::string, OperandId> outputs;
    build(g, true, false, false, core::DataType::kUint4, outputs);
    CHECK(live(g, outputs) == Strings{"mul", "mul", "quantizedMatmul", "quantizedMatmul", "sigmoid"});
  }
}

TEST_CASE("quantized matmul: SwiGLU of two projections against the reference", "[device][quantized_matmul]") {
  QuantCase probe;
  probe.swiglu = true;
  probe.m = 3;
  if (DeviceUnderTestFusesQuantizedMatmul()) CHECK(ExecutedOps(probe, true) == Strings{"quantizedMatmul"});
  std::mt19937_64 rng(4242);
  uint64_t seed = 400;
  for (T act : {T::kFloat32, T::kFloat16}) {
    for (T code : {T::kInt4, T::kUint4, T::kInt8, T::kUint8}) {
      for (uint32_t m : {1u, 4u, 5u, 33u}) {
        QuantCase c{act, code};
        c.swiglu = true;
        c.swiglu_swapped = rng() % 2;
        c.m = m;
        c.scale_k = 1 + static_cast<uint32_t>(rng() % 3);
        c.k = 32 * c.scale_k;
        const uint32_t widths[] = {1, 15, 16, 17, 33, 70};
        c.n = widths[rng() % std::size(widths)];
        c.b_transpose = c.gemm = rng() % 3 == 0;
        Check(c, seed++);
      }
    }
  }
  // Several chunks of columns on the GEMM path (a [K, chunk] tile is 2 MiB),
  // and both paths with passes off.
  for (uint32_t m : {2u, 40u}) {
    QuantCase wide;
    wide.swiglu = true;
    wide.m = m, wide.k = 1024, wide.n = 700, wide.scale_k = 32;
    Check(wide, seed++);
    Check(wide, seed++, /*passes=*/false);
  }
  // NaN / Inf in A: the projections' NaN and Inf go through silu as they do unfused.
  QuantCase special;
  special.swiglu = true;
  special.m = 3, special.k = 16, special.n = 20, special.scale_k = 1;
  special.special_a = 0.05;
  Check(special, seed++);
}

// ---- MLContextOptions::int8MatmulActivations ---------------------------------------------------

namespace {

struct Int8Case {
  T act = T::kFloat32;
  T code = T::kInt4;
  uint32_t m = 1, k = 64, n = 40, block = 32;
  bool gated = false;     // SwiGLU of two weights
  bool infinite = false;  // an Inf in A: the exact path
};

// One weight, its scales [k / block, n] and zero points, as values and as
// the constants' bytes (4-bit codes two per byte, low nibble first).
struct Int8Weight {
  std::vector<int> q, zp;
  std::vector<float> scale;
  std::vector<std::byte> q_bytes, zp_bytes, scale_bytes;
};

std::vector<std::byte> CodeBytes(T code, const std::vector<int>& v) {
  const bool nibbles = code == T::kInt4 || code == T::kUint4;
  std::vector<std::byte> out(nibbles ? (v.size() + 1) / 2 : v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const auto bits = static_cast<uint8_t>(v[i]);
    if (nibbles) out[i / 2] |= std::byte((bits & 0x0F) << (i % 2 ? 4 : 0));
    else out[i] = std::byte(bits);
  }
  return out;
}

Int8Weight RandomWeight(const Int8Case& c, std::mt19937_64& rng) {
  const auto [lo, hi] = CodeRange(c.code);
  std::uniform_int_distribution<int> code(static_cast<int>(lo), static_cast<int>(hi));
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  Int8Weight w;
  const size_t params = size_t{c.k / c.block} * c.n;
  for (size_t i = 0; i < size_t{c.k} * c.n; ++i) w.q.push_back(code(rng));
  for (size_t i = 0; i < params; ++i) {
    w.zp.push_back(code(rng));
    float s = unit(rng) / static_cast<float>(hi - lo);
    if (c.act == T::kFloat16) s = static_cast<float>(core::HalfBitsToDouble(core::DoubleToHalfBits(s)));
    w.scale.push_back(s);
  }
  w.q_bytes = CodeBytes(c.code, w.q);
  w.zp_bytes = CodeBytes(c.code, w.zp);
  if (c.act == T::kFloat16) {
    std::vector<uint16_t> h;
    for (float s : w.scale) h.push_back(core::DoubleToHalfBits(s));
    w.scale_bytes = Bytes(h);
  } else {
    w.scale_bytes = Bytes(w.scale);
  }
  return w;
}

// a x W in float64, W's weights as dequantizeLinear makes them (the scale's
// type rounds (q - zp) * scale; float16 products of 11-bit values are exact).
std::vector<double> ExactProduct(const Int8Case& c, const std::vector<float>& a, const Int8Weight& w) {
  std::vector<double> y(size_t{c.m} * c.n, 0.0);
  for (uint32_t i = 0; i < c.m; ++i)
    for (uint32_t j = 0; j < c.n; ++j) {
      double sum = 0;
      for (uint32_t k = 0; k < c.k; ++k) {
        const size_t p = size_t{k / c.block} * c.n + j;
        const float weight = static_cast<float>(w.q[size_t{k} * c.n + j] - w.zp[p]) * w.scale[p];
        sum += static_cast<double>(a[size_t{i} * c.k + k]) * weight;
      }
      y[size_t{i} * c.n + j] = sum;
    }
  return y;
}

// The cpu device's int8-activation GEMV as documented: per row and block,
// sa = max |a| / 127 (float32), aq = round(a / sa) in [-127, 127], and the
// block adds float32(scale * sa) * sum (q - zp) * aq.
std::vector<double> Int8Product(const Int8Case& c, const std::vector<float>& a, const Int8Weight& w) {
  std::vector<double> y(size_t{c.m} * c.n, 0.0);
  for (uint32_t i = 0; i < c.m; ++i)
    for (uint32_t b = 0; b < c.k / c.block; ++b) {
      const float* x = a.data() + size_t{i} * c.k + size_t{b} * c.block;
      float amax = 0;
      for (uint32_t r = 0; r < c.block; ++r) amax = std::max(amax, std::fabs(x[r]));
      const float sa = amax / 127.0f;
      std::vector<int> aq(c.block, 0);
      for (uint32_t r = 0; r < c.block; ++r)
        aq[r] = sa > 0 ? static_cast<int>(std::clamp(std::nearbyint(x[r] / sa), -127.0f, 127.0f)) : 0;
      for (uint32_t j = 0; j < c.n; ++j) {
        const size_t p = size_t{b} * c.n + j;
        int64_t sum = 0;
        for (uint32_t r = 0; r < c.block; ++r) sum += int64_t{w.q[size_t{b * c.block + r} * c.n + j] - w.zp[p]} * aq[r];
        y[size_t{i} * c.n + j] += static_cast<double>(w.scale[p] * sa) * static_cast<double>(sum);
      }
    }
  return y;
}

double Silu(double g) { return g / (1.0 + std::exp(-g)); }

void CheckInt8(const Int8Case& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> a(size_t{c.m} * c.k);
  for (float& x : a) x = c.act == T::kFloat16 ? static_cast<float>(core::HalfBitsToDouble(core::DoubleToHalfBits(unit(rng)))) : unit(rng);
  if (c.infinite) a[c.k / 2] = std::numeric_limits<float>::infinity();
  const Int8Weight gate = RandomWeight(c, rng);
  const Int8Weight up = c.gated ? RandomWeight(c, rng) : Int8Weight{};
  // The cpu device quantizes A where it takes the GEMV (M <= 4) and A is
  // finite; every other case, and every other device, is exact.
  const bool quantized = DeviceUnderTest() == MLDeviceType::kCpu && c.m <= 4 && !c.infinite;
  auto model = [&](const Int8Weight& w) { return quantized ? Int8Product(c, a, w) : ExactProduct(c, a, w); };
  std::vector<double> want = model(gate);
  if (c.gated) {
    const std::vector<double> u = model(up);
    for (size_t i = 0; i < want.size(); ++i) want[i] = Silu(want[i]) * u[i];
  }

  HostTensor input{c.act, {c.m, c.k}, {}};
  if (c.act == T::kFloat16) {
    std::vector<uint16_t> h;
    for (float x : a) h.push_back(core::DoubleToHalfBits(x));
    input.data = Bytes(h);
  } else {
    input.data = Bytes(a);
  }
  auto weight = [&](MLGraphBuilder& g, const Int8Weight& w) {
    const MLOperandDescriptor scale{c.act, {c.k / c.block, c.n}}, zero_point{c.code, {c.k / c.block, c.n}};
    return g.dequantizeLinear(g.constant({c.code, {c.k, c.n}}, MLBufferSource(w.q_bytes)),
                              g.constant(scale, MLBufferSource(w.scale_bytes)),
                              g.constant(zero_point, MLBufferSource(w.zp_bytes)));
  };
  const auto out = Run({.device = DeviceUnderTest(), .strictPlacement = true, .int8MatmulActivations = true}, {input},
                       [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                         MLOperand y = g.matmul(in[0], weight(g, gate));
                         if (c.gated) {
                           const MLOperand u = g.matmul(in[0], weight(g, up));
                           y = g.mul(g.mul(y, g.sigmoid(y)), u);
                         }
                         return MLNamedOperands{{"out", y}};
                       });
  const HostTensor& t = out.at("out");
  const std::vector<double> got =
      c.act == T::kFloat16 ? FromHalf(FromBytes<uint16_t>(t.data)) : [&] {
        std::vector<double> v;
        for (float x : FromBytes<float>(t.data)) v.push_back(x);
        return v;
      }();
  REQUIRE(got.size() == want.size());
  double scale = 0;
  for (double x : want)
    if (std::isfinite(x)) scale = std::max(scale, std::fabs(x));
  // float32: the model's sums in float64 against the kernel's float32 (a
  // few ULP of the largest value); float16: the output's rounding.
  const double tolerance = (c.act == T::kFloat16 ? 2e-3 : 2e-6) * std::max(scale, 1.0) * (c.gated ? 4 : 1);
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool ok = std::isnan(want[i]) ? std::isnan(got[i])
                    : std::isinf(want[i]) ? got[i] == want[i]
                                          : std::fabs(got[i] - want[i]) <= tolerance;
    if (!ok && bad++ < 3)
      FAIL_CHECK("int8 activations " << ToString(c.act) << " x " << ToString(c.code) << " m " << c.m << " k " << c.k
                 << " block " << c.block << (c.gated ? " gated" : "") << (c.infinite ? " Inf in A" : "") << ": out["
                 << i << "] = " << got[i] << ", want " << want[i] << (quantized ? " (int8 model)" : " (exact)"));
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("quantized matmul: int8 activations (opt-in) quantize A on the cpu device, exactly as modelled",
          "[device][quantized_matmul]") {
  uint64_t seed = 900;
  for (T act : {T::kFloat32, T::kFloat16}) {
    for (T code : {T::kInt4, T::kUint4, T::kInt8, T::kUint8}) {
      // Blocks of 32 and 16 take VNNI where the CPU has it; 12 (4-bit) and 7
      // the portable integer path; M up to 4 the GEMV, 5 the exact GEMM.
      for (uint32_t block : {32u, 16u, 12u, 7u}) {
        Int8Case c{act, code};
        c.block = block;
        c.k = block * 3;
        c.m = 1 + static_cast<uint32_t>(seed % 4);
        CheckInt8(c, seed++);
      }
      Int8Case wide{act, code};
      wide.m = 4, wide.k = 512, wide.n = 1000, wide.block = 64;
      CheckInt8(wide, seed++);
      Int8Case gemm{act, code};
      gemm.m = 5;
      CheckInt8(gemm, seed++);
      Int8Case gated{act, code};
      gated.gated = true, gated.m = 2, gated.k = 96;
      CheckInt8(gated, seed++);
      Int8Case infinite{act, code};
      infinite.infinite = true, infinite.m = 2;
      CheckInt8(infinite, seed++);
    }
  }
  // One block of all K (per-column scales) with 8-bit codes: integer sums
  // past 2^24 (255 * 127 * 1024), exact in int32.
  Int8Case column{T::kFloat32, T::kUint8};
  column.k = column.block = 1024;
  column.n = 48;
  CheckInt8(column, seed++);
}
