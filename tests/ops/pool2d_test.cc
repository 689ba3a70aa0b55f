// Tests of the pool2d family: averagePool2d, l2Pool2d, maxPool2d (validation and reference kernel).
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr auto kF32 = MLOperandDataType::kFloat32;
const float kInf = std::numeric_limits<float>::infinity();

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

// Runs the three pooling ops with the same options on one float32 input.
std::map<std::string, HostTensor> RunAllPools(const HostTensor& input, const MLPool2dOptions& o) {
  return Run(MLDeviceType::kReference, {input}, [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    return MLNamedOperands{
        {"avg", b.averagePool2d(in[0], o)}, {"l2", b.l2Pool2d(in[0], o)}, {"max", b.maxPool2d(in[0], o)}};
  });
}

}  // namespace

TEST_CASE("pool2d: average, l2 and max over 2x2 windows", "[pool2d]") {
  auto out = RunAllPools(Tensor<float>(kF32, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                         {.windowDimensions = std::vector<uint32_t>{2, 2}});
  CHECK(out["max"].shape == std::vector<uint32_t>{1, 1, 2, 2});
  CHECK(FromBytes<float>(out["max"].data) == std::vector<float>{5, 6, 8, 9});
  CHECK(FromBytes<float>(out["avg"].data) == std::vector<float>{3, 4, 6, 7});
  CHECK(FromBytes<float>(out["l2"].data) == std::vector<float>{static_cast<float>(std::sqrt(1.0 + 4 + 16 + 25)),
                                                               static_cast<float>(std::sqrt(4.0 + 9 + 25 + 36)),
                                                               static_cast<float>(std::sqrt(16.0 + 25 + 49 + 64)),
                                                               static_cast<float>(std::sqrt(25.0 + 36 + 64 + 81))});
}

TEST_CASE("pool2d: default window is global", "[pool2d]") {
  auto out = RunAllPools(Tensor<float>(kF32, {1, 2, 1, 2}, {3, 4, -6, 8}), {});
  CHECK(out["max"].shape == std::vector<uint32_t>{1, 2, 1, 1});
  CHECK(FromBytes<float>(out["max"].data) == std::vector<float>{4, 8});
  CHECK(FromBytes<float>(out["avg"].data) == std::vector<float>{3.5f, 1});
  CHECK(FromBytes<float>(out["l2"].data) == std::vector<float>{5, 10});
}

TEST_CASE("pool2d: padding is not an element (not counted, not a zero)", "[pool2d]") {
  auto out =
      RunAllPools(Tensor<float>(kF32, {1, 1, 2, 2}, {-1, -2, -3, -4}),
                  {.windowDimensions = std::vector<uint32_t>{2, 2}, .padding = std::vector<uint32_t>{1, 1, 1, 1}});
  CHECK(out["avg"].shape == std::vector<uint32_t>{1, 1, 3, 3});
  // The average divides by the real elements in the window: corner windows hold one.
  CHECK(FromBytes<float>(out["avg"].data) == std::vector<float>{-1, -1.5f, -2, -2, -2.5f, -3, -3, -3.5f, -4});
  // A padding zero would win every max here.
  CHECK(FromBytes<float>(out["max"].data) == std::vector<float>{-1, -1, -2, -1, -1, -2, -3, -3, -4});
  CHECK(FromBytes<float>(out["l2"].data)[0] == 1.0f);
  CHECK(FromBytes<float>(out["l2"].data)[1] == static_cast<float>(std::sqrt(5.0)));
}

TEST_CASE("pool2d: ceil rounding windows past the input, empty windows", "[pool2d]") {
  // width: ceil(1 + (2 + 1 - 1) / 3) = 2; the second window starts at 3, past the padded input.
  MLPool2dOptions o{.windowDimensions = std::vector<uint32_t>{1, 1},
                    .padding = std::vector<uint32_t>{0, 0, 0, 1},
                    .strides = std::vector<uint32_t>{1, 3},
                    .outputShapeRounding = MLRoundingType::kCeil};
  auto out = RunAllPools(Tensor<float>(kF32, {1, 1, 1, 2}, {5, 7}), o);
  REQUIRE(out["avg"].shape == std::vector<uint32_t>{1, 1, 1, 2});
  // A window without elements gives 0 (what WPT expects of maxPool2d), for all three.
  CHECK(FromBytes<float>(out["avg"].data) == std::vector<float>{5, 0});
  CHECK(FromBytes<float>(out["l2"].data) == std::vector<float>{5, 0});
  CHECK(FromBytes<float>(out["max"].data) == std::vector<float>{5, 0});

  // ceil keeps a partial last window: width 4, window 3, stride 2 -> 2 outputs, the second over [2, 3].
  auto partial =
      RunAllPools(Tensor<float>(kF32, {1, 1, 1, 4}, {1, 2, 3, 4}), {.windowDimensions = std::vector<uint32_t>{1, 3},
                                                                    .strides = std::vector<uint32_t>{1, 2},
                                                                    .outputShapeRounding = MLRoundingType::kCeil});
  CHECK(FromBytes<float>(partial["avg"].data) == std::vector<float>{2, 3.5f});
  CHECK(FromBytes<float>(partial["max"].data) == std::vector<float>{3, 4});
}

TEST_CASE("pool2d: nhwc with dilations", "[pool2d]") {
  // 3x3x2 input, channel 0 = 1..9, channel 1 = -1..-9; a 2x2 window dilated by 2 reads the corners.
  std::vector<float> input;
  for (int i = 1; i <= 9; ++i) input.insert(input.end(), {static_cast<float>(i), static_cast<float>(-i)});
  auto out = RunAllPools(Tensor<float>(kF32, {1, 3, 3, 2}, input), {.windowDimensions = std::vector<uint32_t>{2, 2},
                                                                    .dilations = std::vector<uint32_t>{2, 2},
                                                                    .layout = MLInputOperandLayout::kNhwc});
  CHECK(out["max"].shape == std::vector<uint32_t>{1, 1, 1, 2});
  CHECK(FromBytes<float>(out["max"].data) == std::vector<float>{9, -1});
  CHECK(FromBytes<float>(out["avg"].data) == std::vector<float>{5, -5});  // (1 + 3 + 7 + 9) / 4
  CHECK(FromBytes<float>(out["l2"].data) ==
        std::vector<float>{static_cast<float>(std::sqrt(140.0)), static_cast<float>(std::sqrt(140.0))});
}

TEST_CASE("pool2d: NaN and Inf", "[pool2d]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = RunAllPools(Tensor<float>(kF32, {1, 1, 1, 4}, {nan, 1, kInf, 2}),
                         {.windowDimensions = std::vector<uint32_t>{1, 2}, .strides = std::vector<uint32_t>{1, 2}});
  auto max = FromBytes<float>(out["max"].data);
  CHECK(std::isnan(max[0]));
  CHECK(max[1] == kInf);
  auto avg = FromBytes<float>(out["avg"].data);
  CHECK(std::isnan(avg[0]));
  CHECK(avg[1] == kInf);
}

