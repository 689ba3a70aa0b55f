// Tests of the reductions: validation, output shapes and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<int64_t> ShapeOf(const MLOperand& o) {
  std::vector<int64_t> s;
  for (const MLDimension& d : o.shape()) s.push_back(d.size());
  return s;
}

// Runs one float32 reduction of a 1-D input over all axes.
float ReduceF32(std::vector<float> values,
                MLOperand (MLGraphBuilder::*op)(const MLOperand&, const MLReduceOptions&)) {
  const uint32_t n = static_cast<uint32_t>(values.size());
  auto out = Run(MLDeviceType::kReference, {Tensor<float>(MLOperandDataType::kFloat32, {n}, values)},
                 [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", (b.*op)(in[0], {})}};
                 });
  return FromBytes<float>(out["y"].data).at(0);
}

}  // namespace

TEST_CASE("reductions over non-adjacent axes in any order", "[reduce]") {
  // x[i][j][k] = 6i + 2j + k; summing over i and k leaves 14, 22, 30 for j = 0, 1, 2.
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[i] = static_cast<float>(i);
  auto out = Run(MLDeviceType::kReference, {Tensor<float>(MLOperandDataType::kFloat32, {2, 3, 2}, x)},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"sum", b.reduceSum(in[0], {.axes = std::vector<uint32_t>{2, 0}})},
                       {"keep", b.reduceMax(in[0], {.axes = std::vector<uint32_t>{0, 2}, .keepDimensions = true})},
                       {"mean", b.reduceMean(in[0], {.axes = std::vector<uint32_t>{1}})},
                       {"all", b.reduceProduct(in[0], {.keepDimensions = true})}};
                 });
  CHECK(out["sum"].shape == std::vector<uint32_t>{3});
  CHECK(FromBytes<float>(out["sum"].data) == std::vector<float>{14, 22, 30});
  CHECK(out["keep"].shape == std::vector<uint32_t>{1, 3, 1});
  CHECK(FromBytes<float>(out["keep"].data) == std::vector<float>{7, 9, 11});
  // Mean over j of 6i + 2j + k = 6i + 2 + k.
  CHECK(out["mean"].shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<float>(out["mean"].data) == std::vector<float>{2, 3, 8, 9});
  CHECK(out["all"].shape == std::vector<uint32_t>{1, 1, 1});
  CHECK(FromBytes<float>(out["all"].data) == std::vector<float>{0});
}

TEST_CASE("empty axes apply the reduction element-wise", "[reduce]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 2}, {-1.5f, 2.0f, -0.0f, -3.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   const MLReduceOptions none{.axes = std::vector<uint32_t>{}};
                   return MLNamedOperands{{"l1", b.reduceL1(in[0], none)},
                                          {"sq", b.reduceSumSquare(in[0], none)},
                                          {"l2", b.reduceL2(in[0], none)}};
                 });
  CHECK(out["l1"].shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<float>(out["l1"].data) == std::vector<float>{1.5f, 2.0f, 0.0f, 3.0f});
  CHECK_FALSE(std::signbit(FromBytes<float>(out["l1"].data)[2]));
  CHECK(FromBytes<float>(out["sq"].data) == std::vector<float>{2.25f, 4.0f, 0.0f, 9.0f});
  CHECK(FromBytes<float>(out["l2"].data) == std::vector<float>{1.5f, 2.0f, 0.0f, 3.0f});
}

TEST_CASE("a scalar input reduces to a scalar", "[reduce]") {
  auto out = Run(MLDeviceType::kReference, {Tensor<float>(MLOperandDataType::kFloat32, {}, {-4.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"sum", b.reduceSum(in[0], {.keepDimensions = true})},
                                          {"l1", b.reduceL1(in[0], {})}};
                 });
  CHECK(out["sum"].shape.empty());
  CHECK(FromBytes<float>(out["sum"].data) == std::vector<float>{-4.0f});
  CHECK(FromBytes<float>(out["l1"].data) == std::vector<float>{4.0f});
}

