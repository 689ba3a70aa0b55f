// The device's kernels of abs, ceil, cos, erf, exp, floor, identity, log, neg,
// reciprocal, roundEven, sin, sign, sqrt, tan against the reference device,
// for every data type each op allows, with NaN/Inf/-0 and huge arguments.
// Tolerances are WPT's (tests/data/wpt/<op>.json; integers exact).
#include <hwy/targets.h>

#include <cmath>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

const std::vector<std::string> kFloatOps = {"abs", "ceil",      "cos",       "erf", "exp",  "floor", "identity", "log",
                                            "neg", "reciprocal", "roundEven", "sin", "sign", "sqrt",  "tan"};

Tolerance UnaryTolerance(const std::string& op, T type) {
  const bool f32 = type == T::kFloat32;
  if (type != T::kFloat32 && type != T::kFloat16) return Tolerance::Ulp(0);
  if (op == "cos" || op == "sin") return Tolerance::Atol(f32 ? 1.0 / 1024 : 1.0 / 128);
  if (op == "erf" || op == "tan") return Tolerance::Atol(f32 ? 1.0 / 1024 : 1.0 / 512);
  if (op == "exp") return Tolerance::Ulp(f32 ? 32 : 1);
  if (op == "log") return Tolerance::Ulp(8);
  if (op == "reciprocal") return Tolerance::Ulp(2);
  if (op == "sqrt") return Tolerance::Ulp(1);
  return Tolerance::Ulp(0);
}

// Arguments where each function is interesting (ties for roundEven, the
// subnormal/overflow range for exp, poles for tan).
std::pair<double, double> UnaryRange(const std::string& op) {
  if (op == "exp") return {-110, 95};
  if (op == "log" || op == "sqrt") return {-1, 1000};
  if (op == "roundEven" || op == "ceil" || op == "floor") return {-8, 8};
  if (op == "sin" || op == "cos") return {-200, 200};
  if (op == "tan") return {-20, 20};
  if (op == "erf") return {-5, 5};
  return {-100, 100};
}

void CheckUnary(const std::string& op, T type, std::vector<uint32_t> shape, double special, uint64_t seed,
                std::pair<double, double> range) {
  InputSpec in{type, std::move(shape), range.first, range.second, special};
  CheckAgainstReference(DeviceUnderTest(), op, {in},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& x) {
                          return MLNamedOperands{{"out", ApplyUnaryOp(g, op, x[0])}};
                        },
                        UnaryTolerance(op, type), seed);
}

}  // namespace

TEST_CASE("unary float ops match reference on random shapes", "[device][elementwise_unary]") {
  std::mt19937_64 rng(17);
  for (const T type : {T::kFloat32, T::kFloat16}) {
    for (const std::string& op : kFloatOps) {
      for (int trial = 0; trial < 6; ++trial) {
        const uint32_t rank = static_cast<uint32_t>(rng() % 5);
        CheckUnary(op, type, RandomShape(rng, rank, 23), 0.05, rng(), UnaryRange(op));
      }
      // Size 1, odd tails.
      for (const std::vector<uint32_t>& shape : {std::vector<uint32_t>{}, {1}, {17}, {131}})
        CheckUnary(op, type, shape, 0.1, rng(), UnaryRange(op));
    }
  }
}

TEST_CASE("unary ops: ties, subnormal exp results, tan poles and huge trig arguments",
          "[device][elementwise_unary]") {
  std::mt19937_64 rng(19);
  for (const T type : {T::kFloat32, T::kFloat16}) {
    // Half-integers for roundEven/ceil/floor: x.5 exactly.
    for (const std::string op : {"roundEven", "ceil", "floor"}) {
      InputSpec in{type, {301}, -40, 40};
      CheckAgainstReference(DeviceUnderTest(), op + " ties", {in},
                            [&](MLGraphBuilder& g, const std::vector<MLOperand>& x) {
                              // floor(2x) / 2 + 0.5 is a half-integer.
                              const MLOperand two = g.constant(type, 2.0);
                              const MLOperand half = g.constant(type, 0.5);
                              const MLOperand h = g.add(g.div(g.floor(g.mul(x[0], two)), two), half);
                              return MLNamedOperands{{"out", ApplyUnaryOp(g, op, h)}};
                            },
                            Tolerance::Ulp(0), rng());
    }
    CheckUnary("exp", type, {997}, 0, rng(), {-104, -80});  // float32 subnormal results
    CheckUnary("tan", type, {997}, 0, rng(), {1.55, 1.59});  // around pi/2
    CheckUnary("sin", type, {997}, 0, rng(), {-1e6, 1e6});   // beyond Highway's range
    CheckUnary("cos", type, {997}, 0, rng(), {-1e6, 1e6});
    CheckUnary("log", type, {997}, 0, rng(), {0, 1e-3});
  }
}

