// Tests of cumulativeSum: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("cumulativeSum: inclusive, exclusive, reversed, along any axis", "[cumulative_sum]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 3}, {1, 2, 3, 10, 20, 30})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"inc", b.cumulativeSum(in[0], 1)},
                       {"exc", b.cumulativeSum(in[0], 1, {.exclusive = true})},
                       {"rev", b.cumulativeSum(in[0], 1, {.reversed = true})},
                       {"both", b.cumulativeSum(in[0], 1, {.exclusive = true, .reversed = true})},
                       {"axis0", b.cumulativeSum(in[0], 0)}};
                 });
  CHECK(out["inc"].shape == std::vector<uint32_t>{2, 3});
  CHECK(FromBytes<float>(out["inc"].data) == std::vector<float>{1, 3, 6, 10, 30, 60});
  CHECK(FromBytes<float>(out["exc"].data) == std::vector<float>{0, 1, 3, 0, 10, 30});
  CHECK(FromBytes<float>(out["rev"].data) == std::vector<float>{6, 5, 3, 60, 50, 30});
  CHECK(FromBytes<float>(out["both"].data) == std::vector<float>{5, 3, 0, 50, 30, 0});
  CHECK(FromBytes<float>(out["axis0"].data) == std::vector<float>{1, 2, 3, 11, 22, 33});
}

TEST_CASE("cumulativeSum keeps the running sum in float64", "[cumulative_sum]") {
  // float32 accumulation would stay at 2^24 (2^24 + 1 rounds to even); the exact prefix
  // sums are 2^24, 2^24 + 1 (rounded once to 2^24) and 2^24 + 2.
  const float kInf = std::numeric_limits<float>::infinity();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {3}, {16777216.0f, 1.0f, 1.0f}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {3}, Half({2048, 1, 1})),
                  Tensor<float>(MLOperandDataType::kFloat32, {4}, {1.0f, kInf, -kInf, 2.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"f32", b.cumulativeSum(in[0], 0)}, {"f16", b.cumulativeSum(in[1], 0)},
                                          {"inf", b.cumulativeSum(in[2], 0)}};
                 });
  CHECK(FromBytes<float>(out["f32"].data) == std::vector<float>{16777216.0f, 16777216.0f, 16777218.0f});
  CHECK(FromHalf(FromBytes<uint16_t>(out["f16"].data)) == std::vector<double>{2048, 2048, 2050});
  auto inf = FromBytes<float>(out["inf"].data);
  CHECK(inf[0] == 1.0f);
  CHECK(inf[1] == kInf);
  CHECK(std::isnan(inf[2]));
  CHECK(std::isnan(inf[3]));
}

TEST_CASE("integer cumulativeSum wraps", "[cumulative_sum]") {
  const int32_t kMax32 = std::numeric_limits<int32_t>::max();
  const int32_t kMin32 = std::numeric_limits<int32_t>::min();
  const uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int32_t>(MLOperandDataType::kInt32, {3}, {kMax32, 1, -1}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {2}, {4294967295u, 3}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {2}, {std::numeric_limits<int64_t>::min(), -1}),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {3}, {kMaxU64, 2, (uint64_t{1} << 53) + 1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i32", b.cumulativeSum(in[0], 0)},
                                          {"u32", b.cumulativeSum(in[1], 0, {.reversed = true})},
                                          {"i64", b.cumulativeSum(in[2], 0)},
                                          {"u64", b.cumulativeSum(in[3], 0, {.exclusive = true})}};
                 });
  CHECK(FromBytes<int32_t>(out["i32"].data) == std::vector<int32_t>{kMax32, kMin32, kMax32});
  CHECK(FromBytes<uint32_t>(out["u32"].data) == std::vector<uint32_t>{2, 3});
  CHECK(FromBytes<int64_t>(out["i64"].data) ==
        std::vector<int64_t>{std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()});
  CHECK(FromBytes<uint64_t>(out["u64"].data) == std::vector<uint64_t>{0, kMaxU64, 1});
}

TEST_CASE("cumulativeSum validation names op, label and argument", "[cumulative_sum][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {1, 2, 3}});
  CHECK(ErrorMessage([&] { b.cumulativeSum(x, 3, {.label = "c1"}); }) ==
        "cumulativeSum [c1]: axis 3 must be less than the input rank 3");
  auto s = b.input("s", {MLOperandDataType::kFloat32, {}});
  const std::string scalar = ErrorMessage([&] { b.cumulativeSum(s, 0, {.label = "c2"}); });
  CHECK(scalar.find("cumulativeSum [c2]: ") == 0);
  CHECK(scalar.find("'input'") != std::string::npos);
  auto i8 = b.input("i8", {MLOperandDataType::kInt8, {4}});
  const std::string type = ErrorMessage([&] { b.cumulativeSum(i8, 0); });
  CHECK(type.find("cumulativeSum: ") == 0);
  CHECK(type.find("int8") != std::string::npos);
  auto y = b.cumulativeSum(x, 2, {.exclusive = true});
  CHECK(y.dataType() == MLOperandDataType::kFloat32);
  CHECK(y.shape().size() == 3);
}
