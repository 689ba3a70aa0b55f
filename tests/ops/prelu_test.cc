// Tests of prelu (validation and reference kernel).
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("prelu broadcasts slope and handles special float values", "[prelu]") {
  const float kInf = std::numeric_limits<float>::infinity();
  const float kNaN = std::numeric_limits<float>::quiet_NaN();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 3}, {-kInf, -2.0f, -0.0f, 1.0f, kNaN, -1.0f}),
                  Tensor<float>(MLOperandDataType::kFloat32, {3}, {0.0f, 0.5f, kNaN})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.prelu(in[0], in[1])}};
                 });
  CHECK(out["y"].shape == std::vector<uint32_t>{2, 3});
  auto y = FromBytes<float>(out["y"].data);
  CHECK(y[0] == 0.0f);             // zero slope at -Infinity: the function is constant 0 there
  CHECK(y[1] == -1.0f);
  CHECK(y[2] == 0.0f);             // -0 >= 0: passes through whatever the slope
  CHECK(std::signbit(y[2]));
  CHECK(y[3] == 1.0f);
  CHECK(std::isnan(y[4]));
  CHECK(std::isnan(y[5]));         // NaN slope on a negative input
}

TEST_CASE("prelu broadcasts bidirectionally", "[prelu]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {3}, {-1.0f, 2.0f, -3.0f}),
                  Tensor<float>(MLOperandDataType::kFloat32, {2, 1}, {2.0f, -1.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.prelu(in[0], in[1])}};
                 });
  CHECK(out["y"].shape == std::vector<uint32_t>{2, 3});
  CHECK(FromBytes<float>(out["y"].data) == std::vector<float>{-2, 2, -6, 1, 2, 3});
}

TEST_CASE("prelu on integers multiplies exactly and wraps", "[prelu]") {
  const int64_t kMin64 = std::numeric_limits<int64_t>::min();
  const int32_t kMin32 = std::numeric_limits<int32_t>::min();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {4}, {-128, -2, 5, -1}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {4}, {-1, 3, 7, 127}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {3}, {kMin32, -65536, 9}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {3}, {-1, 65536, -4}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {2}, {kMin64, -3}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {1}, {-1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i8", b.prelu(in[0], in[1])},
                                          {"i32", b.prelu(in[2], in[3])},
                                          {"i64", b.prelu(in[4], in[5])}};
                 });
  // -128 * -1 = 128 wraps to -128; -65536 * 65536 = -2^32 wraps to 0.
  CHECK(FromBytes<int8_t>(out["i8"].data) == std::vector<int8_t>{-128, -6, 5, -127});
  CHECK(FromBytes<int32_t>(out["i32"].data) == std::vector<int32_t>{kMin32, 0, 9});
  CHECK(FromBytes<int64_t>(out["i64"].data) == std::vector<int64_t>{kMin64, 3});
}

TEST_CASE("prelu on float16 rounds the product once", "[prelu]") {
  // slope 0.1 is float16 0.0999755859375; * -3 = -0.2999267578125 lies exactly
  // halfway between float16 -0.2998046875 and -0.300048828125: ties to even.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, Half({-3, 4})),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {}, Half({0.1}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.prelu(in[0], in[1])}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["y"].data)) == std::vector<double>{-0.2998046875, 4});
}

TEST_CASE("prelu validation names op, label and argument", "[prelu][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {3, 2, 5}});
  auto s2 = b.input("s2", {MLOperandDataType::kFloat32, {2}});
  auto s25 = b.input("s25", {MLOperandDataType::kFloat32, {2, 5}});
  auto si = b.input("si", {MLOperandDataType::kInt32, {3, 2, 5}});
  auto u8 = b.input("u8", {MLOperandDataType::kUint8, {1}});

  CHECK(ErrorMessage([&] { b.prelu(x, s2, {.label = "p"}); }) ==
        "prelu [p]: shapes of 'input' [3, 2, 5] and 'slope' [2] are not bidirectionally broadcastable "
        "(dimension 2: 5 vs 2)");
  CHECK(ErrorMessage([&] { b.prelu(x, si, {.label = "p"}); }) ==
        "prelu [p]: argument 'slope' data type int32 must match 'input' (float32)");
  CHECK(ErrorName([&] { b.prelu(u8, u8); }) == "TypeError");
  auto y = b.prelu(x, s25);
  CHECK(y.dataType() == MLOperandDataType::kFloat32);
  CHECK(y.shape().size() == 3);
  // The broadcast output may be larger than the input.
  auto z = b.prelu(s2, b.input("s31", {MLOperandDataType::kFloat32, {3, 1}}));
  CHECK(z.shape().size() == 2);
  CHECK(z.shape()[0].size() == 3);
  CHECK(z.shape()[1].size() == 2);
}
