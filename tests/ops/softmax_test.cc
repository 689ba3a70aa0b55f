// Tests of softmax (validation and reference kernel).
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("softmax along the last axis is stable for large and infinite inputs", "[softmax]") {
  const float kInf = std::numeric_limits<float>::infinity();
  const float kNaN = std::numeric_limits<float>::quiet_NaN();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {5, 3},
                                {1, 2, 3, 1000, 1000, -kInf, 1, kNaN, 2, 5, kInf, 0, -kInf, -kInf, -kInf})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.softmax(in[0], 1)}};
                 });
  auto y = FromBytes<float>(out["y"].data);
  // e^k / (e + e^2 + e^3).
  CHECK(y[0] == 0.0900305733f);
  CHECK(y[1] == 0.244728476f);
  CHECK(y[2] == 0.665240943f);
  // exp(1000) would overflow without subtracting the row maximum.
  CHECK(y[3] == 0.5f);
  CHECK(y[4] == 0.5f);
  CHECK(y[5] == 0.0f);
  // A NaN, a +Infinity or only -Infinity make the whole row NaN, and only that row.
  for (int i = 6; i < 15; ++i) CHECK(std::isnan(y[i]));
}

TEST_CASE("softmax along a leading or middle axis", "[softmax]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 3}, {1, 0, -1, 1, 2, -1}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1, 2, 2}, {0, 1, 2, 1}),
                  Tensor<float>(MLOperandDataType::kFloat32, {2, 1}, {-7, 42})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"axis0", b.softmax(in[0], 0)},
                                          {"axis1", b.softmax(in[1], 1)},
                                          {"single", b.softmax(in[2], 1)}};
                 });
  // 1 / (1 + e^2) and e^2 / (1 + e^2).
  const float lo = 0.119202919f, hi = 0.880797088f;
  CHECK(FromBytes<float>(out["axis0"].data) == std::vector<float>{0.5f, lo, 0.5f, 0.5f, hi, 0.5f});
  CHECK(FromBytes<float>(out["axis1"].data) == std::vector<float>{lo, 0.5f, hi, 0.5f});
  CHECK(FromBytes<float>(out["single"].data) == std::vector<float>{1, 1});
}

TEST_CASE("softmax on float16", "[softmax]") {
  // 1 / (1 + e) = 0.2689414 -> 0.26904296875; e / (1 + e) = 0.7310586 -> 0.73095703125.
  auto out = Run(MLDeviceType::kReference, {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, Half({0, 1}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.softmax(in[0], 0)}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["y"].data)) == std::vector<double>{0.26904296875, 0.73095703125});
}

TEST_CASE("softmax validation names op, label and argument", "[softmax][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat16, {3, 1, 5, 2}});
  auto scalar = b.input("s", {MLOperandDataType::kFloat32, {}});
  auto i32 = b.input("i", {MLOperandDataType::kInt32, {3, 1}});
  CHECK(ErrorMessage([&] { b.softmax(x, 4, {.label = "sm"}); }) ==
        "softmax [sm]: argument 'axis' must be less than the input rank 4, got 4");
  CHECK(ErrorName([&] { b.softmax(scalar, 0); }) == "TypeError");
  CHECK(ErrorName([&] { b.softmax(i32, 0); }) == "TypeError");
  auto y = b.softmax(x, 3);
  CHECK(y.dataType() == MLOperandDataType::kFloat16);
  CHECK(y.shape().size() == 4);
}
