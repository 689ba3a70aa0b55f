// The device's kernels of equal, notEqual, greater, greaterOrEqual, lesser,
// lesserOrEqual against the reference device, for every input type, on random
// broadcast shapes with NaN/+-Inf/-0 and integer extremes (exact uint8 output).
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

MLOperand Compare(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const MLOperand& y) {
  if (op == "equal") return b.equal(x, y);
  if (op == "notEqual") return b.notEqual(x, y);
  if (op == "greater") return b.greater(x, y);
  if (op == "greaterOrEqual") return b.greaterOrEqual(x, y);
  if (op == "lesser") return b.lesser(x, y);
  return b.lesserOrEqual(x, y);
}

const std::vector<std::string> kOps = {"equal", "notEqual", "greater", "greaterOrEqual", "lesser", "lesserOrEqual"};
const std::vector<T> kAllTypes = {T::kFloat32, T::kFloat16, T::kInt8,  T::kUint8,
                                  T::kInt32,   T::kUint32,  T::kInt64, T::kUint64};

void Check(const std::string& op, T type, std::vector<uint32_t> sa, std::vector<uint32_t> sb, uint64_t seed) {
  const bool is_unsigned = type == T::kUint8 || type == T::kUint32 || type == T::kUint64;
  // A narrow range makes equal values common; specials add NaN/Inf/-0 or the type's extremes.
  InputSpec a{type, std::move(sa), is_unsigned ? 0.0 : -3.0, 3, 0.1};
  InputSpec b{type, std::move(sb), is_unsigned ? 0.0 : -3.0, 3, 0.1};
  CheckAgainstReference(DeviceUnderTest(), op, {a, b},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", Compare(g, op, in[0], in[1])}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("comparisons match reference for every type on random broadcast shapes", "[device][comparison]") {
  std::mt19937_64 rng(59);
  for (const T type : kAllTypes) {
    for (const std::string& op : kOps) {
      for (int trial = 0; trial < 6; ++trial) {
        const uint32_t rank = static_cast<uint32_t>(rng() % 5);
        std::vector<uint32_t> a = RandomShape(rng, rank, 17), b = a;
        for (auto& d : b)
          if (rng() % 3 == 0) d = 1;
        if (rng() % 2 && !b.empty()) b.erase(b.begin());
        if (trial % 2) std::swap(a, b);
        Check(op, type, a, b, rng());
      }
      Check(op, type, {}, {}, rng());
      Check(op, type, {1}, {129}, rng());
      Check(op, type, {67}, {}, rng());
    }
  }
}

TEST_CASE("cpu comparisons on large tensors and every SIMD target", "[cpu][comparison]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(61);
  for (const T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kInt64})
    Check("greaterOrEqual", type, {3, 211, 211}, {211, 1}, rng());
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const T type : kAllTypes)
      for (const std::string& op : kOps) Check(op, type, {3, 37}, {37}, rng());
  });
}
