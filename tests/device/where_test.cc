// The device's kernel of where against the reference device: every value type, all
// three operands broadcast (scalar conditions, rows, columns), bit-exact
// selection (NaN payloads, -0).
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

const std::vector<T> kAllTypes = {T::kFloat32, T::kFloat16, T::kInt8,  T::kUint8,
                                  T::kInt32,   T::kUint32,  T::kInt64, T::kUint64};

void Check(T type, std::vector<uint32_t> sc, std::vector<uint32_t> st, std::vector<uint32_t> sf, uint64_t seed) {
  const bool is_unsigned = type == T::kUint8 || type == T::kUint32 || type == T::kUint64;
  InputSpec c{T::kUint8, std::move(sc), 0, 2, 0.1};
  InputSpec t{type, std::move(st), is_unsigned ? 0.0 : -100.0, 100, 0.1};
  InputSpec f{type, std::move(sf), is_unsigned ? 0.0 : -100.0, 100, 0.1};
  CheckAgainstReference(DeviceUnderTest(), "where", {c, t, f},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", g.where(in[0], in[1], in[2])}};
                        },
                        Tolerance::Ulp(0), seed);
}

std::vector<uint32_t> Squeeze(std::mt19937_64& rng, std::vector<uint32_t> s) {
  for (auto& d : s)
    if (rng() % 3 == 0) d = 1;
  while (!s.empty() && rng() % 3 == 0) s.erase(s.begin());
  return s;
}

}  // namespace

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("where matches reference for every type on random broadcast shapes", "[device][where]") {
  std::mt19937_64 rng(73);
  for (const T type : kAllTypes) {
    for (int trial = 0; trial < 10; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 5);
      const std::vector<uint32_t> full = RandomShape(rng, rank, 13);
      Check(type, Squeeze(rng, full), Squeeze(rng, full), Squeeze(rng, full), rng());
    }
    Check(type, {}, {}, {}, rng());
    Check(type, {}, {97}, {97}, rng());      // one condition: a copy
    Check(type, {97}, {}, {}, rng());        // scalar values: fills
    Check(type, {5, 1}, {1, 67}, {5, 67}, rng());
    Check(type, {2, 150, 257}, {150, 257}, {1}, rng());  // both threads
  }
}

TEST_CASE("cpu where on every SIMD target", "[cpu][where]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(79);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const T type : kAllTypes) Check(type, {3, 67}, {67}, {3, 1}, rng());
  });
}
