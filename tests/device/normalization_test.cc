// The device's batchNormalization, instanceNormalization (nchw, nhwc) and
// layerNormalization (default, trailing, leading, non-adjacent, unsorted and
// empty axes) against the reference device, with and without scale/bias,
// float32 and float16, inputs offset far from zero (shifted moments), special
// values and shapes that use both threads. WPT tolerances: batchNorm 6 ULP,
// instanceNorm 840 (float32) / 8400 (float16), layerNorm 14 / 30.
#include <algorithm>

#include <hwy/targets.h>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

bool IsF16(T t) { return t == T::kFloat16; }

void CheckBatch(T type, const std::vector<uint32_t>& shape, uint32_t axis, bool scale, bool bias, double special,
                uint64_t seed) {
  const uint32_t C = shape[axis];
  std::vector<InputSpec> specs = {{type, shape, -5, 5, special}, {type, {C}, -2, 2}, {type, {C}, 0, 3}};
  if (scale) specs.push_back({type, {C}, -2, 2});
  if (bias) specs.push_back({type, {C}, -2, 2});
  CheckAgainstReference(DeviceUnderTest(), "batchNormalization axis " + std::to_string(axis), specs,
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLBatchNormalizationOptions o;
                          o.axis = axis;
                          size_t k = 3;
                          if (scale) o.scale = in[k++];
                          if (bias) o.bias = in[k++];
                          return MLNamedOperands{{"out", g.batchNormalization(in[0], in[1], in[2], o)}};
                        },
                        Tolerance::Ulp(6), seed);
}

void CheckInstance(T type, const std::vector<uint32_t>& shape, bool nhwc, bool scale, bool bias, double offset,
                   double special, double epsilon, uint64_t seed) {
  const uint32_t C = shape[nhwc ? 3 : 1];
  std::vector<InputSpec> specs = {{type, shape, offset - 3, offset + 3, special}};
  if (scale) specs.push_back({type, {C}, -2, 2});
  if (bias) specs.push_back({type, {C}, -2, 2});
  CheckAgainstReference(DeviceUnderTest(), std::string("instanceNormalization ") + (nhwc ? "nhwc" : "nchw"), specs,
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLInstanceNormalizationOptions o;
                          o.layout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                          o.epsilon = epsilon;
                          size_t k = 1;
                          if (scale) o.scale = in[k++];
                          if (bias) o.bias = in[k++];
                          return MLNamedOperands{{"out", g.instanceNormalization(in[0], o)}};
                        },
                        Tolerance::Ulp(IsF16(type) ? 8400 : 840), seed);
}

void CheckLayer(T type, const std::vector<uint32_t>& shape, const std::optional<std::vector<uint32_t>>& axes,
                bool scale, bool bias, double offset, double special, uint64_t seed) {
  std::vector<uint32_t> param_shape;
  if (axes) {
    for (uint32_t a : *axes) param_shape.push_back(shape[a]);
  } else {
    param_shape.assign(shape.begin() + (shape.empty() ? 0 : 1), shape.end());
  }
  std::vector<InputSpec> specs = {{type, shape, offset - 3, offset + 3, special}};
  if (scale) specs.push_back({type, param_shape, -2, 2});
  if (bias) specs.push_back({type, param_shape, -2, 2});
  CheckAgainstReference(DeviceUnderTest(), "layerNormalization", specs,
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLLayerNormalizationOptions o;
                          o.axes = axes;
                          size_t k = 1;
                          if (scale) o.scale = in[k++];
                          if (bias) o.bias = in[k++];
                          return MLNamedOperands{{"out", g.layerNormalization(in[0], o)}};
                        },
                        Tolerance::Ulp(IsF16(type) ? 30 : 14), seed);
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

TEST_CASE("batchNormalization matches reference", "[device][normalization]") {
  std::mt19937_64 rng(31);
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = 1 + static_cast<uint32_t>(rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial < 12 ? 7 : 33);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      CheckBatch(type, shape, axis, trial % 2, trial % 3 != 0, trial % 5 == 4 ? 0.05 : 0, rng());
    }
    CheckBatch(type, {2, 64, 56, 57}, 1, true, true, 0, rng());
    CheckBatch(type, {2, 56, 57, 64}, 3, true, true, 0, rng());
  }
}

