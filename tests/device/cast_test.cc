// The device's kernel of cast against the reference device: all 10 x 10 type pairs
// (int4/uint4 packed, odd lengths), saturation of out-of-range floats, NaN,
// +-Inf, -0, integer extremes (wrap), int64 values beyond 2^53 (rounding to
// float32 must be single), large tensors on both threads. The reference's
// conversions are exact, so we require exact results (WPT allows 1 ULP).
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

using T = MLOperandDataType;

const std::vector<T> kTypes = {T::kFloat32, T::kFloat16, T::kInt32, T::kUint32, T::kInt64,
                               T::kUint64,  T::kInt8,    T::kUint8, T::kInt4,  T::kUint4};

bool IsUnsigned(T t) { return t == T::kUint32 || t == T::kUint64 || t == T::kUint8 || t == T::kUint4; }

void Check(T from, T to, std::vector<uint32_t> shape, double lo, double hi, uint64_t seed) {
  if (IsUnsigned(from)) lo = std::max(lo, 0.0);
  InputSpec in{from, std::move(shape), lo, hi, 0.1};
  CheckAgainstReference(DeviceUnderTest(), "cast " + std::to_string(int(from)) + " -> " + std::to_string(int(to)),
                        {in},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& x) {
                          return MLNamedOperands{{"out", g.cast(x[0], to)}};
                        },
                        Tolerance::Ulp(0), seed);
}

// A value range that exercises saturation/wrap for the pair.
std::pair<double, double> Range(T from) {
  switch (from) {
    case T::kFloat32: return {-5e9, 5e9};
    case T::kFloat16: return {-70000, 70000};
    case T::kInt4: return {-8, 7};
    case T::kUint4: return {0, 15};
    case T::kInt8: return {-128, 127};
    case T::kUint8: return {0, 255};
    case T::kInt64:
    case T::kUint64: return {-9.2e18, 9.2e18};
    default: return {-3e9, 3e9};
  }
}

}  // namespace

// elementwise_unary_test.cc
void ForEachSimdTarget(const std::function<void(const std::string&)>& f);

TEST_CASE("cast matches reference for all 100 type pairs", "[device][cast]") {
  std::mt19937_64 rng(97);
  for (const T from : kTypes) {
    for (const T to : kTypes) {
      const auto [lo, hi] = Range(from);
      for (const std::vector<uint32_t>& shape :
           {std::vector<uint32_t>{}, {1}, {7}, {3, 5}, {2, 3, 67}, {1031}, {2, 1500}})
        Check(from, to, shape, lo, hi, rng());
      Check(from, to, {5, 33}, -300, 300, rng());  // near the 8-bit limits
      Check(from, to, {77}, -10, 10, rng());       // near zero: 4-bit range, fractions
    }
  }
}

TEST_CASE("cast on large tensors", "[device][cast]") {
  std::mt19937_64 rng(101);
  for (const auto& [from, to] : std::vector<std::pair<T, T>>{{T::kFloat32, T::kFloat16},
                                                            {T::kFloat16, T::kFloat32},
                                                            {T::kFloat32, T::kInt8},
                                                            {T::kInt32, T::kInt64},
                                                            {T::kInt64, T::kFloat32},
                                                            {T::kUint4, T::kFloat32},
                                                            {T::kFloat32, T::kInt4}}) {
    const auto [lo, hi] = Range(from);
    Check(from, to, {3, 100001}, lo, hi, rng());  // odd element count, 4-bit chunks on byte boundaries
  }
}

TEST_CASE("cpu cast on every SIMD target", "[cpu][cast]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  std::mt19937_64 rng(103);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    for (const T from : kTypes)
      for (const T to : kTypes) {
        const auto [lo, hi] = Range(from);
        Check(from, to, {3, 43}, lo, hi, rng());
        Check(from, to, {41}, -300, 300, rng());
      }
  });
}