TEST_CASE("float reductions accumulate in float64 and round once", "[reduce]") {
  // In float32 arithmetic 2^24 + 1 + 1 stays 2^24; exactly it is 16777218, a float32.
  CHECK(ReduceF32({16777216.0f, 1.0f, 1.0f}, &MLGraphBuilder::reduceSum) == 16777218.0f);
  // 2e38^2 overflows float32 but not float64: the L2 norm is finite (sqrt(2) * 2e38).
  const float l2 = ReduceF32({2e38f, 2e38f}, &MLGraphBuilder::reduceL2);
  CHECK(std::isfinite(l2));
  CHECK(l2 == Approx(2.8284271e38).epsilon(1e-6));
  // logSumExp shifts by the maximum: exp(1000) would overflow even float64.
  CHECK(ReduceF32({1000.0f, 1000.0f}, &MLGraphBuilder::reduceLogSumExp) == 1000.6931762695312f);
  CHECK(ReduceF32({-1000.0f, -1000.0f}, &MLGraphBuilder::reduceLogSumExp) == -999.3068237304688f);
  CHECK(ReduceF32({-kInf, -kInf}, &MLGraphBuilder::reduceLogSumExp) == -kInf);
  CHECK(ReduceF32({kInf, 0.0f}, &MLGraphBuilder::reduceLogSumExp) == kInf);
  CHECK(ReduceF32({1.0f, 2.0f, 3.0f}, &MLGraphBuilder::reduceLogSum) == 1.7917594909667969f);  // ln 6
  CHECK(ReduceF32({1.0f, -1.0f}, &MLGraphBuilder::reduceLogSum) == -kInf);
  CHECK(std::isnan(ReduceF32({1.0f, -2.0f}, &MLGraphBuilder::reduceLogSum)));
}

TEST_CASE("NaN and infinities propagate through float reductions", "[reduce]") {
  CHECK(std::isnan(ReduceF32({1.0f, kNaN, 3.0f}, &MLGraphBuilder::reduceMax)));
  CHECK(std::isnan(ReduceF32({kNaN, -kInf}, &MLGraphBuilder::reduceMin)));
  CHECK(std::isnan(ReduceF32({2.0f, kNaN}, &MLGraphBuilder::reduceLogSumExp)));
  CHECK(std::isnan(ReduceF32({kInf, -kInf}, &MLGraphBuilder::reduceSum)));
  CHECK(std::isnan(ReduceF32({kInf, 0.0f}, &MLGraphBuilder::reduceProduct)));
  CHECK(ReduceF32({-kInf, -kInf}, &MLGraphBuilder::reduceMax) == -kInf);
  CHECK(ReduceF32({-kInf, 5.0f}, &MLGraphBuilder::reduceL1) == kInf);
  CHECK(ReduceF32({-kInf, 5.0f}, &MLGraphBuilder::reduceMean) == -kInf);
}

TEST_CASE("float16 reductions: no float16 intermediate overflow", "[reduce]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2, 2}, Half({65504, 65504, 2048, 1}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   const MLReduceOptions rows{.axes = std::vector<uint32_t>{1}};
                   return MLNamedOperands{{"mean", b.reduceMean(in[0], rows)}, {"sum", b.reduceSum(in[0], rows)}};
                 });
  // 65504 + 65504 overflows float16 but the mean is 65504. 1024.5 and 2049 are float16 ties
  // and round to even: 1024 and 2048.
  CHECK(FromHalf(FromBytes<uint16_t>(out["mean"].data)) == std::vector<double>{65504, 1024});
  CHECK(FromHalf(FromBytes<uint16_t>(out["sum"].data)) == std::vector<double>{INFINITY, 2048});
}

