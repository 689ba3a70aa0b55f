// Tests of reshape: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("reshape keeps the row-major bytes of every data type", "[reshape]") {
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint64_t>(MLOperandDataType::kUint64, {2, 3}, {kMax, 1, 2, 3, 4, 5}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 2}, {0x7E01, 0x8001}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {1, 1, 1}, {-128}),
                  Tensor<float>(MLOperandDataType::kFloat32, {}, {-0.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"u64", b.reshape(in[0], {3, 1, 2})},
                                          {"f16", b.reshape(in[1], {2})},
                                          {"to_scalar", b.reshape(in[2], {})},
                                          {"from_scalar", b.reshape(in[3], {1, 1})}};
                 });
  CHECK(out["u64"].shape == std::vector<uint32_t>{3, 1, 2});
  CHECK(FromBytes<uint64_t>(out["u64"].data) == std::vector<uint64_t>{kMax, 1, 2, 3, 4, 5});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x7E01, 0x8001});
  CHECK(out["to_scalar"].shape.empty());
  CHECK(FromBytes<int8_t>(out["to_scalar"].data) == std::vector<int8_t>{-128});
  CHECK(out["from_scalar"].shape == std::vector<uint32_t>{1, 1});
  CHECK(std::signbit(FromBytes<float>(out["from_scalar"].data)[0]));
}

TEST_CASE("reshape validation names op, label and argument", "[reshape][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {2, 3, 4}});
  CHECK(ErrorMessage([&] { b.reshape(x, {3, 9}, {.label = "r1"}); }) ==
        "reshape [r1]: newShape [3, 9] has 27 elements but the input [2, 3, 4] has 24");
  CHECK(ErrorMessage([&] { b.reshape(x, {}); }) ==
        "reshape: newShape [] has 1 elements but the input [2, 3, 4] has 24");
  CHECK(ErrorMessage([&] { b.reshape(x, {2, 12, 0}); }) == "reshape: newShape[2] must be in [1, 2147483647], got 0");
  CHECK(ErrorName([&] { b.reshape(x, {-24}); }) == "TypeError");
  CHECK(ErrorName([&] { b.reshape(x, {1, 1, 1, 1, 1, 1, 1, 1, 24}); }) == "TypeError");
  CHECK(b.reshape(x, {24}).shape() == std::vector<MLDimension>{24});
}

TEST_CASE("reshape with dynamic dimensions checks what it can at build and the rest at dispatch", "[reshape]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kInt32, {MLDynamicDimension{"batch", 4}, 6}});
  // The shared symbol cancels: [batch, 6] -> [batch, 2, 3] always matches.
  auto y = b.reshape(x, {MLDynamicDimension{"batch", 4}, 2, 3});
  CHECK(y.shape() == std::vector<MLDimension>{MLDynamicDimension{"batch", 4}, 2, 3});
  // 28 elements can never be batch * 6; 30 exceeds the bound 4 * 6.
  CHECK(ErrorName([&] { b.reshape(x, {4, 7}); }) == "TypeError");
  CHECK(ErrorName([&] { b.reshape(x, {5, 6}); }) == "TypeError");
  // 12 = batch * 6 for batch = 2: accepted now, checked again at dispatch.
  auto z = b.reshape(x, {12});
  MLGraph graph = b.build({{"y", y}, {"z", z}});

  MLTensor in = ctx.createTensor({MLOperandDataType::kInt32, {2, 6}, false, true});
  std::vector<int32_t> values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  ctx.writeTensor(in, MLBufferSource(Bytes(values)));
  MLTensor out_y = ctx.createTensor({MLOperandDataType::kInt32, {2, 2, 3}, true, false});
  MLTensor out_z = ctx.createTensor({MLOperandDataType::kInt32, {12}, true, false});
  ctx.dispatch(graph, {{"x", in}}, {{"y", out_y}, {"z", out_z}});
  CHECK(FromBytes<int32_t>(ctx.readTensor(out_y)) == values);
  CHECK(FromBytes<int32_t>(ctx.readTensor(out_z)) == values);

  // batch = 3: reshape to [12] no longer matches 18 elements.
  MLTensor in3 = ctx.createTensor({MLOperandDataType::kInt32, {3, 6}, false, true});
  MLTensor out_y3 = ctx.createTensor({MLOperandDataType::kInt32, {3, 2, 3}, true, false});
  CHECK(ErrorName([&] { ctx.dispatch(graph, {{"x", in3}}, {{"y", out_y3}, {"z", out_z}}); }) == "TypeError");
}
