// Tests of cast: validation and the reference kernel over the spec's conversion
// table, plus int4/uint4. Expected values are worked out by hand.
#include <cstdint>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
using DT = MLOperandDataType;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

HostTensor CastOne(const HostTensor& input, DT target) {
  auto out = Run(MLDeviceType::kReference, {input}, [target](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    return MLNamedOperands{{"out", b.cast(in[0], target)}};
  });
  return out["out"];
}
}  // namespace

TEST_CASE("cast float -> integer truncates toward zero and saturates out of range", "[cast]") {
  // In range: truncation. Out of range (implementation-defined): saturation; NaN -> 0.
  const auto in = Tensor<float>(DT::kFloat32, {8}, {kNaN, kInf, -kInf, 3.9f, -3.9f, -0.5f, 2147483648.0f,
                                                    -2147483904.0f});
  auto i32 = CastOne(in, DT::kInt32);
  CHECK(i32.type == DT::kInt32);
  CHECK(i32.shape == std::vector<uint32_t>{8});
  CHECK(FromBytes<int32_t>(i32.data) == std::vector<int32_t>{0, 2147483647, -2147483647 - 1, 3, -3, 0, 2147483647,
                                                             -2147483647 - 1});
  CHECK(FromBytes<uint8_t>(CastOne(in, DT::kUint8).data) == std::vector<uint8_t>{0, 255, 0, 3, 0, 0, 255, 0});
  CHECK(FromBytes<int8_t>(CastOne(in, DT::kInt8).data) == std::vector<int8_t>{0, 127, -128, 3, -3, 0, 127, -128});
  CHECK(FromBytes<uint32_t>(CastOne(in, DT::kUint32).data) ==
        std::vector<uint32_t>{0, 4294967295u, 0, 3, 0, 0, 2147483648u, 0});
}

TEST_CASE("cast float -> 64-bit integers at the edges of their range", "[cast]") {
  // 2^62 is exact; 2^63 is out of int64's range but in uint64's; 2^64 is out of both.
  const auto in = Tensor<float>(DT::kFloat32, {4}, {4611686018427387904.0f, 9223372036854775808.0f,
                                                    18446744073709551616.0f, -9223372036854775808.0f});
  CHECK(FromBytes<int64_t>(CastOne(in, DT::kInt64).data) ==
        std::vector<int64_t>{int64_t{1} << 62, std::numeric_limits<int64_t>::max(),
                             std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()});
  CHECK(FromBytes<uint64_t>(CastOne(in, DT::kUint64).data) ==
        std::vector<uint64_t>{uint64_t{1} << 62, uint64_t{1} << 63, std::numeric_limits<uint64_t>::max(), 0});
  // float16 input: 65504 and -65504 are exact.
  auto h = CastOne(Tensor<uint16_t>(DT::kFloat16, {3}, {0x7BFF, 0xFBFF, 0xBE00}), DT::kInt32);
  CHECK(FromBytes<int32_t>(h.data) == std::vector<int32_t>{65504, -65504, -1});
}

TEST_CASE("cast integer -> integer keeps the low bits (two's complement)", "[cast]") {
  CHECK(FromBytes<int8_t>(CastOne(Tensor<int32_t>(DT::kInt32, {5}, {128, -129, 255, 256, -1}), DT::kInt8).data) ==
        std::vector<int8_t>{-128, 127, -1, 0, -1});
  // The spec's example: int8 -1 -> uint8 255.
  CHECK(FromBytes<uint8_t>(CastOne(Tensor<int8_t>(DT::kInt8, {2}, {-1, -128}), DT::kUint8).data) ==
        std::vector<uint8_t>{255, 128});
  CHECK(FromBytes<int8_t>(CastOne(Tensor<uint8_t>(DT::kUint8, {2}, {200, 127}), DT::kInt8).data) ==
        std::vector<int8_t>{-56, 127});
  CHECK(FromBytes<int32_t>(
            CastOne(Tensor<int64_t>(DT::kInt64, {3}, {(int64_t{1} << 32) + 5, 0x80000000LL, -1}), DT::kInt32).data) ==
        std::vector<int32_t>{5, -2147483647 - 1, -1});
  CHECK(FromBytes<int64_t>(
            CastOne(Tensor<uint64_t>(DT::kUint64, {2}, {std::numeric_limits<uint64_t>::max(), 7}), DT::kInt64).data) ==
        std::vector<int64_t>{-1, 7});
  CHECK(FromBytes<uint64_t>(CastOne(Tensor<int32_t>(DT::kInt32, {2}, {-1, 5}), DT::kUint64).data) ==
        std::vector<uint64_t>{std::numeric_limits<uint64_t>::max(), 5});
  CHECK(FromBytes<uint32_t>(CastOne(Tensor<int8_t>(DT::kInt8, {1}, {-2}), DT::kUint32).data) ==
        std::vector<uint32_t>{4294967294u});
}

