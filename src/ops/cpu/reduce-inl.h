// Per-target SIMD helpers of the cpu reductions, softmax, normalizations,
// pooling and resampling: float32/float16 loads and stores as float32 or
// float64 vectors, tails through a small buffer (never reading or writing past
// the n-th element), wrapping 64-bit multiply and correctly rounded
// float64 -> float16 stores.
//
// Include after <hwy/highway.h> from a foreach_target translation unit.
#if defined(WEBNN_OPS_CPU_REDUCE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WEBNN_OPS_CPU_REDUCE_INL_H_
#undef WEBNN_OPS_CPU_REDUCE_INL_H_
#else
#define WEBNN_OPS_CPU_REDUCE_INL_H_
#endif

#include <cstring>
#include <type_traits>

#include <hwy/highway.h>

#include "ops/cpu/float16-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using F16 = hwy::float16_t;

// The lane type a storage type computes in: float16 as float32.
template <class E>
using LaneOf = std::conditional_t<std::is_same_v<E, F16>, float, E>;

// Largest vector in bytes of any target: tail buffers hold one vector.
inline constexpr size_t kMaxVectorBytes = HWY_MAX_BYTES;

// ---------------------------------------------------------------- tails
// Masked loads/stores that never touch masked-off memory: AVX-512 masking for
// every lane size, AVX2 vmaskmov for 32/64-bit lanes. Elsewhere (Highway
// emulates them with full loads) tails go through a small buffer.
template <class T>
constexpr bool kSafeMasked =
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
    true;
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
    sizeof(T) >= 4;
#else
    false;
#endif

// First n (< Lanes(d)) elements of p, zero elsewhere.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> LoadTail(D d, const T* HWY_RESTRICT p, size_t n) {
  if constexpr (kSafeMasked<T>) {
    return hn::MaskedLoad(hn::FirstN(d, n), d, p);
  } else {
    alignas(64) T buf[kMaxVectorBytes / sizeof(T)] = {};
    std::memcpy(buf, p, n * sizeof(T));
    return hn::LoadU(d, buf);
  }
}
template <class D, class T = hn::TFromD<D>>
HWY_INLINE void StoreTail(hn::Vec<D> v, D d, T* HWY_RESTRICT p, size_t n) {
  if constexpr (kSafeMasked<T>) {
    hn::BlendedStore(v, hn::FirstN(d, n), d, p);
  } else {
    alignas(64) T buf[kMaxVectorBytes / sizeof(T)];
    hn::StoreU(v, d, buf);
    std::memcpy(p, buf, n * sizeof(T));
  }
}

// ---------------------------------------------------------------- float16
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF16AsF32(DF df, const F16* HWY_RESTRICT p) {
  const hn::Rebind<uint16_t, DF> d16;
  return F16BitsToF32(df, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(p)));
}

// Rounds to nearest even; overflow to Inf, NaN stays NaN.
template <class DF>
HWY_INLINE void StoreF32AsF16(hn::Vec<DF> v, DF df, F16* HWY_RESTRICT p) {
  const hn::Rebind<uint16_t, DF> d16;
  hn::StoreU(F32ToF16Bits(df, v), d16, reinterpret_cast<uint16_t*>(p));
}

