// Tests of triangular: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("triangular keeps column - row >= diagonal (upper) or <= diagonal (lower)", "[triangular]") {
  // A 3x4 matrix and a batch of two 2x2 matrices.
  std::vector<float> m{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {3, 4}, m),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {2, 2, 2}, {-1, -2, -3, -4, 5, 6, 7, 8})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"upper", b.triangular(in[0])},
                                          {"upper2", b.triangular(in[0], {.diagonal = 2})},
                                          {"lower", b.triangular(in[0], {.upper = false})},
                                          {"lower_m1", b.triangular(in[0], {.upper = false, .diagonal = -1})},
                                          {"far", b.triangular(in[0], {.upper = false, .diagonal = -3})},
                                          {"batch", b.triangular(in[1], {.upper = false})}};
                 });
  CHECK(FromBytes<float>(out["upper"].data) == std::vector<float>{1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12});
  CHECK(FromBytes<float>(out["upper2"].data) == std::vector<float>{0, 0, 3, 4, 0, 0, 0, 8, 0, 0, 0, 0});
  CHECK(FromBytes<float>(out["lower"].data) == std::vector<float>{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0});
  CHECK(FromBytes<float>(out["lower_m1"].data) == std::vector<float>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0});
  CHECK(FromBytes<float>(out["far"].data) == std::vector<float>(12, 0.0f));
  CHECK(out["batch"].shape == std::vector<uint32_t>{2, 2, 2});
  CHECK(FromBytes<int8_t>(out["batch"].data) == std::vector<int8_t>{-1, 0, -3, -4, 5, 0, 7, 8});
}

TEST_CASE("triangular copies values bit for bit and zeroes with +0", "[triangular]") {
  const float kNaN = std::numeric_limits<float>::quiet_NaN();
  const uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 2}, {-0.0f, kNaN, -0.0f, -5.0f}),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {2, 2},
                                   {kMaxU64, kMaxU64 - 1, 3, (uint64_t{1} << 53) + 1}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 3}, Half({1.5, -2, 65504}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"f32", b.triangular(in[0])},
                                          {"u64", b.triangular(in[1], {.upper = false})},
                                          {"f16", b.triangular(in[2], {.diagonal = 1})}};
                 });
  auto f32 = FromBytes<float>(out["f32"].data);
  CHECK(f32[0] == 0.0f);
  CHECK(std::signbit(f32[0]));  // kept -0 stays -0
  CHECK(std::isnan(f32[1]));
  CHECK(f32[2] == 0.0f);
  CHECK_FALSE(std::signbit(f32[2]));  // zeroed is +0
  CHECK(f32[3] == -5.0f);
  CHECK(FromBytes<uint64_t>(out["u64"].data) == std::vector<uint64_t>{kMaxU64, 0, 3, (uint64_t{1} << 53) + 1});
  CHECK(FromHalf(FromBytes<uint16_t>(out["f16"].data)) == std::vector<double>{0, -2, 65504});
}

TEST_CASE("triangular validation names op, label and argument", "[triangular][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto v = b.input("v", {MLOperandDataType::kFloat32, {4}});
  CHECK(ErrorMessage([&] { b.triangular(v, {.label = "t1"}); }) ==
        "triangular [t1]: argument 'input' must have rank in [2, 8], got 1");
  auto x = b.input("x", {MLOperandDataType::kInt64, {2, 3, 4}});
  auto y = b.triangular(x, {.upper = false, .diagonal = std::numeric_limits<int32_t>::min()});
  CHECK(y.dataType() == MLOperandDataType::kInt64);
  CHECK(y.shape().size() == 3);
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {MLOperandDataType::kFloat32, {2, 2}});
  CHECK(ErrorName([&] { b.triangular(w); }) == "TypeError");
}