TEST_CASE("instanceNormalization matches reference", "[device][normalization]") {
  std::mt19937_64 rng(32);
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (int trial = 0; trial < 24; ++trial) {
      const std::vector<uint32_t> shape = RandomShape(rng, 4, trial < 12 ? 7 : 25);
      const double offset = trial % 4 == 3 ? (IsF16(type) ? 100 : 1000) : 0;
      CheckInstance(type, shape, trial % 2, trial % 3 != 1, trial % 3 != 2, offset, trial % 5 == 4 ? 0.05 : 0,
                    trial % 6 == 5 ? 0.0 : 1e-5, rng());
    }
    // Few large planes (windows split across threads) and nhwc with one image.
    CheckInstance(type, {1, 3, 300, 301}, false, true, true, 0, 0, 1e-5, rng());
    CheckInstance(type, {1, 112, 113, 64}, true, true, true, 0, 0, 1e-5, rng());
    CheckInstance(type, {2, 40, 41, 700}, true, true, false, 0, 0, 1e-5, rng());
  }
}

TEST_CASE("layerNormalization of rows of one large value is 0", "[device][normalization]") {
  // (x - mean) / sqrt(0 + epsilon) = 0 * ... = 0: a kernel that scales a row
  // toward 1 before its moments (the gpu's) must not scale epsilon with it
  // to 0 there (0 / 0). The rows are 1e25 + 0 * input.
  for (T type : {T::kFloat32, T::kFloat16}) {
    const double value = IsF16(type) ? 60000 : 1e25;
    CheckAgainstReference(DeviceUnderTest(), "layerNormalization of constant rows", {{type, {3, 5}, -1, 1}},
                          [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                            const MLOperand x = g.add(g.mul(in[0], g.constant(type, MLNumber(0.0))),
                                                      g.constant(type, MLNumber(value)));
                            return MLNamedOperands{{"out", g.layerNormalization(x, {.axes = std::vector<uint32_t>{1}})}};
                          },
                          Tolerance::Ulp(0), 1);
  }
}

TEST_CASE("layerNormalization matches reference", "[device][normalization]") {
  std::mt19937_64 rng(33);
  for (T type : {T::kFloat32, T::kFloat16}) {
    for (int trial = 0; trial < 40; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 5);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial < 20 ? 7 : 30);
      std::optional<std::vector<uint32_t>> axes;
      if (trial % 3 != 0) {
        std::vector<uint32_t> a;
        for (uint32_t i = 0; i < rank; ++i)
          if (rng() % 2) a.push_back(i);
        std::shuffle(a.begin(), a.end(), rng);
        axes = a;
      }
      const double offset = trial % 4 == 3 ? (IsF16(type) ? 100 : 1000) : 0;
      CheckLayer(type, shape, axes, trial % 2, trial % 3 != 2, offset, trial % 5 == 4 ? 0.05 : 0, rng());
    }
    CheckLayer(type, {512, 768}, std::vector<uint32_t>{1}, true, true, 0, 0, rng());
    CheckLayer(type, {2, 70001}, std::vector<uint32_t>{1}, true, true, 0, 0, rng());
    CheckLayer(type, {3000, 40}, std::vector<uint32_t>{0}, true, true, 0, 0, rng());
    CheckLayer(type, {4, 50, 6, 70}, std::vector<uint32_t>{3, 1}, true, true, 0, 0, rng());
    CheckLayer(type, {4, 50, 6, 70}, std::vector<uint32_t>{2, 0}, true, false, 0, 0, rng());
  }
}

TEST_CASE("cpu normalizations on every SIMD target", "[cpu][normalization]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(34);
  ForEachSimdTarget([&] {
    for (T type : {T::kFloat32, T::kFloat16}) {
      CheckBatch(type, {2, 5, 3, 7}, 1, true, true, 0.02, rng());
      CheckBatch(type, {2, 3, 7, 5}, 3, true, true, 0.02, rng());
      CheckInstance(type, {2, 5, 6, 7}, false, true, true, 10, 0.02, 1e-5, rng());
      CheckInstance(type, {2, 6, 7, 5}, true, true, true, 10, 0.02, 1e-5, rng());
      CheckLayer(type, {3, 5, 37}, std::nullopt, true, true, 10, 0.02, rng());
      CheckLayer(type, {37, 5, 3}, std::vector<uint32_t>{0}, true, true, 10, 0.02, rng());
    }
  });
}
