// The device's kernels of the activations against the reference device, for every data
// type each allows, with NaN/Inf/-0, option corner cases (zero coefficients,
// NaN and absent clamp bounds) and the far tails where results are subnormal.
// Tolerances are WPT's (tests/data/wpt/<op>.json; integers exact). Also
// ApplyActivationF32 (the fused-epilogue entry point) against the kernels.
#include <cstring>

#include "cross_device.h"
#include "ops/cpu/activation.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

struct Activation {
  std::string op;
  double alpha = 0, beta = 0;
  std::optional<MLNumber> lo, hi;
};

MLOperand Apply(MLGraphBuilder& b, const Activation& a, const MLOperand& x) {
  return ApplyUnaryOp(b, a.op, x, {.alpha = a.alpha, .beta = a.beta, .lo = a.lo, .hi = a.hi});
}

Tolerance ActivationTolerance(const std::string& op, T type) {
  const bool f32 = type == T::kFloat32;
  if (type != T::kFloat32 && type != T::kFloat16) return Tolerance::Ulp(0);
  if (op == "elu" || op == "gelu" || op == "softplus") return Tolerance::Ulp(18);
  if (op == "hardSigmoid" || op == "linear") return Tolerance::Ulp(2);
  if (op == "hardSwish") return Tolerance::Ulp(4);
  if (op == "leakyRelu") return Tolerance::Ulp(f32 ? 1 : 2);
  if (op == "sigmoid") return Tolerance::Ulp(f32 ? 34 : 10);
  if (op == "softsign") return Tolerance::Ulp(3);
  if (op == "tanh") return Tolerance::Ulp(16);
  return Tolerance::Ulp(0);
}

void Check(const Activation& a, T type, std::vector<uint32_t> shape, double lo, double hi, double special,
           uint64_t seed) {
  InputSpec in{type, std::move(shape), lo, hi, special};
  CheckAgainstReference(DeviceUnderTest(), a.op, {in},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& x) {
                          return MLNamedOperands{{"out", Apply(g, a, x[0])}};
                        },
                        ActivationTolerance(a.op, type), seed);
}

std::vector<Activation> FloatActivations() {
  return {{"elu", 1.0},
          {"elu", 0.3},
          {"gelu"},
          {"hardSigmoid", 0.2, 0.5},
          {"hardSigmoid", 0.0, 0.25},
          {"hardSwish"},
          {"leakyRelu", 0.01},
          {"leakyRelu", 0.0},
          {"leakyRelu", -2.5},
          {"linear", 1.0, 0.0},
          {"linear", 0.0, 3.0},
          {"linear", -1.7, 0.3},
          {"relu"},
          {"sigmoid"},
          {"softplus"},
          {"softsign"},
          {"tanh"},
          {"clamp", 0, 0, MLNumber(-1.5), MLNumber(2.25)},
          {"clamp", 0, 0, std::nullopt, MLNumber(0.0)},
          {"clamp", 0, 0, MLNumber(std::nan("")), MLNumber(6.0)},
          {"clamp"}};
}

}  // namespace

// elementwise_unary_test.cc: every float16 / a float32 bit-pattern sweep.
void CheckBitPatternSweep(const std::string& what, MLOperandDataType type,
                          const std::function<MLOperand(MLGraphBuilder&, const MLOperand&)>& op, Tolerance tol);

TEST_CASE("float activations on every float16 and a float32 bit-pattern sweep", "[device][activation]") {
  for (const T type : {T::kFloat16, T::kFloat32}) {
    for (const Activation& a : FloatActivations())
      CheckBitPatternSweep(a.op, type, [&](MLGraphBuilder& g, const MLOperand& x) { return Apply(g, a, x); },
                           ActivationTolerance(a.op, type));
  }
}

TEST_CASE("float activations match reference on random shapes", "[device][activation]") {
  std::mt19937_64 rng(31);
  for (const T type : {T::kFloat32, T::kFloat16}) {
    for (const Activation& a : FloatActivations()) {
      for (int trial = 0; trial < 4; ++trial) {
        const uint32_t rank = static_cast<uint32_t>(rng() % 5);
        Check(a, type, RandomShape(rng, rank, 23), -8, 8, 0.05, rng());
      }
      for (const std::vector<uint32_t>& shape : {std::vector<uint32_t>{}, {1}, {15}, {129}})
        Check(a, type, shape, -30, 30, 0.1, rng());
    }
  }
}

TEST_CASE("activations in their tails (subnormal results, saturation)", "[device][activation]") {
  std::mt19937_64 rng(37);
  for (const T type : {T::kFloat32, T::kFloat16}) {
    for (const std::string op : {"gelu", "sigmoid", "softplus", "elu", "tanh", "softsign"}) {
      Check({op, 1.0}, type, {2001}, -120, -8, 0, rng());  // gelu(-13.5), sigmoid(-95): float32 subnormals
      Check({op, 1.0}, type, {2001}, 8, 120, 0, rng());
      Check({op, 1.0}, type, {2001}, -1e-3, 1e-3, 0, rng());
    }
  }
}

