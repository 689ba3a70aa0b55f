// Tests of the activation family (validation and reference kernel). Expected
// values are the functions' exact values rounded by hand to the output type.
#include <cmath>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

using UnaryOp = std::function<MLOperand(MLGraphBuilder&, const MLOperand&)>;

std::vector<float> RunFloat32(const std::vector<float>& x, const UnaryOp& op) {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(MLOperandDataType::kFloat32, {static_cast<uint32_t>(x.size())}, x)},
                 [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", op(b, in[0])}};
                 });
  return FromBytes<float>(out["y"].data);
}

// Element-wise equality where NaN matches NaN (and -0 equals +0).
void CheckFloats(const std::vector<float>& actual, const std::vector<float>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i << ": got " << actual[i] << ", expected " << expected[i]);
    if (std::isnan(expected[i])) CHECK(std::isnan(actual[i]));
    else CHECK(actual[i] == expected[i]);
  }
}

}  // namespace

TEST_CASE("float activations at special values take their limits", "[activation]") {
  const std::vector<float> x = {-kInf, -3.0f, -1.0f, -0.0f, 0.0f, 1.0f, 3.0f, kInf, kNaN};
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.relu(v); }),
              {0, 0, 0, -0.0f, 0, 1, 3, kInf, kNaN});
  CHECK(std::signbit(RunFloat32({-0.0f}, [](MLGraphBuilder& b, const MLOperand& v) { return b.relu(v); })[0]));
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.sigmoid(v); }),
              {0, 0.0474258736f, 0.268941432f, 0.5f, 0.5f, 0.731058598f, 0.952574134f, 1, kNaN});
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.tanh(v); }),
              {-1, -0.995054781f, -0.761594176f, -0.0f, 0, 0.761594176f, 0.995054781f, 1, kNaN});
  // x / (1 + |x|) -> +-1 at +-Infinity.
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.softsign(v); }),
              {-1, -0.75f, -0.5f, -0.0f, 0, 0.5f, 0.75f, 1, kNaN});
  // log(1 + e^x): ln 2 at 0, x itself once e^-x vanishes.
  CheckFloats(RunFloat32({-kInf, -1.0f, 0.0f, 1.0f, 100.0f, kInf, kNaN},
                         [](MLGraphBuilder& b, const MLOperand& v) { return b.softplus(v); }),
              {0, 0.313261688f, 0.693147182f, 1.31326163f, 100, kInf, kNaN});
  // x * relu6(x + 3) / 6.
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.hardSwish(v); }),
              {0, 0, -0.333333343f, 0, 0, 0.666666687f, 3, kInf, kNaN});
  // x * Phi(x): Phi(1) = 0.8413447460685429, Phi(3) = 0.9986501019683699.
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.gelu(v); }),
              {0, -0.00404969417f, -0.158655256f, -0.0f, 0, 0.841344774f, 2.99595022f, kInf, kNaN});
  // alpha * (e^x - 1) for x <= 0 with alpha = 1.
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.elu(v); }),
              {-1, -0.950212955f, -0.632120550f, -0.0f, 0, 1, 3, kInf, kNaN});
}

TEST_CASE("gelu keeps relative precision far in the negative tail", "[activation]") {
  // gelu(-10) = -10 * Phi(-10) = -10 * 7.619853024160527e-24; 1 + erf(-10 / sqrt(2))
  // would cancel to 0 in float64.
  auto y = RunFloat32({-10.0f}, [](MLGraphBuilder& b, const MLOperand& v) { return b.gelu(v); });
  CHECK(y[0] == -7.61985298e-23f);
}