TEST_CASE("pool2d: float16 sums in float64 and rounds once", "[pool2d]") {
  // (2048 + 1 + 1 + 0) / 4 = 512.5, representable; float16 running sums would give 512.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 1, 2, 2}, Half({2048, 1, 1, 0}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"avg", b.averagePool2d(in[0])}, {"max", b.maxPool2d(in[0])}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["avg"].data)) == std::vector<double>{512.5});
  CHECK(FromHalf(FromBytes<uint16_t>(out["max"].data)) == std::vector<double>{2048});
}

TEST_CASE("maxPool2d on integers is exact for every integer type", "[pool2d]") {
  auto run = [](const HostTensor& input, const MLPool2dOptions& o = {}) {
    return Run(MLDeviceType::kReference, {input}, [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
      return MLNamedOperands{{"max", b.maxPool2d(in[0], o)}};
    })["max"];
  };
  CHECK(FromBytes<int8_t>(run(Tensor<int8_t>(MLOperandDataType::kInt8, {1, 2, 1, 2}, {-128, -127, 127, -128})).data) ==
        std::vector<int8_t>{-127, 127});
  CHECK(FromBytes<uint8_t>(run(Tensor<uint8_t>(MLOperandDataType::kUint8, {1, 1, 1, 3}, {0, 255, 7})).data) ==
        std::vector<uint8_t>{255});
  CHECK(FromBytes<int32_t>(
            run(Tensor<int32_t>(MLOperandDataType::kInt32, {1, 1, 1, 2}, {INT32_MIN, INT32_MIN + 1})).data) ==
        std::vector<int32_t>{INT32_MIN + 1});
  CHECK(FromBytes<uint32_t>(
            run(Tensor<uint32_t>(MLOperandDataType::kUint32, {1, 1, 1, 2}, {4294967295u, 4294967294u})).data) ==
        std::vector<uint32_t>{4294967295u});
  // Values 1 apart above 2^53 must not collapse as they would in float64.
  const int64_t big = (int64_t{1} << 62) + 1;
  CHECK(FromBytes<int64_t>(run(Tensor<int64_t>(MLOperandDataType::kInt64, {1, 1, 1, 2}, {big, big - 1})).data) ==
        std::vector<int64_t>{big});
  const uint64_t ubig = UINT64_MAX;
  CHECK(FromBytes<uint64_t>(run(Tensor<uint64_t>(MLOperandDataType::kUint64, {1, 1, 1, 2}, {ubig - 1, ubig})).data) ==
        std::vector<uint64_t>{ubig});
  // An empty window (all padding) gives 0, also below every element.
  CHECK(FromBytes<int8_t>(
            run(Tensor<int8_t>(MLOperandDataType::kInt8, {1, 1, 1, 1}, {-5}),
                {.windowDimensions = std::vector<uint32_t>{1, 1}, .padding = std::vector<uint32_t>{0, 0, 1, 0}})
                .data) == std::vector<int8_t>{0, -5});
}

