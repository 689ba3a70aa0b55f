// Tests of equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual:
// validation and the reference kernel. Expected values are worked out by hand.
#include <cstdint>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using DT = MLOperandDataType;

MLNamedOperands AllSix(MLGraphBuilder& b, const MLOperand& x, const MLOperand& y) {
  return MLNamedOperands{{"eq", b.equal(x, y)},   {"ne", b.notEqual(x, y)},
                         {"gt", b.greater(x, y)}, {"ge", b.greaterOrEqual(x, y)},
                         {"lt", b.lesser(x, y)},  {"le", b.lesserOrEqual(x, y)}};
}

std::vector<uint8_t> U8(const HostTensor& t) { return FromBytes<uint8_t>(t.data); }

}  // namespace

TEST_CASE("comparisons of float32 NaN, infinities and signed zeros, broadcast", "[comparison]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // Pairs after broadcasting b [3] over a [2,3]: (NaN,1) (1,1) (-0,0) (inf,1) (-inf,1) (2,0).
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(DT::kFloat32, {2, 3}, {nan, 1.0f, -0.0f, inf, -inf, 2.0f}),
                  Tensor<float>(DT::kFloat32, {3}, {1.0f, 1.0f, 0.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
  CHECK(out["eq"].type == DT::kUint8);
  CHECK(out["eq"].shape == std::vector<uint32_t>{2, 3});
  CHECK(U8(out["eq"]) == std::vector<uint8_t>{0, 1, 1, 0, 0, 0});
  CHECK(U8(out["ne"]) == std::vector<uint8_t>{1, 0, 0, 1, 1, 1});
  CHECK(U8(out["gt"]) == std::vector<uint8_t>{0, 0, 0, 1, 0, 1});
  // NaN-aware: greaterOrEqual(NaN, 1) is false although lesser(NaN, 1) is false too.
  CHECK(U8(out["ge"]) == std::vector<uint8_t>{0, 1, 1, 1, 0, 1});
  CHECK(U8(out["lt"]) == std::vector<uint8_t>{0, 0, 0, 0, 1, 0});
  CHECK(U8(out["le"]) == std::vector<uint8_t>{0, 1, 1, 0, 1, 0});
}

TEST_CASE("float16 comparisons with NaN on both sides", "[comparison]") {
  // NaN vs NaN, 1.5 vs 1.5, NaN vs 1.5, 65504 vs +inf.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(DT::kFloat16, {4}, {0x7C01, 0x3E00, 0x7E00, 0x7BFF}),
                  Tensor<uint16_t>(DT::kFloat16, {4}, {0x7C01, 0x3E00, 0x3E00, 0x7C00})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
  CHECK(U8(out["eq"]) == std::vector<uint8_t>{0, 1, 0, 0});
  CHECK(U8(out["ne"]) == std::vector<uint8_t>{1, 0, 1, 1});
  CHECK(U8(out["gt"]) == std::vector<uint8_t>{0, 0, 0, 0});
  CHECK(U8(out["ge"]) == std::vector<uint8_t>{0, 1, 0, 0});
  CHECK(U8(out["lt"]) == std::vector<uint8_t>{0, 0, 0, 1});
  CHECK(U8(out["le"]) == std::vector<uint8_t>{0, 1, 0, 1});
}

TEST_CASE("64-bit integer comparisons are exact beyond 2^53", "[comparison]") {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  // As doubles the first pair (2^63-1 vs 2^63-2) and the third (2^53+1 vs 2^53) compare equal.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int64_t>(DT::kInt64, {3}, {kMax, kMin, (int64_t{1} << 53) + 1}),
                  Tensor<int64_t>(DT::kInt64, {3}, {kMax - 1, kMin, int64_t{1} << 53})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
  CHECK(U8(out["eq"]) == std::vector<uint8_t>{0, 1, 0});
  CHECK(U8(out["gt"]) == std::vector<uint8_t>{1, 0, 1});
  CHECK(U8(out["le"]) == std::vector<uint8_t>{0, 1, 0});

  const uint64_t kUMax = std::numeric_limits<uint64_t>::max();
  // Unsigned order: 2^64-1 is the largest value, not -1.
  auto u = Run(MLDeviceType::kReference,
               {Tensor<uint64_t>(DT::kUint64, {3}, {kUMax, kUMax - 1, 0}),
                Tensor<uint64_t>(DT::kUint64, {1}, {kUMax - 1})},
               [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
  CHECK(U8(u["gt"]) == std::vector<uint8_t>{1, 0, 0});
  CHECK(U8(u["ge"]) == std::vector<uint8_t>{1, 1, 0});
  CHECK(U8(u["eq"]) == std::vector<uint8_t>{0, 1, 0});
  CHECK(U8(u["lt"]) == std::vector<uint8_t>{0, 0, 1});
}

TEST_CASE("comparisons of 32- and 8-bit integer types at their extremes", "[comparison]") {
  SECTION("int32") {
    const int32_t kMin = std::numeric_limits<int32_t>::min();
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<int32_t>(DT::kInt32, {3}, {kMin, -1, 7}), Tensor<int32_t>(DT::kInt32, {3}, {-1, kMin, 7})},
                   [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
    CHECK(U8(out["lt"]) == std::vector<uint8_t>{1, 0, 0});
    CHECK(U8(out["ge"]) == std::vector<uint8_t>{0, 1, 1});
  }
  SECTION("uint32") {
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<uint32_t>(DT::kUint32, {2}, {4294967295u, 0}),
                    Tensor<uint32_t>(DT::kUint32, {2}, {0, 4294967295u})},
                   [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
    CHECK(U8(out["gt"]) == std::vector<uint8_t>{1, 0});
    CHECK(U8(out["le"]) == std::vector<uint8_t>{0, 1});
  }
  SECTION("int8") {
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<int8_t>(DT::kInt8, {2}, {-128, 127}), Tensor<int8_t>(DT::kInt8, {2}, {127, 127})},
                   [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
    CHECK(U8(out["lt"]) == std::vector<uint8_t>{1, 0});
    CHECK(U8(out["eq"]) == std::vector<uint8_t>{0, 1});
  }
  SECTION("uint8") {
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<uint8_t>(DT::kUint8, {2}, {255, 0}), Tensor<uint8_t>(DT::kUint8, {2}, {0, 0})},
                   [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return AllSix(b, in[0], in[1]); });
    CHECK(U8(out["gt"]) == std::vector<uint8_t>{1, 0});
    CHECK(U8(out["ne"]) == std::vector<uint8_t>{1, 0});
  }
}

TEST_CASE("comparison of a scalar with a [1,1] tensor and odd broadcast shapes", "[comparison]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(DT::kFloat32, {}, {2.0f}), Tensor<float>(DT::kFloat32, {1, 1}, {3.0f}),
                  Tensor<int32_t>(DT::kInt32, {3, 1}, {1, 2, 3}), Tensor<int32_t>(DT::kInt32, {1, 1, 2}, {2, 3})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"s", b.lesser(in[0], in[1])}, {"odd", b.greaterOrEqual(in[2], in[3])}};
                 });
  CHECK(out["s"].shape == std::vector<uint32_t>{1, 1});
  CHECK(U8(out["s"]) == std::vector<uint8_t>{1});
  CHECK(out["odd"].shape == std::vector<uint32_t>{1, 3, 2});
  // rows 1,2,3 against columns 2,3.
  CHECK(U8(out["odd"]) == std::vector<uint8_t>{0, 0, 1, 0, 1, 1});
}

