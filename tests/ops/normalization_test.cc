// Tests of batchNormalization, instanceNormalization and layerNormalization:
// validation and the reference kernels.
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
constexpr auto kF32 = MLOperandDataType::kFloat32;
constexpr auto kF16 = MLOperandDataType::kFloat16;

template <typename Options>
Options Labeled(Options o) {
  o.label = "n";
  return o;
}
}  // namespace

TEST_CASE("batchNormalization along the default and the last axis", "[normalization]") {
  // Channel c: (x - mean[c]) / sqrt(variance[c]) * scale[c] + bias[c], epsilon 0.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {2, 2}, {1, 2, 3, 4}), Tensor<float>(kF32, {2}, {1, 2}),
                  Tensor<float>(kF32, {2}, {4, 16}), Tensor<float>(kF32, {2}, {2, 3}),
                  Tensor<float>(kF32, {2}, {1, -1}), Tensor<float>(kF32, {2}, {3, -3})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"plain", b.batchNormalization(in[0], in[1], in[2], {.epsilon = 0})},
                       {"affine",
                        b.batchNormalization(in[0], in[1], in[2], {.scale = in[3], .bias = in[4], .epsilon = 0})},
                       {"axis0", b.batchNormalization(in[0], in[5], in[2], {.bias = in[4], .axis = 0, .epsilon = 0})}};
                 });
  CHECK(FromBytes<float>(out["plain"].data) == std::vector<float>{0, 0, 1, 0.5});
  CHECK(FromBytes<float>(out["affine"].data) == std::vector<float>{1, -1, 3, 0.5});
  // Rows: (1 - 3) / 2 + 1, (2 - 3) / 2 + 1, (3 + 3) / 4 - 1, (4 + 3) / 4 - 1.
  CHECK(FromBytes<float>(out["axis0"].data) == std::vector<float>{0, 0.5, 0.5, 0.75});
}

TEST_CASE("batchNormalization casts epsilon to float16", "[normalization]") {
  // 1e-5 casts to 168 * 2^-24; 1 / sqrt(that) = 316.013... rounds to 316 (uncast: 316.23 -> 316.25).
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(kF16, {1, 1, 1}, Half({1})), Tensor<uint16_t>(kF16, {1}, Half({0})),
                  Tensor<uint16_t>(kF16, {1}, Half({0}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", b.batchNormalization(in[0], in[1], in[2])}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["out"].data)) == std::vector<double>{316});
}

TEST_CASE("batchNormalization propagates NaN and divides by zero variance", "[normalization]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {3}, {nan, 1, 0}), Tensor<float>(kF32, {3}, {0, 0, 0}),
                  Tensor<float>(kF32, {3}, {1, 0, 0})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"out", b.batchNormalization(in[0], in[1], in[2], {.axis = 0, .epsilon = 0})}};
                 });
  const auto v = FromBytes<float>(out["out"].data);
  CHECK(std::isnan(v[0]));
  CHECK(v[1] == std::numeric_limits<float>::infinity());
  CHECK(std::isnan(v[2]));  // 0 / 0
}

TEST_CASE("instanceNormalization in nchw and nhwc layouts", "[normalization]") {
  // Channel 0 holds {1, 3} (mean 2, variance 1), channel 1 holds {10, 10} (variance 0); epsilon 1.
  const double r = 1 / std::sqrt(2.0);
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 2, 1, 2}, {1, 3, 10, 10}), Tensor<float>(kF32, {1, 1, 2, 2}, {1, 10, 3, 10}),
                  Tensor<float>(kF32, {2}, {2, 5}), Tensor<float>(kF32, {2}, {0.5, -1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"nchw", b.instanceNormalization(in[0], {.scale = in[2], .bias = in[3], .epsilon = 1})},
                       {"nhwc", b.instanceNormalization(in[1], {.scale = in[2], .bias = in[3], .epsilon = 1,
                                                                .layout = MLInputOperandLayout::kNhwc})},
                       {"plain", b.instanceNormalization(in[0], {.epsilon = 1})}};
                 });
  const float lo = static_cast<float>(-2 * r + 0.5), hi = static_cast<float>(2 * r + 0.5);
  CHECK(FromBytes<float>(out["nchw"].data) == std::vector<float>{lo, hi, -1, -1});
  CHECK(FromBytes<float>(out["nhwc"].data) == std::vector<float>{lo, -1, hi, -1});
  CHECK(FromBytes<float>(out["plain"].data) == std::vector<float>{static_cast<float>(-r), static_cast<float>(r), 0, 0});
}

