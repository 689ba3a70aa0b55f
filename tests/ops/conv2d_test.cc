// Tests of the conv2d family (validation and reference kernel).
#include <array>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr auto kF32 = MLOperandDataType::kFloat32;
const float kInf = std::numeric_limits<float>::infinity();

// Options with a label (designated initializers cannot name the base's `label`).
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

// Transposes a 4-D row-major array of shape `dims` so that output axis i is input axis perm[i].
std::vector<float> Permute(const std::vector<float>& v, std::array<uint32_t, 4> dims, std::array<int, 4> perm) {
  std::vector<float> out(v.size());
  std::array<uint32_t, 4> od{dims[perm[0]], dims[perm[1]], dims[perm[2]], dims[perm[3]]};
  std::array<uint32_t, 4> i{};
  for (i[0] = 0; i[0] < dims[0]; ++i[0])
    for (i[1] = 0; i[1] < dims[1]; ++i[1])
      for (i[2] = 0; i[2] < dims[2]; ++i[2])
        for (i[3] = 0; i[3] < dims[3]; ++i[3]) {
          const size_t src = ((i[0] * dims[1] + i[1]) * dims[2] + i[2]) * dims[3] + i[3];
          const size_t dst = ((i[perm[0]] * od[1] + i[perm[1]]) * od[2] + i[perm[2]]) * od[3] + i[perm[3]];
          out[dst] = v[src];
        }
  return out;
}

std::vector<uint32_t> PermutedDims(std::array<uint32_t, 4> dims, std::array<int, 4> perm) {
  return {dims[perm[0]], dims[perm[1]], dims[perm[2]], dims[perm[3]]};
}

// Depthwise case used by several tests: input channel 0 = 1..9, channel 1 = 10..90;
// filter channel 0 = [1 2; 3 4], channel 1 = all ones; padding top/left 1, stride 2.
const std::vector<float> kDepthwiseInput = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 40, 50, 60, 70, 80, 90};
const std::vector<float> kDepthwiseFilterOihw = {1, 2, 3, 4, 1, 1, 1, 1};
// Windows start at padded (0,0), (0,2), (2,0), (2,2), i.e. input (-1,-1), (-1,1), (1,-1), (1,1):
// channel 0: 4*1 = 4; 3*2 + 4*3 = 18; 2*4 + 4*7 = 36; 1*5 + 2*6 + 3*8 + 4*9 = 77 (+ bias 0.5)
// channel 1: 10; 20 + 30 = 50; 40 + 70 = 110; 50 + 60 + 80 + 90 = 280 (+ bias -1)
const std::vector<float> kDepthwiseExpectedNchw = {4.5f, 18.5f, 36.5f, 77.5f, 9, 49, 109, 279};

}  // namespace

TEST_CASE("conv2d computes a plain 2x2 convolution", "[conv2d]") {
  auto out = Run(
      MLDeviceType::kReference,
      {Tensor<float>(kF32, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4})},
      [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        return MLNamedOperands{{"y", b.conv2d(in[0], in[1])}};
      });
  CHECK(out["y"].shape == std::vector<uint32_t>{1, 1, 2, 2});
  // 1*1 + 2*2 + 4*3 + 5*4 = 37, then shifted windows.
  CHECK(FromBytes<float>(out["y"].data) == std::vector<float>{37, 47, 67, 77});
}

