// Tests of concat: validation, output shapes and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

std::vector<int64_t> ShapeOf(const MLOperand& o) {
  std::vector<int64_t> s;
  for (const MLDimension& d : o.shape()) s.push_back(d.size());
  return s;
}

}  // namespace

TEST_CASE("concat along the first, a middle and the last axis", "[concat]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int32_t>(MLOperandDataType::kInt32, {2, 1, 2}, {1, 2, 3, 4}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2, 2, 2}, {5, 6, 7, 8, 9, 10, 11, 12}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {1, 1, 2}, {13, 14})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"mid", b.concat({in[0], in[1], in[0]}, 1)},
                                          {"first", b.concat({in[0], in[2]}, 0)},
                                          {"last", b.concat({in[0], in[0]}, 2)},
                                          {"one", b.concat({in[2]}, 2)}};
                 });
  CHECK(out["mid"].shape == std::vector<uint32_t>{2, 4, 2});
  CHECK(FromBytes<int32_t>(out["mid"].data) ==
        std::vector<int32_t>{1, 2, 5, 6, 7, 8, 1, 2, 3, 4, 9, 10, 11, 12, 3, 4});
  CHECK(out["first"].shape == std::vector<uint32_t>{3, 1, 2});
  CHECK(FromBytes<int32_t>(out["first"].data) == std::vector<int32_t>{1, 2, 3, 4, 13, 14});
  CHECK(out["last"].shape == std::vector<uint32_t>{2, 1, 4});
  CHECK(FromBytes<int32_t>(out["last"].data) == std::vector<int32_t>{1, 2, 1, 2, 3, 4, 3, 4});
  CHECK(FromBytes<int32_t>(out["one"].data) == std::vector<int32_t>{13, 14});
}

TEST_CASE("concat copies every data type bit for bit", "[concat]") {
  const float kNaN = std::numeric_limits<float>::quiet_NaN();
  const int64_t kMin64 = std::numeric_limits<int64_t>::min();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2}, {-0.0f, kNaN}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {-std::numeric_limits<float>::infinity()}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {1}, {kMin64}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {2}, {(int64_t{1} << 53) + 1, -1}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {1, 1}, {255}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {1, 2}, {0, 128}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1}, {0x7c01}),  // a signalling NaN payload
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1}, {0x8001})},  // -smallest subnormal
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"f32", b.concat({in[0], in[1]}, 0)},
                                          {"i64", b.concat({in[2], in[3]}, 0)},
                                          {"u8", b.concat({in[4], in[5]}, 1)},
                                          {"f16", b.concat({in[6], in[7]}, 0)}};
                 });
  auto f32 = FromBytes<float>(out["f32"].data);
  CHECK(std::signbit(f32[0]));
  CHECK(std::isnan(f32[1]));
  CHECK(f32[2] == -std::numeric_limits<float>::infinity());
  CHECK(FromBytes<int64_t>(out["i64"].data) == std::vector<int64_t>{kMin64, (int64_t{1} << 53) + 1, -1});
  CHECK(FromBytes<uint8_t>(out["u8"].data) == std::vector<uint8_t>{255, 0, 128});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x7c01, 0x8001});
}

TEST_CASE("concat output shapes, dynamic dimensions included", "[concat][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto a = b.input("a", {MLOperandDataType::kFloat32, {3, 1, 5}});
  auto c = b.input("c", {MLOperandDataType::kFloat32, {3, 2, 5}});
  CHECK(ShapeOf(b.concat({a, c, a}, 1)) == std::vector<int64_t>{3, 4, 5});
  auto d = b.input("d", {MLOperandDataType::kFloat32, {MLDynamicDimension{"n", 6}, 5}});
  auto e = b.input("e", {MLOperandDataType::kFloat32, {2, 5}});
  auto y = b.concat({d, e}, 0);
  REQUIRE(y.shape().size() == 2);
  CHECK(y.shape()[0].isDynamic());
  CHECK(y.shape()[0].size() == 8);  // upper bound 6 + 2
  CHECK(y.shape()[1].size() == 5);
  // Along another axis the dynamic dimension passes through unchanged.
  auto z = b.concat({d, d}, 1);
  CHECK(z.shape()[0].isDynamic());
  CHECK(z.shape()[0].name() == "n");
  CHECK(z.shape()[1].size() == 10);
}

TEST_CASE("concat validation names op, label and argument", "[concat][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto a = b.input("a", {MLOperandDataType::kFloat32, {1, 1}});
  auto i = b.input("i", {MLOperandDataType::kInt32, {1, 1}});
  auto r3 = b.input("r3", {MLOperandDataType::kFloat32, {1, 1, 1}});
  auto w = b.input("w", {MLOperandDataType::kFloat32, {1, 2}});
  CHECK(ErrorMessage([&] { b.concat({}, 0, {.label = "c0"}); }) ==
        "concat [c0]: inputs must have 1 to 8192 operands, got 0");
  CHECK(ErrorMessage([&] { b.concat({a, i}, 0, {.label = "c1"}); }) ==
        "concat [c1]: inputs[1] data type int32 must match inputs[0] (float32)");
  CHECK(ErrorMessage([&] { b.concat({a, r3}, 0, {.label = "c2"}); }) ==
        "concat [c2]: inputs[1] rank 3 must match inputs[0] (2)");
  CHECK(ErrorMessage([&] { b.concat({a, a}, 2, {.label = "c3"}); }) ==
        "concat [c3]: axis 2 must be less than the input rank 2");
  CHECK(ErrorMessage([&] { b.concat({a, w}, 0, {.label = "c4"}); }) ==
        "concat [c4]: inputs[1] shape [1, 2] must match inputs[0] [1, 1] except along axis 0 (dimension 1 differs)");
  auto s = b.input("s", {MLOperandDataType::kFloat32, {}});
  CHECK(ErrorName([&] { b.concat({s, s}, 0); }) == "TypeError");

  std::vector<MLOperand> many(8193, b.input("one", {MLOperandDataType::kFloat32, {1}}));
  CHECK(ErrorMessage([&] { b.concat(many, 0, {.label = "c5"}); }) ==
        "concat [c5]: inputs must have 1 to 8192 operands, got 8193");
  many.pop_back();
  CHECK(ShapeOf(b.concat(many, 0)) == std::vector<int64_t>{8192});

  // The concatenated size must be a valid dimension (at most 2^31 - 1).
  auto big = b.input("big", {MLOperandDataType::kUint8, {0x40000000}});
  const std::string overflow = ErrorMessage([&] { b.concat({big, big}, 0, {.label = "c6"}); });
  CHECK(overflow.find("concat [c6]: ") == 0);
  CHECK(ErrorName([&] { b.concat({big, big}, 0); }) == "TypeError");

  MLGraphBuilder other(ctx);
  auto o = other.input("o", {MLOperandDataType::kFloat32, {1, 1}});
  CHECK(ErrorName([&] { b.concat({a, o}, 0); }) == "TypeError");
}