TEST_CASE("unary ops and activations give zeros the reference's sign", "[device][elementwise_unary]") {
  // The ULP comparison counts -0 and +0 as equal; here the sign bit of every
  // zero result must match the reference (sign(+-0) was -0 on lavapipe).
  const std::vector<float> x = {0.0f, -0.0f, -0.25f, 0.25f, -0.5f, 0.5f, -1e-30f, 1e-30f};
  const std::vector<std::string> ops = {"abs",  "ceil",  "floor",     "neg",       "roundEven", "sign", "sin",
                                        "sqrt", "tan",   "erf",       "relu",      "leakyRelu", "elu",  "gelu",
                                        "tanh", "clamp", "hardSwish", "softsign",  "linear"};
  for (const std::string& op : ops) {
    auto body = [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
      return MLNamedOperands{{"out", ApplyUnaryOp(g, op, in[0], {.alpha = 0.5, .beta = 0})}};
    };
    const auto got = Run(DeviceUnderTest(), {Tensor(T::kFloat32, {8}, x)}, body).at("out");
    const auto want = Run(MLDeviceType::kReference, {Tensor(T::kFloat32, {8}, x)}, body).at("out");
    const std::vector<float> g = FromBytes<float>(got.data), w = FromBytes<float>(want.data);
    for (size_t k = 0; k < x.size(); ++k) {
      if (w[k] != 0.0f) continue;
      INFO(op << "(" << x[k] << "): got " << g[k] << ", reference " << w[k]);
      CHECK(g[k] == 0.0f);
      CHECK(std::signbit(g[k]) == std::signbit(w[k]));
    }
  }
}

TEST_CASE("unary integer abs, neg, sign and identity of every type", "[device][elementwise_unary]") {
  std::mt19937_64 rng(23);
  for (const T type : {T::kInt8, T::kInt32, T::kInt64}) {
    for (const std::string op : {"abs", "neg", "sign", "identity"}) {
      for (const std::vector<uint32_t>& shape : {std::vector<uint32_t>{}, {1}, {3, 67}, {5, 7, 11}})
        CheckUnary(op, type, shape, 0.1, rng(), {-100, 100});  // with MIN and MAX of the type
    }
  }
  for (const T type : {T::kUint8, T::kUint32, T::kUint64})
    CheckUnary("identity", type, {3, 67}, 0.1, rng(), {0, 100});
}

TEST_CASE("unary ops on large tensors", "[device][elementwise_unary]") {
  std::mt19937_64 rng(29);
  for (const T type : {T::kFloat32, T::kFloat16}) {
    for (const std::string op : {"exp", "erf", "sqrt", "abs", "tan", "identity"})
      CheckUnary(op, type, {3, 257, 131}, 0.01, rng(), UnaryRange(op));
  }
  CheckUnary("neg", T::kInt32, {100003}, 0.01, rng(), {-1000, 1000});
}

namespace {

// Every float16 bit pattern, or a sweep of float32 bit patterns covering every
// exponent (stride 4099 from a few offsets), through one op on both devices.
std::vector<std::byte> BitPatternSweep(T type) {
  if (type == T::kFloat16) {
    std::vector<uint16_t> v(65536);
    for (uint32_t k = 0; k < v.size(); ++k) v[k] = static_cast<uint16_t>(k);
    return Bytes(v);
  }
  std::vector<uint32_t> v;
  for (uint64_t b = 0; b <= 0xffffffffull; b += 4099) v.push_back(static_cast<uint32_t>(b));
  return Bytes(v);
}

int64_t OrderedBits(T type, const std::vector<std::byte>& d, size_t k) {
  if (type == T::kFloat16) {
    uint16_t h;
    std::memcpy(&h, d.data() + 2 * k, 2);
    return (h & 0x8000) ? -int64_t(h & 0x7fff) : int64_t(h);
  }
  uint32_t b;
  std::memcpy(&b, d.data() + 4 * k, 4);
  return (b & 0x80000000u) ? -int64_t(b & 0x7fffffffu) : int64_t(b);
}

double Value(T type, const std::vector<std::byte>& d, size_t k) {
  if (type == T::kFloat16) {
    uint16_t h;
    std::memcpy(&h, d.data() + 2 * k, 2);
    return core::HalfBitsToDouble(h);
  }
  float f;
  std::memcpy(&f, d.data() + 4 * k, 4);
  return f;
}

}  // namespace