TEST_CASE("conv2d depthwise with padding, strides and bias in every filter layout", "[conv2d]") {
  const std::array<uint32_t, 4> oihw_dims{2, 1, 2, 2};
  struct LayoutCase {
    MLConv2dFilterOperandLayout layout;
    std::array<int, 4> perm;  // filter axes in terms of oihw axes
  };
  const LayoutCase layouts[] = {{MLConv2dFilterOperandLayout::kOihw, {0, 1, 2, 3}},
                                {MLConv2dFilterOperandLayout::kHwio, {2, 3, 1, 0}},
                                {MLConv2dFilterOperandLayout::kOhwi, {0, 2, 3, 1}},
                                {MLConv2dFilterOperandLayout::kIhwo, {1, 2, 3, 0}}};
  for (bool nhwc : {false, true}) {
    for (const LayoutCase& lc : layouts) {
      CAPTURE(nhwc, static_cast<int>(lc.layout));
      const std::vector<float> input = nhwc ? Permute(kDepthwiseInput, {1, 2, 3, 3}, {0, 2, 3, 1}) : kDepthwiseInput;
      const std::vector<uint32_t> input_shape =
          nhwc ? std::vector<uint32_t>{1, 3, 3, 2} : std::vector<uint32_t>{1, 2, 3, 3};
      auto out =
          Run(MLDeviceType::kReference,
              {Tensor<float>(kF32, input_shape, input),
               Tensor<float>(kF32, PermutedDims(oihw_dims, lc.perm), Permute(kDepthwiseFilterOihw, oihw_dims, lc.perm)),
               Tensor<float>(kF32, {2}, {0.5f, -1.0f})},
              [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                MLConv2dOptions o;
                o.padding = std::vector<uint32_t>{1, 0, 1, 0};
                o.strides = std::vector<uint32_t>{2, 2};
                o.groups = 2;
                o.inputLayout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                o.filterLayout = lc.layout;
                o.bias = in[2];
                return MLNamedOperands{{"y", b.conv2d(in[0], in[1], o)}};
              });
      const std::vector<float> expected =
          nhwc ? Permute(kDepthwiseExpectedNchw, {1, 2, 2, 2}, {0, 2, 3, 1}) : kDepthwiseExpectedNchw;
      CHECK(out["y"].shape == (nhwc ? std::vector<uint32_t>{1, 2, 2, 2} : std::vector<uint32_t>{1, 2, 2, 2}));
      CHECK(FromBytes<float>(out["y"].data) == expected);
    }
  }
}

TEST_CASE("conv2d groups split input and output channels", "[conv2d]") {
  // 4 input channels, 2 groups, 4 output channels; 1x1 filters so each output is a
  // weighted sum of its group's two input channels.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 4, 1, 1}, {1, 10, 100, 1000}),
                  Tensor<float>(kF32, {4, 2, 1, 1}, {1, 2, 3, 4, 5, 6, 7, 8})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.conv2d(in[0], in[1], {.groups = 2})}};
                 });
  // group 0 (inputs 1, 10): 1 + 20, 3 + 40; group 1 (inputs 100, 1000): 500 + 6000, 700 + 8000.
  CHECK(FromBytes<float>(out["y"].data) == std::vector<float>{21, 43, 6500, 8700});
}

TEST_CASE("conv2d dilations spread the filter taps", "[conv2d]") {
  std::vector<float> input(16);
  for (int i = 0; i < 16; ++i) input[i] = static_cast<float>(i + 1);
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 1, 4, 4}, input), Tensor<float>(kF32, {1, 1, 2, 2}, {1, 1, 1, 1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.conv2d(in[0], in[1], {.dilations = std::vector<uint32_t>{2, 2}})}};
                 });
  CHECK(out["y"].shape == std::vector<uint32_t>{1, 1, 2, 2});
  // taps (0,0), (0,2), (2,0), (2,2) of each 3x3 window: 1+3+9+11, 2+4+10+12, ...
  CHECK(FromBytes<float>(out["y"].data) == std::vector<float>{24, 28, 40, 44});
}

TEST_CASE("conv2d accumulates float16 in float64 and rounds once", "[conv2d]") {
  // In float16, 2048 + 1 rounds back to 2048 (spacing 2), so a float16 running sum
  // would give 2048; the exact 2050 is representable.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 1, 3}, Half({2048, 1, 1})),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 1, 3}, Half({1, 1, 1})),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1}, Half({0.25}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.conv2d(in[0], in[1], {.bias = in[2]})}};
                 });
  // 2050.25 is between float16 neighbours 2050 and 2052: rounds to 2050.
  CHECK(FromHalf(FromBytes<uint16_t>(out["y"].data)) == std::vector<double>{2050});
}

