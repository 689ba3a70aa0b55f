// Tests of abs, ceil, cos, erf, exp, floor, identity, log, neg, reciprocal,
// roundEven, sin, sign, sqrt, tan: validation and the reference kernel.
// Expected values are worked out by hand (float32 constants are the decimal
// values rounded once to float).
#include <cmath>
#include <cstdint>
#include <limits>

#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using DT = MLOperandDataType;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// Element-wise equality where NaN matches NaN and the sign of zero matters.
bool SameFloats(const std::vector<float>& actual, const std::vector<float>& expected) {
  if (actual.size() != expected.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      if (!std::isnan(actual[i])) return false;
      continue;
    }
    if (actual[i] != expected[i] || std::signbit(actual[i]) != std::signbit(expected[i])) return false;
  }
  return true;
}

std::map<std::string, HostTensor> RunUnaryF32(const std::vector<float>& x) {
  return Run(MLDeviceType::kReference, {Tensor<float>(DT::kFloat32, {static_cast<uint32_t>(x.size())}, x)},
             [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
               return MLNamedOperands{{"abs", b.abs(in[0])},        {"neg", b.neg(in[0])},
                                      {"ceil", b.ceil(in[0])},      {"floor", b.floor(in[0])},
                                      {"round", b.roundEven(in[0])}, {"sign", b.sign(in[0])},
                                      {"recip", b.reciprocal(in[0])}, {"sqrt", b.sqrt(in[0])},
                                      {"exp", b.exp(in[0])},        {"log", b.log(in[0])},
                                      {"sin", b.sin(in[0])},        {"cos", b.cos(in[0])},
                                      {"tan", b.tan(in[0])},        {"erf", b.erf(in[0])},
                                      {"id", b.identity(in[0])}};
             });
}

}  // namespace

TEST_CASE("float32 unary ops on NaN, infinities and signed zeros", "[elementwise_unary]") {
  auto out = RunUnaryF32({kNaN, kInf, -kInf, -0.0f, 0.0f});
  auto f = [&](const char* name) { return FromBytes<float>(out[name].data); };
  CHECK(SameFloats(f("abs"), {kNaN, kInf, kInf, 0.0f, 0.0f}));
  CHECK(SameFloats(f("neg"), {kNaN, -kInf, kInf, 0.0f, -0.0f}));
  CHECK(SameFloats(f("ceil"), {kNaN, kInf, -kInf, -0.0f, 0.0f}));
  CHECK(SameFloats(f("floor"), {kNaN, kInf, -kInf, -0.0f, 0.0f}));
  CHECK(SameFloats(f("round"), {kNaN, kInf, -kInf, -0.0f, 0.0f}));
  // The spec: 0 unless > 0 or < 0 (its emulation gives +0 for NaN and -0).
  CHECK(SameFloats(f("sign"), {0.0f, 1.0f, -1.0f, 0.0f, 0.0f}));
  CHECK(SameFloats(f("recip"), {kNaN, 0.0f, -0.0f, -kInf, kInf}));
  CHECK(SameFloats(f("sqrt"), {kNaN, kInf, kNaN, -0.0f, 0.0f}));
  CHECK(SameFloats(f("exp"), {kNaN, kInf, 0.0f, 1.0f, 1.0f}));
  CHECK(SameFloats(f("log"), {kNaN, kInf, kNaN, -kInf, -kInf}));
  CHECK(SameFloats(f("sin"), {kNaN, kNaN, kNaN, -0.0f, 0.0f}));
  CHECK(SameFloats(f("cos"), {kNaN, kNaN, kNaN, 1.0f, 1.0f}));
  CHECK(SameFloats(f("tan"), {kNaN, kNaN, kNaN, -0.0f, 0.0f}));
  CHECK(SameFloats(f("erf"), {kNaN, 1.0f, -1.0f, -0.0f, 0.0f}));
  CHECK(SameFloats(f("id"), {kNaN, kInf, -kInf, -0.0f, 0.0f}));
}

