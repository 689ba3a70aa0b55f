// Tests of the convTranspose2d family (validation and reference kernel).
#include <array>
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

MLOperand ConvT(MLGraphBuilder& b, const std::vector<MLOperand>& in, MLConvTranspose2dOptions o = {}) {
  return b.convTranspose2d(in[0], in[1], o);
}

}  // namespace

TEST_CASE("convTranspose2d sums overlapping filter stamps", "[conv_transpose2d]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4}), Tensor<float>(kF32, {1, 1, 2, 2}, {1, 1, 1, 1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", ConvT(b, in)}};
                 });
  CHECK(out["y"].shape == std::vector<uint32_t>{1, 1, 3, 3});
  // out[y][x] = sum of in[i][j] for i in {y-1, y}, j in {x-1, x}
  CHECK(FromBytes<float>(out["y"].data) == std::vector<float>{1, 3, 2, 4, 10, 6, 3, 7, 4});
}

TEST_CASE("convTranspose2d every filter and input layout", "[conv_transpose2d]") {
  // One input channel, two output channels, stride 2 so the 2x2 stamps do not overlap.
  const std::vector<float> filter_iohw = {1, 2, 3, 4, -1, 0, 0, 1};
  const std::array<uint32_t, 4> iohw_dims{1, 2, 2, 2};
  const std::vector<float> expected_nchw = {
      1,  2, 2,  4, 3, 4, 6, 8, 3,  6, 4,  8, 9, 12, 12, 16,  // channel 0: in[i][j] * [1 2; 3 4]
      -1, 0, -2, 0, 0, 1, 0, 2, -3, 0, -4, 0, 0, 3,  0,  4};  // channel 1: in[i][j] * [-1 0; 0 1]
  struct LayoutCase {
    MLConvTranspose2dFilterOperandLayout layout;
    std::array<int, 4> perm;  // filter axes in terms of iohw axes
  };
  const LayoutCase layouts[] = {{MLConvTranspose2dFilterOperandLayout::kIohw, {0, 1, 2, 3}},
                                {MLConvTranspose2dFilterOperandLayout::kHwoi, {2, 3, 1, 0}},
                                {MLConvTranspose2dFilterOperandLayout::kOhwi, {1, 2, 3, 0}}};
  for (bool nhwc : {false, true}) {
    for (const LayoutCase& lc : layouts) {
      CAPTURE(nhwc, static_cast<int>(lc.layout));
      auto out = Run(MLDeviceType::kReference,
                     {Tensor<float>(kF32, nhwc ? std::vector<uint32_t>{1, 2, 2, 1} : std::vector<uint32_t>{1, 1, 2, 2},
                                    {1, 2, 3, 4}),
                      Tensor<float>(kF32, PermutedDims(iohw_dims, lc.perm), Permute(filter_iohw, iohw_dims, lc.perm))},
                     [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                       MLConvTranspose2dOptions o;
                       o.strides = std::vector<uint32_t>{2, 2};
                       o.inputLayout = nhwc ? MLInputOperandLayout::kNhwc : MLInputOperandLayout::kNchw;
                       o.filterLayout = lc.layout;
                       return MLNamedOperands{{"y", ConvT(b, in, o)}};
                     });
      CHECK(out["y"].shape == (nhwc ? std::vector<uint32_t>{1, 4, 4, 2} : std::vector<uint32_t>{1, 2, 4, 4}));
      CHECK(FromBytes<float>(out["y"].data) ==
            (nhwc ? Permute(expected_nchw, {1, 2, 4, 4}, {0, 2, 3, 1}) : expected_nchw));
    }
  }
}

TEST_CASE("convTranspose2d padding crops, outputPadding and outputSizes extend", "[conv_transpose2d]") {
  // Full stride-2 result of [1 2; 3 4] with filter [1 2; 3 4] is the 4x4
  //   1 2 2 4 / 3 4 6 8 / 3 6 4 8 / 9 12 12 16
  // padding [1, 0, 0, 1] drops the first row and the last column; one extra row
  // at the end (outputPadding[0] = 1 or outputSizes [4, 3]) holds only the bias.
  const std::vector<float> expected = {3.5f, 4.5f, 6.5f, 3.5f, 6.5f, 4.5f, 9.5f, 12.5f, 12.5f, 0.5f, 0.5f, 0.5f};
  for (bool use_sizes : {false, true}) {
    CAPTURE(use_sizes);
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4}), Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4}),
                    Tensor<float>(kF32, {1}, {0.5f})},
                   [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                     MLConvTranspose2dOptions o;
                     o.padding = std::vector<uint32_t>{1, 0, 0, 1};
                     o.strides = std::vector<uint32_t>{2, 2};
                     if (use_sizes) o.outputSizes = std::vector<uint32_t>{4, 3};
                     else o.outputPadding = std::vector<uint32_t>{1, 0};
                     o.bias = in[2];
                     return MLNamedOperands{{"y", ConvT(b, in, o)}};
                   });
    CHECK(out["y"].shape == std::vector<uint32_t>{1, 1, 4, 3});
    CHECK(FromBytes<float>(out["y"].data) == expected);
  }
}

