// Tests of argMin and argMax: validation, output shapes and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<int64_t> ShapeOf(const MLOperand& o) {
  std::vector<int64_t> s;
  for (const MLDimension& d : o.shape()) s.push_back(d.size());
  return s;
}

}  // namespace

TEST_CASE("argMin/argMax return the first index on ties", "[arg_min_max]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 4}, {3, 7, 7, 1, 2, 0, 5, 0}),
                  Tensor<float>(MLOperandDataType::kFloat32, {2}, {0.0f, -0.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"max", b.argMax(in[0], 1)}, {"min", b.argMin(in[0], 1)},
                                          {"zeros", b.argMin(in[1], 0)}};
                 });
  CHECK(FromBytes<int32_t>(out["max"].data) == std::vector<int32_t>{1, 2});
  CHECK(FromBytes<int32_t>(out["min"].data) == std::vector<int32_t>{3, 1});
  // -0 == +0: a tie.
  CHECK(FromBytes<int32_t>(out["zeros"].data) == std::vector<int32_t>{0});
}

TEST_CASE("argMin/argMax pick the first NaN, as reduceMax/reduceMin propagate it", "[arg_min_max]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {3, 3},
                                {1, kNaN, kNaN, kInf, 2, kNaN, -kInf, -kInf, 4})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"max", b.argMax(in[0], 1)}, {"min", b.argMin(in[0], 1)}};
                 });
  CHECK(FromBytes<int32_t>(out["max"].data) == std::vector<int32_t>{1, 2, 2});
  CHECK(FromBytes<int32_t>(out["min"].data) == std::vector<int32_t>{1, 2, 0});
}

TEST_CASE("argMax over a middle axis with keepDimensions and int64 output", "[arg_min_max]") {
  // x[i][j][k]: the largest j differs per (i, k).
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2, 3, 2},
                                   Half({0, 9, 5, 1, 2, 3, -1, -2, -3, -4, -0.5, -6}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"y", b.argMax(in[0], 1, {.keepDimensions = true, .outputDataType = MLOperandDataType::kInt64})},
                       {"z", b.argMin(in[0], 2)}};
                 });
  CHECK(out["y"].shape == std::vector<uint32_t>{2, 1, 2});
  CHECK(FromBytes<int64_t>(out["y"].data) == std::vector<int64_t>{1, 0, 2, 0});
  CHECK(out["z"].shape == std::vector<uint32_t>{2, 3});
  CHECK(FromBytes<int32_t>(out["z"].data) == std::vector<int32_t>{0, 1, 0, 1, 1, 1});
}

TEST_CASE("argMin/argMax compare 64-bit integers exactly", "[arg_min_max]") {
  const int64_t k53 = int64_t{1} << 53;  // 2^53 + 1 and 2^53 are the same double
  const uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int64_t>(MLOperandDataType::kInt64, {3}, {k53, k53 + 1, std::numeric_limits<int64_t>::min()}),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {3}, {kMaxU64 - 1, kMaxU64, 0}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {3}, {-127, -128, 127}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {3}, {7, 4294967295u, 6})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i64max", b.argMax(in[0], 0)}, {"i64min", b.argMin(in[0], 0)},
                                          {"u64max", b.argMax(in[1], 0)}, {"i8min", b.argMin(in[2], 0)},
                                          {"u32max", b.argMax(in[3], 0)}, {"u32min", b.argMin(in[3], 0)}};
                 });
  CHECK(FromBytes<int32_t>(out["i64max"].data) == std::vector<int32_t>{1});
  CHECK(FromBytes<int32_t>(out["i64min"].data) == std::vector<int32_t>{2});
  CHECK(FromBytes<int32_t>(out["u64max"].data) == std::vector<int32_t>{1});
  CHECK(FromBytes<int32_t>(out["i8min"].data) == std::vector<int32_t>{1});
  CHECK(FromBytes<int32_t>(out["u32max"].data) == std::vector<int32_t>{1});
  CHECK(FromBytes<int32_t>(out["u32min"].data) == std::vector<int32_t>{2});
}

TEST_CASE("argMin/argMax of a size-1 axis is 0", "[arg_min_max]") {
  auto out = Run(MLDeviceType::kReference, {Tensor<int32_t>(MLOperandDataType::kInt32, {2, 1}, {5, -5})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.argMin(in[0], 1)}};
                 });
  CHECK(FromBytes<int32_t>(out["y"].data) == std::vector<int32_t>{0, 0});
}

TEST_CASE("argMin/argMax output shapes", "[arg_min_max][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {1, 2, 3, 4}});
  CHECK(ShapeOf(b.argMin(x, 0)) == std::vector<int64_t>{2, 3, 4});
  CHECK(ShapeOf(b.argMax(x, 3, {.keepDimensions = true})) == std::vector<int64_t>{1, 2, 3, 1});
  CHECK(b.argMax(x, 1, {.outputDataType = MLOperandDataType::kInt64}).dataType() == MLOperandDataType::kInt64);
  auto v = b.input("v", {MLOperandDataType::kUint8, {5}});
  CHECK(ShapeOf(b.argMax(v, 0)).empty());
  auto d = b.input("d", {MLOperandDataType::kFloat32, {MLDynamicDimension{"n", 4}, 3}});
  auto y = b.argMin(d, 1);
  REQUIRE(y.shape().size() == 1);
  CHECK(y.shape()[0].isDynamic());
}

TEST_CASE("argMin/argMax validation names op, label and argument", "[arg_min_max][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {1, 2, 3, 4}});
  CHECK(ErrorMessage([&] { b.argMin(x, 4, {.label = "a1"}); }) ==
        "argMin [a1]: axis 4 must be less than the input rank 4");
  CHECK(ErrorMessage([&] {
          b.argMax(x, 1, {.label = "a2", .keepDimensions = false, .outputDataType = MLOperandDataType::kFloat32});
        }) == "argMax [a2]: outputDataType float32 is not supported; allowed: int32, int64");
  CHECK(ErrorName([&] { b.argMax(x, 1, {.outputDataType = MLOperandDataType::kUint32}); }) == "TypeError");
  auto s = b.input("s", {MLOperandDataType::kFloat32, {}});
  const std::string scalar = ErrorMessage([&] { b.argMin(s, 0, {.label = "a3"}); });
  CHECK(scalar.find("argMin [a3]: ") == 0);
  CHECK(scalar.find("'input'") != std::string::npos);
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {MLOperandDataType::kFloat32, {2}});
  CHECK(ErrorName([&] { b.argMax(w, 0); }) == "TypeError");
}