TEST_CASE("cast integer -> float rounds once to nearest even", "[cast]") {
  // 2^24 + 1 = 16777217 is a tie between 16777216 and 16777218 in float32 -> even 16777216.
  // 2^63 - 1 -> 2^63; 2^64 - 1 -> 2^64.
  auto f = CastOne(Tensor<int64_t>(DT::kInt64, {3}, {16777217, std::numeric_limits<int64_t>::max(), -3}),
                   DT::kFloat32);
  CHECK(FromBytes<float>(f.data) == std::vector<float>{16777216.0f, 9223372036854775808.0f, -3.0f});
  auto u = CastOne(Tensor<uint64_t>(DT::kUint64, {1}, {std::numeric_limits<uint64_t>::max()}), DT::kFloat32);
  CHECK(FromBytes<float>(u.data) == std::vector<float>{18446744073709551616.0f});
  // float16: 2049 ties to 2048, 2051 ties to 2052, 65519 -> 65504, 65520 (the tie with 2^16) -> +inf.
  auto h = CastOne(Tensor<uint32_t>(DT::kUint32, {4}, {2049, 2051, 65519, 65520}), DT::kFloat16);
  CHECK(FromBytes<uint16_t>(h.data) == std::vector<uint16_t>{0x6800, 0x6802, 0x7BFF, 0x7C00});
  auto i8 = CastOne(Tensor<int8_t>(DT::kInt8, {2}, {-128, 127}), DT::kFloat16);
  CHECK(FromBytes<uint16_t>(i8.data) == std::vector<uint16_t>{0xD800, 0x57F0});
}

TEST_CASE("cast float32 <-> float16 rounds ties to even, subnormals, overflow and specials", "[cast]") {
  // 1 + 2^-11 ties to 1; 2^-25 ties to 0; 3 * 2^-26 rounds up to 2^-24; 65520 overflows; -0 stays -0.
  auto h = CastOne(Tensor<float>(DT::kFloat32, {7}, {1.00048828125f, 2.98023223876953125e-8f,
                                                     4.4703483581542969e-8f, 65520.0f, -0.0f, -kInf, kNaN}),
                   DT::kFloat16);
  const auto bits = FromBytes<uint16_t>(h.data);
  REQUIRE(bits.size() == 7);
  CHECK(bits[0] == 0x3C00);
  CHECK(bits[1] == 0x0000);
  CHECK(bits[2] == 0x0001);
  CHECK(bits[3] == 0x7C00);
  CHECK(bits[4] == 0x8000);
  CHECK(bits[5] == 0xFC00);
  CHECK((bits[6] & 0x7C00) == 0x7C00);
  CHECK((bits[6] & 0x03FF) != 0);
  // float16 -> float32 is exact: smallest subnormal 2^-24, largest 65504.
  auto f = CastOne(Tensor<uint16_t>(DT::kFloat16, {3}, {0x0001, 0x7BFF, 0x8000}), DT::kFloat32);
  CHECK(FromBytes<uint32_t>(f.data) == std::vector<uint32_t>{0x33800000, 0x477FE000, 0x80000000});
}