TEST_CASE("conv2d propagates NaN and Inf; padding taps multiply zero", "[conv2d]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 1, 1, 3}, {nan, 1, kInf}), Tensor<float>(kF32, {1, 1, 1, 1}, {-2})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.conv2d(in[0], in[1])}};
                 });
  auto y = FromBytes<float>(out["y"].data);
  CHECK(std::isnan(y[0]));
  CHECK(y[1] == -2.0f);
  CHECK(y[2] == -kInf);

  // An infinite weight on a padding tap is 0 * Inf = NaN, as on a zero-padded input.
  auto padded = Run(
      MLDeviceType::kReference, {Tensor<float>(kF32, {1, 1, 1, 1}, {3}), Tensor<float>(kF32, {1, 1, 1, 2}, {kInf, 1})},
      [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
        return MLNamedOperands{{"y", b.conv2d(in[0], in[1], {.padding = std::vector<uint32_t>{0, 0, 1, 1}})}};
      });
  auto p = FromBytes<float>(padded["y"].data);
  REQUIRE(p.size() == 2);
  CHECK(std::isnan(p[0]));  // Inf * 0 (padding) + 1 * 3
  CHECK(p[1] == kInf);      // Inf * 3 + 1 * 0 (padding)
}

TEST_CASE("conv2d output shapes follow the spec's floor formula", "[conv2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, 5, 5}});
  auto w = b.input("w", {kF32, {1, 1, 4, 2}});
  // height: 1 + (5 - 4 + 1 + 2) / 2 = 3; width: 1 + (5 - 2 + 0 + 1) / 2 = 3
  CHECK(Dims(b.conv2d(x, w, {.padding = std::vector<uint32_t>{1, 2, 0, 1}, .strides = std::vector<uint32_t>{2, 2}})) ==
        std::vector<int64_t>{1, 1, 3, 3});
  // floor(1 + 4 / 3) = 2
  CHECK(Dims(b.conv2d(x, w, {.strides = std::vector<uint32_t>{3, 3}})) == std::vector<int64_t>{1, 1, 1, 2});
  auto xn = b.input("xn", {kF32, {2, 65, 65, 6}});
  auto wn = b.input("wn", {kF32, {4, 3, 3, 3}});  // ohwi, 6 / groups 2 = 3 input channels
  CHECK(Dims(b.conv2d(xn, wn,
                      {.dilations = std::vector<uint32_t>{4, 4},
                       .groups = 2,
                       .inputLayout = MLInputOperandLayout::kNhwc,
                       .filterLayout = MLConv2dFilterOperandLayout::kOhwi})) == std::vector<int64_t>{2, 57, 57, 4});
}

TEST_CASE("conv2d keeps a dynamic batch dimension", "[conv2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {MLDynamicDimension{"batch", 8}, 1, 5, 5}});
  auto w = b.input("w", {kF32, {2, 1, 3, 3}});
  auto shape = b.conv2d(x, w).shape();
  REQUIRE(shape.size() == 4);
  CHECK(shape[0].isDynamic());
  CHECK(shape[0].name() == "batch");
  CHECK(shape[1] == 2);
  CHECK(shape[3] == 3);
}

