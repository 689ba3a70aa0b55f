// The device's kernels of quantizeLinear and dequantizeLinear against the reference
// device: every float/integer type pair (int4/uint4 packed, odd lengths),
// per-tensor, per-axis and blockwise scale/zeroPoint, NaN/Inf inputs and
// scales, saturation, and quotients on exact .5 ties (round half to even of
// the exact quotient). The reference is exact, so results must be too
// (WPT allows 1 ULP).
#include <cmath>

#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

const std::vector<T> kIntTypes = {T::kUint8, T::kInt8, T::kUint32, T::kInt32, T::kUint4, T::kInt4};

std::pair<double, double> IntRange(T t) {
  switch (t) {
    case T::kInt8: return {-128, 127};
    case T::kUint8: return {0, 255};
    case T::kInt4: return {-8, 7};
    case T::kUint4: return {0, 15};
    case T::kInt32: return {-100000, 100000};
    default: return {0, 100000};
  }
}

// Input shape and a blockwise-broadcastable parameter shape.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> Shapes(std::mt19937_64& rng) {
  const uint32_t rank = static_cast<uint32_t>(rng() % 5);
  std::vector<uint32_t> in, p;
  for (uint32_t d = 0; d < rank; ++d) {
    const uint32_t blocks = 1 + static_cast<uint32_t>(rng() % 4);
    const uint32_t block = 1 + static_cast<uint32_t>(rng() % 5);
    switch (rng() % 3) {
      case 0: in.push_back(blocks * block), p.push_back(1); break;       // broadcast
      case 1: in.push_back(blocks), p.push_back(blocks); break;          // per element
      default: in.push_back(blocks * block), p.push_back(blocks); break;  // blocks
    }
  }
  return {in, p};
}

void CheckQuantize(T ftype, T itype, std::vector<uint32_t> in, std::vector<uint32_t> p, uint64_t seed,
                   double special = 0.05, double x_range = 300, bool constant_params = false) {
  const auto [zlo, zhi] = IntRange(itype);
  InputSpec x{ftype, std::move(in), -x_range, x_range, special};
  InputSpec s{ftype, p, 0.05, 2, special / 2, constant_params};
  InputSpec z{itype, p, zlo, zhi, 0, constant_params};
  CheckAgainstReference(DeviceUnderTest(), "quantizeLinear", {x, s, z},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& v) {
                          return MLNamedOperands{{"out", g.quantizeLinear(v[0], v[1], v[2])}};
                        },
                        Tolerance::Ulp(0), seed);
}

void CheckDequantize(T ftype, T itype, std::vector<uint32_t> in, std::vector<uint32_t> p, uint64_t seed,
                     double special = 0.05, bool constant_params = false) {
  const auto [lo, hi] = IntRange(itype);
  InputSpec x{itype, std::move(in), lo, hi, special};
  InputSpec s{ftype, p, -2, 2, special, constant_params};
  InputSpec z{itype, p, lo, hi, special, constant_params};
  CheckAgainstReference(DeviceUnderTest(), "dequantizeLinear", {x, s, z},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& v) {
                          return MLNamedOperands{{"out", g.dequantizeLinear(v[0], v[1], v[2])}};
                        },
                        Tolerance::Ulp(0), seed);
}

// A [1, 1] constant of `type` holding v.
MLOperand Constant11(MLGraphBuilder& g, T type, double v) {
  std::vector<std::byte> bytes;
  auto put = [&](auto x) {
    bytes.resize(sizeof(x));
    std::memcpy(bytes.data(), &x, sizeof(x));
  };
  switch (type) {
    case T::kFloat32: put(static_cast<float>(v)); break;
    case T::kFloat16: put(core::DoubleToHalfBits(v)); break;
    case T::kInt32: put(static_cast<int32_t>(v)); break;
    case T::kUint32: put(static_cast<uint32_t>(v)); break;
    case T::kInt8: put(static_cast<int8_t>(v)); break;
    case T::kUint8: put(static_cast<uint8_t>(v)); break;
    default: put(static_cast<uint8_t>(static_cast<int>(v) & 0xF)); break;  // 4-bit
  }
  return g.constant(MLOperandDescriptor{type, {1, 1}}, MLBufferSource(std::span<const std::byte>(bytes)));
}

}  // namespace

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("quantizeLinear/dequantizeLinear match reference on random blockwise shapes", "[device][quantize_linear]") {
  std::mt19937_64 rng(109);
  for (const T ftype : {T::kFloat32, T::kFloat16}) {
    for (const T itype : kIntTypes) {
      for (int trial = 0; trial < 12; ++trial) {
        const auto [in, p] = Shapes(rng);
        CheckQuantize(ftype, itype, in, p, rng());
        CheckDequantize(ftype, itype, in, p, rng());
      }
      CheckQuantize(ftype, itype, {}, {}, rng());
      CheckDequantize(ftype, itype, {}, {}, rng());
      // Per-tensor, per-channel (NCHW axis 1), blocks of 32 along the last axis.
      CheckQuantize(ftype, itype, {2, 8, 5, 7}, {1, 1, 1, 1}, rng(), 0.05, 300, true);
      CheckQuantize(ftype, itype, {2, 8, 5, 7}, {1, 8, 1, 1}, rng(), 0.05, 300, true);
      CheckQuantize(ftype, itype, {3, 96}, {3, 3}, rng());
      CheckDequantize(ftype, itype, {2, 8, 5, 7}, {1, 8, 1, 1}, rng(), 0.05, true);
      CheckDequantize(ftype, itype, {3, 96}, {3, 3}, rng());
      CheckQuantize(ftype, itype, {3, 300007}, {3, 1}, rng(), 0.001, 1e6);  // both threads, saturation
      CheckDequantize(ftype, itype, {3, 300007}, {3, 1}, rng(), 0.001);
    }
  }
}

TEST_CASE("cpu quantizeLinear rounds exact .5 quotients to even", "[cpu][quantize_linear]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(113);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const T ftype : {T::kFloat32, T::kFloat16}) {
      for (const T itype : kIntTypes) {
        // x = floor(4 * r) / 4 and scale 0.5 or 0.25: x / scale lands on k + 0.5 often.
        for (const double sv : {0.5, 0.25, 0.1, 0.3}) {
          InputSpec x{ftype, {3, 129}, -40, 40, 0.02};
          CheckAgainstReference(MLDeviceType::kCpu, "quantizeLinear ties", {x},
                                [&](MLGraphBuilder& g, const std::vector<MLOperand>& v) {
                                  const MLOperand four = g.constant(ftype, 4.0);
                                  const MLOperand q = g.div(g.floor(g.mul(v[0], four)), four);
                                  const MLOperand s = Constant11(g, ftype, sv);
                                  const MLOperand z = Constant11(g, itype, 3);
                                  return MLNamedOperands{{"out", g.quantizeLinear(q, s, z)}};
                                },
                                Tolerance::Ulp(0), rng());
        }
        const auto [in, p] = Shapes(rng);
        CheckQuantize(ftype, itype, in, p, rng());
        CheckDequantize(ftype, itype, in, p, rng());
      }
    }
  });
}
