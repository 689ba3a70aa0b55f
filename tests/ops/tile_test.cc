// Tests of tile: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

TEST_CASE("tile repeats each axis; scalars tile with empty repetitions", "[tile]") {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int64_t>(MLOperandDataType::kInt64, {2, 1}, {kMin, 7}),
                  Tensor<uint8_t>(MLOperandDataType::kUint8, {}, {255}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {1, 2}, {0x7E01, 0x8001})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i64", b.tile(in[0], {2, 3})},
                                          {"scalar", b.tile(in[1], {})},
                                          {"f16", b.tile(in[2], {2, 1})}};
                 });
  CHECK(out["i64"].shape == std::vector<uint32_t>{4, 3});
  CHECK(FromBytes<int64_t>(out["i64"].data) ==
        std::vector<int64_t>{kMin, kMin, kMin, 7, 7, 7, kMin, kMin, kMin, 7, 7, 7});
  CHECK(out["scalar"].shape.empty());
  CHECK(FromBytes<uint8_t>(out["scalar"].data) == std::vector<uint8_t>{255});
  CHECK(FromBytes<uint16_t>(out["f16"].data) == std::vector<uint16_t>{0x7E01, 0x8001, 0x7E01, 0x8001});
}

TEST_CASE("tile validation names op, label and argument", "[tile][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kInt32, {1, 2, 3, 4}});
  CHECK(ErrorMessage([&] { b.tile(x, {1, 2, 3}, {.label = "t1"}); }) ==
        "tile [t1]: repetitions must have 4 entries (the input rank), got 3");
  CHECK(ErrorMessage([&] { b.tile(x, {0, 1, 2, 3}); }) == "tile: repetitions[0] must be greater than 0, got 0");
  // 3 * 4294967295 overflows 32 bits: it must be rejected, not wrapped.
  CHECK(ErrorName([&] { b.tile(x, {1, 1, 4294967295u, 3}); }) == "TypeError");
  CHECK(b.tile(x, {1, 2, 3, 4}).shape() == std::vector<MLDimension>{1, 4, 9, 16});
}
