// Tests of quantizeLinear and dequantizeLinear (validation and reference kernel).
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("quantizeLinear rounds half to even and saturates", "[quantize_linear]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {8}, {2.5f, 3.5f, -2.5f, -0.5f, 1000, -1000, kNaN, kInf}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {1.0f}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {1}, {0}),
                  Tensor<float>(MLOperandDataType::kFloat32, {4}, {-64.25f, 0, 63.75f, 100}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {0.5f}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {1}, {128})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i8", b.quantizeLinear(in[0], in[1], in[2])},
                                          {"u8", b.quantizeLinear(in[3], in[4], in[5])}};
                 });
  // NaN quantizes to 0 and +-Infinity saturates, as the cast operator does.
  CHECK(FromBytes<int8_t>(out["i8"].data) == std::vector<int8_t>{2, 4, -2, 0, 127, -128, 0, 127});
  // x / 0.5 = -128.5 -> -128 (+128 = 0), 127.5 -> 128 (+128 = 256 -> 255), 200 + 128 -> 255.
  CHECK(FromBytes<uint8_t>(out["u8"].data) == std::vector<uint8_t>{0, 128, 255, 255});
}

TEST_CASE("quantizeLinear decides float64 ties from the exact quotient", "[quantize_linear]") {
  // 954903552 / (1 + 3 * 2^-23) is 954903210.5 + 6e-8 exactly, but its float64
  // quotient is the tie 954903210.5; likewise 657307904 / (1 + 7 * 2^-23) is just
  // below 657307355.5.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2}, {954903552.0f, 657307904.0f}),
                  Tensor<float>(MLOperandDataType::kFloat32, {2},
                                {1.0f + 3 * std::ldexp(1.0f, -23), 1.0f + 7 * std::ldexp(1.0f, -23)}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {2}, {0, 0}),
                  Tensor<float>(MLOperandDataType::kFloat32, {2}, {-5, 5e9f}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {1}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {1}, {10})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i32", b.quantizeLinear(in[0], in[1], in[2])},
                                          {"u32", b.quantizeLinear(in[3], in[4], in[5])}};
                 });
  CHECK(FromBytes<int32_t>(out["i32"].data) == std::vector<int32_t>{954903211, 657307355});
  CHECK(FromBytes<uint32_t>(out["u32"].data) == std::vector<uint32_t>{5, 4294967295u});
}

TEST_CASE("quantizeLinear to int4 and uint4 packs two values per byte", "[quantize_linear]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {5}, {-9, -8, 7, 8, 1.5f}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {1}),
                  Tensor<uint8_t>(MLOperandDataType::kInt4, {1}, {0x00}),
                  Tensor<float>(MLOperandDataType::kFloat32, {4}, {0, 3, 20, -1}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {2}),
                  Tensor<uint8_t>(MLOperandDataType::kUint4, {1}, {0x03})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i4", b.quantizeLinear(in[0], in[1], in[2])},
                                          {"u4", b.quantizeLinear(in[3], in[4], in[5])}};
                 });
  CHECK(out["i4"].type == MLOperandDataType::kInt4);
  // [-8, -8, 7, 7, 2], low nibble first.
  CHECK(FromBytes<uint8_t>(out["i4"].data) == std::vector<uint8_t>{0x88, 0x77, 0x02});
  // x / 2 = [0, 1.5 -> 2, 10, -0.5 -> 0] + 3 = [3, 5, 13, 3].
  CHECK(FromBytes<uint8_t>(out["u4"].data) == std::vector<uint8_t>{0x53, 0x3D});
}

TEST_CASE("quantizeLinear broadcasts scale and zeroPoint blockwise", "[quantize_linear]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {2, 4}, {1, 2, 30, 40, 3, 4, 50, 60}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1, 2}, {1, 10}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {1, 2}, {0, 5}),
                  Tensor<float>(MLOperandDataType::kFloat32, {2, 1}, {1, 10}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {2, 1}, {-1, 1})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"cols", b.quantizeLinear(in[0], in[1], in[2])},
                                          {"rows", b.quantizeLinear(in[0], in[3], in[4])}};
                 });
  // Columns 0-1 use (1, 0), columns 2-3 use (10, 5).
  CHECK(FromBytes<int8_t>(out["cols"].data) == std::vector<int8_t>{1, 2, 8, 9, 3, 4, 10, 11});
  // Row 0 uses (1, -1); row 1 uses (10, 1): 0.3 -> 0, 0.4 -> 0, 5, 6.
  CHECK(FromBytes<int8_t>(out["rows"].data) == std::vector<int8_t>{0, 1, 29, 39, 1, 1, 6, 7});
}