TEST_CASE("float32 unary ops on ordinary values", "[elementwise_unary]") {
  auto out = RunUnaryF32({0.5f, -2.5f, 3.5f, -0.4f, 4.0f});
  auto f = [&](const char* name) { return FromBytes<float>(out[name].data); };
  CHECK(SameFloats(f("abs"), {0.5f, 2.5f, 3.5f, 0.4f, 4.0f}));
  CHECK(SameFloats(f("ceil"), {1.0f, -2.0f, 4.0f, -0.0f, 4.0f}));
  CHECK(SameFloats(f("floor"), {0.0f, -3.0f, 3.0f, -1.0f, 4.0f}));
  CHECK(SameFloats(f("round"), {0.0f, -2.0f, 4.0f, -0.0f, 4.0f}));
  CHECK(SameFloats(f("sign"), {1.0f, -1.0f, 1.0f, -1.0f, 1.0f}));
  // 1/3.5 = 0.285714285714..., 1/-0.4f: -0.4f is -0.4000000059604645, so 1/x = -2.49999996274...
  CHECK(SameFloats(f("recip"), {2.0f, -0.4f, 0.2857142857142857f, static_cast<float>(-2.4999999627470985), 0.25f}));
  // sqrt(0.5) = 0.7071067811865476, sqrt(3.5) = 1.8708286933869707.
  const auto sqrt = f("sqrt");
  CHECK(sqrt[0] == 0.7071067811865476f);
  CHECK(std::isnan(sqrt[1]));
  CHECK(sqrt[2] == 1.8708286933869707f);
  CHECK(sqrt[4] == 2.0f);
  // ln(0.5) = -0.6931471805599453, ln(4) = 1.3862943611198906.
  CHECK(f("log")[0] == -0.6931471805599453f);
  CHECK(f("log")[4] == 1.3862943611198906f);
  // e^0.5 = 1.6487212707001282, e^-2.5 = 0.0820849986238988.
  CHECK(f("exp")[0] == 1.6487212707001282f);
  CHECK(f("exp")[1] == 0.0820849986238988f);
  // erf(0.5) = 0.5204998778130465, sin(0.5) = 0.479425538604203, cos(0.5) = 0.8775825618903728,
  // tan(0.5) = 0.5463024898437905.
  CHECK(f("erf")[0] == 0.5204998778130465f);
  CHECK(f("sin")[0] == 0.479425538604203f);
  CHECK(f("cos")[0] == 0.8775825618903728f);
  CHECK(f("tan")[0] == 0.5463024898437905f);
}

TEST_CASE("roundEven rounds halves to even and keeps the sign", "[elementwise_unary]") {
  // 0.49999997f is the float just below 0.5; 8388609 = 2^23 + 1 is odd and exact.
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<float>(DT::kFloat32, {2, 5},
                                {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 8388609.0f, 0.49999997f, -3.5f, 1e30f})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"r", b.roundEven(in[0])}};
                 });
  CHECK(out["r"].shape == std::vector<uint32_t>{2, 5});
  CHECK(SameFloats(FromBytes<float>(out["r"].data),
                   {0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f, 8388609.0f, 0.0f, -4.0f, 1e30f}));
}

TEST_CASE("float16 unary ops round once from float64", "[elementwise_unary]") {
  // 1.0 -> exp = e = 2.718281828 -> nearest half (spacing 2^-9 in [2,4)) is 2.71875 = 0x4170.
  // 0.5 -> erf = 0.520499877 -> nearest half (spacing 2^-11) is 0.5205078125 = 0x382A.
  // 0x7C01 (NaN) -> identity keeps the exact bits; 65504 -> reciprocal = 1.5266e-5, a subnormal:
  // 1.5266e-5 / 2^-24 = 256.12 -> 256 * 2^-24 = 0x0100.
  auto out = Run(MLDeviceType::kReference, {Tensor<uint16_t>(DT::kFloat16, {4}, {0x3C00, 0x3800, 0x7C01, 0x7BFF})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"exp", b.exp(in[0])},
                                          {"erf", b.erf(in[0])},
                                          {"id", b.identity(in[0])},
                                          {"recip", b.reciprocal(in[0])},
                                          {"neg", b.neg(in[0])}};
                 });
  CHECK(FromBytes<uint16_t>(out["exp"].data)[0] == 0x4170);
  CHECK(FromBytes<uint16_t>(out["erf"].data)[1] == 0x382A);
  CHECK(FromBytes<uint16_t>(out["id"].data) == std::vector<uint16_t>{0x3C00, 0x3800, 0x7C01, 0x7BFF});
  CHECK(FromBytes<uint16_t>(out["recip"].data)[3] == 0x0100);
  CHECK(FromBytes<uint16_t>(out["recip"].data)[0] == 0x3C00);
  const auto neg = FromBytes<uint16_t>(out["neg"].data);
  CHECK(neg[0] == 0xBC00);
  CHECK(neg[1] == 0xB800);
  CHECK((neg[2] & 0x7C00) == 0x7C00);  // still a NaN
  CHECK((neg[2] & 0x03FF) != 0);
  CHECK(neg[3] == 0xFBFF);
}

