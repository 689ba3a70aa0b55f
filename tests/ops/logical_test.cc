// Tests of logicalNot, logicalAnd, logicalOr, logicalXor, isNaN, isInfinite:
// validation and the reference kernel. Expected values are worked out by hand.
#include <cstdint>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
using DT = MLOperandDataType;
std::vector<uint8_t> U8(const HostTensor& t) { return FromBytes<uint8_t>(t.data); }
}  // namespace

TEST_CASE("logical ops treat any non-zero byte as true and output 0/1", "[logical]") {
  // a [2,2] = {0, 2, 255, 0}, b [2] = {3, 0}: pairs (0,3) (2,0) (255,3) (0,0).
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(DT::kUint8, {2, 2}, {0, 2, 255, 0}), Tensor<uint8_t>(DT::kUint8, {2}, {3, 0})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"not", b.logicalNot(in[0])},
                                          {"and", b.logicalAnd(in[0], in[1])},
                                          {"or", b.logicalOr(in[0], in[1])},
                                          {"xor", b.logicalXor(in[0], in[1])}};
                 });
  CHECK(out["not"].shape == std::vector<uint32_t>{2, 2});
  CHECK(U8(out["not"]) == std::vector<uint8_t>{1, 0, 0, 1});
  CHECK(U8(out["and"]) == std::vector<uint8_t>{0, 0, 1, 0});
  CHECK(U8(out["or"]) == std::vector<uint8_t>{1, 1, 1, 0});
  // 2 xor 0 is 1 and 255 xor 3 is 0: truth values, not bits.
  CHECK(U8(out["xor"]) == std::vector<uint8_t>{1, 1, 0, 0});
}

TEST_CASE("logical binary ops broadcast a scalar and size-1 dims", "[logical]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(DT::kUint8, {}, {7}), Tensor<uint8_t>(DT::kUint8, {3, 1}, {0, 1, 128}),
                  Tensor<uint8_t>(DT::kUint8, {1, 2}, {0, 9})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"s", b.logicalXor(in[0], in[1])}, {"m", b.logicalAnd(in[1], in[2])},
                                          {"n", b.logicalNot(in[0])}};
                 });
  CHECK(out["s"].shape == std::vector<uint32_t>{3, 1});
  CHECK(U8(out["s"]) == std::vector<uint8_t>{1, 0, 0});
  CHECK(out["m"].shape == std::vector<uint32_t>{3, 2});
  CHECK(U8(out["m"]) == std::vector<uint8_t>{0, 0, 0, 1, 0, 1});
  CHECK(out["n"].shape.empty());
  CHECK(U8(out["n"]) == std::vector<uint8_t>{0});
}

TEST_CASE("isNaN and isInfinite on float32 special values", "[logical]") {
  // quiet NaN, signalling NaN, -NaN, +inf, -inf, max finite, -0, smallest subnormal.
  const std::vector<uint32_t> bits = {0x7fc00000, 0x7f800001, 0xffc00000, 0x7f800000,
                                      0xff800000, 0x7f7fffff, 0x80000000, 0x00000001};
  auto out = Run(MLDeviceType::kReference, {Tensor<uint32_t>(DT::kFloat32, {2, 4}, bits)},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"nan", b.isNaN(in[0])}, {"inf", b.isInfinite(in[0])}};
                 });
  CHECK(out["nan"].type == DT::kUint8);
  CHECK(out["nan"].shape == std::vector<uint32_t>{2, 4});
  CHECK(U8(out["nan"]) == std::vector<uint8_t>{1, 1, 1, 0, 0, 0, 0, 0});
  CHECK(U8(out["inf"]) == std::vector<uint8_t>{0, 0, 0, 1, 1, 0, 0, 0});
}

TEST_CASE("isNaN and isInfinite on float16 special values", "[logical]") {
  // NaN (WPT's 0x7C01), quiet NaN, +inf, -inf, 65504, smallest subnormal, -0.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(DT::kFloat16, {7}, {0x7C01, 0xFE00, 0x7C00, 0xFC00, 0x7BFF, 0x0001, 0x8000})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"nan", b.isNaN(in[0])}, {"inf", b.isInfinite(in[0])}};
                 });
  CHECK(U8(out["nan"]) == std::vector<uint8_t>{1, 1, 0, 0, 0, 0, 0});
  CHECK(U8(out["inf"]) == std::vector<uint8_t>{0, 0, 1, 1, 0, 0, 0});
}

TEST_CASE("logical op validation names op, label and argument", "[logical][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto f = b.input("f", {DT::kFloat32, {2, 3}});
  auto u = b.input("u", {DT::kUint8, {2, 3}});
  auto u_bad = b.input("u_bad", {DT::kUint8, {4, 3}});
  auto i = b.input("i", {DT::kInt32, {2, 3}});

  CHECK(ErrorMessage([&] { b.logicalNot(f, {.label = "n1"}); }) ==
        "logicalNot [n1]: argument 'a' data type float32 is not supported; allowed: uint8");
  CHECK(ErrorName([&] { b.logicalAnd(f, f); }) == "TypeError");
  CHECK(ErrorMessage([&] { b.logicalOr(u, f, {.label = "o1"}); }) ==
        "logicalOr [o1]: argument 'b' data type float32 is not supported; allowed: uint8");
  const std::string broadcast = ErrorMessage([&] { b.logicalXor(u, u_bad, {.label = "x1"}); });
  CHECK(broadcast.rfind("logicalXor [x1]: ", 0) == 0);
  CHECK(broadcast.find("not bidirectionally broadcastable") != std::string::npos);
  // The spec's algorithm accepts only float32/float16 for isNaN/isInfinite.
  CHECK(ErrorMessage([&] { b.isNaN(i, {.label = "nan1"}); }) ==
        "isNaN [nan1]: argument 'a' data type int32 is not supported; allowed: float32, float16");
  CHECK(ErrorName([&] { b.isInfinite(u); }) == "TypeError");
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {DT::kFloat32, {2, 3}});
  CHECK(ErrorName([&] { b.isNaN(w); }) == "TypeError");

  auto ok = b.isInfinite(b.input("h", {DT::kFloat16, {5}}));
  CHECK(ok.dataType() == DT::kUint8);
  REQUIRE(ok.shape().size() == 1);
  CHECK(ok.shape()[0].size() == 5);
}