TEST_CASE("pool2d output shapes: rounding and outputSizes", "[pool2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 3, 7, 7}});
  // 1 + (7 - 4 + 2) / 2 = 3.5
  const MLPool2dOptions base{.windowDimensions = std::vector<uint32_t>{4, 4},
                             .padding = std::vector<uint32_t>{1, 1, 1, 1},
                             .strides = std::vector<uint32_t>{2, 2}};
  CHECK(Dims(b.maxPool2d(x, base)) == std::vector<int64_t>{1, 3, 3, 3});
  MLPool2dOptions ceil = base;
  ceil.outputShapeRounding = MLRoundingType::kCeil;
  CHECK(Dims(b.averagePool2d(x, ceil)) == std::vector<int64_t>{1, 3, 4, 4});
  MLPool2dOptions sizes = ceil;
  sizes.outputSizes = std::vector<uint32_t>{3, 3};  // overrides the rounding
  CHECK(Dims(b.l2Pool2d(x, sizes)) == std::vector<int64_t>{1, 3, 3, 3});
  sizes.outputSizes = std::vector<uint32_t>{3, 4};  // floor height with ceil width: neither pair
  sizes.label = "mixed";
  CHECK(ErrorMessage([&] { b.maxPool2d(x, sizes); }) ==
        "maxPool2d [mixed]: outputSizes must be the floor-rounded sizes [3, 3] or the ceil-rounded sizes [4, 4], "
        "got [3, 4]");
  // Default window with padding: 1 + (1 + 1) / 1 = 3, whatever the input size.
  CHECK(Dims(b.maxPool2d(x, {.padding = std::vector<uint32_t>{1, 1, 0, 0}})) == std::vector<int64_t>{1, 3, 3, 1});
  // ceil(1 + (5 - 6) / 2) = ceil(0.5) = 1: a window one past the input still fits with ceil.
  auto x5 = b.input("x5", {kF32, {1, 1, 5, 5}});
  MLPool2dOptions wide{.windowDimensions = std::vector<uint32_t>{6, 6},
                       .strides = std::vector<uint32_t>{2, 2},
                       .outputShapeRounding = MLRoundingType::kCeil};
  CHECK(Dims(b.maxPool2d(x5, wide)) == std::vector<int64_t>{1, 1, 1, 1});
  wide.outputShapeRounding = MLRoundingType::kFloor;
  wide.label = "wide";
  CHECK(ErrorMessage([&] { b.maxPool2d(x5, wide); }) ==
        "maxPool2d [wide]: output height would be 0: input height 5 with padding 0 + 0 is smaller than the window "
        "height 6 dilated by 1");
  auto xn = b.input("xn", {MLOperandDataType::kFloat16, {2, 5, 5, 3}});
  CHECK(Dims(b.averagePool2d(xn, {.windowDimensions = std::vector<uint32_t>{3, 3},
                                  .layout = MLInputOperandLayout::kNhwc})) == std::vector<int64_t>{2, 3, 3, 3});
}

TEST_CASE("pool2d global pooling of a dynamic input has a static 1x1 output", "[pool2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 3, MLDynamicDimension{"h", 64}, MLDynamicDimension{"w", 64}}});
  auto shape = b.averagePool2d(x).shape();
  REQUIRE(shape.size() == 4);
  CHECK(shape[2] == 1);
  CHECK(shape[3] == 1);
  auto windowed = b.maxPool2d(x, {.windowDimensions = std::vector<uint32_t>{2, 2}}).shape();
  CHECK(windowed[2].isDynamic());
  CHECK(windowed[2].size() == 63);
}

