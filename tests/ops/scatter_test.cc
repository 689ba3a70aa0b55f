// Tests of scatterElements and scatterND: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
MLScatterOptions Axis(uint32_t axis, std::string label = "") {
  MLScatterOptions o;
  o.axis = axis;
  o.label = std::move(label);
  return o;
}
}  // namespace

TEST_CASE("scatterElements writes updates along an axis; the last duplicate wins", "[scatter]") {
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int32_t>(MLOperandDataType::kInt32, {3, 2}, {1, 2, 3, 4, 5, 6}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 2}, {2, -1, 0, 0}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 2}, {10, 20, 30, 40}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {2, 2}, {1, 1, 1, 7}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 2}, {-1, -2, -3, -4}),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {2, 3}, {0, 0, 0, 0, 0, 0}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {2, 1}, {2, 0}),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {2, 1}, {kMax, 9})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"axis0", b.scatterElements(in[0], in[1], in[2])},
                                          {"duplicates", b.scatterElements(in[0], in[3], in[4])},
                                          {"axis1", b.scatterElements(in[5], in[6], in[7], Axis(1))}};
                 });
  // (0,0) -> row 2, (0,1) -> row -1 = 2, (1,0) and (1,1) -> row 0.
  CHECK(FromBytes<int32_t>(out["axis0"].data) == std::vector<int32_t>{30, 40, 3, 4, 10, 20});
  // -3 overwrites -1 at [1][0]; 7 clamps to row 2.
  CHECK(FromBytes<int32_t>(out["duplicates"].data) == std::vector<int32_t>{1, 2, -3, -2, 5, -4});
  CHECK(FromBytes<uint64_t>(out["axis1"].data) == std::vector<uint64_t>{0, 0, kMax, 9, 0, 0});
}

TEST_CASE("scatterND writes elements or slices at coordinate tuples", "[scatter]") {
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint64_t>(MLOperandDataType::kUint64, {2, 2}, {1, 2, 3, 4}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {1, 1}, {1}),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {1, 2}, {kMax, 0}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 2}, {0, 0, -1, -1}),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {2}, {7, 8}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {2, 1}, {0, 0}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {1, 1}, {2147483647}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {1, 1}, {-128}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, {0x0001, 0x0002}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {1, 1}, {0}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1}, {0x7E01})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"row", b.scatterND(in[0], in[1], in[2])},
                                          {"elements", b.scatterND(in[0], in[3], in[4])},
                                          {"clamped", b.scatterND(in[5], in[6], in[7])},
                                          {"f16", b.scatterND(in[8], in[9], in[10])}};
                 });
  CHECK(FromBytes<uint64_t>(out["row"].data) == std::vector<uint64_t>{1, 2, kMax, 0});
  CHECK(FromBytes<uint64_t>(out["elements"].data) == std::vector<uint64_t>{7, 2, 3, 8});
  CHECK(FromBytes<int8_t>(out["clamped"].data) == std::vector<int8_t>{0, -128});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x7E01, 0x0002});
}

TEST_CASE("scatter family validation names op, label and argument", "[scatter][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {3, 3}});
  auto idx = b.input("idx", {MLOperandDataType::kInt32, {2, 3}});
  auto upd = b.input("upd", {MLOperandDataType::kFloat32, {2, 3}});
  auto upd_i32 = b.input("upd_i32", {MLOperandDataType::kInt32, {2, 3}});
  CHECK(ErrorMessage([&] { b.scatterElements(x, idx, upd_i32, Axis(0, "s1")); }) ==
        "scatterElements [s1]: argument 'updates' data type int32 must match 'input' (float32)");
  CHECK(ErrorMessage([&] { b.scatterElements(x, idx, upd, Axis(2)); }) ==
        "scatterElements: axis 2 must be less than the input rank 2");
  auto idx3 = b.input("idx3", {MLOperandDataType::kInt32, {2, 3, 3}});
  CHECK(ErrorMessage([&] { b.scatterElements(x, idx3, upd); }) ==
        "scatterElements: argument 'indices' must have the input rank 2, got 3");
  auto idx24 = b.input("idx24", {MLOperandDataType::kInt32, {2, 4}});
  CHECK(ErrorMessage([&] { b.scatterElements(x, idx24, upd); }) ==
        "scatterElements: argument 'indices' shape [2, 4] must equal the input shape [3, 3] except on axis 0 "
        "(dimension 1 differs)");
  auto upd22 = b.input("upd22", {MLOperandDataType::kFloat32, {2, 2}});
  CHECK(ErrorMessage([&] { b.scatterElements(x, idx, upd22); }) ==
        "scatterElements: argument 'updates' shape [2, 2] must equal the indices shape [2, 3]");
  CHECK(b.scatterElements(x, idx, upd).shape() == std::vector<MLDimension>{3, 3});

  auto y = b.input("y", {MLOperandDataType::kFloat32, {4, 4, 4}});
  auto nd_idx = b.input("nd_idx", {MLOperandDataType::kInt32, {2, 1}});
  auto nd_bad = b.input("nd_bad", {MLOperandDataType::kFloat32, {2, 4}});
  CHECK(ErrorMessage([&] { b.scatterND(y, nd_idx, nd_bad, {.label = "n1"}); }) ==
        "scatterND [n1]: argument 'updates' shape [2, 4] must be [2, 4, 4] (indices.shape[:-1] + input.shape[1:])");
  auto nd_wide = b.input("nd_wide", {MLOperandDataType::kInt32, {2, 4}});
  CHECK(ErrorMessage([&] { b.scatterND(y, nd_wide, nd_bad); }) ==
        "scatterND: the last dimension of 'indices' (4) must not exceed the input rank 3");
  auto nd_scalar = b.input("nd_scalar", {MLOperandDataType::kInt32, {}});
  CHECK(ErrorName([&] { b.scatterND(y, nd_scalar, nd_bad); }) == "TypeError");
  auto nd_ok = b.input("nd_ok", {MLOperandDataType::kFloat32, {2, 4, 4}});
  CHECK(b.scatterND(y, nd_idx, nd_ok).shape() == std::vector<MLDimension>{4, 4, 4});
}