TEST_CASE("instanceNormalization float16 with zero epsilon on tiny values", "[normalization]") {
  // Values +-2^-24 (the smallest float16 subnormal): the float64 variance 2^-48 is exact.
  const double tiny = std::ldexp(1.0, -24);
  auto out = Run(MLDeviceType::kReference, {Tensor<uint16_t>(kF16, {1, 1, 2, 2}, Half({tiny, -tiny, tiny, -tiny}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", b.instanceNormalization(in[0], {.epsilon = 0})}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["out"].data)) == std::vector<double>{1, -1, 1, -1});
}

TEST_CASE("layerNormalization over axes in descending order", "[normalization]") {
  // All of [[0, 4], [4, 0]]: mean 2, standard deviation 2. scale/bias dimension i
  // is input axis axes[i], so input (i, j) uses scale[j][i].
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {2, 2}, {0, 4, 4, 0}), Tensor<float>(kF32, {2, 2}, {1, 2, 3, 4}),
                  Tensor<float>(kF32, {2, 2}, {0, 10, 20, 30})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   const std::vector<uint32_t> axes{1, 0};
                   return MLNamedOperands{
                       {"scaled", b.layerNormalization(in[0], {.scale = in[1], .axes = axes, .epsilon = 0})},
                       {"biased", b.layerNormalization(in[0], {.bias = in[2], .axes = axes, .epsilon = 0})}};
                 });
  CHECK(FromBytes<float>(out["scaled"].data) == std::vector<float>{-1, 3, 2, -4});
  CHECK(FromBytes<float>(out["biased"].data) == std::vector<float>{-1, 21, 11, 29});
}

TEST_CASE("layerNormalization default axes, empty axes and scalars", "[normalization]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {2, 2}, {1, 3, 5, 9}), Tensor<float>(kF32, {}, {7}),
                  Tensor<uint16_t>(kF16, {3}, Half({2, 4, 9}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       // Default axes [1]: each row separately.
                       {"rows", b.layerNormalization(in[0], {.epsilon = 0})},
                       // Default axes of a scalar are []: (x - x) / sqrt(0 + epsilon) = 0.
                       {"scalar", b.layerNormalization(in[1])},
                       // Rank 1: default axes are [] too; explicit [0] normalizes the vector.
                       {"vector", b.layerNormalization(in[2], {.axes = std::vector<uint32_t>{0}, .epsilon = 0})},
                       {"none", b.layerNormalization(in[2], {.axes = std::vector<uint32_t>{}})}};
                 });
  CHECK(FromBytes<float>(out["rows"].data) == std::vector<float>{-1, 1, -1, 1});
  CHECK(FromBytes<float>(out["scalar"].data) == std::vector<float>{0});
  // {2, 4, 9}: mean 5, variance (9 + 1 + 16) / 3 = 26 / 3.
  const double sd = std::sqrt(26.0 / 3);
  CHECK(FromHalf(FromBytes<uint16_t>(out["vector"].data)) ==
        FromHalf(Half({-3 / sd, -1 / sd, 4 / sd})));
  CHECK(FromHalf(FromBytes<uint16_t>(out["none"].data)) == std::vector<double>{0, 0, 0});
}