// Exported for activation_test.cc.
void CheckBitPatternSweep(const std::string& what, T type,
                          const std::function<MLOperand(MLGraphBuilder&, const MLOperand&)>& op, Tolerance tol) {
  const std::vector<std::byte> data = BitPatternSweep(type);
  const uint32_t n = static_cast<uint32_t>(data.size() / (type == T::kFloat16 ? 2 : 4));
  const HostTensor in{type, {n}, data};
  auto body = [&](MLGraphBuilder& g, const std::vector<MLOperand>& x) { return MLNamedOperands{{"out", op(g, x[0])}}; };
  const auto want = Run(MLDeviceType::kReference, {in}, body).at("out").data;
  std::vector<std::byte> got;
  if (!RunUnlessUnsupported(DeviceUnderTest(), what, [&] { got = Run(DeviceUnderTest(), {in}, body).at("out").data; }))
    return;
  // A device that flushes float32 denormals (an NVIDIA GPU) flushes them where
  // its arithmetic reads or rounds them, not in bit operations (abs, neg) or
  // integer exponent arithmetic (exp's scaling): each element may match the
  // reference, the reference with denormal results flushed, or the reference
  // of the flushed input with denormal results flushed.
  std::vector<std::vector<std::byte>> wants = {want};
  if (type == T::kFloat32 && !DeviceKeepsFloat32Denormals()) {
    wants.push_back(want);
    FlushFloat32Denormals(wants.back());
    HostTensor flushed_in = in;
    FlushFloat32Denormals(flushed_in.data);
    wants.push_back(Run(MLDeviceType::kReference, {flushed_in}, body).at("out").data);
    FlushFloat32Denormals(wants.back());
  }
  size_t bad = 0, first = 0;
  double worst = 0;
  for (size_t k = 0; k < n; ++k) {
    const double a = Value(type, got, k);
    bool ok = false;
    double dist = INFINITY;  // to the closest candidate
    for (size_t w = 0; w < wants.size() && !ok; ++w) {
      const double b = Value(type, wants[w], k);
      double d = 0;
      if (std::isnan(a) || std::isnan(b)) ok = std::isnan(a) && std::isnan(b);
      else if (std::isinf(a) || std::isinf(b)) ok = a == b;
      else if (tol.metric == Tolerance::Metric::kAtol) ok = (d = std::fabs(a - b)) <= tol.value;
      else ok = (d = static_cast<double>(std::llabs(OrderedBits(type, got, k) - OrderedBits(type, wants[w], k)))) <= tol.value;
      dist = std::min(dist, d);
    }
    worst = std::max(worst, dist);
    if (!ok && bad++ == 0) first = k;
  }
  INFO(what << ": worst " << worst << ", " << bad << " of " << n << " beyond tolerance; first input "
            << Value(type, data, first) << " got " << Value(type, got, first) << " reference "
            << Value(type, want, first));
  CHECK(bad == 0);
}

TEST_CASE("unary float ops on every float16 and a float32 bit-pattern sweep", "[device][elementwise_unary]") {
  for (const T type : {T::kFloat16, T::kFloat32}) {
    for (const std::string& op : kFloatOps)
      CheckBitPatternSweep(op, type, [&](MLGraphBuilder& g, const MLOperand& x) { return ApplyUnaryOp(g, op, x); },
                           UnaryTolerance(op, type));
  }
}

// Runs `f` once per SIMD target compiled in and supported here (AVX-512, AVX2,
// SSE4, scalar on x86): each has its own code paths (float16 conversion is
// emulated on SSE4 and scalar). Exported for the other files' [cpu] tests.
void ForEachSimdTarget(const std::function<void(const std::string&)>& f) {
  struct Restore {
    ~Restore() { hwy::SetSupportedTargetsForTest(0); }  // also when a REQUIRE throws
  } restore;
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    f(hwy::TargetName(target));
  }
}

TEST_CASE("cpu unary float ops on every SIMD target", "[cpu][elementwise_unary]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  ForEachSimdTarget([](const std::string& target) {
    INFO("target " << target);
    for (const std::string& op : kFloatOps)
      CheckBitPatternSweep(op + " on " + target, T::kFloat16,
                           [&](MLGraphBuilder& g, const MLOperand& x) { return ApplyUnaryOp(g, op, x); },
                           UnaryTolerance(op, T::kFloat16));
    std::mt19937_64 rng(53);
    for (const std::string& op : kFloatOps) CheckUnary(op, T::kFloat32, {3, 41}, 0.05, rng(), UnaryRange(op));
    for (const T type : {T::kInt8, T::kInt32, T::kInt64})
      for (const std::string op : {"abs", "neg", "sign"}) CheckUnary(op, type, {3, 41}, 0.1, rng(), {-100, 100});
  });
}
