// The oracle (docs/ORACLE.md): ULP distances, the histogram and scores, WPT's
// tolerances over a graph's cone, and the float64 truth of the reference
// device; then the device under test scored against that truth.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "api/impl.h"
#include "api/unrounded_outputs.h"
#include "core/float16.h"
#include "core/ulp.h"
#include "io/oracle_score.h"
#include "io/wpt_tolerance.h"
#include "test_util.h"

using namespace webnn;
using namespace webnn::test;
using Kind = core::UlpDistance::Kind;

namespace {

constexpr auto kF32 = MLOperandDataType::kFloat32;
constexpr auto kF16 = MLOperandDataType::kFloat16;

core::UlpDistance F32(float candidate, double truth) { return core::FloatUlpDistance(candidate, truth, kF32); }
core::UlpDistance F16(uint16_t candidate_bits, double truth) {
  return core::FloatUlpDistance(core::HalfBitsToDouble(candidate_bits), truth, kF16);
}
uint64_t Ulps(core::UlpDistance d) {
  REQUIRE(d.kind == Kind::kDistance);
  return d.ulps;
}

}  // namespace

TEST_CASE("oracle: float32 ULP distances", "[oracle]") {
  const float one_up = std::nextafter(1.0f, 2.0f);
  CHECK(Ulps(F32(1.0f, 1.0)) == 0);
  CHECK(Ulps(F32(one_up, 1.0)) == 1);
  CHECK(Ulps(F32(1.0f, one_up)) == 1);
  CHECK(Ulps(F32(std::nextafter(one_up, 2.0f), 1.0)) == 2);
  // The truth is rounded to float32 first (to nearest even): 1 + 2^-24 is the
  // tie between 1 and its successor, and rounds to 1.
  CHECK(Ulps(F32(1.0f, 1.0 + std::ldexp(1.0, -24))) == 0);
  CHECK(Ulps(F32(one_up, 1.0 + std::ldexp(1.0, -24) * 1.5)) == 0);
  // Zeros and the sign.
  CHECK(Ulps(F32(0.0f, -0.0)) == 0);
  CHECK(Ulps(F32(-0.0f, 0.0)) == 0);
  const float min_denorm = std::numeric_limits<float>::denorm_min();
  CHECK(Ulps(F32(min_denorm, 0.0)) == 1);
  CHECK(Ulps(F32(-min_denorm, min_denorm)) == 2);
  CHECK(Ulps(F32(-1.0f, 1.0)) == 2 * uint64_t{0x3f800000});
  // Across the normal/subnormal boundary the line has no gap.
  const float min_normal = std::numeric_limits<float>::min();
  CHECK(Ulps(F32(std::nextafter(min_normal, 0.0f), min_normal)) == 1);
  // NaN meets NaN; NaN against a number is a mismatch, either way.
  CHECK(Ulps(F32(std::nanf(""), std::nan("1"))) == 0);
  CHECK(F32(std::nanf(""), 1.0).kind == Kind::kNanMismatch);
  CHECK(F32(1.0f, std::nan("")).kind == Kind::kNanMismatch);
  // Infinities: equal ones match; against anything else, a mismatch (not
  // one ULP past the largest finite value).
  const float inf = std::numeric_limits<float>::infinity();
  const float max = std::numeric_limits<float>::max();
  CHECK(Ulps(F32(inf, INFINITY)) == 0);
  CHECK(F32(inf, -INFINITY).kind == Kind::kInfMismatch);
  CHECK(F32(max, INFINITY).kind == Kind::kInfMismatch);
  CHECK(F32(inf, max).kind == Kind::kInfMismatch);
  // A truth past the largest float32 (by more than half an ULP) rounds to Infinity.
  CHECK(Ulps(F32(inf, 3.5e38)) == 0);
}

TEST_CASE("oracle: float16 ULP distances", "[oracle]") {
  CHECK(Ulps(F16(0x3c00, 1.0)) == 0);      // 1.0
  CHECK(Ulps(F16(0x3c01, 1.0)) == 1);      // 1 + 2^-10
  CHECK(Ulps(F16(0x3bff, 1.0)) == 1);      // 1 - 2^-11
  CHECK(Ulps(F16(0x8000, 0.0)) == 0);      // -0 vs +0
  CHECK(Ulps(F16(0x0001, 0.0)) == 1);      // the smallest subnormal
  CHECK(Ulps(F16(0x8001, std::ldexp(1.0, -24))) == 2);
  CHECK(Ulps(F16(0x0400, std::ldexp(1023.0, -24))) == 1);  // smallest normal vs largest subnormal
  // The truth rounds to float16: 1 + 2^-11 is a tie, to even (1.0).
  CHECK(Ulps(F16(0x3c00, 1.0 + std::ldexp(1.0, -11))) == 0);
  CHECK(Ulps(F16(0x3c01, 1.0 + std::ldexp(1.0, -11))) == 1);
  CHECK(F16(0x7bff, 65520.0).kind == Kind::kInfMismatch);  // 65520 rounds to Infinity
  CHECK(Ulps(F16(0x7c00, 70000.0)) == 0);
  CHECK(F16(0x7e00, 1.0).kind == Kind::kNanMismatch);
  CHECK(Ulps(F16(0x7e00, std::nan(""))) == 0);
}