namespace {

// Runs cast on both devices with explicit data; outputs must be identical bytes.
void CheckExactBytes(const std::string& what, const HostTensor& in, T to) {
  auto body = [&](MLGraphBuilder& g, const std::vector<MLOperand>& x) {
    return MLNamedOperands{{"out", g.cast(x[0], to)}};
  };
  const auto want = Run(MLDeviceType::kReference, {in}, body).at("out").data;
  const auto got = Run(DeviceUnderTest(), {in}, body).at("out").data;
  REQUIRE(got.size() == want.size());
  size_t bad = 0, first = 0;
  for (size_t k = 0; k < got.size(); ++k)
    if (got[k] != want[k] && bad++ == 0) first = k;
  INFO(what << ": " << bad << " bytes differ, first at byte " << first);
  CHECK(bad == 0);
}

// Integers next to float32 rounding ties: m * 2^s + 2^(s-1) + delta for
// 24-bit m, so that a second rounding (or a missing sticky bit) shows.
template <typename I>
std::vector<I> NearTies(std::mt19937_64& rng, int max_bits) {
  std::vector<I> v;
  for (int s = 1; s + 24 <= max_bits; ++s) {
    for (int r = 0; r < 8; ++r) {
      const uint64_t m = (uint64_t{1} << 23) | (rng() & 0x7FFFFF);
      const uint64_t base = (m << s) + (uint64_t{1} << (s - 1));
      for (const int64_t delta : {int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{1} << (s > 12 ? s - 12 : 0)}) {
        const uint64_t x = base + static_cast<uint64_t>(delta);
        v.push_back(static_cast<I>(x));
        if constexpr (std::is_signed_v<I>) v.push_back(static_cast<I>(0 - x));
      }
    }
  }
  return v;
}

}  // namespace

TEST_CASE("cpu cast rounds once: integers near float32 ties, float32 near float16 ties", "[cpu][cast]") {
  // About the cpu device's Highway targets: the helpers run on cpu, whatever
  // --device says (tagged [cpu], not [device]).
  const PinDeviceUnderTest cpu(MLDeviceType::kCpu);
  ForEachSimdTarget([&](const std::string& target) {
    INFO("target " << target);
    std::mt19937_64 rng(107);
    const auto i64 = NearTies<int64_t>(rng, 63);
    const auto u64 = NearTies<uint64_t>(rng, 64);
    const auto i32 = NearTies<int32_t>(rng, 31);
    const auto u32 = NearTies<uint32_t>(rng, 32);
    const uint32_t n64 = static_cast<uint32_t>(i64.size()), nu64 = static_cast<uint32_t>(u64.size());
    for (const T to : {T::kFloat32, T::kFloat16}) {
      CheckExactBytes("int64", Tensor(T::kInt64, {n64}, i64), to);
      CheckExactBytes("uint64", Tensor(T::kUint64, {nu64}, u64), to);
      CheckExactBytes("int32", Tensor(T::kInt32, {static_cast<uint32_t>(i32.size())}, i32), to);
      CheckExactBytes("uint32", Tensor(T::kUint32, {static_cast<uint32_t>(u32.size())}, u32), to);
    }
    // Every float16 rounding tie as float32 (midpoints of consecutive float16
    // values, subnormals and the overflow threshold 65520 included), and the
    // float32 values one ulp either side.
    std::vector<float> f;
    for (uint32_t h = 0; h < 0x7c00; ++h) {
      const double lo = core::HalfBitsToDouble(static_cast<uint16_t>(h));
      const double hi = core::HalfBitsToDouble(static_cast<uint16_t>(h + 1));
      const float mid = static_cast<float>((lo + hi) / 2);  // exact in float32
      for (const float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) {
        f.push_back(x);
        f.push_back(-x);
      }
    }
    CheckExactBytes("float32 ties", Tensor(T::kFloat32, {static_cast<uint32_t>(f.size())}, f), T::kFloat16);
  });
}
