// Tests of the resample2d family (validation and reference kernel).
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr auto kF32 = MLOperandDataType::kFloat32;

template <typename Options>
Options Labeled(std::string label, Options o) {
  o.label = std::move(label);
  return o;
}

std::vector<int64_t> Dims(const MLOperand& o) {
  std::vector<int64_t> d;
  for (const MLDimension& m : o.shape()) d.push_back(m.size());
  return d;
}

HostTensor Resample(const HostTensor& input, const MLResample2dOptions& o) {
  return Run(MLDeviceType::kReference, {input}, [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    return MLNamedOperands{{"y", b.resample2d(in[0], o)}};
  })["y"];
}

const MLResample2dOptions kLinear{.mode = MLInterpolationMode::kLinear};

MLResample2dOptions With(MLResample2dOptions o, std::vector<uint32_t> sizes, std::vector<uint32_t> axes = {2, 3}) {
  o.sizes = std::move(sizes);
  o.axes = std::move(axes);
  return o;
}

}  // namespace

// Half-pixel mapping of 2 -> 4: (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, clamped to [0, 1].
TEST_CASE("resample2d nearest-neighbor upsampling with half-pixel centres", "[resample2d]") {
  auto y = Resample(Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4}), {.scales = std::vector<float>{2, 2}});
  CHECK(y.shape == std::vector<uint32_t>{1, 1, 4, 4});
  // ceil(c - 0.5) of 0, 0.25, 0.75, 1 is 0, 0, 1, 1.
  CHECK(FromBytes<float>(y.data) == std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST_CASE("resample2d nearest ties pick the smaller index; scale is outputSize / inputSize", "[resample2d]") {
  // 2 -> 3: coordinates -1/6, 1/2, 7/6; the tie at 1/2 picks index 0.
  auto ties = Resample(Tensor<float>(kF32, {1, 1, 1, 2}, {10, 20}), With({}, {1, 3}));
  CHECK(FromBytes<float>(ties.data) == std::vector<float>{10, 10, 20});
  // scales 0.5 on 5: output floor(2.5) = 2, mapped with 5 / 2 (not 1 / 0.5): coordinates 0.75, 3.25 -> 1, 3.
  auto down =
      Resample(Tensor<float>(kF32, {1, 1, 1, 5}, {10, 20, 30, 40, 50}), {.scales = std::vector<float>{1, 0.5f}});
  CHECK(down.shape == std::vector<uint32_t>{1, 1, 1, 2});
  CHECK(FromBytes<float>(down.data) == std::vector<float>{20, 40});
}

TEST_CASE("resample2d linear upsampling", "[resample2d]") {
  auto y = Resample(Tensor<float>(kF32, {1, 1, 2, 2}, {0, 4, 8, 12}), [] {
    MLResample2dOptions o = kLinear;
    o.scales = std::vector<float>{2, 2};
    return o;
  }());
  // Coordinates 0, 0.25, 0.75, 1 on both axes.
  CHECK(FromBytes<float>(y.data) == std::vector<float>{0, 1, 3, 4, 2, 3, 5, 6, 6, 7, 9, 10, 8, 9, 11, 12});
}

TEST_CASE("resample2d linear downsampling and reversed axes", "[resample2d]") {
  // 4 -> 2: coordinates 0.5 and 2.5.
  auto down = Resample(Tensor<float>(kF32, {1, 1, 1, 4}, {0, 10, 20, 30}), With(kLinear, {1, 2}));
  CHECK(FromBytes<float>(down.data) == std::vector<float>{5, 25});
  // axes [3, 2]: sizes[0] is the width (2 -> 4), sizes[1] the height (2 -> 1, coordinate 0.5).
  auto reversed = Resample(Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4}), With(kLinear, {4, 1}, {3, 2}));
  CHECK(reversed.shape == std::vector<uint32_t>{1, 1, 1, 4});
  CHECK(FromBytes<float>(reversed.data) == std::vector<float>{2, 2.25f, 2.75f, 3});
  auto reversed_nearest = Resample(Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4}), With({}, {4, 1}, {3, 2}));
  CHECK(FromBytes<float>(reversed_nearest.data) == std::vector<float>{1, 1, 2, 2});
}

