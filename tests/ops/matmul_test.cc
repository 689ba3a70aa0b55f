// Tests of matmul: validation and the reference kernel.
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
constexpr auto kF32 = MLOperandDataType::kFloat32;
constexpr auto kF16 = MLOperandDataType::kFloat16;
constexpr float kInf = std::numeric_limits<float>::infinity();

MLNamedOperands Matmul(MLGraphBuilder& b, const std::vector<MLOperand>& in) {
  return {{"out", b.matmul(in[0], in[1])}};
}
}  // namespace

TEST_CASE("matmul broadcasts a 2-D b over a's batch", "[matmul]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {2, 2, 3}, {1, 2, 3, 4, 5, 6, -1, 0, 1, 2, 2, 2}),
                  Tensor<float>(kF32, {3, 1}, {1, 2, 3})},
                 Matmul);
  CHECK(out["out"].shape == std::vector<uint32_t>{2, 2, 1});
  CHECK(FromBytes<float>(out["out"].data) == std::vector<float>{14, 32, 2, 12});
}

TEST_CASE("matmul broadcasts batch dimensions in both directions", "[matmul]") {
  // a batch [2, 1], b batch [3] -> output batch [2, 3].
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {2, 1, 1, 2}, {1, 2, 3, 4}),
                  Tensor<float>(kF32, {3, 2, 1}, {1, 0, 0, 1, 1, 1})},
                 Matmul);
  CHECK(out["out"].shape == std::vector<uint32_t>{2, 3, 1, 1});
  CHECK(FromBytes<float>(out["out"].data) == std::vector<float>{1, 2, 3, 3, 4, 7});
}

TEST_CASE("matmul accumulates in float64 and rounds once", "[matmul]") {
  // float32: 1 + 3 * 2^-25 rounds to 1 + 2^-23; summing in float32 would give 1.
  const float tiny = std::ldexp(1.0f, -25);
  auto f32 = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 4}, {1, tiny, tiny, tiny}), Tensor<float>(kF32, {4, 1}, {1, 1, 1, 1})},
                 Matmul);
  CHECK(FromBytes<float>(f32["out"].data) == std::vector<float>{1 + std::ldexp(1.0f, -23)});
  // float16: 60000 + 60000 overflows float16, the float64 sum 60000 does not.
  auto f16 = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(kF16, {1, 3}, Half({60000, 60000, -60000})),
                  Tensor<uint16_t>(kF16, {3, 1}, Half({1, 1, 1}))},
                 Matmul);
  CHECK(FromHalf(FromBytes<uint16_t>(f16["out"].data)) == std::vector<double>{60000});
}

TEST_CASE("matmul propagates NaN and infinities and keeps -0", "[matmul]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {3, 2}, {kInf, 1, kInf, 1, -0.0f, -0.0f}),
                  Tensor<float>(kF32, {2, 2}, {0, 1, 1, 1})},
                 Matmul);
  const auto v = FromBytes<float>(out["out"].data);
  CHECK(std::isnan(v[0]));  // Inf * 0
  CHECK(v[1] == kInf);
  CHECK(std::isnan(v[2]));
  CHECK(v[3] == kInf);
  CHECK(v[4] == 0.0f);
  CHECK(std::signbit(v[4]));  // -0 * 0 + -0 * 1 = -0
  CHECK(std::signbit(v[5]));
}

TEST_CASE("matmul of odd sizes with size-1 dimensions", "[matmul]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(kF32, {1, 1, 5}, {1, 2, 3, 4, 5}),
                  Tensor<float>(kF32, {2, 5, 1}, {1, 1, 1, 1, 1, 5, 4, 3, 2, 1})},
                 Matmul);
  CHECK(out["out"].shape == std::vector<uint32_t>{2, 1, 1});
  CHECK(FromBytes<float>(out["out"].data) == std::vector<float>{15, 35});
}

TEST_CASE("matmul validation names op, label and argument", "[matmul][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto a23 = b.input("a23", {kF32, {2, 3}});
  auto b24 = b.input("b24", {kF32, {2, 4}});
  auto v2 = b.input("v2", {kF32, {2}});
  CHECK(ErrorMessage([&] { b.matmul(a23, b24, {.label = "mm"}); }) ==
        "matmul [mm]: the columns of 'a' [2, 3] (3) must equal the rows of 'b' [2, 4] (2)");
  CHECK(ErrorName([&] { b.matmul(v2, b24); }) == "TypeError");
  CHECK(ErrorMessage([&] { b.matmul(b24, v2, {.label = "r"}); }).find("matmul [r]: argument 'b'") == 0);
  auto a334 = b.input("a334", {kF32, {3, 3, 4}});
  auto b241 = b.input("b241", {kF32, {2, 4, 1}});
  const std::string broadcast = ErrorMessage([&] { b.matmul(a334, b241, {.label = "bc"}); });
  CHECK(broadcast.find("matmul [bc]: ") == 0);
  CHECK(broadcast.find("not bidirectionally broadcastable") != std::string::npos);
  auto i23 = b.input("i23", {MLOperandDataType::kInt32, {2, 3}});
  auto i34 = b.input("i34", {MLOperandDataType::kInt32, {3, 4}});
  CHECK(ErrorName([&] { b.matmul(i23, i34); }) == "TypeError");
  auto h34 = b.input("h34", {kF16, {3, 4}});
  CHECK(ErrorMessage([&] { b.matmul(a23, h34, {.label = "t"}); }) ==
        "matmul [t]: argument 'b' data type float16 must match 'a' (float32)");
  auto ok = b.matmul(b.input("x", {kF32, {1, 4}}), b.input("y", {kF32, {2, 2, 4, 2}}));
  CHECK(ok.shape().size() == 4);
}

TEST_CASE("matmul with dynamic dimensions checks K again at dispatch", "[matmul]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto a = b.input("a", {kF32, {MLDynamicDimension{"m", 4}, MLDynamicDimension{"k", 3}}});
  auto w = b.constant({kF32, {3, 1}}, MLBufferSource(Bytes(std::vector<float>{1, 10, 100})));
  auto y = b.matmul(a, w);
  CHECK(y.shape() == std::vector<MLDimension>{MLDynamicDimension{"m", 4}, 1});
  MLGraph graph = b.build({{"y", y}});

  MLTensor in = ctx.createTensor({kF32, {2, 3}, false, true});
  ctx.writeTensor(in, MLBufferSource(Bytes(std::vector<float>{1, 2, 3, 4, 5, 6})));
  MLTensor out = ctx.createTensor({kF32, {2, 1}, true, false});
  ctx.dispatch(graph, {{"a", in}}, {{"y", out}});
  CHECK(FromBytes<float>(ctx.readTensor(out)) == std::vector<float>{321, 654});

  // k = 2 no longer matches b's 3 rows.
  MLTensor in2 = ctx.createTensor({kF32, {2, 2}, false, true});
  CHECK(ErrorName([&] { ctx.dispatch(graph, {{"a", in2}}, {{"y", out}}); }) == "TypeError");
}