TEST_CASE("activations with options cast alpha and beta to the input type", "[activation]") {
  const std::vector<float> x = {-kInf, -2.0f, 0.0f, 1.0f, 5.0f, kInf, kNaN};
  // hardSigmoid: clamp(0.2 * x + 0.5, 0, 1) with 0.2 -> float32 0.200000003, so
  // hardSigmoid(-2) is 0.099999994, not 0.1.
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.hardSigmoid(v); }),
              {0, 0.099999994f, 0.5f, 0.7f, 1, 1, kNaN});
  CheckFloats(RunFloat32(x,
                         [](MLGraphBuilder& b, const MLOperand& v) {
                           return b.hardSigmoid(v, {.alpha = -0.5, .beta = 0.25});
                         }),
              {1, 1, 0.25f, 0, 0, 0, kNaN});
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.leakyRelu(v); }),
              {-kInf, -0.02f, 0, 1, 5, kInf, kNaN});
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.elu(v, {.alpha = 2}); }),
              {-2, -1.72932947f, 0, 1, 5, kInf, kNaN});
  CheckFloats(RunFloat32(x,
                         [](MLGraphBuilder& b, const MLOperand& v) { return b.linear(v, {.alpha = 2, .beta = 1}); }),
              {-kInf, -3, 1, 3, 11, kInf, kNaN});
  // A zero coefficient makes the function constant, also at +-Infinity.
  CheckFloats(RunFloat32(x,
                         [](MLGraphBuilder& b, const MLOperand& v) { return b.linear(v, {.alpha = 0, .beta = 3}); }),
              {3, 3, 3, 3, 3, 3, kNaN});
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.leakyRelu(v, {.alpha = 0}); }),
              {0, 0, 0, 1, 5, kInf, kNaN});

  // float16: alpha = 1 + 2^-11 is a tie that casts to 1.0, so linear(1025) is
  // 1025 (uncast, 1025.5005 would round to 1026). beta = 0.3 casts to 0.30004883.
  auto out = Run(MLDeviceType::kReference, {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, Half({1025, 0}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.linear(in[0], {.alpha = 1 + std::ldexp(1.0, -11), .beta = 0.3})}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["y"].data)) == std::vector<double>{1025, 0.300048828125});
}

TEST_CASE("float16 activations round once from float64", "[activation]") {
  // sigmoid(1) = 0.7310585786 -> float16 0.73095703125 (nearest of 0.730957 / 0.731445).
  // tanh(0.5) = 0.46211715726 -> 0.462158203125 (float16 spacing 2^-12 near 0.46).
  auto out = Run(MLDeviceType::kReference, {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, Half({1, 0.5}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"s", b.sigmoid(in[0])}, {"t", b.tanh(in[0])}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["s"].data)) == std::vector<double>{0.73095703125, 0.62255859375});
  CHECK(FromHalf(FromBytes<uint16_t>(out["t"].data)) == std::vector<double>{0.76171875, 0.462158203125});
}

TEST_CASE("relu on integer types is exact at the extremes", "[activation]") {
  const int64_t kMin64 = std::numeric_limits<int64_t>::min();
  const int64_t kMax64 = std::numeric_limits<int64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<int8_t>(MLOperandDataType::kInt8, {4}, {-128, -1, 0, 127}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {3}, {std::numeric_limits<int32_t>::min(), 7,
                                                                    std::numeric_limits<int32_t>::max()}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {3}, {kMin64, -1, kMax64})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"i8", b.relu(in[0])}, {"i32", b.relu(in[1])}, {"i64", b.relu(in[2])}};
                 });
  CHECK(FromBytes<int8_t>(out["i8"].data) == std::vector<int8_t>{0, 0, 0, 127});
  CHECK(FromBytes<int32_t>(out["i32"].data) == std::vector<int32_t>{0, 7, std::numeric_limits<int32_t>::max()});
  CHECK(FromBytes<int64_t>(out["i64"].data) == std::vector<int64_t>{0, 0, kMax64});
}

TEST_CASE("activations accept scalars and keep the shape", "[activation]") {
  auto out = Run(MLDeviceType::kReference, {Tensor<float>(MLOperandDataType::kFloat32, {}, {-2.0f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"y", b.softsign(in[0])}};
                 });
  CHECK(out["y"].shape.empty());
  CHECK(FromBytes<float>(out["y"].data) == std::vector<float>{-2.0f / 3.0f});
}

