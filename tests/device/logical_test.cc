// The device's kernels of logicalNot, logicalAnd, logicalOr, logicalXor, isNaN and
// isInfinite against the reference device (exact uint8 outputs).
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

void CheckBinary(const std::string& op, std::vector<uint32_t> sa, std::vector<uint32_t> sb, uint64_t seed) {
  // Any byte value is a boolean: mostly 0/1, some 2..255 (non-zero is true).
  InputSpec a{T::kUint8, std::move(sa), 0, 2, 0.2};
  InputSpec b{T::kUint8, std::move(sb), 0, 2, 0.2};
  CheckAgainstReference(DeviceUnderTest(), op, {a, b},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          const MLOperand r = op == "logicalAnd"  ? g.logicalAnd(in[0], in[1])
                                              : op == "logicalOr" ? g.logicalOr(in[0], in[1])
                                                                  : g.logicalXor(in[0], in[1]);
                          return MLNamedOperands{{"out", r}};
                        },
                        Tolerance::Ulp(0), seed);
}

void CheckUnary(const std::string& op, T type, std::vector<uint32_t> shape, uint64_t seed) {
  InputSpec a{type, std::move(shape), type == T::kUint8 ? 0.0 : -5.0, type == T::kUint8 ? 3.0 : 5.0, 0.3};
  CheckAgainstReference(DeviceUnderTest(), op, {a},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          const MLOperand r = op == "logicalNot" ? g.logicalNot(in[0])
                                              : op == "isNaN"    ? g.isNaN(in[0])
                                                                 : g.isInfinite(in[0]);
                          return MLNamedOperands{{"out", r}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("logical ops match reference on random broadcast shapes", "[device][logical]") {
  std::mt19937_64 rng(67);
  for (const std::string op : {"logicalAnd", "logicalOr", "logicalXor"}) {
    for (int trial = 0; trial < 8; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 5);
      std::vector<uint32_t> a = RandomShape(rng, rank, 37), b = a;
      for (auto& d : b)
        if (rng() % 3 == 0) d = 1;
      if (trial % 2) std::swap(a, b);
      CheckBinary(op, a, b, rng());
    }
    CheckBinary(op, {}, {}, rng());
    CheckBinary(op, {1}, {200}, rng());
    CheckBinary(op, {3, 300, 301}, {300, 1}, rng());  // both threads
  }
  for (int trial = 0; trial < 8; ++trial) {
    const uint32_t rank = static_cast<uint32_t>(rng() % 5);
    const auto shape = RandomShape(rng, rank, 37);
    CheckUnary("logicalNot", T::kUint8, shape, rng());
    for (const T type : {T::kFloat32, T::kFloat16}) {
      CheckUnary("isNaN", type, shape, rng());
      CheckUnary("isInfinite", type, shape, rng());
    }
  }
  CheckUnary("logicalNot", T::kUint8, {300001}, rng());
  CheckUnary("isNaN", T::kFloat16, {300001}, rng());
}

TEST_CASE("cpu logical ops on every SIMD target", "[cpu][logical]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(71);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const std::string op : {"logicalAnd", "logicalOr", "logicalXor"}) CheckBinary(op, {3, 131}, {131}, rng());
    CheckUnary("logicalNot", T::kUint8, {3, 131}, rng());
    for (const T type : {T::kFloat32, T::kFloat16}) {
      CheckUnary("isNaN", type, {3, 131}, rng());
      CheckUnary("isInfinite", type, {3, 131}, rng());
    }
  });
}