TEST_CASE("oracle: integer distances are exact", "[oracle]") {
  const std::vector<int64_t> a = {std::numeric_limits<int64_t>::min(), 5, -3};
  const std::vector<int64_t> b = {std::numeric_limits<int64_t>::max(), 5, 4};
  CHECK(core::IntegerDistance(std::as_bytes(std::span(a)), std::as_bytes(std::span(b)), MLOperandDataType::kInt64, 0) ==
        std::numeric_limits<uint64_t>::max());
  CHECK(core::IntegerDistance(std::as_bytes(std::span(a)), std::as_bytes(std::span(b)), MLOperandDataType::kInt64, 1) == 0);
  CHECK(core::IntegerDistance(std::as_bytes(std::span(a)), std::as_bytes(std::span(b)), MLOperandDataType::kInt64, 2) == 7);
  const std::vector<std::byte> packed_a = {std::byte{0x8f}}, packed_b = {std::byte{0x70}};  // int4 [-1, -8] vs [0, 7]
  CHECK(core::IntegerDistance(packed_a, packed_b, MLOperandDataType::kInt4, 0) == 1);
  CHECK(core::IntegerDistance(packed_a, packed_b, MLOperandDataType::kInt4, 1) == 15);
}

TEST_CASE("oracle: histogram buckets", "[oracle]") {
  CHECK(io::UlpBucket(0) == 0);
  CHECK(io::UlpBucket(1) == 1);
  CHECK(io::UlpBucket(2) == 2);
  CHECK(io::UlpBucket(3) == 3);
  CHECK(io::UlpBucket(4) == 3);
  CHECK(io::UlpBucket(5) == 4);
  CHECK(io::UlpBucket(8) == 4);
  CHECK(io::UlpBucket(9) == 5);
  CHECK(io::UlpBucket(uint64_t{1} << 20) == io::kUlpBucketCount - 2);
  CHECK(io::UlpBucket((uint64_t{1} << 20) + 1) == io::kUlpBucketCount - 1);
  CHECK(io::UlpBucket(std::numeric_limits<uint64_t>::max()) == io::kUlpBucketCount - 1);
  CHECK(io::UlpBucketName(3) == "3-4");
  CHECK(io::UlpBucketName(5) == "9-16");
  CHECK(io::UlpBucketName(io::kUlpBucketCount - 1) == ">1048576");
  // Every distance falls in the bucket whose name covers it.
  for (uint64_t u : {3ull, 4ull, 5ull, 100ull, 1000ull, 65536ull, 65537ull, 1048576ull}) {
    const std::string name = io::UlpBucketName(io::UlpBucket(u));
    const size_t dash = name.find('-');
    REQUIRE(dash != std::string::npos);
    CHECK(std::stoull(name.substr(0, dash)) <= u);
    CHECK(u <= std::stoull(name.substr(dash + 1)));
  }
}

TEST_CASE("oracle: scores count distances, mismatches and errors against the float64 truth", "[oracle]") {
  const float one_up = std::nextafter(1.0f, 2.0f);
  const std::vector<float> candidate = {1.0f, one_up, std::nanf(""), 2.0f, -0.0f, 5.0f};
  const std::vector<double> truth = {1.0, 1.0, std::nan(""), 2.0 + 1e-9, 0.0, std::nan("")};
  std::vector<float> rounded(truth.begin(), truth.end());
  const auto c = std::as_bytes(std::span(candidate));
  const auto r = std::as_bytes(std::span(rounded));
  const io::OutputScore exact = io::ScoreOutput(c, truth, r, kF32, {0, 0});
  CHECK(exact.elements == 6);
  CHECK(exact.histogram[0] == 4);  // 1, NaN/NaN, 2 (the truth rounds to 2), -0/+0
  CHECK(exact.histogram[1] == 1);
  CHECK(exact.nan_mismatches == 1);
  CHECK(exact.inf_mismatches == 0);
  CHECK(exact.failing == 2);  // one ULP over a zero tolerance, and the NaN mismatch
  CHECK_FALSE(exact.pass());
  CHECK(exact.max_ulp == 1);
  CHECK(exact.median_ulp == 0);
  CHECK(exact.p99_ulp == 1);
  CHECK(exact.max_abs_error == Approx(static_cast<double>(one_up) - 1.0));
  CHECK(exact.max_rel_error == Approx(static_cast<double>(one_up) - 1.0));
  CHECK(exact.worst_index == 5);  // the mismatch comes first
  const io::OutputScore lenient = io::ScoreOutput(c, truth, r, kF32, {1, 0});
  CHECK(lenient.failing == 1);  // the NaN mismatch fails under any tolerance
  // The same distances pass under an absolute tolerance that covers them.
  const std::vector<float> close = {1.0f, one_up};
  const std::vector<double> close_truth = {1.0, 1.0};
  CHECK(io::ScoreOutput(std::as_bytes(std::span(close)), close_truth, std::as_bytes(std::span(close)), kF32,
                        {0, 1e-6})
            .pass());
}

