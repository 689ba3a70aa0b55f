// The device's kernel of prelu against the reference device: float32, float16, int8,
// int32, int64; slope broadcast both ways; NaN/Inf/-0, zero slopes with -Inf,
// and wrapping integer products. Tolerance: WPT's (1 ULP; integers exact).
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

void Check(T type, std::vector<uint32_t> sx, std::vector<uint32_t> ss, uint64_t seed, double slope_lo = -2,
           double slope_hi = 2, bool constant_slope = false) {
  const bool f = type == T::kFloat32 || type == T::kFloat16;
  InputSpec x{type, std::move(sx), -100, 100, 0.1};
  InputSpec s{type, std::move(ss), f ? slope_lo : -3, f ? slope_hi : 3, 0.1, constant_slope};
  CheckAgainstReference(DeviceUnderTest(), "prelu", {x, s},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", g.prelu(in[0], in[1])}};
                        },
                        Tolerance::Ulp(f ? 1 : 0), seed);
}

}  // namespace

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("prelu matches reference for every type on random broadcast shapes", "[device][prelu]") {
  std::mt19937_64 rng(83);
  for (const T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kInt32, T::kInt64}) {
    for (int trial = 0; trial < 10; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 5);
      std::vector<uint32_t> x = RandomShape(rng, rank, 17), s = x;
      for (auto& d : s)
        if (rng() % 3 == 0) d = 1;
      if (rng() % 2 && !s.empty()) s.erase(s.begin());
      if (trial % 3 == 0) std::swap(x, s);
      Check(type, x, s, rng());
    }
    Check(type, {}, {}, rng());
    Check(type, {1, 16, 9, 9}, {16, 1, 1}, rng(), -0.5, 0.5, true);  // per-channel constant slope
    Check(type, {97}, {}, rng(), 0, 0);                              // zero slope (with -Inf inputs)
    Check(type, {2, 64, 56, 57}, {64, 1, 1}, rng());                 // both threads
  }
}

TEST_CASE("cpu prelu on every SIMD target", "[cpu][prelu]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(89);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kInt32, T::kInt64}) Check(type, {3, 67}, {67}, rng());
  });
}

TEST_CASE("prelu with per-channel slopes in channels-last layout", "[device][prelu]") {
  std::mt19937_64 rng(97);
  for (const T type : {T::kFloat32, T::kFloat16, T::kInt8})
    for (const uint32_t c : {1u, 5u, 64u, 1000u}) Check(type, {2, 33, 35, c}, {c}, rng(), -1, 1, true);
}
