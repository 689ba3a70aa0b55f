// Tests of gather, gatherElements and gatherND: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
MLGatherOptions Axis(uint32_t axis, std::string label = "") {
  MLGatherOptions o;
  o.axis = axis;
  o.label = std::move(label);
  return o;
}
}  // namespace

TEST_CASE("gather along an axis; negative indices wrap, out-of-range ones clamp", "[gather]") {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<int32_t> iota;
  for (int32_t i = 0; i < 12; ++i) iota.push_back(i);
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int64_t>(MLOperandDataType::kInt64, {3, 2}, {kMin, 1, 2, 3, 4, kMax}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {2}, {2, 0}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {3}, {-1, 5, -7}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 3, 2}, iota),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {1, 2}, {2, 0})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"rows", b.gather(in[0], in[1])},
                                          {"cols", b.gather(in[0], in[2], Axis(1))},
                                          {"middle", b.gather(in[3], in[4], Axis(1))}};
                 });
  CHECK(out["rows"].shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<int64_t>(out["rows"].data) == std::vector<int64_t>{4, kMax, kMin, 1});
  // Dimension 2: -1 -> 1, 5 -> 1 (clamped), -7 -> -5 -> 0 (clamped).
  CHECK(out["cols"].shape == std::vector<uint32_t>{3, 3});
  CHECK(FromBytes<int64_t>(out["cols"].data) == std::vector<int64_t>{1, 1, kMin, 3, 3, 2, kMax, kMax, 4});
  CHECK(out["middle"].shape == std::vector<uint32_t>{2, 1, 2, 2});
  CHECK(FromBytes<int32_t>(out["middle"].data) == std::vector<int32_t>{4, 5, 0, 1, 10, 11, 6, 7});
}

TEST_CASE("gather with 0-D indices gives a lower rank; float16 bits are copied", "[gather]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(MLOperandDataType::kUint8, {3}, {10, 20, 255}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {}, {-1}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, {0x7E01, 0x8000}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 2}, {0, 1, 1, 0})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"scalar", b.gather(in[0], in[1])}, {"f16", b.gather(in[2], in[3])}};
                 });
  CHECK(out["scalar"].shape.empty());
  CHECK(FromBytes<uint8_t>(out["scalar"].data) == std::vector<uint8_t>{255});
  CHECK(out["f16"].shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x7E01, 0x8000, 0x8000, 0x7E01});
}

TEST_CASE("gatherElements picks one element per index along the axis", "[gather]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {2, 3}, {-128, 1, 2, 3, 4, 127}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 2}, {2, -3, -1, 9}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {1, 3}, {1, 0, 1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"axis1", b.gatherElements(in[0], in[1], Axis(1))},
                                          {"axis0", b.gatherElements(in[0], in[2])}};
                 });
  // Row 0: 2 -> 2, -3 -> 0. Row 1: -1 -> 2, 9 -> 2 (clamped).
  CHECK(out["axis1"].shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<int8_t>(out["axis1"].data) == std::vector<int8_t>{2, -128, 127, 127});
  CHECK(out["axis0"].shape == std::vector<uint32_t>{1, 3});
  CHECK(FromBytes<int8_t>(out["axis0"].data) == std::vector<int8_t>{3, 1, 127});
}

TEST_CASE("gatherND gathers elements or slices by coordinate tuples", "[gather]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(MLOperandDataType::kUint8, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 3}, {1, 1, 1, 0, -1, 0}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {1, 1}, {5}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {2}, {1, 0})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"elements", b.gatherND(in[0], in[1])},
                                          {"blocks", b.gatherND(in[0], in[2])},
                                          {"row", b.gatherND(in[0], in[3])}};
                 });
  CHECK(out["elements"].shape == std::vector<uint32_t>{2});
  CHECK(FromBytes<uint8_t>(out["elements"].data) == std::vector<uint8_t>{7, 2});
  // 5 clamps to 1: block [1, *, *].
  CHECK(out["blocks"].shape == std::vector<uint32_t>{1, 2, 2});
  CHECK(FromBytes<uint8_t>(out["blocks"].data) == std::vector<uint8_t>{4, 5, 6, 7});
  CHECK(out["row"].shape == std::vector<uint32_t>{2});
  CHECK(FromBytes<uint8_t>(out["row"].data) == std::vector<uint8_t>{4, 5});
}

TEST_CASE("gather family validation names op, label and argument", "[gather][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat16, {1, 2, 3}});
  auto i32 = b.input("i32", {MLOperandDataType::kInt32, {5, 6}});
  auto f32 = b.input("f32", {MLOperandDataType::kFloat32, {5, 6}});
  auto u64 = b.input("u64", {MLOperandDataType::kUint64, {5, 6}});
  auto scalar = b.input("scalar", {MLOperandDataType::kFloat16, {}});
  CHECK(ErrorMessage([&] { b.gather(x, i32, Axis(3, "g1")); }) ==
        "gather [g1]: axis 3 must be less than the input rank 3");
  CHECK(ErrorMessage([&] { b.gather(x, f32, Axis(0, "g2")); }).starts_with(
      "gather [g2]: argument 'indices' data type float32 is not supported"));
  CHECK(ErrorName([&] { b.gather(x, u64); }) == "TypeError");
  CHECK(ErrorMessage([&] { b.gather(scalar, i32, Axis(0, "g3")); }).starts_with("gather [g3]: argument 'input'"));
  CHECK(b.gather(x, i32, Axis(1)).shape() == std::vector<MLDimension>{1, 5, 6, 3});
  // Output rank 5 + 5 - 1 = 9 exceeds the maximum rank 8.
  auto x5 = b.input("x5", {MLOperandDataType::kFloat32, {1, 1, 1, 1, 2}});
  auto i5 = b.input("i5", {MLOperandDataType::kInt32, {1, 1, 1, 1, 1}});
  CHECK(ErrorName([&] { b.gather(x5, i5); }) == "TypeError");

  auto e_idx = b.input("e_idx", {MLOperandDataType::kInt32, {1, 2}});
  CHECK(ErrorMessage([&] { b.gatherElements(x, e_idx, Axis(0, "e1")); }) ==
        "gatherElements [e1]: argument 'indices' must have the input rank 3, got 2");
  auto e_bad = b.input("e_bad", {MLOperandDataType::kInt32, {3, 2, 3}});
  CHECK(ErrorMessage([&] { b.gatherElements(x, e_bad, Axis(1)); }) ==
        "gatherElements: argument 'indices' shape [3, 2, 3] must equal the input shape [1, 2, 3] except on axis 1 "
        "(dimension 0 differs)");
  CHECK(ErrorName([&] { b.gatherElements(x, e_bad, Axis(3)); }) == "TypeError");
  CHECK(b.gatherElements(x, e_bad, Axis(0)).shape() == std::vector<MLDimension>{3, 2, 3});

  auto nd_idx = b.input("nd_idx", {MLOperandDataType::kInt32, {1, 1, 4}});
  CHECK(ErrorMessage([&] { b.gatherND(x, nd_idx, {.label = "n1"}); }) ==
        "gatherND [n1]: the last dimension of 'indices' (4) must not exceed the input rank 3");
  auto nd_scalar = b.input("nd_scalar", {MLOperandDataType::kInt32, {}});
  CHECK(ErrorName([&] { b.gatherND(x, nd_scalar); }) == "TypeError");
  auto nd_ok = b.input("nd_ok", {MLOperandDataType::kInt64, {5, 4, 3}});
  CHECK(b.gatherND(x, nd_ok).shape() == std::vector<MLDimension>{5, 4});
}