TEST_CASE("cast to the same type copies bits", "[cast]") {
  auto f = CastOne(Tensor<uint32_t>(DT::kFloat32, {2}, {0x7fa00001, 0x80000000}), DT::kFloat32);
  CHECK(FromBytes<uint32_t>(f.data) == std::vector<uint32_t>{0x7fa00001, 0x80000000});
  auto h = CastOne(Tensor<uint16_t>(DT::kFloat16, {1}, {0x7C01}), DT::kFloat16);
  CHECK(FromBytes<uint16_t>(h.data) == std::vector<uint16_t>{0x7C01});
}

TEST_CASE("cast to and from packed int4/uint4", "[cast]") {
  // int8 -> int4 keeps the low 4 bits: -8 -> 0x8, 7 -> 0x7, 8 -> 0x8 (-8), -9 -> 0x7, 15 -> 0xF (-1), -1 -> 0xF.
  // Packed two per byte, low nibble first.
  auto q = CastOne(Tensor<int8_t>(DT::kInt8, {6}, {-8, 7, 8, -9, 15, -1}), DT::kInt4);
  CHECK(q.type == DT::kInt4);
  CHECK(FromBytes<uint8_t>(q.data) == std::vector<uint8_t>{0x78, 0x78, 0xFF});
  // float -> uint4 truncates and saturates to [0, 15]; NaN -> 0. Odd count: 3 elements in 2 bytes.
  auto u = CastOne(Tensor<float>(DT::kFloat32, {3}, {3.7f, 20.0f, -1.0f}), DT::kUint4);
  const auto ub = FromBytes<uint8_t>(u.data);
  REQUIRE(ub.size() == 2);
  CHECK(ub[0] == 0xF3);
  CHECK((ub[1] & 0x0F) == 0x0);
  // int4 in: bytes 0x8F 0x07 hold -1, -8, 7, 0.
  auto fi = CastOne(HostTensor{DT::kInt4, {4}, Bytes(std::vector<uint8_t>{0x8F, 0x07})}, DT::kFloat32);
  CHECK(FromBytes<float>(fi.data) == std::vector<float>{-1.0f, -8.0f, 7.0f, 0.0f});
  // uint4 in: bytes 0x21 0xF0 hold 1, 2, 0, 15.
  auto iu = CastOne(HostTensor{DT::kUint4, {2, 2}, Bytes(std::vector<uint8_t>{0x21, 0xF0})}, DT::kInt32);
  CHECK(iu.shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<int32_t>(iu.data) == std::vector<int32_t>{1, 2, 0, 15});
  // int4 -> uint4 reinterprets the nibble: -1 -> 15, -8 -> 8.
  auto uu = CastOne(HostTensor{DT::kInt4, {2}, Bytes(std::vector<uint8_t>{0x8F})}, DT::kUint4);
  CHECK(FromBytes<uint8_t>(uu.data) == std::vector<uint8_t>{0x8F});
}

TEST_CASE("cast validation: shape kept, output byte length checked", "[cast][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {DT::kInt32, {2, 3}});
  auto y = b.cast(x, DT::kFloat16);
  CHECK(y.dataType() == DT::kFloat16);
  REQUIRE(y.shape().size() == 2);
  CHECK(y.shape()[1].size() == 3);
  CHECK(b.cast(b.input("s", {DT::kUint8, {}}), DT::kInt4).dataType() == DT::kInt4);
  // int8 [2^30] is 1 GiB; as int64 it is 8 GiB, over the 2 GiB limit.
  auto big = b.input("big", {DT::kInt8, {uint32_t{1} << 30}});
  const std::string message = ErrorMessage([&] { b.cast(big, DT::kInt64, {.label = "c1"}); });
  CHECK(message.rfind("cast [c1]: ", 0) == 0);
  CHECK(ErrorName([&] { b.cast(big, DT::kInt64); }) == "TypeError");
  CHECK(b.cast(big, DT::kUint8).dataType() == DT::kUint8);
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {DT::kInt32, {2, 2}});
  CHECK(ErrorName([&] { b.cast(w, DT::kInt64); }) == "TypeError");
}