TEST_CASE("clamp on floats: NaN input stays NaN, NaN bounds are ignored, bounds are cast", "[activation][clamp]") {
  const std::vector<float> x = {-kInf, -2.5f, 0.5f, 4.0f, kInf, kNaN};
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.clamp(v); }), x);
  CheckFloats(RunFloat32(x,
                         [](MLGraphBuilder& b, const MLOperand& v) {
                           return b.clamp(v, {.minValue = -1, .maxValue = 2});
                         }),
              {-1, -1, 0.5f, 2, 2, kNaN});
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.clamp(v, {.minValue = NAN}); }),
              x);
  CheckFloats(RunFloat32(x, [](MLGraphBuilder& b, const MLOperand& v) { return b.clamp(v, {.maxValue = -kInf}); }),
              {-kInf, -kInf, -kInf, -kInf, -kInf, kNaN});
  // 0.1 casts to float32 0.100000001.
  CheckFloats(RunFloat32({0.0f}, [](MLGraphBuilder& b, const MLOperand& v) { return b.clamp(v, {.minValue = 0.1}); }),
              {0.1f});

  // float16: 65519 casts to 65504 (the largest finite); 65520 is the tie with 2^16 and
  // casts to +Infinity, so it does not clamp at all.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint16_t>(MLOperandDataType::kFloat16, {2}, Half({INFINITY, -1}))},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"a", b.clamp(in[0], {.maxValue = 65519})},
                                          {"b", b.clamp(in[0], {.maxValue = 65520})}};
                 });
  CHECK(FromHalf(FromBytes<uint16_t>(out["a"].data)) == std::vector<double>{65504, -1});
  CHECK(FromHalf(FromBytes<uint16_t>(out["b"].data)) == std::vector<double>{INFINITY, -1});
}

// The MLNumber cast saturates and, following WPT's mlNumber.json (3.9 -> 3 for
// int64), truncates toward zero.
TEST_CASE("clamp on integers casts bounds with saturation and truncation", "[activation][clamp]") {
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint8_t>(MLOperandDataType::kUint8, {4}, {0, 100, 200, 255}),
                  Tensor<int8_t>(MLOperandDataType::kInt8, {4}, {-128, -3, 3, 127}),
                  Tensor<int32_t>(MLOperandDataType::kInt32, {5}, {-3, -2, 3, 4, 5}),
                  Tensor<uint32_t>(MLOperandDataType::kUint32, {3}, {0, 7, 4294967295u})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       // -5 -> 0 and 300 -> 255: no clamping; 100.9 -> 100.
                       {"u8_wide", b.clamp(in[0], {.minValue = -5, .maxValue = 300})},
                       {"u8", b.clamp(in[0], {.minValue = 50, .maxValue = 100.9})},
                       // 2.9 and 2.1 both cast to 2: accepted, min == max.
                       {"i8", b.clamp(in[1], {.minValue = 2.9, .maxValue = 2.1})},
                       // -2.7 -> -2 and 3.5 -> 3.
                       {"i32", b.clamp(in[2], {.minValue = -2.7, .maxValue = 3.5})},
                       {"u32", b.clamp(in[3], {.minValue = 5, .maxValue = 4294967290.0})}};
                 });
  CHECK(FromBytes<uint8_t>(out["u8_wide"].data) == std::vector<uint8_t>{0, 100, 200, 255});
  CHECK(FromBytes<uint8_t>(out["u8"].data) == std::vector<uint8_t>{50, 100, 100, 100});
  CHECK(FromBytes<int8_t>(out["i8"].data) == std::vector<int8_t>{2, 2, 2, 2});
  CHECK(FromBytes<int32_t>(out["i32"].data) == std::vector<int32_t>{-2, -2, 3, 3, 3});
  CHECK(FromBytes<uint32_t>(out["u32"].data) == std::vector<uint32_t>{5, 7, 4294967290u});
}

TEST_CASE("clamp on 64-bit integers compares exactly beyond 2^53", "[activation][clamp]") {
  const uint64_t kMaxU = std::numeric_limits<uint64_t>::max();
  const uint64_t kHalf = uint64_t{1} << 63;
  const int64_t kMin64 = std::numeric_limits<int64_t>::min();
  const int64_t kMax64 = std::numeric_limits<int64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint64_t>(MLOperandDataType::kUint64, {4}, {0, kHalf + 5, kMaxU, kHalf}),
                  Tensor<int64_t>(MLOperandDataType::kInt64, {4},
                                  {kMin64, -9007199254740993, 9007199254740993, kMax64})},
                 [&](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{
                       {"u64", b.clamp(in[0], {.minValue = MLNumber::BigUint(kHalf + 1),
                                               .maxValue = MLNumber::BigUint(kMaxU - 1)})},
                       {"i64", b.clamp(in[1], {.minValue = MLNumber::BigInt(-9007199254740992),
                                               .maxValue = MLNumber::BigInt(9007199254740992)})},
                       // A BigInt above the int64 range saturates to its maximum.
                       {"i64_sat", b.clamp(in[1], {.minValue = MLNumber::BigUint(kMaxU)})}};
                 });
  CHECK(FromBytes<uint64_t>(out["u64"].data) == std::vector<uint64_t>{kHalf + 1, kHalf + 5, kMaxU - 1, kHalf + 1});
  CHECK(FromBytes<int64_t>(out["i64"].data) ==
        std::vector<int64_t>{-9007199254740992, -9007199254740992, 9007199254740992, 9007199254740992});
  CHECK(FromBytes<int64_t>(out["i64_sat"].data) == std::vector<int64_t>{kMax64, kMax64, kMax64, kMax64});
}