TEST_CASE("pool2d validation names op, label and argument", "[pool2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 2, 5, 5}});
  CHECK(ErrorMessage([&] {
          b.averagePool2d(x, Labeled("w0", MLPool2dOptions{.windowDimensions = std::vector<uint32_t>{0, 2}}));
        }) == "averagePool2d [w0]: windowDimensions must be greater than 0, got [0, 2]");
  CHECK(ErrorMessage([&] {
          b.l2Pool2d(x, Labeled("w4", MLPool2dOptions{.windowDimensions = std::vector<uint32_t>{1, 1, 1, 1}}));
        }) == "l2Pool2d [w4]: windowDimensions must have 2 entries, got 4");
  CHECK(ErrorMessage([&] {
          b.maxPool2d(x, Labeled("p", MLPool2dOptions{.padding = std::vector<uint32_t>{2, 2}}));
        }) == "maxPool2d [p]: padding must have 4 entries, got 2");
  CHECK(ErrorMessage([&] {
          b.maxPool2d(x, Labeled("s", MLPool2dOptions{.strides = std::vector<uint32_t>{0, 2}}));
        }) == "maxPool2d [s]: strides must be greater than 0, got [0, 2]");
  CHECK(ErrorMessage([&] {
          b.maxPool2d(x, Labeled("o", MLPool2dOptions{.outputSizes = std::vector<uint32_t>{1, 2, 3}}));
        }) == "maxPool2d [o]: outputSizes must have 2 entries, got 3");
  CHECK(ErrorName([&] {
          b.maxPool2d(x, {.padding = std::vector<uint32_t>{4294967295u, 4294967295u, 0, 0}});
        }) == "TypeError");
  auto xi = b.input("xi", {MLOperandDataType::kInt64, {1, 2, 3, 3}});
  CHECK(ErrorName([&] { b.averagePool2d(xi); }) == "TypeError");
  CHECK(ErrorName([&] { b.l2Pool2d(xi); }) == "TypeError");
  CHECK(Dims(b.maxPool2d(xi)) == std::vector<int64_t>{1, 2, 1, 1});
  auto x3 = b.input("x3", {kF32, {1, 5, 5}});
  CHECK(ErrorName([&] { b.maxPool2d(x3); }) == "TypeError");
}

TEST_CASE("pool2d outputSizes on a dynamic input is checked at dispatch", "[pool2d][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {kF32, {1, 1, MLDynamicDimension{"h", 16}, 7}});
  // At the bound 16 the height would be 7 or 8; [4, 3] fits heights 8 (ceil) and 10 (floor).
  MLPool2dOptions o{.windowDimensions = std::vector<uint32_t>{3, 3},
                    .strides = std::vector<uint32_t>{2, 2},
                    .outputSizes = std::vector<uint32_t>{4, 3}};
  auto y = b.maxPool2d(x, o);
  CHECK(Dims(y) == std::vector<int64_t>{1, 1, 4, 3});
  MLGraph graph = b.build({{"y", y}});
  CHECK(graph.computeShapes({{"x", {1, 1, 8, 7}}}).at("y") == std::vector<uint32_t>{1, 1, 4, 3});
  CHECK(graph.computeShapes({{"x", {1, 1, 10, 7}}}).at("y") == std::vector<uint32_t>{1, 1, 4, 3});
  CHECK(ErrorName([&] { graph.computeShapes({{"x", {1, 1, 12, 7}}}); }) == "TypeError");

  // Height 8 with ceil sizes: the last row of windows covers rows 6..8, row 8 past the input.
  std::vector<float> input(8 * 7);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
  MLTensor in = ctx.createTensor({kF32, {1, 1, 8, 7}, false, true});
  ctx.writeTensor(in, MLBufferSource(input));
  MLTensor out = ctx.createTensor({kF32, {1, 1, 4, 3}, true, false});
  ctx.dispatch(graph, {{"x", in}}, {{"y", out}});
  // max of rows 2r..2r+2 (clipped to 7), columns 2c..2c+2: element (min(2r+2, 7), 2c+2) = 7 * row + col.
  CHECK(FromBytes<float>(ctx.readTensor(out)) == std::vector<float>{16, 18, 20, 30, 32, 34, 44, 46, 48, 51, 53, 55});
}