// ---------------------------------------------------------------- native lanes
// Lanes(d) elements of E as lanes of LaneOf<E> (float16 promoted to float32).
template <class D, class E>
HWY_INLINE hn::Vec<D> LoadLanes(D d, const E* HWY_RESTRICT p) {
  if constexpr (std::is_same_v<E, F16>) {
    return LoadF16AsF32(d, p);
  } else {
    return hn::LoadU(d, p);
  }
}
template <class D, class E>
HWY_INLINE hn::Vec<D> LoadLanesTail(D d, const E* HWY_RESTRICT p, size_t n) {
  if constexpr (std::is_same_v<E, F16> && kSafeMasked<uint16_t>) {
    const hn::Rebind<uint16_t, D> du;
    return F16BitsToF32(d, hn::MaskedLoad(hn::FirstN(du, n), du, reinterpret_cast<const uint16_t*>(p)));
  } else if constexpr (!std::is_same_v<E, F16>) {
    return LoadTail(d, p, n);
  } else {
    alignas(64) E buf[kMaxVectorBytes / sizeof(hn::TFromD<D>)] = {};
    std::memcpy(buf, p, n * sizeof(E));
    return LoadLanes(d, buf);
  }
}
template <class D, class E>
HWY_INLINE void StoreLanes(hn::Vec<D> v, D d, E* HWY_RESTRICT p) {
  if constexpr (std::is_same_v<E, F16>) {
    StoreF32AsF16(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}
template <class D, class E>
HWY_INLINE void StoreLanesTail(hn::Vec<D> v, D d, E* HWY_RESTRICT p, size_t n) {
  alignas(64) E buf[kMaxVectorBytes / sizeof(hn::TFromD<D>)];
  StoreLanes(v, d, buf);
  std::memcpy(p, buf, n * sizeof(E));
}

// One element as float64.
template <class E>
HWY_INLINE double LoadScalar(const E* p) {
  if constexpr (std::is_same_v<E, F16>) {
    const hn::ScalableTag<float> d;
    return static_cast<double>(hn::GetLane(LoadLanesTail(d, p, 1)));
  } else {
    return static_cast<double>(*p);
  }
}

// ---------------------------------------------------------------- float64
// ---------------------------------------------------------------- wide lanes
// Lanes for max/argMax-like kernels: 8-bit integers widened to 32 bits
// (gathers and index-free loads need 32/64-bit lanes), float16 as float32.
template <class E>
using WideLaneOf = std::conditional_t<std::is_same_v<E, F16>, float,
                                      std::conditional_t<sizeof(E) == 1, int32_t, E>>;

template <class D, class E>
HWY_INLINE hn::Vec<D> LoadWide(D d, const E* p) {
  if constexpr (sizeof(E) == 1) {
    const hn::Rebind<E, D> dn;
    return hn::PromoteTo(d, hn::LoadU(dn, p));
  } else {
    return LoadLanes(d, p);
  }
}
template <class D, class E>
HWY_INLINE hn::Vec<D> LoadWideTail(D d, const E* p, size_t n) {
  alignas(64) E buf[kMaxVectorBytes / 4] = {};
  std::memcpy(buf, p, n * sizeof(E));
  return LoadWide(d, buf);
}
template <class D, class E>
HWY_INLINE void StoreWide(hn::Vec<D> v, D d, E* p) {
  if constexpr (sizeof(E) == 1) {
    const hn::Rebind<E, D> dn;
    hn::StoreU(hn::DemoteTo(dn, v), dn, p);
  } else {
    StoreLanes(v, d, p);
  }
}
template <class D, class E>
HWY_INLINE void StoreWideTail(hn::Vec<D> v, D d, E* p, size_t n) {
  alignas(64) E buf[kMaxVectorBytes / 4];
  StoreWide(v, d, buf);
  std::memcpy(p, buf, n * sizeof(E));
}

// Lanes(d64) elements of float32/float16 as float64 (exact).
template <class D64, class E>
HWY_INLINE hn::Vec<D64> LoadAsF64(D64 d64, const E* HWY_RESTRICT p) {
  const hn::Rebind<float, D64> df;
  return hn::PromoteTo(d64, LoadLanes(df, p));
}
template <class D64, class E>
HWY_INLINE hn::Vec<D64> LoadAsF64Tail(D64 d64, const E* HWY_RESTRICT p, size_t n) {
  const hn::Rebind<float, D64> df;
  return hn::PromoteTo(d64, LoadLanesTail(df, p, n));
}

// Adds sum(x - k) into a0 + a1 and sum((x - k)^2) into q0 + q1 over p[0, n),
// in float64 (two accumulators each, for latency).
template <class D, class E>
HWY_INLINE void AccumulateShiftedMoments(D d, const E* HWY_RESTRICT p, size_t n, hn::Vec<D> kv, hn::Vec<D>& a0,
                                         hn::Vec<D>& a1, hn::Vec<D>& q0, hn::Vec<D>& q1) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto v0 = hn::Sub(LoadAsF64(d, p + i), kv);
    const auto v1 = hn::Sub(LoadAsF64(d, p + i + N), kv);
    a0 = hn::Add(a0, v0);
    a1 = hn::Add(a1, v1);
    q0 = hn::MulAdd(v0, v0, q0);
    q1 = hn::MulAdd(v1, v1, q1);
  }
  for (; i < n; i += N) {
    const size_t c = std::min(N, n - i);
    const auto v = hn::IfThenElseZero(hn::FirstN(d, c), hn::Sub(c == N ? LoadAsF64(d, p + i) : LoadAsF64Tail(d, p + i, c), kv));
    a0 = hn::Add(a0, v);
    q0 = hn::MulAdd(v, v, q0);
  }
}

