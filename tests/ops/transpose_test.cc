// Tests of transpose: validation and the reference kernel.
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {
MLTransposeOptions Permutation(std::vector<uint32_t> perm, std::string label = "") {
  MLTransposeOptions o;
  o.permutation = std::move(perm);
  o.label = std::move(label);
  return o;
}
}  // namespace

TEST_CASE("transpose reverses the axes by default and copies int64 extremes exactly", "[transpose]") {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  // [2, 1, 3] -> [3, 1, 2]: out[k][0][i] = in[i][0][k].
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int64_t>(MLOperandDataType::kInt64, {2, 1, 3}, {kMin, 1, 2, 3, 4, kMax})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"t", b.transpose(in[0])}};
                 });
  CHECK(out["t"].shape == std::vector<uint32_t>{3, 1, 2});
  CHECK(FromBytes<int64_t>(out["t"].data) == std::vector<int64_t>{kMin, 3, 1, 4, 2, kMax});
}

TEST_CASE("transpose with an explicit permutation on uint8, uint64 and scalars", "[transpose]") {
  // [2, 3, 2] with permutation [1, 0, 2] -> [3, 2, 2]: out[j][i][k] = in[i][j][k].
  std::vector<uint8_t> values;
  for (uint8_t v = 0; v < 12; ++v) values.push_back(v);
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(MLOperandDataType::kUint8, {2, 3, 2}, values),
                  Tensor<uint64_t>(MLOperandDataType::kUint64, {}, {std::numeric_limits<uint64_t>::max()})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"t", b.transpose(in[0], Permutation({1, 0, 2}))},
                                          {"s", b.transpose(in[1])}};
                 });
  CHECK(out["t"].shape == std::vector<uint32_t>{3, 2, 2});
  CHECK(FromBytes<uint8_t>(out["t"].data) == std::vector<uint8_t>{0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11});
  CHECK(out["s"].shape.empty());
  CHECK(FromBytes<uint64_t>(out["s"].data) == std::vector<uint64_t>{std::numeric_limits<uint64_t>::max()});
}

TEST_CASE("transpose keeps float16 NaN payloads, -0 and subnormals bit for bit", "[transpose]") {
  // 0x7E01: NaN with a payload; 0x8000: -0; 0x0001: smallest subnormal; 0xFC00: -Inf.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2, 2}, {0x7E01, 0x8000, 0x0001, 0xFC00})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"t", b.transpose(in[0])}};
                 });
  CHECK(FromBytes<uint16_t>(out["t"].data) == std::vector<uint16_t>{0x7E01, 0x0001, 0x8000, 0xFC00});
}

TEST_CASE("transpose validation names op, label and argument", "[transpose][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {MLOperandDataType::kInt32, {1, 2, 3}});
  CHECK(ErrorMessage([&] { b.transpose(x, Permutation({0, 2, 3, 1}, "t1")); }) ==
        "transpose [t1]: permutation must have 3 entries (the input rank), got 4");
  CHECK(ErrorMessage([&] { b.transpose(x, Permutation({0, 2, 2}, "t2")); }) ==
        "transpose [t2]: permutation contains 2 more than once");
  CHECK(ErrorMessage([&] { b.transpose(x, Permutation({0, 1, 3})); }) ==
        "transpose: permutation contains 3, which is not less than the input rank 3");
  CHECK(ErrorName([&] { b.transpose(x, Permutation({})); }) == "TypeError");
  auto y = b.transpose(x, Permutation({2, 0, 1}));
  CHECK(y.shape() == std::vector<MLDimension>{3, 1, 2});
  auto s = b.input("s", {MLOperandDataType::kFloat32, {}});
  CHECK(b.transpose(s).shape().empty());
}
