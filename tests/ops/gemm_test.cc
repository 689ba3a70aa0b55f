// Tests of gemm: validation and the reference kernel.
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
constexpr auto kF32 = MLOperandDataType::kFloat32;
constexpr auto kF16 = MLOperandDataType::kFloat16;

MLGemmOptions Labeled(MLGemmOptions o) {
  o.label = "g";
  return o;
}
}  // namespace

TEST_CASE("gemm with both transposes, alpha, beta and a broadcast c", "[gemm]") {
  // A = a^T = [[1, 3], [2, 4]], B = b^T = [[1, 1], [0, 1]], A B = [[1, 4], [2, 6]].
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {2, 2}, {1, 2, 3, 4}), Tensor<float>(kF32, {2, 2}, {1, 0, 1, 1}),
                  Tensor<float>(kF32, {2}, {10, 20}), Tensor<float>(kF32, {2, 1}, {10, 20}),
                  Tensor<float>(kF32, {}, {-4})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   MLGemmOptions row{.c = in[2], .alpha = 2, .beta = 0.5, .aTranspose = true, .bTranspose = true};
                   MLGemmOptions column{.c = in[3], .alpha = 1, .beta = 1, .aTranspose = true, .bTranspose = true};
                   MLGemmOptions scalar{.c = in[4], .beta = -1};
                   return MLNamedOperands{{"row", b.gemm(in[0], in[1], row)},
                                          {"column", b.gemm(in[0], in[1], column)},
                                          {"scalar", b.gemm(in[0], in[1], scalar)},
                                          {"plain", b.gemm(in[0], in[1])}};
                 });
  CHECK(FromBytes<float>(out["row"].data) == std::vector<float>{7, 18, 9, 22});
  CHECK(FromBytes<float>(out["column"].data) == std::vector<float>{11, 14, 22, 26});
  // No transposes: [[1, 2], [3, 4]] x [[1, 0], [1, 1]] = [[3, 2], [7, 4]]; c = -4, beta = -1.
  CHECK(FromBytes<float>(out["scalar"].data) == std::vector<float>{7, 6, 11, 8});
  CHECK(FromBytes<float>(out["plain"].data) == std::vector<float>{3, 2, 7, 4});
}

TEST_CASE("gemm casts alpha to float16 before using it", "[gemm]") {
  // alpha = 1 + 2^-11 + 2^-13 casts to 1 + 2^-10; 1.5 * (1 + 2^-10) ties to 1.5 + 2^-9.
  // With the uncast alpha the result would round to 1.5 + 2^-10.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(kF16, {1, 1}, Half({1.5})), Tensor<uint16_t>(kF16, {1, 1}, Half({1}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", b.gemm(in[0], in[1], {.alpha = 1.0006103515625})}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["out"].data)) == std::vector<double>{1.501953125});
}

TEST_CASE("gemm float16 accumulates in float64", "[gemm]") {
  // 60000 + 60000 - 60000: a float16 running sum would overflow to Inf.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(kF16, {1, 3}, Half({60000, 60000, 60000})),
                  Tensor<uint16_t>(kF16, {3, 1}, Half({1, 1, -1})), Tensor<uint16_t>(kF16, {1}, Half({-16}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", b.gemm(in[0], in[1], {.c = in[2], .beta = 2})}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["out"].data)) == std::vector<double>{59968});
}

TEST_CASE("gemm alpha = 0 still propagates NaN from infinite inputs", "[gemm]") {
  const float inf = std::numeric_limits<float>::infinity();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {2, 1}, {inf, 1}), Tensor<float>(kF32, {1, 1}, {1}),
                  Tensor<float>(kF32, {1, 1}, {3})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", b.gemm(in[0], in[1], {.c = in[2], .alpha = 0, .beta = 2})}};
                 });
  const auto v = FromBytes<float>(out["out"].data);
  CHECK(std::isnan(v[0]));  // 0 * Inf
  CHECK(v[1] == 6);
}

TEST_CASE("gemm validation names op, label and argument", "[gemm][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto a23 = b.input("a23", {kF32, {2, 3}});
  auto b34 = b.input("b34", {kF32, {3, 4}});
  auto b24 = b.input("b24", {kF32, {2, 4}});
  CHECK(ErrorMessage([&] { b.gemm(a23, b24, Labeled({})); }) ==
        "gemm [g]: K of 'a' [2, 3] is 3 but K of 'b' [2, 4] is 2");
  CHECK(ErrorMessage([&] { b.gemm(a23, b34, Labeled({.aTranspose = true})); }) ==
        "gemm [g]: K of 'a' [2, 3] (transposed) is 2 but K of 'b' [3, 4] is 3");
  auto c23 = b.input("c23", {kF32, {2, 3}});
  CHECK(ErrorMessage([&] { b.gemm(a23, b34, Labeled({.c = c23})); }) ==
        "gemm [g]: argument 'c' shape [2, 3] is not unidirectionally broadcastable to the output shape [2, 4]");
  auto c234 = b.input("c234", {kF32, {2, 3, 4}});
  CHECK(ErrorMessage([&] { b.gemm(a23, b34, Labeled({.c = c234})); }).find("gemm [g]: argument 'c'") == 0);
  auto h24 = b.input("h24", {kF16, {2, 4}});
  CHECK(ErrorMessage([&] { b.gemm(a23, b34, Labeled({.c = h24})); }) ==
        "gemm [g]: argument 'c' data type float16 must match 'a' (float32)");
  auto a3 = b.input("a3", {kF32, {2, 3, 1}});
  CHECK(ErrorName([&] { b.gemm(a3, b34); }) == "TypeError");
  auto i23 = b.input("i23", {MLOperandDataType::kInt32, {2, 3}});
  auto i34 = b.input("i34", {MLOperandDataType::kInt32, {3, 4}});
  CHECK(ErrorName([&] { b.gemm(i23, i34); }) == "TypeError");
  CHECK(ErrorMessage([&] { b.gemm(a23, b34, Labeled({.alpha = std::nan("")})); }) ==
        "gemm [g]: alpha must be a finite number, got nan");
  auto c4 = b.input("c4", {kF32, {4}});
  CHECK(b.gemm(a23, b34, {.c = c4}).shape().size() == 2);
}