TEST_CASE("comparison validation names op, label and argument", "[comparison][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {DT::kFloat32, {2, 3}});
  auto y = b.input("y", {DT::kInt32, {2, 3}});
  auto z = b.input("z", {DT::kFloat32, {4, 3}});
  auto q = b.input("q", {DT::kInt4, {2, 3}});
  CHECK(ErrorMessage([&] { b.greaterOrEqual(x, y, {.label = "ge1"}); }) ==
        "greaterOrEqual [ge1]: argument 'b' data type int32 must match 'a' (float32)");
  const std::string broadcast = ErrorMessage([&] { b.lesser(x, z, {.label = "lt1"}); });
  CHECK(broadcast.rfind("lesser [lt1]: ", 0) == 0);
  CHECK(broadcast.find("not bidirectionally broadcastable") != std::string::npos);
  CHECK(ErrorName([&] { b.equal(q, q); }) == "TypeError");
  CHECK(ErrorMessage([&] { b.notEqual(q, q); }).find("argument 'a' data type int4 is not supported") !=
        std::string::npos);
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {DT::kFloat32, {2, 3}});
  CHECK(ErrorName([&] { b.greater(x, w); }) == "TypeError");

  auto ok = b.lesserOrEqual(x, b.input("s", {DT::kFloat32, {}}));
  CHECK(ok.dataType() == DT::kUint8);
  CHECK(ok.shape().size() == 2);
}