TEST_CASE("oracle: WPT's tolerance of an output is the sum over the ops of its cone", "[oracle]") {
  MLContext ctx = ML::createContext({.device = MLDeviceType::kReference});
  MLGraphBuilder b(ctx);
  // x [1, 4, 6, 6] -> conv2d 3x3 (4 -> 2 channels) -> sigmoid -> y
  //                -> reduceMean over [2, 3] -> z (does not depend on the conv)
  //   a [3, 5] @ w [5, 7] -> softmax(axis 1) -> s
  MLOperand x = b.input("x", {kF32, {1, 4, 6, 6}});
  std::vector<float> filter(2 * 4 * 3 * 3, 0.5f);
  MLOperand f = b.constant({kF32, {2, 4, 3, 3}}, filter);
  MLOperand y = b.sigmoid(b.conv2d(x, f));
  MLOperand z = b.reduceMean(x, {.axes = std::vector<uint32_t>{2, 3}});
  MLOperand a = b.input("a", {kF32, {3, 5}});
  std::vector<float> w(5 * 7, 1.0f);
  MLOperand s = b.softmax(b.matmul(a, b.constant({kF32, {5, 7}}, w)), 1);
  MLGraph graph = b.build({{"y", y}, {"z", z}, {"s", s}});
  const internal::GraphImpl& g = *graph.impl();
  std::vector<std::vector<uint32_t>> shapes;
  for (const auto& o : g.ir->operands()) shapes.push_back(core::Sizes(o.desc.shape));
  auto cone = [&](const char* name) { return io::WptConeTolerance(*g.ir, g.outputs.at(name), shapes); };
  // conv2d: 2 * kernel h * kernel w * input channels per group; sigmoid: 34.
  CHECK(cone("y").total.ulp == 2 * 3 * 3 * 4 + 34);
  CHECK(cone("y").ops == 2);
  // reduceMean: the reduced element count + 2.
  CHECK(cone("z").total.ulp == 6 * 6 + 2);
  // matmul: 2 * K; softmax: 3 * the axis size + 3.
  CHECK(cone("s").total.ulp == 2 * 5 + 3 * 7 + 3);
  CHECK(cone("s").terms.size() == 2);

  MLGraphBuilder b2(ctx);
  MLOperand h = b2.input("h", {kF16, {4}});
  MLGraph trig = b2.build({{"t", b2.add(b2.sin(h), h)}});
  const internal::GraphImpl& g2 = *trig.impl();
  std::vector<std::vector<uint32_t>> shapes2;
  for (const auto& o : g2.ir->operands()) shapes2.push_back(core::Sizes(o.desc.shape));
  const io::ConeTolerance t = io::WptConeTolerance(*g2.ir, g2.outputs.at("t"), shapes2);
  CHECK(t.total.ulp == 1);               // add
  CHECK(t.total.atol == 1.0 / 128);      // sin, float16
}

