// The device's resample2d against the reference device: nearest and linear, float32,
// float16, int8 and uint8, every pair of axes in either order, sizes and
// scales (up and down), special values, and shapes that use both threads.
// Tolerance: WPT's 0 ULP for nearest and 84 ULP for linear floats; integers
// exact.
#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

void Check(T type, bool linear, const std::vector<uint32_t>& shape, const std::vector<uint32_t>& axes,
           const std::optional<std::vector<uint32_t>>& sizes, const std::optional<std::vector<float>>& scales,
           double special, uint64_t seed) {
  const bool is_float = type == T::kFloat32 || type == T::kFloat16;
  InputSpec s{type, shape, is_float ? -10.0 : (type == T::kInt8 ? -128.0 : 0.0), is_float ? 10.0 : 127.0, special};
  if (type == T::kUint8) s.hi = 255;
  CheckAgainstReference(DeviceUnderTest(),
                        std::string("resample2d ") + (linear ? "linear " : "nearest ") + std::string(ToString(type)),
                        {s},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLResample2dOptions o;
                          o.mode = linear ? MLInterpolationMode::kLinear : MLInterpolationMode::kNearestNeighbor;
                          o.axes = axes;
                          o.sizes = sizes;
                          o.scales = scales;
                          return MLNamedOperands{{"out", g.resample2d(in[0], o)}};
                        },
                        Tolerance::Ulp(linear && is_float ? 84 : 0), seed);
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

TEST_CASE("resample2d matches reference on random shapes, axes and sizes", "[device][resample2d]") {
  std::mt19937_64 rng(51);
  for (T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kUint8}) {
    for (bool linear : {false, true}) {
      for (int trial = 0; trial < 20; ++trial) {
        const std::vector<uint32_t> shape = RandomShape(rng, 4, trial < 10 ? 6 : 20);
        uint32_t a0 = static_cast<uint32_t>(rng() % 4), a1;
        do a1 = static_cast<uint32_t>(rng() % 4);
        while (a1 == a0);
        if (trial % 3 == 0) {
          const float choices[] = {0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 0.75f};
          std::vector<float> scales = {choices[rng() % 6], choices[rng() % 6]};
          bool ok = true;
          for (int i = 0; i < 2; ++i) ok = ok && shape[i == 0 ? a0 : a1] * scales[i] >= 1.0f;
          if (ok) {
            Check(type, linear, shape, {a0, a1}, std::nullopt, scales, 0, rng());
            continue;
          }
        }
        const std::vector<uint32_t> sizes = {1 + static_cast<uint32_t>(rng() % (2 * shape[a0] + 3)),
                                             1 + static_cast<uint32_t>(rng() % (2 * shape[a1] + 3))};
        Check(type, linear, shape, {a0, a1}, sizes, std::nullopt, trial % 5 == 4 ? 0.05 : 0, rng());
      }
    }
  }
}

TEST_CASE("resample2d on image-sized inputs", "[device][resample2d]") {
  std::mt19937_64 rng(52);
  for (T type : {T::kFloat32, T::kFloat16, T::kUint8}) {
    for (bool linear : {false, true}) {
      Check(type, linear, {1, 32, 56, 57}, {2, 3}, std::vector<uint32_t>{112, 114}, std::nullopt, 0, rng());
      Check(type, linear, {1, 56, 57, 32}, {1, 2}, std::vector<uint32_t>{112, 114}, std::nullopt, 0, rng());
      Check(type, linear, {1, 3, 225, 223}, {2, 3}, std::vector<uint32_t>{100, 131}, std::nullopt, 0, rng());
    }
  }
}

TEST_CASE("cpu resample2d on every SIMD target", "[cpu][resample2d]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(53);
  ForEachSimdTarget([&] {
    for (T type : {T::kFloat32, T::kFloat16, T::kInt8, T::kUint8}) {
      for (bool linear : {false, true}) {
        Check(type, linear, {1, 3, 9, 11}, {2, 3}, std::vector<uint32_t>{17, 23}, std::nullopt, 0.02, rng());
        Check(type, linear, {1, 9, 11, 3}, {1, 2}, std::vector<uint32_t>{5, 23}, std::nullopt, 0.02, rng());
      }
    }
  });
}
