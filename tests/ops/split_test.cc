// Tests of split: validation, output shapes and the reference kernel.
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

TEST_CASE("split by count and by sizes along any axis", "[split]") {
  // x[i][j] = 10 i + j, shape [2, 6].
  std::vector<float> x{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
  auto out = Run(MLDeviceType::kReference, {Tensor<float>(MLOperandDataType::kFloat32, {2, 6}, x)},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   auto thirds = b.split(in[0], 3u, {.axis = 1});
                   auto sizes = b.split(in[0], std::vector<uint32_t>{1, 2, 3}, {.axis = 1});
                   auto rows = b.split(in[0], 2u);
                   auto whole = b.split(in[0], std::vector<uint32_t>{6}, {.axis = 1});
                   return MLNamedOperands{{"t0", thirds[0]}, {"t2", thirds[2]}, {"s0", sizes[0]},
                                          {"s1", sizes[1]},  {"s2", sizes[2]},  {"r1", rows[1]},
                                          {"whole", whole[0]}};
                 });
  CHECK(out["t0"].shape == std::vector<uint32_t>{2, 2});
  CHECK(FromBytes<float>(out["t0"].data) == std::vector<float>{0, 1, 10, 11});
  CHECK(FromBytes<float>(out["t2"].data) == std::vector<float>{4, 5, 14, 15});
  CHECK(out["s0"].shape == std::vector<uint32_t>{2, 1});
  CHECK(FromBytes<float>(out["s0"].data) == std::vector<float>{0, 10});
  CHECK(FromBytes<float>(out["s1"].data) == std::vector<float>{1, 2, 11, 12});
  CHECK(out["s2"].shape == std::vector<uint32_t>{2, 3});
  CHECK(FromBytes<float>(out["s2"].data) == std::vector<float>{3, 4, 5, 13, 14, 15});
  CHECK(out["r1"].shape == std::vector<uint32_t>{1, 6});
  CHECK(FromBytes<float>(out["r1"].data) == std::vector<float>{10, 11, 12, 13, 14, 15});
  CHECK(FromBytes<float>(out["whole"].data) == x);
}

TEST_CASE("split copies every data type bit for bit", "[split]") {
  const uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint64_t>(MLOperandDataType::kUint64, {3}, {kMaxU64, (uint64_t{1} << 53) + 1, 0}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {2, 1, 2}, {-128, 127, -1, 0}),
                  Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, {0x7c01, 0x8000})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   auto u64 = b.split(in[0], std::vector<uint32_t>{2, 1});
                   auto i8 = b.split(in[1], 2u, {.axis = 2});
                   auto f16 = b.split(in[2], 2u);
                   return MLNamedOperands{{"u0", u64[0]}, {"u1", u64[1]}, {"i0", i8[0]},
                                          {"i1", i8[1]},  {"h0", f16[0]}, {"h1", f16[1]}};
                 });
  CHECK(FromBytes<uint64_t>(out["u0"].data) == std::vector<uint64_t>{kMaxU64, (uint64_t{1} << 53) + 1});
  CHECK(FromBytes<uint64_t>(out["u1"].data) == std::vector<uint64_t>{0});
  CHECK(out["i0"].shape == std::vector<uint32_t>{2, 1, 1});
  CHECK(FromBytes<int8_t>(out["i0"].data) == std::vector<int8_t>{-128, -1});
  CHECK(FromBytes<int8_t>(out["i1"].data) == std::vector<int8_t>{127, 0});
  CHECK(FromBytes<uint16_t>(out["h0"].data) == std::vector<uint16_t>{0x7c01});
  CHECK(FromBytes<uint16_t>(out["h1"].data) == std::vector<uint16_t>{0x8000});
}

TEST_CASE("split output shapes, dynamic dimensions included", "[split][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {2, 6}});
  auto outs = b.split(x, std::vector<uint32_t>{2});
  REQUIRE(outs.size() == 1);
  CHECK(ShapeOf(outs[0]) == std::vector<int64_t>{2, 6});
  CHECK(b.split(x, 6u, {.axis = 1}).size() == 6);
  auto d = b.input("d", {MLOperandDataType::kFloat32, {MLDynamicDimension{"n", 8}, 3}});
  auto halves = b.split(d, 2u);
  REQUIRE(halves.size() == 2);
  CHECK(halves[0].shape()[0].isDynamic());
  CHECK(halves[0].shape()[0].size() == 4);
  auto other_axis = b.split(d, 3u, {.axis = 1});
  CHECK(other_axis[2].shape()[0].name() == "n");
  // Sizes along a dynamic axis are static; they must fit its bound now and sum to it at dispatch.
  auto parts = b.split(d, std::vector<uint32_t>{1, 2});
  CHECK(ShapeOf(parts[1]) == std::vector<int64_t>{2, 3});
  CHECK(ErrorName([&] { b.split(d, std::vector<uint32_t>{5, 4}); }) == "TypeError");
}

TEST_CASE("split validation names op, label and argument", "[split][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kFloat32, {2, 5}});
  CHECK(ErrorMessage([&] { b.split(x, 2u, {.label = "s1", .axis = 2}); }) ==
        "split [s1]: axis 2 must be less than the input rank 2");
  CHECK(ErrorMessage([&] { b.split(x, 2u, {.label = "s2", .axis = 1}); }) ==
        "split [s2]: splits 2 does not evenly divide input dimension 1 (5)");
  CHECK(ErrorMessage([&] { b.split(x, 0u, {.label = "s3", .axis = 1}); }) ==
        "split [s3]: splits must be in [1, 8192], got 0");
  CHECK(ErrorMessage([&] { b.split(x, 8193u, {.label = "s4", .axis = 1}); }) ==
        "split [s4]: splits must be in [1, 8192], got 8193");
  CHECK(ErrorMessage([&] { b.split(x, std::vector<uint32_t>{2, 0, 3}, {.label = "s5", .axis = 1}); }) ==
        "split [s5]: splits[1] must be greater than 0");
  CHECK(ErrorMessage([&] { b.split(x, std::vector<uint32_t>{2, 2}, {.label = "s6", .axis = 1}); }) ==
        "split [s6]: splits sum to 4 but input dimension 1 is 5");
  CHECK(ErrorMessage([&] { b.split(x, std::vector<uint32_t>{}, {.label = "s7", .axis = 1}); }) ==
        "split [s7]: splits must have 1 to 8192 entries, got 0");
  // Sums that overflow 32 bits are still compared exactly.
  CHECK(ErrorName([&] { b.split(x, std::vector<uint32_t>{0xffffffffu, 6}, {.axis = 1}); }) == "TypeError");
  auto s = b.input("s", {MLOperandDataType::kFloat32, {}});
  CHECK(ErrorName([&] { b.split(s, 1u); }) == "TypeError");

  auto wide = b.input("wide", {MLOperandDataType::kFloat32, {8193}});
  CHECK(ErrorName([&] { b.split(wide, std::vector<uint32_t>(8193, 1)); }) == "TypeError");
  auto limit = b.input("limit", {MLOperandDataType::kFloat32, {8192}});
  CHECK(b.split(limit, std::vector<uint32_t>(8192, 1)).size() == 8192);
  MLGraphBuilder other(ctx);
  auto o = other.input("o", {MLOperandDataType::kFloat32, {4}});
  CHECK(ErrorName([&] { b.split(o, 2u); }) == "TypeError");
}
