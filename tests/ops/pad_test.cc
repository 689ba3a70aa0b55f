// Tests of pad: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
MLPadOptions Mode(MLPaddingMode mode, MLNumber value = 0, std::string label = "") {
  MLPadOptions o;
  o.mode = mode;
  o.value = value;
  o.label = std::move(label);
  return o;
}
}  // namespace

TEST_CASE("pad constant, edge and reflection on a 2-D tensor", "[pad]") {
  // in [2, 3] = [[1, 2, 3], [4, 5, 6]], beginning [1, 2], ending [0, 1].
  auto out = Run(MLDeviceType::kReference, {Tensor<float>(MLOperandDataType::kFloat32, {2, 3}, {1, 2, 3, 4, 5, 6})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"constant", b.pad(in[0], {1, 2}, {0, 1}, Mode(MLPaddingMode::kConstant, 9.5))},
                       {"edge", b.pad(in[0], {1, 2}, {0, 1}, Mode(MLPaddingMode::kEdge))},
                       {"reflection", b.pad(in[0], {1, 2}, {0, 1}, Mode(MLPaddingMode::kReflection))}};
                 });
  CHECK(out["constant"].shape == std::vector<uint32_t>{3, 6});
  CHECK(FromBytes<float>(out["constant"].data) == std::vector<float>{9.5, 9.5, 9.5, 9.5, 9.5, 9.5,  //
                                                                     9.5, 9.5, 1, 2, 3, 9.5,        //
                                                                     9.5, 9.5, 4, 5, 6, 9.5});
  CHECK(FromBytes<float>(out["edge"].data) == std::vector<float>{1, 1, 1, 2, 3, 3,  //
                                                                 1, 1, 1, 2, 3, 3,  //
                                                                 4, 4, 4, 5, 6, 6});
  // Reflection does not repeat the edge: row -1 is row 1, column -2 is column 2, column 3 is column 1.
  CHECK(FromBytes<float>(out["reflection"].data) == std::vector<float>{6, 5, 4, 5, 6, 5,  //
                                                                       3, 2, 1, 2, 3, 2,  //
                                                                       6, 5, 4, 5, 6, 5});
}

TEST_CASE("pad casts the constant to the input type: clamp and round half to even", "[pad]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {1}, {-7}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {1}, {7}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {1}, {7}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {1}, {7}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1}, {0x0001})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"i8", b.pad(in[0], {1}, {1}, Mode(MLPaddingMode::kConstant, 300))},
                       {"u8", b.pad(in[1], {1}, {0}, Mode(MLPaddingMode::kConstant, -1.5))},
                       {"i32", b.pad(in[2], {1}, {1}, Mode(MLPaddingMode::kConstant, 2.5))},
                       // 2^53 + 1 is not a double; a BigInt keeps it exact.
                       {"i64", b.pad(in[3], {0}, {1}, Mode(MLPaddingMode::kConstant,
                                                           MLNumber::BigInt((int64_t{1} << 53) + 1)))},
                       {"f16", b.pad(in[4], {1}, {0}, Mode(MLPaddingMode::kConstant, -0.0))}};
                 });
  CHECK(FromBytes<int8_t>(out["i8"].data) == std::vector<int8_t>{127, -7, 127});
  CHECK(FromBytes<uint8_t>(out["u8"].data) == std::vector<uint8_t>{0, 7});
  CHECK(FromBytes<int32_t>(out["i32"].data) == std::vector<int32_t>{2, 7, 2});
  CHECK(FromBytes<int64_t>(out["i64"].data) == std::vector<int64_t>{7, (int64_t{1} << 53) + 1});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x8000, 0x0001});
}

TEST_CASE("pad with NaN and -Infinity values, edge padding of a 1x1 tensor, and a scalar", "[pad]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {1}, {2}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {1, 1}, {0xFFFFFFFFu}),
                  Tensor<float>(MLOperandDataType::kFloat32, {}, {3})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"nan", b.pad(in[0], {1}, {0}, Mode(MLPaddingMode::kConstant, std::nan("")))},
                       {"inf", b.pad(in[0], {0}, {1}, Mode(MLPaddingMode::kConstant, -INFINITY))},
                       {"edge", b.pad(in[1], {2, 0}, {0, 3}, Mode(MLPaddingMode::kEdge))},
                       {"scalar", b.pad(in[2], {}, {})}};
                 });
  auto nan = FromBytes<float>(out["nan"].data);
  CHECK(std::isnan(nan[0]));
  CHECK(nan[1] == 2.0f);
  CHECK(FromBytes<float>(out["inf"].data) == std::vector<float>{2, -INFINITY});
  CHECK(out["edge"].shape == std::vector<uint32_t>{3, 4});
  CHECK(FromBytes<uint32_t>(out["edge"].data) == std::vector<uint32_t>(12, 0xFFFFFFFFu));
  CHECK(out["scalar"].shape.empty());
  CHECK(FromBytes<float>(out["scalar"].data) == std::vector<float>{3});
}

TEST_CASE("pad validation names op, label and argument", "[pad][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {2, 3}});
  CHECK(ErrorMessage([&] { b.pad(x, {1}, {1, 2}, Mode(MLPaddingMode::kEdge, 0, "p1")); }) ==
        "pad [p1]: beginningPadding must have 2 entries (the input rank), got 1");
  CHECK(ErrorMessage([&] { b.pad(x, {1, 0}, {1, 2, 0}); }) ==
        "pad: endingPadding must have 2 entries (the input rank), got 3");
  CHECK(ErrorMessage([&] { b.pad(x, {2, 0}, {1, 2}, Mode(MLPaddingMode::kReflection)); }) ==
        "pad: beginningPadding[0] is 2, which must be less than input dimension 0 (2) in reflection mode");
  CHECK(ErrorMessage([&] { b.pad(x, {1, 0}, {1, 3}, Mode(MLPaddingMode::kReflection)); }) ==
        "pad: endingPadding[1] is 3, which must be less than input dimension 1 (3) in reflection mode");
  // Edge and constant modes accept padding larger than the dimension.
  CHECK(b.pad(x, {5, 0}, {0, 7}, Mode(MLPaddingMode::kEdge)).shape() == std::vector<MLDimension>{7, 10});
  // 2294967295 + 2 + 3294967295 does not fit 32 bits: rejected, not wrapped.
  CHECK(ErrorName([&] { b.pad(x, {2294967295u, 0}, {3294967295u, 2}); }) == "TypeError");
}