TEST_CASE("convTranspose2d dilations and groups", "[conv_transpose2d]") {
  // Dilation 2 places the 2x2 taps 2 apart: every output reads exactly one input.
  auto dilated = Run(MLDeviceType::kReference,
                     {Tensor<float>(kF32, {1, 1, 2, 2}, {1, 2, 3, 4}), Tensor<float>(kF32, {1, 1, 2, 2}, {1, 1, 1, 1})},
                     [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                       return MLNamedOperands{{"y", ConvT(b, in, {.dilations = std::vector<uint32_t>{2, 2}})}};
                     });
  CHECK(dilated["y"].shape == std::vector<uint32_t>{1, 1, 4, 4});
  CHECK(FromBytes<float>(dilated["y"].data) == std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4});

  // groups 2: input channel 0 feeds output channels 0-1, channel 1 feeds 2-3.
  auto grouped = Run(MLDeviceType::kReference,
                     {Tensor<float>(kF32, {1, 2, 1, 1}, {1, 10}), Tensor<float>(kF32, {2, 2, 1, 1}, {1, 2, 3, 4})},
                     [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                       return MLNamedOperands{{"y", ConvT(b, in, {.groups = 2})}};
                     });
  CHECK(grouped["y"].shape == std::vector<uint32_t>{1, 4, 1, 1});
  CHECK(FromBytes<float>(grouped["y"].data) == std::vector<float>{1, 2, 30, 40});
}

TEST_CASE("convTranspose2d float16 rounds once and propagates Inf", "[conv_transpose2d]") {
  // Three stamps overlap at the centre: 2048 + 1 + 1 = 2050 exactly (float16 running sums give 2048);
  // 2049 is a tie between 2048 and 2050 and rounds to the even 2048.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 1, 3}, Half({2048, 1, 1})),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 1, 3}, Half({1, 1, 1}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", ConvT(b, in)}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["y"].data)) == std::vector<double>{2048, 2048, 2050, 2, 1});
  // 65504 * 2 overflows float16 to +Inf at the single rounding.
  auto inf = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 1, 1}, Half({65504})),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 1, 1}, Half({2}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", ConvT(b, in)}};
                 });
  CHECK(std::isinf(FromHalf(FromBytes<uint16_t>(inf["y"].data))[0]));
}

TEST_CASE("convTranspose2d groups that do not divide the input channels build but do not run", "[conv_transpose2d]") {
  // The spec (and WPT) accept this; a grouped convolution has no meaning for it.
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, 5, 5}});
  auto w = b.input("w", {kF32, {1, 1, 3, 3}});
  CHECK(Dims(b.convTranspose2d(x, w, {.padding = std::vector<uint32_t>{1, 1, 1, 1}, .groups = 3})) ==
        std::vector<int64_t>{1, 3, 5, 5});
  CHECK(ErrorName([&] {
          Run(MLDeviceType::kReference,
              {Tensor<float>(kF32, {1, 1, 1, 1}, {1}), Tensor<float>(kF32, {1, 1, 1, 1}, {1})},
              [](MLGraphBuilder& b2, const std::vector<MLOperand>& in) {
                return MLNamedOperands{{"y", ConvT(b2, in, {.groups = 2})}};
              });
        }) == "NotSupportedError");
}

TEST_CASE("convTranspose2d output shapes", "[conv_transpose2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, 3, 3}});
  auto w = b.input("w", {kF32, {1, 2, 3, 3}});
  // (3 - 1) * 3 + 3 + 1 = 10 and (3 - 1) * 2 + 3 + 1 = 8
  CHECK(Dims(b.convTranspose2d(
            x, w, {.strides = std::vector<uint32_t>{3, 2}, .outputPadding = std::vector<uint32_t>{1, 1}})) ==
        std::vector<int64_t>{1, 2, 10, 8});
  // outputSizes overrides outputPadding (even one that is not smaller than the stride).
  CHECK(Dims(b.convTranspose2d(x, w,
                               {.strides = std::vector<uint32_t>{3, 2},
                                .outputPadding = std::vector<uint32_t>{3, 3},
                                .outputSizes = std::vector<uint32_t>{11, 7}})) == std::vector<int64_t>{1, 2, 11, 7});
  auto xn = b.input("xn", {kF32, {1, 3, 3, 4}});
  auto wn = b.input("wn", {kF32, {3, 3, 2, 4}});  // hwoi: 2 output channels per group
  CHECK(Dims(b.convTranspose2d(xn, wn,
                               {.groups = 2,
                                .inputLayout = MLInputOperandLayout::kNhwc,
                                .filterLayout = MLConvTranspose2dFilterOperandLayout::kHwoi})) ==
        std::vector<int64_t>{1, 5, 5, 4});
}