TEST_CASE("resample2d on other axes: nhwc [1, 2] and [0, 1]", "[resample2d]") {
  // nhwc 1x2x1x2 (two channels): height 2 -> 4, width 1 -> 2.
  auto nhwc = Resample(Tensor<float>(kF32, {1, 2, 1, 2}, {1, -1, 2, -2}), With({}, {4, 2}, {1, 2}));
  CHECK(nhwc.shape == std::vector<uint32_t>{1, 4, 2, 2});
  CHECK(FromBytes<float>(nhwc.data) == std::vector<float>{1, -1, 1, -1, 1, -1, 1, -1, 2, -2, 2, -2, 2, -2, 2, -2});
  auto batch = Resample(Tensor<float>(kF32, {1, 2, 1, 1}, {1, 2}), With({}, {2, 4}, {0, 1}));
  CHECK(batch.shape == std::vector<uint32_t>{2, 4, 1, 1});
  CHECK(FromBytes<float>(batch.data) == std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2});
}

TEST_CASE("resample2d linear on 8-bit integers rounds to nearest, ties to even", "[resample2d]") {
  // 0..255 at coordinates 0, 0.25, 0.75, 1: 63.75 -> 64, 191.25 -> 191.
  auto u8 = Resample(Tensor<uint8_t>(MLOperandDataType::kUint8, {1, 1, 1, 2}, {0, 255}), With(kLinear, {1, 4}));
  CHECK(FromBytes<uint8_t>(u8.data) == std::vector<uint8_t>{0, 64, 191, 255});
  // 2 -> 3 puts the middle output at coordinate 0.5: 1.5 -> 2 and 2.5 -> 2.
  auto ties = Resample(Tensor<uint8_t>(MLOperandDataType::kUint8, {1, 1, 2, 2}, {1, 2, 2, 3}), With(kLinear, {2, 3}));
  CHECK(FromBytes<uint8_t>(ties.data) == std::vector<uint8_t>{1, 2, 2, 2, 2, 3});
  auto i8 = Resample(Tensor<int8_t>(MLOperandDataType::kInt8, {1, 1, 1, 2}, {-128, 127}), With(kLinear, {1, 3}));
  CHECK(FromBytes<int8_t>(i8.data) == std::vector<int8_t>{-128, 0, 127});  // -0.5 -> 0
  auto i8_ties = Resample(Tensor<int8_t>(MLOperandDataType::kInt8, {1, 1, 1, 2}, {-3, -2}), With(kLinear, {1, 3}));
  CHECK(FromBytes<int8_t>(i8_ties.data) == std::vector<int8_t>{-3, -2, -2});  // -2.5 -> -2
  auto nearest = Resample(Tensor<int8_t>(MLOperandDataType::kInt8, {1, 1, 1, 2}, {-128, 127}), With({}, {1, 4}));
  CHECK(FromBytes<int8_t>(nearest.data) == std::vector<int8_t>{-128, -128, 127, 127});
}

TEST_CASE("resample2d float16 and special values", "[resample2d]") {
  auto half =
      Resample(Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 1, 2}, Half({0, 1})), With(kLinear, {1, 4}));
  CHECK(FromHalf(FromBytes<uint16_t>(half.data)) == std::vector<double>{0, 0.25, 0.75, 1});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto special = Resample(Tensor<float>(kF32, {1, 1, 1, 3}, {nan, -0.0f, inf}), With({}, {1, 6}));
  auto v = FromBytes<float>(special.data);
  CHECK(std::isnan(v[0]));
  CHECK(std::isnan(v[1]));
  CHECK((v[2] == 0.0f && std::signbit(v[2])));
  CHECK(v[5] == inf);
}