TEST_CASE("integer abs, neg and sign wrap at the type's minimum", "[elementwise_unary]") {
  auto body = [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
    return MLNamedOperands{{"abs", b.abs(in[0])}, {"neg", b.neg(in[0])}, {"sign", b.sign(in[0])},
                           {"id", b.identity(in[0])}};
  };
  SECTION("int8") {
    auto out = Run(MLDeviceType::kReference, {Tensor<int8_t>(DT::kInt8, {5}, {-128, -1, 0, 1, 127})}, body);
    CHECK(FromBytes<int8_t>(out["abs"].data) == std::vector<int8_t>{-128, 1, 0, 1, 127});
    CHECK(FromBytes<int8_t>(out["neg"].data) == std::vector<int8_t>{-128, 1, 0, -1, -127});
    CHECK(FromBytes<int8_t>(out["sign"].data) == std::vector<int8_t>{-1, -1, 0, 1, 1});
    CHECK(FromBytes<int8_t>(out["id"].data) == std::vector<int8_t>{-128, -1, 0, 1, 127});
  }
  SECTION("int32") {
    const int32_t kMin = std::numeric_limits<int32_t>::min();
    const int32_t kMax = std::numeric_limits<int32_t>::max();
    auto out = Run(MLDeviceType::kReference, {Tensor<int32_t>(DT::kInt32, {2, 2}, {kMin, -5, 0, kMax})}, body);
    CHECK(out["abs"].shape == std::vector<uint32_t>{2, 2});
    CHECK(FromBytes<int32_t>(out["abs"].data) == std::vector<int32_t>{kMin, 5, 0, kMax});
    CHECK(FromBytes<int32_t>(out["neg"].data) == std::vector<int32_t>{kMin, 5, 0, -kMax});
    CHECK(FromBytes<int32_t>(out["sign"].data) == std::vector<int32_t>{-1, -1, 0, 1});
  }
  SECTION("int64 beyond 2^53") {
    const int64_t kMin = std::numeric_limits<int64_t>::min();
    const int64_t kMax = std::numeric_limits<int64_t>::max();
    const int64_t odd = (int64_t{1} << 53) + 1;  // not representable as a double
    auto out = Run(MLDeviceType::kReference, {Tensor<int64_t>(DT::kInt64, {4}, {kMin, -odd, 0, kMax})}, body);
    CHECK(FromBytes<int64_t>(out["abs"].data) == std::vector<int64_t>{kMin, odd, 0, kMax});
    CHECK(FromBytes<int64_t>(out["neg"].data) == std::vector<int64_t>{kMin, odd, 0, -kMax});
    CHECK(FromBytes<int64_t>(out["sign"].data) == std::vector<int64_t>{-1, -1, 0, 1});
  }
}

TEST_CASE("identity copies every allowed data type exactly", "[elementwise_unary]") {
  const uint64_t kUMax = std::numeric_limits<uint64_t>::max();
  auto out = Run(MLDeviceType::kReference,
                 {Tensor<uint64_t>(DT::kUint64, {2}, {kUMax, (uint64_t{1} << 53) + 1}),
                  Tensor<uint32_t>(DT::kUint32, {}, {4294967295u}), Tensor<uint8_t>(DT::kUint8, {3}, {0, 128, 255}),
                  Tensor<uint32_t>(DT::kFloat32, {1}, {0x7fa00001})},
                 [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"u64", b.identity(in[0])}, {"u32", b.identity(in[1])},
                                          {"u8", b.identity(in[2])}, {"f32", b.identity(in[3])}};
                 });
  CHECK(FromBytes<uint64_t>(out["u64"].data) == std::vector<uint64_t>{kUMax, (uint64_t{1} << 53) + 1});
  CHECK(out["u32"].shape.empty());
  CHECK(FromBytes<uint32_t>(out["u32"].data) == std::vector<uint32_t>{4294967295u});
  CHECK(FromBytes<uint8_t>(out["u8"].data) == std::vector<uint8_t>{0, 128, 255});
  // A signalling NaN payload survives (a float64 trip would quiet it).
  CHECK(FromBytes<uint32_t>(out["f32"].data) == std::vector<uint32_t>{0x7fa00001});
}

TEST_CASE("unary op validation names op, label and argument", "[elementwise_unary][validation]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  auto i32 = b.input("i32", {DT::kInt32, {2, 3}});
  auto u32 = b.input("u32", {DT::kUint32, {2, 3}});
  auto q = b.input("q", {DT::kInt4, {4}});
  CHECK(ErrorMessage([&] { b.ceil(i32, {.label = "c1"}); }) ==
        "ceil [c1]: argument 'input' data type int32 is not supported; allowed: float32, float16");
  CHECK(ErrorMessage([&] { b.abs(u32, {.label = "a1"}); }) ==
        "abs [a1]: argument 'input' data type uint32 is not supported; allowed: float32, float16, int32, int64, "
        "int8");
  CHECK(ErrorName([&] { b.neg(u32); }) == "TypeError");
  CHECK(ErrorName([&] { b.sign(b.input("u8", {DT::kUint8, {1}})); }) == "TypeError");
  for (auto op : {&MLGraphBuilder::exp, &MLGraphBuilder::log, &MLGraphBuilder::sqrt, &MLGraphBuilder::sin,
                  &MLGraphBuilder::cos, &MLGraphBuilder::tan, &MLGraphBuilder::erf, &MLGraphBuilder::floor,
                  &MLGraphBuilder::reciprocal, &MLGraphBuilder::roundEven})
    CHECK(ErrorName([&] { (b.*op)(i32, {}); }) == "TypeError");
  CHECK(ErrorName([&] { b.identity(q); }) == "TypeError");
  MLGraphBuilder other(ctx);
  auto w = other.input("w", {DT::kFloat32, {2, 3}});
  CHECK(ErrorName([&] { b.exp(w); }) == "TypeError");

  auto ok = b.identity(u32);
  CHECK(ok.dataType() == DT::kUint32);
  REQUIRE(ok.shape().size() == 2);
  CHECK(ok.shape()[1].size() == 3);
  CHECK(b.abs(b.input("s", {DT::kFloat16, {}})).shape().empty());
}