TEST_CASE("quantizeLinear from float16", "[quantize_linear]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {3}, Half({2.5, -1.5, 65504})),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1}, Half({1})),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {1}, {10})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.quantizeLinear(in[0], in[1], in[2])}};
                 });
  CHECK(FromBytes<uint8_t>(out["y"].data) == std::vector<uint8_t>{12, 8, 255});
}

TEST_CASE("dequantizeLinear subtracts exactly and rounds the product once", "[quantize_linear]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {3}, {-128, 127, 0}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {0.5f}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {1}, {-128}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {1}, {4294967295u}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {1}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {1}, {0}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {1}, {std::numeric_limits<int32_t>::min()}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {1}, {std::numeric_limits<int32_t>::max()}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {1}, {200}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1}, Half({1 + std::ldexp(1.0, -10)})),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {1}, {0})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i8", b.dequantizeLinear(in[0], in[1], in[2])},
                                          {"u32", b.dequantizeLinear(in[3], in[4], in[5])},
                                          {"i32", b.dequantizeLinear(in[6], in[4], in[7])},
                                          {"f16", b.dequantizeLinear(in[8], in[9], in[10])}};
                 });
  CHECK(FromBytes<float>(out["i8"].data) == std::vector<float>{0, 127.5f, 64});
  CHECK(FromBytes<float>(out["u32"].data) == std::vector<float>{4294967296.0f});
  // -2^31 - (2^31 - 1) = -4294967295 (beyond int32), rounded to float32.
  CHECK(FromBytes<float>(out["i32"].data) == std::vector<float>{-4294967296.0f});
  // 200 * 1.0009765625 = 200.1953125 -> float16 200.25 (spacing 0.125).
  CHECK(out["f16"].type == MLOperandDataType::kFloat16);
  CHECK(FromHalf(FromBytes<uint16_t>(out["f16"].data)) == std::vector<double>{200.25});
}

TEST_CASE("dequantizeLinear from packed int4 and uint4 with blockwise parameters", "[quantize_linear]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(MLOperandDataType::kInt4, {3}, {0x78, 0x0F}),  // [-8, 7, -1]
                  Tensor<float>(MLOperandDataType::kFloat32, {1}, {2}),
                  Tensor<uint8_t>(MLOperandDataType::kInt4, {1}, {0x0F}),        // [-1]
                  Tensor<uint8_t>(MLOperandDataType::kUint4, {1, 2, 4}, {0x0F, 0x19, 0x32, 0xFE}),
                  Tensor<float>(MLOperandDataType::kFloat32, {1, 1, 2}, {0.25f, 2}),
                  Tensor<uint8_t>(MLOperandDataType::kUint4, {1, 1, 2}, {0x18})},  // [8, 1]
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i4", b.dequantizeLinear(in[0], in[1], in[2])},
                                          {"u4", b.dequantizeLinear(in[3], in[4], in[5])}};
                 });
  CHECK(FromBytes<float>(out["i4"].data) == std::vector<float>{-14, 16, 0});
  // u4 input [[15, 0, 9, 1], [2, 3, 14, 15]]: columns 0-1 use (0.25, 8), columns 2-3 use (2, 1).
  CHECK(FromBytes<float>(out["u4"].data) == std::vector<float>{1.75f, -2, 16, 0, -1.5f, -1.25f, 26, 28});
}