TEST_CASE("resample2d output shapes", "[resample2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, 5, 5}});
  CHECK(Dims(b.resample2d(x)) == std::vector<int64_t>{1, 1, 5, 5});
  CHECK(Dims(b.resample2d(x, {.scales = std::vector<float>{0.5f, 1.5f}})) == std::vector<int64_t>{1, 1, 2, 7});
  CHECK(Dims(b.resample2d(x, {.scales = std::vector<float>{0.5f, 0.5f}, .sizes = std::vector<uint32_t>{3, 9}})) ==
        std::vector<int64_t>{1, 1, 3, 9});
  CHECK(Dims(b.resample2d(x, {.scales = std::vector<float>{3, 2}, .axes = std::vector<uint32_t>{0, 2}})) ==
        std::vector<int64_t>{3, 1, 10, 5});
  auto xd = b.input("xd", {kF32, {1, 1, MLDynamicDimension{"h", 10}, 4}});
  auto shape = b.resample2d(xd, {.scales = std::vector<float>{2, 2}}).shape();
  CHECK(shape[2].isDynamic());
  CHECK(shape[2].size() == 20);
  CHECK(shape[3] == 8);
}

TEST_CASE("resample2d validation names op, label and argument", "[resample2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, 2, 4}});
  CHECK(ErrorMessage([&] {
          b.resample2d(x, Labeled("r", MLResample2dOptions{.scales = std::vector<float>{1, -2}}));
        }) == "resample2d [r]: scales must be greater than 0, got [1, -2]");
  CHECK(ErrorName([&] { b.resample2d(x, {.scales = std::vector<float>{std::nanf(""), 1}}); }) == "TypeError");
  CHECK(ErrorMessage([&] {
          b.resample2d(x, Labeled("r", MLResample2dOptions{.scales = std::vector<float>{1, 1, 2}}));
        }) == "resample2d [r]: scales must have 2 entries, got 3");
  CHECK(ErrorMessage([&] {
          b.resample2d(x, Labeled("r", MLResample2dOptions{.sizes = std::vector<uint32_t>{0, 1}}));
        }) == "resample2d [r]: sizes must be greater than 0, got [0, 1]");
  CHECK(ErrorMessage([&] { b.resample2d(x, Labeled("r", MLResample2dOptions{.axes = std::vector<uint32_t>{1}})); }) ==
        "resample2d [r]: axes must have 2 entries, got 1");
  CHECK(ErrorMessage([&] {
          b.resample2d(x, Labeled("r", MLResample2dOptions{.axes = std::vector<uint32_t>{3, 3}}));
        }) == "resample2d [r]: axes contains 3 more than once");
  CHECK(ErrorMessage([&] {
          b.resample2d(x, Labeled("r", MLResample2dOptions{.axes = std::vector<uint32_t>{3, 4}}));
        }) == "resample2d [r]: axes contains 4, which is not less than the input rank 4");
  CHECK(ErrorMessage([&] {
          b.resample2d(x, Labeled("r", MLResample2dOptions{.scales = std::vector<float>{0.4f, 1}}));
        }) == "resample2d [r]: output size of axis 2 is floor(2 * 0.4) = 0; it must be at least 1");
  CHECK(ErrorName([&] { b.resample2d(x, {.scales = std::vector<float>{4294967295.0f, 1}}); }) == "TypeError");
  CHECK(ErrorName([&] {
          b.resample2d(x, {.scales = std::vector<float>{std::numeric_limits<float>::infinity(), 1}});
        }) == "TypeError");
  auto xi = b.input("xi", {MLOperandDataType::kInt32, {1, 1, 2, 4}});
  CHECK(ErrorName([&] { b.resample2d(xi); }) == "TypeError");
  auto x2 = b.input("x2", {kF32, {2, 4}});
  CHECK(ErrorName([&] { b.resample2d(x2); }) == "TypeError");
}
