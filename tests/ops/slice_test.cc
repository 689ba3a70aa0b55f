// Tests of slice: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
MLSliceOptions Strides(std::optional<std::vector<uint32_t>> strides, std::string label = "") {
  MLSliceOptions o;
  o.strides = std::move(strides);
  o.label = std::move(label);
  return o;
}
}  // namespace

TEST_CASE("slice with and without strides; output size rounds up", "[slice]") {
  // in [3, 5] = 0..14 row-major (uint64, with the maximum at [2][4]).
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i < 14; ++i) v.push_back(i);
  v.push_back(std::numeric_limits<uint64_t>::max());
  auto out = Run(MLDeviceType::kReference, {Tensor<uint64_t>(MLOperandDataType::kUint64, {3, 5}, v)},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"plain", b.slice(in[0], {1, 2}, {2, 3})},
                       // rows 0..2 step 2 -> {0, 2}; cols 1..4 step 3 -> {1, 4}
                       {"strided", b.slice(in[0], {0, 1}, {3, 4}, Strides(std::vector<uint32_t>{2, 3}))}};
                 });
  CHECK(out["plain"].shape == std::vector<uint32_t>{2, 3});
  CHECK(FromBytes<uint64_t>(out["plain"].data) ==
        std::vector<uint64_t>{7, 8, 9, 12, 13, std::numeric_limits<uint64_t>::max()});
  CHECK(out["strided"].shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<uint64_t>(out["strided"].data) ==
        std::vector<uint64_t>{1, 4, 11, std::numeric_limits<uint64_t>::max()});
}

TEST_CASE("slice copies int8 and float16 bits and slices a scalar to itself", "[slice]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {5}, {-128, -1, 0, 1, 127}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {4}, {0x7E01, 0x8000, 0x0001, 0x3C00}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {}, {-5})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i8", b.slice(in[0], {0}, {5}, Strides(std::vector<uint32_t>{4}))},
                                          {"f16", b.slice(in[1], {0}, {3})},
                                          {"scalar", b.slice(in[2], {}, {})}};
                 });
  CHECK(FromBytes<int8_t>(out["i8"].data) == std::vector<int8_t>{-128, 127});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x7E01, 0x8000, 0x0001});
  CHECK(out["scalar"].shape.empty());
  CHECK(FromBytes<int32_t>(out["scalar"].data) == std::vector<int32_t>{-5});
}

TEST_CASE("slice validation names op, label and argument", "[slice][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {3, 4, 5}});
  CHECK(ErrorMessage([&] { b.slice(x, {1, 2, 3}, {1, 0, 1}, Strides(std::nullopt, "s1")); }) ==
        "slice [s1]: sizes[1] must be greater than 0, got 0");
  CHECK(ErrorMessage([&] { b.slice(x, {1, 2}, {1, 1, 1}); }) ==
        "slice: starts must have 3 entries (the input rank), got 2");
  CHECK(ErrorMessage([&] { b.slice(x, {1, 2, 3}, {1, 1}); }) ==
        "slice: sizes must have 3 entries (the input rank), got 2");
  CHECK(ErrorMessage([&] { b.slice(x, {1, 2, 3}, {1, 1, 1}, Strides(std::vector<uint32_t>{1, 1})); }) ==
        "slice: strides must have 3 entries (the input rank), got 2");
  CHECK(ErrorMessage([&] { b.slice(x, {0, 4, 0}, {1, 1, 1}); }) ==
        "slice: starts[1] is 4, which is not less than input dimension 1 (4)");
  CHECK(ErrorMessage([&] { b.slice(x, {0, 1, 2}, {3, 4, 1}); }) ==
        "slice: starts[1] + sizes[1] is 5, more than input dimension 1 (4)");
  CHECK(ErrorMessage([&] { b.slice(x, {0, 0, 0}, {1, 1, 1}, Strides(std::vector<uint32_t>{1, 0, 1})); }) ==
        "slice: strides[1] must be at least 1, got 0");
  CHECK(ErrorMessage([&] { b.slice(x, {1, 2, 3}, {1, 1, 1}, Strides(std::vector<uint32_t>{1, 2, 1})); }) ==
        "slice: strides[1] is 2, more than sizes[1] (1)");
  // start + size computed without 32-bit wrap.
  CHECK(ErrorName([&] { b.slice(x, {0, 1, 0}, {1, 0xFFFFFFFFu, 1}); }) == "TypeError");
  auto s = b.input("s", {MLOperandDataType::kFloat32, {}});
  CHECK(ErrorName([&] { b.slice(s, {0}, {1}); }) == "TypeError");
  CHECK(b.slice(x, {0, 0, 0}, {3, 4, 5}, Strides(std::vector<uint32_t>{2, 3, 5})).shape() ==
        std::vector<MLDimension>{2, 2, 1});
}