TEST_CASE("quantizeLinear and dequantizeLinear validation", "[quantize_linear][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {3, 2, 5}});
  auto s5 = b.input("s5", {MLOperandDataType::kFloat32, {5}});
  auto z5 = b.input("z5", {MLOperandDataType::kInt8, {5}});
  auto z25 = b.input("z25", {MLOperandDataType::kInt8, {2, 5}});
  auto s115 = b.input("s115", {MLOperandDataType::kFloat32, {1, 1, 5}});
  auto z125 = b.input("z125", {MLOperandDataType::kInt8, {1, 2, 5}});
  auto s215 = b.input("s215", {MLOperandDataType::kFloat32, {2, 1, 5}});
  auto z215 = b.input("z215", {MLOperandDataType::kInt8, {2, 1, 5}});
  auto h115 = b.input("h115", {MLOperandDataType::kFloat16, {1, 1, 5}});
  auto z115 = b.input("z115", {MLOperandDataType::kInt8, {1, 1, 5}});
  auto f16z = b.input("f16z", {MLOperandDataType::kFloat16, {1, 1, 5}});
  auto i4z = b.input("i4z", {MLOperandDataType::kInt4, {1, 1, 5}});
  auto i64z = b.input("i64z", {MLOperandDataType::kInt64, {1, 1, 5}});

  CHECK(ErrorMessage([&] { b.quantizeLinear(x, s5, z5, {.label = "q"}); }) ==
        "quantizeLinear [q]: argument 'scale' rank must equal the input rank 3, got 1");
  CHECK(ErrorMessage([&] { b.quantizeLinear(x, s115, z25, {.label = "q"}); }) ==
        "quantizeLinear [q]: argument 'zeroPoint' rank must equal the input rank 3, got 2");
  CHECK(ErrorMessage([&] { b.quantizeLinear(x, s115, z125, {.label = "q"}); }) ==
        "quantizeLinear [q]: argument 'zeroPoint' shape [1, 2, 5] must equal the 'scale' shape [1, 1, 5]");
  CHECK(ErrorMessage([&] { b.quantizeLinear(x, s215, z215, {.label = "q"}); }) ==
        "quantizeLinear [q]: argument 'scale' shape [2, 1, 5] is not blockwise broadcastable to the input shape "
        "[3, 2, 5] (dimension 0: 2 does not divide 3)");
  CHECK(ErrorMessage([&] { b.quantizeLinear(x, h115, z115, {.label = "q"}); }) ==
        "quantizeLinear [q]: argument 'scale' data type float16 must match 'input' (float32)");
  CHECK(ErrorName([&] { b.quantizeLinear(x, s115, f16z); }) == "TypeError");
  CHECK(ErrorName([&] { b.quantizeLinear(x, s115, i64z); }) == "TypeError");
  CHECK(ErrorName([&] { b.quantizeLinear(z115, s115, z115); }) == "TypeError");

  auto q = b.quantizeLinear(x, s115, i4z);
  CHECK(q.dataType() == MLOperandDataType::kInt4);
  CHECK(q.shape().size() == 3);
  auto blocks = b.quantizeLinear(b.input("x645", {MLOperandDataType::kFloat32, {6, 4, 5}}),
                                 b.input("s221", {MLOperandDataType::kFloat32, {2, 2, 1}}),
                                 b.input("z221", {MLOperandDataType::kUint8, {2, 2, 1}}));
  CHECK(blocks.dataType() == MLOperandDataType::kUint8);

  auto xi8 = b.input("xi8", {MLOperandDataType::kInt8, {3, 2, 5}});
  auto zu8 = b.input("zu8", {MLOperandDataType::kUint8, {1, 1, 5}});
  auto si32 = b.input("si32", {MLOperandDataType::kInt32, {1, 1, 5}});
  CHECK(ErrorMessage([&] { b.dequantizeLinear(xi8, s115, zu8, {.label = "d"}); }) ==
        "dequantizeLinear [d]: argument 'zeroPoint' data type uint8 must match 'input' (int8)");
  CHECK(ErrorName([&] { b.dequantizeLinear(x, s115, z115); }) == "TypeError");
  CHECK(ErrorName([&] { b.dequantizeLinear(xi8, si32, z115); }) == "TypeError");
  CHECK(ErrorMessage([&] { b.dequantizeLinear(xi8, s5, z5, {.label = "d"}); }) ==
        "dequantizeLinear [d]: argument 'scale' rank must equal the input rank 3, got 1");
  auto d = b.dequantizeLinear(xi8, h115, z115);
  CHECK(d.dataType() == MLOperandDataType::kFloat16);
  CHECK(d.shape().size() == 3);
  auto d4 = b.dequantizeLinear(b.input("x4", {MLOperandDataType::kUint4, {4}}),
                               b.input("s4", {MLOperandDataType::kFloat32, {2}}),
                               b.input("z4", {MLOperandDataType::kUint4, {2}}));
  CHECK(d4.dataType() == MLOperandDataType::kFloat32);
}