TEST_CASE("integer reductions are exact and wrap", "[reduce]") {
  const int32_t kMin32 = std::numeric_limits<int32_t>::min();
  const int32_t kMax32 = std::numeric_limits<int32_t>::max();
  auto i32 = Run(MLDeviceType::kReference,
                 {Tensor<int32_t>(MLOperandDataType::kInt32, {3, 2}, {kMax32, 1, kMin32, 5, 65536, 32768})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   const MLReduceOptions rows{.axes = std::vector<uint32_t>{1}};
                   return MLNamedOperands{{"sum", b.reduceSum(in[0], rows)},
                                          {"l1", b.reduceL1(in[0], rows)},
                                          {"product", b.reduceProduct(in[0], rows)},
                                          {"sq", b.reduceSumSquare(in[0], rows)}};
                 });
  // kMax + 1 wraps to kMin; |kMin| = 2^31 wraps to kMin, + 5; kMin * 5 = 2^31 (mod 2^32) and
  // 65536 * 32768 = 2^31 wrap to kMin.
  CHECK(FromBytes<int32_t>(i32["sum"].data) == std::vector<int32_t>{kMin32, kMin32 + 5, 98304});
  CHECK(FromBytes<int32_t>(i32["l1"].data) == std::vector<int32_t>{kMin32, kMin32 + 5, 98304});
  CHECK(FromBytes<int32_t>(i32["product"].data) == std::vector<int32_t>{kMax32, kMin32, kMin32});
  // (2^31-1)^2 + 1 = 2^62 - 2^32 + 2 = 2 mod 2^32; 2^62 + 25 = 25 mod 2^32; 2^32 + 2^30 = 2^30 mod 2^32.
  CHECK(FromBytes<int32_t>(i32["sq"].data) == std::vector<int32_t>{2, 25, 1073741824});

  const uint32_t kMaxU32 = std::numeric_limits<uint32_t>::max();
  auto u32 = Run(MLDeviceType::kReference, {Tensor<uint32_t>(MLOperandDataType::kUint32, {3}, {kMaxU32, 2, 7})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"sum", b.reduceSum(in[0], {})}, {"min", b.reduceMin(in[0], {})},
                                          {"l1", b.reduceL1(in[0], {})}};
                 });
  CHECK(FromBytes<uint32_t>(u32["sum"].data) == std::vector<uint32_t>{8});
  CHECK(FromBytes<uint32_t>(u32["min"].data) == std::vector<uint32_t>{2});
  CHECK(FromBytes<uint32_t>(u32["l1"].data) == std::vector<uint32_t>{8});
}

TEST_CASE("64-bit integer reductions keep every bit", "[reduce]") {
  const int64_t kMin64 = std::numeric_limits<int64_t>::min();
  const int64_t kMax64 = std::numeric_limits<int64_t>::max();
  auto i64 = Run(MLDeviceType::kReference,
                 {Tensor<int64_t>(MLOperandDataType::kInt64, {3}, {kMax64, kMin64, int64_t{1} << 60})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"sum", b.reduceSum(in[0], {})},
                                          {"max", b.reduceMax(in[0], {})},
                                          {"min", b.reduceMin(in[0], {})}};
                 });
  CHECK(FromBytes<int64_t>(i64["sum"].data) == std::vector<int64_t>{(int64_t{1} << 60) - 1});
  CHECK(FromBytes<int64_t>(i64["max"].data) == std::vector<int64_t>{kMax64});
  CHECK(FromBytes<int64_t>(i64["min"].data) == std::vector<int64_t>{kMin64});

  const uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
  // 2^53 + 1 is not a double: an exact integer path must keep the 1.
  auto u64 = Run(MLDeviceType::kReference,
                 {Tensor<uint64_t>(MLOperandDataType::kUint64, {2, 2}, {kMaxU64, 0, (uint64_t{1} << 53) + 1, 3})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   const MLReduceOptions rows{.axes = std::vector<uint32_t>{1}};
                   return MLNamedOperands{{"max", b.reduceMax(in[0], rows)},
                                          {"product", b.reduceProduct(in[0], rows)},
                                          {"sum", b.reduceSum(in[0], rows)}};
                 });
  CHECK(FromBytes<uint64_t>(u64["max"].data) == std::vector<uint64_t>{kMaxU64, (uint64_t{1} << 53) + 1});
  CHECK(FromBytes<uint64_t>(u64["product"].data) == std::vector<uint64_t>{0, (uint64_t{3} << 53) + 3});
  CHECK(FromBytes<uint64_t>(u64["sum"].data) == std::vector<uint64_t>{kMaxU64, (uint64_t{1} << 53) + 4});
}

TEST_CASE("reduceMax and reduceMin take 8-bit integers", "[reduce]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {4}, {-128, 127, 0, -1}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {4}, {255, 0, 128, 7})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i8max", b.reduceMax(in[0], {})}, {"i8min", b.reduceMin(in[0], {})},
                                          {"u8max", b.reduceMax(in[1], {})}, {"u8min", b.reduceMin(in[1], {})}};
                 });
  CHECK(FromBytes<int8_t>(out["i8max"].data) == std::vector<int8_t>{127});
  CHECK(FromBytes<int8_t>(out["i8min"].data) == std::vector<int8_t>{-128});
  CHECK(FromBytes<uint8_t>(out["u8max"].data) == std::vector<uint8_t>{255});
  CHECK(FromBytes<uint8_t>(out["u8min"].data) == std::vector<uint8_t>{0});
}

