// The device's softmax against the reference device: every axis position (rows and
// columns), odd lengths, special values, float32 and float16, and shapes that
// use both threads. Tolerance: WPT's 3 * L + 3 ULP for an axis of length L.
#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void Check(MLOperandDataType type, const std::vector<uint32_t>& shape, uint32_t axis, double lo, double hi,
           double special, uint64_t seed) {
  InputSpec s{type, shape, lo, hi, special};
  CheckAgainstReference(DeviceUnderTest(), "softmax axis " + std::to_string(axis), {s},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", g.softmax(in[0], axis)}};
                        },
                        Tolerance::Ulp(3.0 * shape[axis] + 3), seed);
}

// Runs `body` once per SIMD target compiled in and supported by this CPU
// (e.g. AVX3, AVX2, SSE4 and the scalar fallback), so every target's code runs.
template <class F>
void ForEachSimdTarget(F&& body) {
  struct Restore {  // back to runtime dispatch even when a check throws
    ~Restore() { hwy::SetSupportedTargetsForTest(0); }
  } restore;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    INFO("SIMD target " << hwy::TargetName(target));
    body();
  }
}

}  // namespace

TEST_CASE("softmax matches reference on random shapes and axes", "[device][softmax]") {
  std::mt19937_64 rng(11);
  for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (int trial = 0; trial < 40; ++trial) {
      const uint32_t rank = 1 + static_cast<uint32_t>(rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial < 20 ? 9 : 70);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      // Wide ranges make x - max large, where exp magnifies its rounding.
      const double range = trial % 3 == 0 ? 60.0 : 10.0;
      Check(type, shape, axis, -range, range, trial % 4 == 3 ? 0.02 : 0.0, rng());
    }
  }
}

TEST_CASE("softmax on large rows and columns", "[device][softmax]") {
  std::mt19937_64 rng(12);
  for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    Check(type, {64, 1000}, 1, -20, 20, 0, rng());
    Check(type, {3, 32001}, 1, -20, 20, 0, rng());
    Check(type, {1000, 67}, 0, -20, 20, 0, rng());
    Check(type, {4, 300, 301}, 1, -20, 20, 0, rng());
    Check(type, {2, 17, 3, 5}, 2, -20, 20, 0.1, rng());
  }
}

TEST_CASE("softmax: NaN, infinities, single elements", "[device][softmax]") {
  std::mt19937_64 rng(13);
  for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    Check(type, {50, 7}, 1, -5, 5, 0.15, rng());
    Check(type, {7, 50}, 0, -5, 5, 0.15, rng());
    Check(type, {33, 1}, 1, -5, 5, 0.3, rng());
    Check(type, {1}, 0, -5, 5, 0, rng());
  }
}

TEST_CASE("cpu softmax on every SIMD target", "[cpu][softmax]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(14);
  ForEachSimdTarget([&] {
    for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
      Check(type, {5, 37}, 1, -30, 30, 0.05, rng());
      Check(type, {37, 5, 3}, 0, -30, 30, 0.05, rng());
    }
  });
}