TEST_CASE("activation validation names op, label and argument", "[activation][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto f32 = b.input("f32", {MLOperandDataType::kFloat32, {2, 3}});
  auto f16 = b.input("f16", {MLOperandDataType::kFloat16, {}});
  auto i32 = b.input("i32", {MLOperandDataType::kInt32, {2}});
  auto u8 = b.input("u8", {MLOperandDataType::kUint8, {2}});
  auto i64 = b.input("i64", {MLOperandDataType::kInt64, {2}});
  auto i4 = b.input("i4", {MLOperandDataType::kInt4, {2}});

  CHECK(ErrorMessage([&] { b.gelu(i32, {.label = "g"}); }) ==
        "gelu [g]: argument 'input' data type int32 is not supported; allowed: float32, float16");
  CHECK(ErrorName([&] { b.relu(u8); }) == "TypeError");
  CHECK(ErrorName([&] { b.clamp(i4); }) == "TypeError");
  CHECK(ErrorName([&] { b.softplus(u8); }) == "TypeError");

  CHECK(ErrorMessage([&] { b.elu(f16, {.label = "e1", .alpha = NAN}); }) ==
        "elu [e1]: argument 'options.alpha' must be a finite number, got NaN");
  CHECK(ErrorMessage([&] { b.hardSigmoid(f32, {.beta = INFINITY}); }) ==
        "hardSigmoid: argument 'options.beta' must be a finite number, got Infinity");
  CHECK(ErrorMessage([&] { b.linear(f32, {.beta = -INFINITY}); }) ==
        "linear: argument 'options.beta' must be a finite number, got -Infinity");
  CHECK(ErrorName([&] { b.leakyRelu(f32, {.alpha = NAN}); }) == "TypeError");

  CHECK(ErrorMessage([&] { b.clamp(f32, {.label = "c", .minValue = 3, .maxValue = 1}); }) ==
        "clamp [c]: options.minValue (3) must not be greater than options.maxValue (1) after casting to float32");
  CHECK(ErrorName([&] { b.clamp(i64, {.minValue = MLNumber::BigInt(3), .maxValue = MLNumber::BigInt(1)}); }) ==
        "TypeError");
  CHECK(ErrorName([&] { b.clamp(i64, {.minValue = 3, .maxValue = MLNumber::BigInt(1)}); }) == "TypeError");
  CHECK(ErrorMessage([&] { b.clamp(i32, {.minValue = MLNumber::BigInt(1)}); }) ==
        "clamp: argument 'options.minValue' is a BigInt (1n), which is only allowed for int64 and uint64 input, "
        "got int32");
  CHECK(ErrorName([&] { b.clamp(f32, {.maxValue = MLNumber::BigInt(1)}); }) == "TypeError");
  // After casting to uint8 both are 255: not an error.
  CHECK(b.clamp(u8, {.minValue = 300, .maxValue = 256}).dataType() == MLOperandDataType::kUint8);
  // NaN compares false: accepted.
  CHECK(b.clamp(f32, {.minValue = NAN, .maxValue = -1}).shape().size() == 2);

  auto y = b.hardSwish(f16);
  CHECK(y.dataType() == MLOperandDataType::kFloat16);
  CHECK(y.shape().empty());
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {MLOperandDataType::kFloat32, {2}});
  CHECK(ErrorName([&] { b.tanh(w); }) == "TypeError");
}