TEST_CASE("reduction output shapes", "[reduce][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {1, 7, 7, 2048}});
  CHECK(ShapeOf(b.reduceMean(x, {.axes = std::vector<uint32_t>{1, 2}, .keepDimensions = true})) ==
        std::vector<int64_t>{1, 1, 1, 2048});
  CHECK(ShapeOf(b.reduceMean(x, {.axes = std::vector<uint32_t>{2, 1}})) == std::vector<int64_t>{1, 2048});
  CHECK(ShapeOf(b.reduceSum(x)).empty());
  CHECK(ShapeOf(b.reduceL1(x, {.keepDimensions = true})) == std::vector<int64_t>{1, 1, 1, 1});
  CHECK(ShapeOf(b.reduceMin(x, {.axes = std::vector<uint32_t>{}})) == std::vector<int64_t>{1, 7, 7, 2048});
  auto s = b.input("s", {MLOperandDataType::kInt32, {}});
  auto r = b.reduceSum(s, {.axes = std::vector<uint32_t>{}});
  CHECK(ShapeOf(r).empty());
  CHECK(r.dataType() == MLOperandDataType::kInt32);
}

TEST_CASE("reductions keep dynamic dimensions they do not reduce", "[reduce][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {MLDynamicDimension{"batch", 8}, 5}});
  auto y = b.reduceSum(x, {.axes = std::vector<uint32_t>{1}});
  REQUIRE(y.shape().size() == 1);
  CHECK(y.shape()[0].isDynamic());
  CHECK(y.shape()[0].name() == "batch");
  CHECK(ShapeOf(b.reduceSum(x, {.axes = std::vector<uint32_t>{0}, .keepDimensions = true})) ==
        std::vector<int64_t>{1, 5});
}

TEST_CASE("reduction validation names op, label and argument", "[reduce][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {2, 3, 4}});
  CHECK(ErrorMessage([&] { b.reduceSum(x, {.label = "r1", .axes = std::vector<uint32_t>{3}}); }) ==
        "reduceSum [r1]: axes contains 3, which is not less than the input rank 3");
  CHECK(ErrorMessage([&] { b.reduceL2(x, {.label = "r2", .axes = std::vector<uint32_t>{0, 2, 0}}); }) ==
        "reduceL2 [r2]: axes contains 0 more than once");
  CHECK(ErrorName([&] { b.reduceMax(x, {.axes = std::vector<uint32_t>{0xffffffffu}}); }) == "TypeError");

  auto i32 = b.input("i32", {MLOperandDataType::kInt32, {2}});
  auto i8 = b.input("i8", {MLOperandDataType::kInt8, {2}});
  const std::string mean_int = ErrorMessage([&] { b.reduceMean(i32, {.label = "m"}); });
  CHECK(mean_int.find("reduceMean [m]: ") == 0);
  CHECK(mean_int.find("'input'") != std::string::npos);
  CHECK(mean_int.find("int32") != std::string::npos);
  for (auto op : {&MLGraphBuilder::reduceL2, &MLGraphBuilder::reduceLogSum, &MLGraphBuilder::reduceLogSumExp,
                  &MLGraphBuilder::reduceMean})
    CHECK(ErrorName([&] { (b.*op)(i32, {}); }) == "TypeError");
  for (auto op : {&MLGraphBuilder::reduceL1, &MLGraphBuilder::reduceProduct, &MLGraphBuilder::reduceSum,
                  &MLGraphBuilder::reduceSumSquare})
    CHECK(ErrorName([&] { (b.*op)(i8, {}); }) == "TypeError");
  CHECK(b.reduceMax(i8).dataType() == MLOperandDataType::kInt8);

  MLGraphBuilder other(ctx);
  auto w = other.input("w", {MLOperandDataType::kFloat32, {2}});
  CHECK(ErrorName([&] { b.reduceSum(w); }) == "TypeError");
}