TEST_CASE("normalization validation names op, label and argument", "[normalization][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 2, 5, 5}});
  auto m2 = b.input("m2", {kF32, {2}});
  auto m3 = b.input("m3", {kF32, {3}});
  auto m5 = b.input("m5", {kF32, {5}});
  auto h2 = b.input("h2", {kF16, {2}});
  CHECK(ErrorMessage([&] { b.batchNormalization(x, m2, m2, Labeled(MLBatchNormalizationOptions{.axis = 4})); }) ==
        "batchNormalization [n]: axis must be in [0, 4) for an input of rank 4, got 4");
  CHECK(ErrorMessage([&] { b.batchNormalization(x, m3, m2, Labeled(MLBatchNormalizationOptions{})); }) ==
        "batchNormalization [n]: argument 'mean' shape [3] must be [2] (input dimension 1 of [1, 2, 5, 5])");
  CHECK(ErrorMessage([&] {
          b.batchNormalization(x, m5, m5, Labeled(MLBatchNormalizationOptions{.scale = m2, .axis = 2}));
        }) == "batchNormalization [n]: argument 'scale' shape [2] must be [5] (input dimension 2 of [1, 2, 5, 5])");
  CHECK(ErrorMessage([&] { b.batchNormalization(x, h2, m2, Labeled(MLBatchNormalizationOptions{})); }) ==
        "batchNormalization [n]: argument 'mean' data type float16 must match 'input' (float32)");
  CHECK(ErrorName([&] { b.batchNormalization(b.input("s", {kF32, {}}), m2, m2); }) == "TypeError");
  CHECK(ErrorMessage([&] {
          b.batchNormalization(x, m2, m2, Labeled(MLBatchNormalizationOptions{.epsilon = INFINITY}));
        }) == "batchNormalization [n]: epsilon must be a finite number, got inf");

  CHECK(ErrorMessage([&] {
          b.instanceNormalization(
              x, Labeled(MLInstanceNormalizationOptions{.scale = m2, .layout = MLInputOperandLayout::kNhwc}));
        }) == "instanceNormalization [n]: argument 'scale' shape [2] must be [5] (input dimension 3 of [1, 2, 5, 5])");
  CHECK(ErrorName([&] { b.instanceNormalization(b.input("x5", {kF32, {1, 2, 5, 5, 2}})); }) == "TypeError");
  CHECK(ErrorName([&] { b.instanceNormalization(b.input("xi", {MLOperandDataType::kInt32, {1, 2, 5, 5}})); }) ==
        "TypeError");

  CHECK(ErrorMessage([&] {
          b.layerNormalization(x, Labeled(MLLayerNormalizationOptions{.axes = std::vector<uint32_t>{1, 2, 4}}));
        }) == "layerNormalization [n]: axes contains 4, which is not less than the input rank 4");
  CHECK(ErrorMessage([&] {
          b.layerNormalization(x, Labeled(MLLayerNormalizationOptions{.axes = std::vector<uint32_t>{3, 3}}));
        }) == "layerNormalization [n]: axes contains 3 more than once");
  auto s255 = b.input("s255", {kF32, {2, 5, 5}});
  auto s55 = b.input("s55", {kF32, {5, 5}});
  auto s355 = b.input("s355", {kF32, {3, 5, 5}});
  CHECK(ErrorMessage([&] { b.layerNormalization(x, Labeled(MLLayerNormalizationOptions{.scale = s55})); }) ==
        "layerNormalization [n]: argument 'scale' must have rank 3 (the number of axes), got shape [5, 5]");
  CHECK(ErrorMessage([&] { b.layerNormalization(x, Labeled(MLLayerNormalizationOptions{.bias = s355})); }) ==
        "layerNormalization [n]: argument 'bias' shape must be [2, 5, 5], got [3, 5, 5]");
  CHECK(b.layerNormalization(x, {.scale = s255, .bias = s255}).shape().size() == 4);
  CHECK(b.layerNormalization(x, {.scale = s55, .axes = std::vector<uint32_t>{3, 2}}).shape().size() == 4);
}