// float64 -> float16 in two steps rounds twice; rounding to float32
// precision "to odd" first (sticky bit in the last kept place) makes the
// second rounding the correct one, since float32 keeps 13 more bits.
template <class D64>
HWY_INLINE hn::Vec<D64> RoundToOddF32Precision(D64 d64, hn::Vec<D64> v) {
  const hn::RebindToUnsigned<D64> du;
  const auto bits = hn::BitCast(du, v);
  const auto low = hn::Set(du, (uint64_t{1} << 29) - 1);
  const auto sticky = hn::Ne(hn::And(bits, low), hn::Zero(du));
  const auto odd = hn::IfThenElseZero(sticky, hn::Set(du, uint64_t{1} << 29));
  return hn::BitCast(d64, hn::Or(hn::AndNot(low, bits), odd));
}


// Stores Lanes(d64) float64 values as E, rounding once.
template <class D64, class E>
HWY_INLINE void StoreF64As(hn::Vec<D64> v, D64 d64, E* HWY_RESTRICT p) {
  const hn::Rebind<float, D64> df;
  if constexpr (std::is_same_v<E, F16>) {
    StoreLanes(DemoteF64ToF32(d64, RoundToOddF32Precision(d64, v)), df, p);
  } else {
    hn::StoreU(DemoteF64ToF32(d64, v), df, p);
  }
}

template <class D64, class E>
HWY_INLINE void StoreF64AsTail(hn::Vec<D64> v, D64 d64, E* HWY_RESTRICT p, size_t n) {
  alignas(64) E buf[kMaxVectorBytes / sizeof(double)];
  StoreF64As(v, d64, buf);
  std::memcpy(p, buf, n * sizeof(E));
}

// ---------------------------------------------------------------- integers
// a * b modulo 2^bits (two's complement wrap), for 32- and 64-bit lanes.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V MulWrap(D d, V a, V b) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 8) {
    const hn::RebindToUnsigned<D> du;
#if HWY_TARGET == HWY_SCALAR || (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3)
    return hn::BitCast(d, hn::Mul(hn::BitCast(du, a), hn::BitCast(du, b)));
#else
    // lo(a)lo(b) + 2^32 (hi(a)lo(b) + lo(a)hi(b)): three 32x32->64 products.
    const hn::Repartition<uint32_t, decltype(du)> d32;
    const auto ua = hn::BitCast(du, a), ub = hn::BitCast(du, b);
    const auto lolo = hn::MulEven(hn::BitCast(d32, ua), hn::BitCast(d32, ub));
    const auto hilo = hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(ua)), hn::BitCast(d32, ub));
    const auto lohi = hn::MulEven(hn::BitCast(d32, ua), hn::BitCast(d32, hn::ShiftRight<32>(ub)));
    return hn::BitCast(d, hn::Add(lolo, hn::ShiftLeft<32>(hn::Add(hilo, lohi))));
#endif
  } else {
    return hn::Mul(a, b);
  }
}

// |x| with wrap (|INT_MIN| = INT_MIN); unsigned values unchanged.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V AbsWrap(D, V x) {
  if constexpr (std::is_signed_v<hn::TFromD<D>>) return hn::Abs(x);
  else return x;
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#endif  // WEBNN_OPS_CPU_REDUCE_INL_H_ toggle