TEST_CASE("oracle: the truth is the reference's float64 before the final rounding", "[oracle][reference]") {
  MLContext ctx = ML::createContext({.device = MLDeviceType::kReference});
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {kF32, {2, 3}});
  std::vector<float> three(6, 3.0f);
  MLOperand third = b.div(x, b.constant({kF32, {2, 3}}, three));
  // The division again, then rounded to float16 by a cast: the cast's input
  // is the rounded float32 quotient, its output the float16 of that.
  MLGraph graph = b.build({{"q", third}, {"r", b.reshape(third, {6})}, {"h", b.cast(third, kF16)}, {"same", third}});
  std::vector<float> xs = {1, 2, 10, -7, 1e-3f, 5};
  MLTensor xt = ctx.createTensor({kF32, {2, 3}, false, true});
  ctx.writeTensor(xt, xs);
  const auto truth = internal::ComputeUnroundedOutputs(ctx, graph, {{"x", xt}});
  const auto& q = truth.at("q");
  CHECK(q.unrounded_elements == 6);
  const std::vector<float> q_rounded = FromBytes<float>(q.rounded);
  for (size_t k = 0; k < xs.size(); ++k) {
    CHECK(q.values[k] == static_cast<double>(xs[k]) / 3.0);
    CHECK(q_rounded[k] == static_cast<float>(q.values[k]));
  }
  // A reshape moves the rounded quotient: its truth is that value.
  const auto& r = truth.at("r");
  CHECK(r.unrounded_elements == 0);
  for (size_t k = 0; k < xs.size(); ++k) CHECK(r.values[k] == static_cast<double>(q_rounded[k]));
  // cast computes (float32 -> float16): the truth is its input, unrounded.
  const auto& h = truth.at("h");
  CHECK(h.unrounded_elements == 6);
  for (size_t k = 0; k < xs.size(); ++k) CHECK(h.values[k] == static_cast<double>(q_rounded[k]));
  // Two outputs naming one operand have one truth.
  CHECK(truth.at("same").values == q.values);
  CHECK(truth.at("same").unrounded_elements == 6);

  MLContext cpu = ML::createContext({.device = MLDeviceType::kCpu});
  MLGraphBuilder cb(cpu);
  MLGraph other = cb.build({{"y", cb.relu(cb.input("x", {kF32, {2}}))}});
  MLTensor ct = cpu.createTensor({kF32, {2}, false, true});
  CHECK_THROWS_AS(internal::ComputeUnroundedOutputs(cpu, other, {{"x", ct}}), NotSupportedError);
}

TEST_CASE("oracle: the device under test passes against the truth", "[oracle][device]") {
  // conv2d + sigmoid, softmax and a float16 matmul: the device's outputs
  // scored as a candidate would be, under WPT's tolerances for the cone.
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    for (float& e : v) e = u(rng);
    return v;
  };
  MLContext ref = ML::createContext({.device = MLDeviceType::kReference});
  MLContext dut = ML::createContext({.device = DeviceUnderTest(), .strictPlacement = true});
  const std::vector<float> filter = random(8 * 3 * 3 * 3), xs = random(3 * 10 * 10), as = random(4 * 9),
                           bs = random(9 * 5);
  auto build = [&](MLContext& ctx) {
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {kF32, {1, 3, 10, 10}});
    MLOperand conv = b.conv2d(x, b.constant({kF32, {8, 3, 3, 3}}, filter), {.padding = std::vector<uint32_t>{1, 1, 1, 1}});
    MLOperand a = b.cast(b.input("a", {kF32, {4, 9}}), kF16);
    MLOperand m = b.matmul(a, b.cast(b.constant({kF32, {9, 5}}, bs), kF16));
    return b.build({{"y", b.sigmoid(conv)}, {"s", b.softmax(b.reshape(conv, {8, 100}), 1)}, {"m", m}});
  };
  auto inputs = [&](MLContext& ctx) {
    MLTensor x = ctx.createTensor({kF32, {1, 3, 10, 10}, false, true});
    MLTensor a = ctx.createTensor({kF32, {4, 9}, false, true});
    ctx.writeTensor(x, xs);
    ctx.writeTensor(a, as);
    return MLNamedTensors{{"x", x}, {"a", a}};
  };
  MLGraph ref_graph = build(ref);
  const auto truth = internal::ComputeUnroundedOutputs(ref, ref_graph, inputs(ref));
  MLGraph graph;
  if (!RunUnlessUnsupported(DeviceUnderTest(), "oracle: the scored graph", [&] { graph = build(dut); })) return;
  MLNamedTensors outs;
  for (const auto& [name, t] : truth) outs[name] = dut.createTensor({t.dataType, t.shape, true, false});
  dut.dispatch(graph, inputs(dut), outs);
  const internal::GraphImpl& g = *ref_graph.impl();
  std::vector<std::vector<uint32_t>> shapes;
  for (const auto& o : g.ir->operands()) shapes.push_back(core::Sizes(o.desc.shape));
  for (const auto& [name, t] : truth) {
    INFO("output " << name << " on " << DeviceUnderTestName());
    const io::ConeTolerance tolerance = io::WptConeTolerance(*g.ir, g.outputs.at(name), shapes);
    const io::OutputScore s = io::ScoreOutput(dut.readTensor(outs[name]), t.values, t.rounded, t.dataType, tolerance.total);
    INFO("max ULP " << s.max_ulp << " of " << tolerance.total.ulp);
    CHECK(s.pass());
  }
}
