// Tests of reverse: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
MLReverseOptions Axes(std::optional<std::vector<uint32_t>> axes, std::string label = "") {
  MLReverseOptions o;
  o.axes = std::move(axes);
  o.label = std::move(label);
  return o;
}
}  // namespace

TEST_CASE("reverse all axes by default, chosen axes, or none with empty axes", "[reverse]") {
  // in [2, 3] = [[1, 2, 3], [4, 5, 6]] (int32 extremes in place of 1 and 6).
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  const int32_t kMax = std::numeric_limits<int32_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int32_t>(MLOperandDataType::kInt32, {2, 3}, {kMin, 2, 3, 4, 5, kMax})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"all", b.reverse(in[0])},
                                          {"rows", b.reverse(in[0], Axes(std::vector<uint32_t>{0}))},
                                          {"cols", b.reverse(in[0], Axes(std::vector<uint32_t>{1}))},
                                          {"none", b.reverse(in[0], Axes(std::vector<uint32_t>{}))}};
                 });
  CHECK(FromBytes<int32_t>(out["all"].data) == std::vector<int32_t>{kMax, 5, 4, 3, 2, kMin});
  CHECK(FromBytes<int32_t>(out["rows"].data) == std::vector<int32_t>{4, 5, kMax, kMin, 2, 3});
  CHECK(FromBytes<int32_t>(out["cols"].data) == std::vector<int32_t>{3, 2, kMin, kMax, 5, 4});
  CHECK(FromBytes<int32_t>(out["none"].data) == std::vector<int32_t>{kMin, 2, 3, 4, 5, kMax});
}

TEST_CASE("reverse on int8, uint32, float16 bits and a scalar", "[reverse]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {1, 3, 1}, {-128, 0, 127}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {3}, {0xFFFFFFFFu, 7, 0}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {3}, {0x7E01, 0x8000, 0x0001}),
                  Tensor<float>(MLOperandDataType::kFloat32, {}, {-0.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i8", b.reverse(in[0], Axes(std::vector<uint32_t>{2, 1}))},
                                          {"u32", b.reverse(in[1])},
                                          {"f16", b.reverse(in[2])},
                                          {"scalar", b.reverse(in[3])}};
                 });
  CHECK(FromBytes<int8_t>(out["i8"].data) == std::vector<int8_t>{127, 0, -128});
  CHECK(FromBytes<uint32_t>(out["u32"].data) == std::vector<uint32_t>{0, 7, 0xFFFFFFFFu});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x0001, 0x8000, 0x7E01});
  auto scalar = FromBytes<float>(out["scalar"].data);
  REQUIRE(scalar.size() == 1);
  CHECK(std::signbit(scalar[0]));
}

TEST_CASE("reverse validation names op, label and argument", "[reverse][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {3, 3}});
  CHECK(ErrorMessage([&] { b.reverse(x, Axes(std::vector<uint32_t>{2}, "r1")); }) ==
        "reverse [r1]: axes contains 2, which is not less than the input rank 2");
  CHECK(ErrorMessage([&] { b.reverse(x, Axes(std::vector<uint32_t>{1, 1})); }) ==
        "reverse: axes contains 1 more than once");
  auto s = b.input("s", {MLOperandDataType::kFloat32, {}});
  CHECK(ErrorName([&] { b.reverse(s, Axes(std::vector<uint32_t>{0})); }) == "TypeError");
  CHECK(b.reverse(s).shape().empty());
}
