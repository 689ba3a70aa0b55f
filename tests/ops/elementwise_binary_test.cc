// Tests of add, sub, mul, div, max, min, pow: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("binary ops broadcast and compute in float64 with one rounding", "[elementwise_binary]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 1}, {1.5f, -2.0f}),
                  Tensor<float>(MLOperandDataType::kFloat32, {3}, {1.0f, 2.0f, 0.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"add", b.add(in[0], in[1])},
                                          {"div", b.div(in[0], in[1])},
                                          {"pow", b.pow(in[0], in[1])}};
                 });
  CHECK(out["add"].shape == std::vector<uint32_t>{2, 3});
  CHECK(FromBytes<float>(out["add"].data) == std::vector<float>{2.5f, 3.5f, 1.5f, -1.0f, 0.0f, -2.0f});
  auto div = FromBytes<float>(out["div"].data);
  CHECK(div[0] == 1.5f);
  CHECK(std::isinf(div[2]));
  CHECK(div[5] == -std::numeric_limits<float>::infinity());
  CHECK(FromBytes<float>(out["pow"].data) == std::vector<float>{1.5f, 2.25f, 1.0f, -2.0f, 4.0f, 1.0f});
}

TEST_CASE("integer binary ops wrap, truncate and never trap", "[elementwise_binary]") {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  const int32_t kMax = std::numeric_limits<int32_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int32_t>(MLOperandDataType::kInt32, {4}, {kMax, -7, kMin, 5}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {4}, {1, 2, -1, 0})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"add", b.add(in[0], in[1])}, {"div", b.div(in[0], in[1])}};
                 });
  CHECK(FromBytes<int32_t>(out["add"].data) == std::vector<int32_t>{kMin, -5, kMax, 5});
  CHECK(FromBytes<int32_t>(out["div"].data) == std::vector<int32_t>{kMax, -3, kMin, 0});
}

TEST_CASE("binary op validation names op, label and argument", "[elementwise_binary][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {2, 3}});
  auto y = b.input("y", {MLOperandDataType::kInt32, {2, 3}});
  auto z = b.input("z", {MLOperandDataType::kFloat32, {4, 3}});
  CHECK(ErrorMessage([&] { b.mul(x, y, {.label = "m1"}); }) ==
        "mul [m1]: argument 'b' data type int32 must match 'a' (float32)");
  CHECK(ErrorName([&] { b.sub(x, z); }) == "TypeError");
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {MLOperandDataType::kFloat32, {2, 3}});
  CHECK(ErrorName([&] { b.add(x, w); }) == "TypeError");
}