TEST_CASE("relu and clamp on every integer type", "[device][activation]") {
  std::mt19937_64 rng(41);
  for (const T type : {T::kInt8, T::kInt32, T::kInt64}) Check({"relu"}, type, {7, 37}, -100, 100, 0.1, rng());
  for (const T type : {T::kInt8, T::kUint8, T::kInt32, T::kUint32, T::kInt64, T::kUint64}) {
    const bool is_signed = type == T::kInt8 || type == T::kInt32 || type == T::kInt64;
    const double lo = is_signed ? -100 : 0;
    for (const Activation& a :
         std::vector<Activation>{{"clamp", 0, 0, MLNumber(is_signed ? -20 : 3), MLNumber(50)},
                                 {"clamp", 0, 0, std::nullopt, MLNumber(7.9)},  // truncates to 7
                                 {"clamp", 0, 0, MLNumber(-1e30), std::nullopt},
                                 {"clamp"}})
      Check(a, type, {5, 41}, lo, 100, 0.1, rng());
  }
  Check({"clamp", 0, 0, MLNumber::BigInt(-5), MLNumber::BigInt(int64_t{1} << 40)}, T::kInt64, {301}, -100, 100, 0.2,
        rng());
  Check({"clamp", 0, 0, MLNumber::BigUint(3), MLNumber::BigUint(~uint64_t{0} - 1)}, T::kUint64, {301}, 0, 100, 0.2,
        rng());
}

TEST_CASE("activations on large tensors", "[device][activation]") {
  std::mt19937_64 rng(43);
  for (const T type : {T::kFloat32, T::kFloat16}) {
    for (const std::string op : {"relu", "gelu", "sigmoid", "tanh", "hardSwish"})
      Check({op}, type, {2, 131, 263}, -10, 10, 0.01, rng());
  }
  Check({"relu"}, T::kInt8, {200003}, -100, 100, 0, rng());
}

// The cpu device's fused-epilogue entry point, called directly: [cpu].
TEST_CASE("ApplyActivationF32 matches the activation kernels", "[cpu][activation]") {
  std::mt19937_64 rng(47);
  for (const Activation& a : FloatActivations()) {
    for (const uint32_t n : {1u, 16u, 37u, 1000u}) {
      InputSpec in{T::kFloat32, {n}, -20, 20, 0.05};
      std::vector<std::byte> raw = RandomTensorData(in, rng);
      // Through a graph on the cpu device...
      MLContext ctx = Context(MLDeviceType::kCpu);
      MLGraphBuilder builder(ctx);
      MLOperand x = builder.input("x", {T::kFloat32, {n}});
      MLOperand y = Apply(builder, a, x);
      MLGraph graph = builder.build({{"y", y}});
      MLTensor tx = ctx.createTensor({T::kFloat32, {n}, false, true});
      MLTensor ty = ctx.createTensor({T::kFloat32, {n}, true, false});
      ctx.writeTensor(tx, MLBufferSource(std::span<const std::byte>(raw)));
      ctx.dispatch(graph, {{"x", tx}}, {{"y", ty}});
      const std::vector<float> want = FromBytes<float>(ctx.readTensor(ty));
      // ... and in place through the fusion entry point.
      std::vector<float> got = FromBytes<float>(raw);
      ops::ActivationAttrs attrs;
      attrs.alpha = a.alpha;
      attrs.beta = a.beta;
      attrs.minValue = a.lo;
      attrs.maxValue = a.hi;
      const auto kind = a.op == "elu"           ? ops::OpKind::elu
                        : a.op == "gelu"        ? ops::OpKind::gelu
                        : a.op == "hardSigmoid" ? ops::OpKind::hardSigmoid
                        : a.op == "hardSwish"   ? ops::OpKind::hardSwish
                        : a.op == "leakyRelu"   ? ops::OpKind::leakyRelu
                        : a.op == "linear"      ? ops::OpKind::linear
                        : a.op == "relu"        ? ops::OpKind::relu
                        : a.op == "sigmoid"     ? ops::OpKind::sigmoid
                        : a.op == "softplus"    ? ops::OpKind::softplus
                        : a.op == "softsign"    ? ops::OpKind::softsign
                        : a.op == "tanh"        ? ops::OpKind::tanh
                                                : ops::OpKind::clamp;
      ops::cpu::ApplyActivationF32(kind, attrs, got.data(), got.size());
      INFO(a.op << " n=" << n);
      REQUIRE(std::memcmp(got.data(), want.data(), n * sizeof(float)) == 0);
    }
  }
}

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("cpu activations on every SIMD target", "[cpu][activation]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(53);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const Activation& a : FloatActivations()) {
      for (const T type : {T::kFloat16, T::kFloat32})
        CheckBitPatternSweep(a.op + " on " + target, type,
                             [&](MLGraphBuilder& g, const MLOperand& x) { return Apply(g, a, x); },
                             ActivationTolerance(a.op, type));
      Check(a, T::kFloat32, {3, 67}, -30, 30, 0.05, rng());
    }
    for (const T type : {T::kInt8, T::kInt32, T::kInt64}) Check({"relu"}, type, {3, 67}, -100, 100, 0.1, rng());
    for (const T type : {T::kUint8, T::kUint32, T::kUint64})
      Check({"clamp", 0, 0, MLNumber(3), MLNumber(50)}, type, {3, 67}, 0, 100, 0.1, rng());
  });
}
