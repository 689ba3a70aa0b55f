// Tests of expand: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("expand broadcasts size-1 and missing leading dimensions", "[expand]") {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int32_t>(MLOperandDataType::kInt32, {3, 1}, {kMin, 0, 7}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {}, {200}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, {0x7E01, 0x8000}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {1, 2}, {-1, kMax})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i32", b.expand(in[0], {2, 3, 2})},
                                          {"scalar", b.expand(in[1], {2, 2})},
                                          {"f16", b.expand(in[2], {2, 2})},
                                          {"i64", b.expand(in[3], {3, 2})},
                                          {"same", b.expand(in[0], {3, 1})}};
                 });
  CHECK(out["i32"].shape == std::vector<uint32_t>{2, 3, 2});
  CHECK(FromBytes<int32_t>(out["i32"].data) == std::vector<int32_t>{kMin, kMin, 0, 0, 7, 7, kMin, kMin, 0, 0, 7, 7});
  CHECK(FromBytes<uint8_t>(out["scalar"].data) == std::vector<uint8_t>{200, 200, 200, 200});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x7E01, 0x8000, 0x7E01, 0x8000});
  CHECK(FromBytes<int64_t>(out["i64"].data) == std::vector<int64_t>{-1, kMax, -1, kMax, -1, kMax});
  CHECK(FromBytes<int32_t>(out["same"].data) == std::vector<int32_t>{kMin, 0, 7});
}

TEST_CASE("expand validation names op, label and argument", "[expand][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {3, 6, 2}});
  CHECK(ErrorMessage([&] { b.expand(x, {4, 3, 5}, {.label = "e1"}); }) ==
        "expand [e1]: input [3, 6, 2] is not unidirectionally broadcastable to newShape [4, 3, 5] "
        "(input dimension 0: 3 vs 4)");
  CHECK(ErrorMessage([&] { b.expand(x, {6, 2}); }) ==
        "expand: input [3, 6, 2] has rank 3, more than newShape [6, 2] (2)");
  CHECK(ErrorMessage([&] { b.expand(x, {3, 6, 0}); }) == "expand: newShape[2] must be in [1, 2147483647], got 0");
  CHECK(ErrorName([&] { b.expand(x, {3, 6, 4294967295u}); }) == "TypeError");
  // Size-1 input dims may broadcast but a size-2 dim may not shrink to 1.
  CHECK(ErrorName([&] { b.expand(x, {3, 6, 1}); }) == "TypeError");
  CHECK(b.expand(x, {5, 3, 6, 2}).shape() == std::vector<MLDimension>{5, 3, 6, 2});
}

TEST_CASE("expand with dynamic dimensions", "[expand]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {MLDynamicDimension{"n", 4}, 1}});
  auto y = b.expand(x, {MLDynamicDimension{"n", 4}, 3});
  CHECK(y.shape() == std::vector<MLDimension>{MLDynamicDimension{"n", 4}, 3});
  // A static 5 can never be reached by a dimension of at most 3.
  auto w = b.input("w", {MLOperandDataType::kFloat32, {5}});
  CHECK(ErrorName([&] { b.expand(w, {MLDynamicDimension{"m", 3}}); }) == "TypeError");
  MLGraph graph = b.build({{"y", y}});
  MLTensor in = ctx.createTensor({MLOperandDataType::kFloat32, {2, 1}, false, true});
  ctx.writeTensor(in, MLBufferSource(Bytes(std::vector<float>{1.5f, -2.0f})));
  MLTensor out = ctx.createTensor({MLOperandDataType::kFloat32, {2, 3}, true, false});
  ctx.dispatch(graph, {{"x", in}}, {{"y", out}});
  CHECK(FromBytes<float>(ctx.readTensor(out)) == std::vector<float>{1.5f, 1.5f, 1.5f, -2.0f, -2.0f, -2.0f});
}
