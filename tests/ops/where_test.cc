// Tests of where: validation and the reference kernel. Expected values are
// worked out by hand.
#include <cstdint>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
using DT = MLOperandDataType;

MLNamedOperands Where(MLGraphBuilder& b, const std::vector<MLOperand>& in) {
  return MLNamedOperands{{"out", b.where(in[0], in[1], in[2])}};
}
}  // namespace

TEST_CASE("where broadcasts condition, trueValue and falseValue together", "[where]") {
  // condition [2,1,1], trueValue [3], falseValue [2,1]: output [2,2,3].
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(DT::kUint8, {2, 1, 1}, {1, 0}), Tensor<float>(DT::kFloat32, {3}, {1, 2, 3}),
                  Tensor<float>(DT::kFloat32, {2, 1}, {-1, -2})},
                 Where);
  CHECK(out["out"].type == DT::kFloat32);
  CHECK(out["out"].shape == std::vector<uint32_t>{2, 2, 3});
  CHECK(FromBytes<float>(out["out"].data) == std::vector<float>{1, 2, 3, 1, 2, 3, -1, -1, -1, -2, -2, -2});
}

TEST_CASE("where treats any non-zero condition byte as true, scalar values", "[where]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(DT::kUint8, {5}, {0, 1, 2, 128, 255}), Tensor<int32_t>(DT::kInt32, {}, {7}),
                  Tensor<int32_t>(DT::kInt32, {1}, {-9})},
                 Where);
  CHECK(out["out"].shape == std::vector<uint32_t>{5});
  CHECK(FromBytes<int32_t>(out["out"].data) == std::vector<int32_t>{-9, 7, 7, 7, 7});
}

TEST_CASE("where selects float16 NaN payloads and -0 bit-exactly", "[where]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(DT::kUint8, {4}, {1, 0, 1, 0}),
                  Tensor<uint16_t>(DT::kFloat16, {4}, {0x7C01, 0x3C00, 0x8000, 0x3C00}),
                  Tensor<uint16_t>(DT::kFloat16, {4}, {0x3C00, 0xFC00, 0x3C00, 0x0001})},
                 Where);
  CHECK(FromBytes<uint16_t>(out["out"].data) == std::vector<uint16_t>{0x7C01, 0xFC00, 0x8000, 0x0001});
}

TEST_CASE("where on every value data type", "[where]") {
  const std::vector<uint8_t> cond = {1, 0};
  SECTION("float32") {
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<uint8_t>(DT::kUint8, {2}, cond), Tensor<uint32_t>(DT::kFloat32, {2}, {0x7fa00001, 1}),
                    Tensor<float>(DT::kFloat32, {2}, {0.0f, -0.0f})},
                   Where);
    CHECK(FromBytes<uint32_t>(out["out"].data) == std::vector<uint32_t>{0x7fa00001, 0x80000000});
  }
  SECTION("int64 and uint64 beyond 2^53") {
    const int64_t big = (int64_t{1} << 53) + 1;
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<uint8_t>(DT::kUint8, {2}, cond),
                    Tensor<int64_t>(DT::kInt64, {2}, {big, 0}),
                    Tensor<int64_t>(DT::kInt64, {2}, {0, std::numeric_limits<int64_t>::min()})},
                   Where);
    CHECK(FromBytes<int64_t>(out["out"].data) == std::vector<int64_t>{big, std::numeric_limits<int64_t>::min()});
    const uint64_t kUMax = std::numeric_limits<uint64_t>::max();
    auto u = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(DT::kUint8, {2}, cond), Tensor<uint64_t>(DT::kUint64, {2}, {kUMax, 0}),
                  Tensor<uint64_t>(DT::kUint64, {2}, {0, kUMax - 1})},
                 Where);
    CHECK(FromBytes<uint64_t>(u["out"].data) == std::vector<uint64_t>{kUMax, kUMax - 1});
  }
  SECTION("uint32") {
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<uint8_t>(DT::kUint8, {2}, cond), Tensor<uint32_t>(DT::kUint32, {2}, {4294967295u, 0}),
                    Tensor<uint32_t>(DT::kUint32, {2}, {0, 123456789u})},
                   Where);
    CHECK(FromBytes<uint32_t>(out["out"].data) == std::vector<uint32_t>{4294967295u, 123456789u});
  }
  SECTION("int8 and uint8") {
    auto out = Run(MLDeviceType::kReference,
                   {Tensor<uint8_t>(DT::kUint8, {2}, cond), Tensor<int8_t>(DT::kInt8, {2}, {-128, 0}),
                    Tensor<int8_t>(DT::kInt8, {2}, {0, 127})},
                   Where);
    CHECK(FromBytes<int8_t>(out["out"].data) == std::vector<int8_t>{-128, 127});
    auto u = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(DT::kUint8, {2}, cond), Tensor<uint8_t>(DT::kUint8, {2}, {255, 0}),
                  Tensor<uint8_t>(DT::kUint8, {2}, {0, 200})},
                 Where);
    CHECK(FromBytes<uint8_t>(u["out"].data) == std::vector<uint8_t>{255, 200});
  }
}

TEST_CASE("where validation names op, label and argument", "[where][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto c = b.input("c", {DT::kUint8, {2, 4}});
  auto cf = b.input("cf", {DT::kFloat32, {2, 4}});
  auto t = b.input("t", {DT::kFloat32, {2, 4}});
  auto t23 = b.input("t23", {DT::kFloat32, {2, 3}});
  auto t21 = b.input("t21", {DT::kFloat32, {2, 1}});
  auto h = b.input("h", {DT::kFloat16, {2, 4}});
  auto q = b.input("q", {DT::kInt4, {2, 4}});

  CHECK(ErrorMessage([&] { b.where(cf, t, t, {.label = "w1"}); }) ==
        "where [w1]: argument 'condition' data type float32 is not supported; allowed: uint8");
  CHECK(ErrorMessage([&] { b.where(c, h, t, {.label = "w2"}); }) ==
        "where [w2]: argument 'falseValue' data type float32 must match 'trueValue' (float16)");
  const std::string values = ErrorMessage([&] { b.where(c, t, t23, {.label = "w3"}); });
  CHECK(values.rfind("where [w3]: shapes of 'trueValue' [2, 4] and 'falseValue' [2, 3]", 0) == 0);
  // trueValue [2,3] and falseValue [2,1] broadcast to [2,3]; the condition [2,4] does not fit.
  const std::string cond = ErrorMessage([&] { b.where(c, t23, t21, {.label = "w4"}); });
  CHECK(cond.rfind("where [w4]: shapes of 'condition' [2, 4]", 0) == 0);
  CHECK(cond.find("not bidirectionally broadcastable") != std::string::npos);
  CHECK(ErrorName([&] { b.where(c, q, q); }) == "TypeError");
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {DT::kUint8, {2, 4}});
  CHECK(ErrorName([&] { b.where(w, t, t); }) == "TypeError");

  // Output: trueValue's type, the three shapes broadcast (condition of higher rank).
  auto ok = b.where(b.input("c4", {DT::kUint8, {2, 3, 4, 5}}), b.input("u3", {DT::kUint32, {3, 4, 5}}),
                    b.input("u2", {DT::kUint32, {4, 5}}));
  CHECK(ok.dataType() == DT::kUint32);
  REQUIRE(ok.shape().size() == 4);
  CHECK(ok.shape()[0].size() == 2);
  CHECK(ok.shape()[3].size() == 5);
}