TEST_CASE("conv2d validation names op, label and argument", "[conv2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 4, 5, 5}});
  auto w = b.input("w", {kF32, {2, 2, 2, 2}});
  CHECK(ErrorMessage([&] { b.conv2d(x, w, Labeled("c1", MLConv2dOptions{.groups = 3})); }) ==
        "conv2d [c1]: input channels 4 must be divisible by groups 3");
  CHECK(ErrorMessage([&] { b.conv2d(x, w, Labeled("c2", MLConv2dOptions{.groups = 4})); }) ==
        "conv2d [c2]: filter input channels 2 must equal input channels / groups (4 / 4 = 1)");
  auto w3 = b.input("w3", {kF32, {3, 2, 2, 2}});
  CHECK(ErrorMessage([&] { b.conv2d(x, w3, Labeled("c3", MLConv2dOptions{.groups = 2})); }) ==
        "conv2d [c3]: filter output channels 3 must be divisible by groups 2");
  CHECK(ErrorMessage([&] { b.conv2d(x, w, Labeled("c4", MLConv2dOptions{.groups = 0})); }) ==
        "conv2d [c4]: groups must be greater than 0, got 0");
  CHECK(ErrorMessage([&] {
          b.conv2d(x, w, Labeled("p", MLConv2dOptions{.padding = std::vector<uint32_t>{1, 1}, .groups = 2}));
        }) == "conv2d [p]: padding must have 4 entries, got 2");
  CHECK(ErrorMessage([&] {
          b.conv2d(x, w, Labeled("s", MLConv2dOptions{.strides = std::vector<uint32_t>{1, 0}, .groups = 2}));
        }) == "conv2d [s]: strides must be greater than 0, got [1, 0]");
  CHECK(ErrorMessage([&] {
          b.conv2d(x, w, Labeled("d", MLConv2dOptions{.dilations = std::vector<uint32_t>{1}, .groups = 2}));
        }) == "conv2d [d]: dilations must have 2 entries, got 1");
  auto bias = b.input("bias", {kF32, {3}});
  CHECK(ErrorMessage([&] { b.conv2d(x, w, Labeled("b", MLConv2dOptions{.groups = 2, .bias = bias})); }) ==
        "conv2d [b]: argument 'bias' shape must be [2], got [3]");
  auto bias16 = b.input("bias16", {MLOperandDataType::kFloat16, {2}});
  CHECK(ErrorName([&] { b.conv2d(x, w, {.groups = 2, .bias = bias16}); }) == "TypeError");
  auto xi = b.input("xi", {MLOperandDataType::kInt32, {1, 4, 5, 5}});
  auto wi = b.input("wi", {MLOperandDataType::kInt32, {2, 2, 2, 2}});
  CHECK(ErrorName([&] { b.conv2d(xi, wi, {.groups = 2}); }) == "TypeError");
}

TEST_CASE("conv2d rejects windows larger than the padded input and huge sizes", "[conv2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, 5, 5}});
  auto w = b.input("w", {kF32, {1, 1, 3, 3}});
  CHECK(ErrorMessage([&] {
          b.conv2d(x, w, Labeled("big", MLConv2dOptions{.dilations = std::vector<uint32_t>{3, 1}}));
        }) ==
        "conv2d [big]: output height would be -1: input height 5 with padding 0 + 0 is smaller than the filter "
        "height 3 dilated by 3");
  // (3 - 1) * 4294967295 + 1 overflows 32 bits; still a TypeError, not a wrap.
  CHECK(ErrorName([&] { b.conv2d(x, w, {.dilations = std::vector<uint32_t>{1, 4294967295u}}); }) == "TypeError");
  CHECK(ErrorName([&] { b.conv2d(x, w, {.padding = std::vector<uint32_t>{0, 4294967295u, 0, 0}}); }) == "TypeError");
  // The output fits, but the zero-padded input, 30005 x 30005 float32 = 3.6e9 bytes, would not fit
  // maxTensorByteLength (2^31).
  auto err = ErrorMessage([&] {
    b.conv2d(x, w, Labeled("pad", MLConv2dOptions{.padding = std::vector<uint32_t>{15000, 15000, 15000, 15000}}));
  });
  CHECK(err.rfind("conv2d [pad]: the input padded by padding [15000, 15000, 15000, 15000]", 0) == 0);
}