TEST_CASE("convTranspose2d validation names op, label and argument", "[conv_transpose2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, 3, 3}});
  auto w = b.input("w", {kF32, {1, 1, 3, 3}});
  CHECK(ErrorMessage([&] {
          b.convTranspose2d(x, w,
                            Labeled("t1", MLConvTranspose2dOptions{.strides = std::vector<uint32_t>{2, 2},
                                                                   .outputPadding = std::vector<uint32_t>{0, 2}}));
        }) == "convTranspose2d [t1]: outputPadding[1] must be smaller than strides[1] (2), got 2");
  CHECK(ErrorMessage([&] {
          b.convTranspose2d(x, w, Labeled("t2", MLConvTranspose2dOptions{.outputPadding = std::vector<uint32_t>{0}}));
        }) == "convTranspose2d [t2]: outputPadding must have 2 entries, got 1");
  // calculated height: (3 - 1) * 2 + 3 - 2 = 5, so outputSizes[0] must be 5 or 6.
  CHECK(ErrorMessage([&] {
          b.convTranspose2d(x, w,
                            Labeled("t3", MLConvTranspose2dOptions{.padding = std::vector<uint32_t>{1, 1, 1, 1},
                                                                   .strides = std::vector<uint32_t>{2, 2},
                                                                   .outputSizes = std::vector<uint32_t>{7, 5}}));
        }) ==
        "convTranspose2d [t3]: outputSizes[0] (output height) must be in [5, 7) for input height 3, filter "
        "height 3, stride 2, dilation 1 and padding 1 + 1; got 7");
  CHECK(ErrorMessage([&] {
          b.convTranspose2d(x, w, Labeled("t4", MLConvTranspose2dOptions{.outputSizes = std::vector<uint32_t>{0, 5}}));
        }) == "convTranspose2d [t4]: outputSizes must be greater than 0, got [0, 5]");
  // (3 - 1) * 1 + 3 - 4 - 4 = -3
  CHECK(
      ErrorMessage([&] {
        b.convTranspose2d(x, w, Labeled("t5", MLConvTranspose2dOptions{.padding = std::vector<uint32_t>{4, 4, 0, 0}}));
      }) ==
      "convTranspose2d [t5]: output height would be -3: padding 4 + 4 is too large for input height 3, filter "
      "height 3, stride 1 and dilation 1");
  auto w2 = b.input("w2", {kF32, {2, 1, 3, 3}});
  CHECK(ErrorMessage([&] { b.convTranspose2d(x, w2, Labeled("t6", MLConvTranspose2dOptions{})); }) ==
        "convTranspose2d [t6]: filter input channels 2 must equal input channels 1");
  CHECK(ErrorName([&] { b.convTranspose2d(x, w, {.groups = 4294967295u}); }) == "TypeError");
  CHECK(ErrorName([&] { b.convTranspose2d(x, w, {.groups = 0}); }) == "TypeError");
  CHECK(ErrorName([&] {
          b.convTranspose2d(x, w, {.dilations = std::vector<uint32_t>{4294967295u, 1}});
        }) == "TypeError");
  auto bias = b.input("bias", {kF32, {2}});
  CHECK(ErrorMessage([&] { b.convTranspose2d(x, w, Labeled("t7", MLConvTranspose2dOptions{.bias = bias})); }) ==
        "convTranspose2d [t7]: argument 'bias' shape must be [1], got [2]");
}

TEST_CASE("convTranspose2d outputSizes on a dynamic input is checked at dispatch", "[conv_transpose2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, MLDynamicDimension{"h", 10}, 3}});
  auto w = b.input("w", {kF32, {1, 1, 3, 3}});
  // Calculated height (h - 1) * 2 + 3: at the bound 21, for h = 3 it is 7, so 8 is valid only then.
  auto y =
      b.convTranspose2d(x, w, {.strides = std::vector<uint32_t>{2, 2}, .outputSizes = std::vector<uint32_t>{8, 7}});
  CHECK(Dims(y) == std::vector<int64_t>{1, 1, 8, 7});
  MLGraph graph = b.build({{"y", y}});
  CHECK(graph.computeShapes({{"x", {1, 1, 3, 3}}, {"w", {1, 1, 3, 3}}}).at("y") == std::vector<uint32_t>{1, 1, 8, 7});
  CHECK(ErrorName([&] { graph.computeShapes({{"x", {1, 1, 4, 3}}, {"w", {1, 1, 3, 3}}}); }) == "TypeError");
}
