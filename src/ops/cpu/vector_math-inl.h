// SIMD helpers shared by the element-wise cpu kernels (elementwise_binary,
// elementwise_unary, activation, comparison, logical, where, prelu, cast,
// quantize_linear), beyond what hwy/contrib/math provides: IEEE special cases
// around Highway's Exp/Log, erf/erfc/gelu/sigmoid/softplus accurate to a few
// ULP, float16 conversions that round to nearest even on every target,
// float64 -> float16 with a single rounding, element layouts (float16 or
// small integers computed in wider lanes), row loops with streaming stores,
// tail loads/stores that never touch memory past the end, and the broadcast
// row drivers.
//
// Include from a foreach_target translation unit (after hwy/highway.h); the
// toggle guard below compiles the SIMD part once per target. Everything is in
// unnamed namespaces: other kernels define helpers with the same names
// (MulWrap, ExpNonPositive, DemoteF64ToF32) in the same namespaces.

// Target-independent part: the broadcast row drivers.
#ifndef WEBNN_OPS_CPU_VECTOR_MATH_ONCE_H_
#define WEBNN_OPS_CPU_VECTOR_MATH_ONCE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/parallel.h"
#include "ops/cpu/broadcast.h"
#include "ops/kernel.h"

namespace webnn::ops::cpu {
namespace {

// Element-wise work below this many elements stays on the calling thread:
// waking a second one costs about as much as streaming 32K floats.
inline constexpr size_t kElementwiseGrain = 32768;
// Transcendental kernels (gelu, erf, pow, ...) spend ~10x more per element.
inline constexpr size_t kTranscendentalGrain = 4096;
// Outputs at least this large are written with streaming stores: they cannot
// stay in the last-level cache (32 MiB on the EPYC we measure on, 8-32 MiB on
// desktops) for their consumer anyway.
inline constexpr uint64_t kStreamingBytes = uint64_t{16} << 20;

// Calls row(offsets, out_offset, count) over runs of the output that are
// contiguous rows of `plan` (offsets[i]: element offset of input i, which
// advances along the run iff plan.InnerContiguous(i)). The output is split
// into equal element ranges, so a few long rows still use every thread.
template <class RowFn>
void ForEachBroadcastRun(core::ParallelFor& parallel, const BroadcastPlan& plan, size_t num_inputs, size_t grain,
                         const RowFn& row) {
  const uint64_t inner = plan.inner();
  parallel.Run(static_cast<size_t>(plan.elements()), grain, [&](size_t begin, size_t end) {
    uint64_t offsets[8];
    uint64_t p = begin;
    while (p < end) {
      const uint64_t r = p / inner;
      const uint64_t c = p % inner;
      const size_t count = static_cast<size_t>(std::min<uint64_t>(inner - c, end - p));
      for (size_t i = 0; i < num_inputs; ++i) offsets[i] = plan.RowOffset(i, r) + (plan.InnerContiguous(i) ? c : 0);
      row(static_cast<const uint64_t*>(offsets), p, count);
      p += count;
    }
  });
}

// Element offsets of one broadcast input at the starts of consecutive output
// rows of `inner` elements, in O(1) per row (BroadcastPlan::RowOffset divides
// per dimension, which costs more than a 7-element row).
class RowWalker {
 public:
  RowWalker(const std::vector<uint32_t>& out, const std::vector<uint32_t>& in, uint64_t inner) {
    // Output dims left of the trailing ones that make up a row.
    size_t k = out.size();
    for (uint64_t covered = 1; k > 0 && covered < inner;) covered *= out[--k];
    uint64_t stride = 1;
    std::vector<uint64_t> in_strides(out.size(), 0);
    for (size_t d = out.size(); d-- > 0;) {
      if (d + in.size() < out.size()) break;
      const uint32_t size = in[d + in.size() - out.size()];
      if (size != 1) in_strides[d] = stride;
      stride *= size;
    }
    sizes_.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(k));
    strides_.assign(in_strides.begin(), in_strides.begin() + static_cast<std::ptrdiff_t>(k));
    index_.assign(k, 0);
  }
  // Positions the walker at row r; returns its offset.
  uint64_t Seek(uint64_t r) {
    offset_ = 0;
    for (size_t d = sizes_.size(); d-- > 0;) {
      index_[d] = r % sizes_[d];
      r /= sizes_[d];
      offset_ += index_[d] * strides_[d];
    }
    return offset_;
  }
  // Advances to the next row; returns its offset.
  uint64_t Next() {
    for (size_t d = sizes_.size(); d-- > 0;) {
      offset_ += strides_[d];
      if (++index_[d] < sizes_[d]) return offset_;
      offset_ -= strides_[d] * sizes_[d];
      index_[d] = 0;
    }
    return offset_;
  }

 private:
  std::vector<uint64_t> sizes_, strides_, index_;
  uint64_t offset_ = 0;
};

// Fills dst[0, n) with copies of the element at src (size 1, 2, 4 or 8 bytes).
inline void FillElement(std::byte* dst, const std::byte* src, size_t n, size_t size) {
  auto fill = [&](auto v) {
    std::memcpy(&v, src, sizeof(v));
    std::fill_n(reinterpret_cast<decltype(v)*>(dst), n, v);
  };
  switch (size) {
    case 1: return fill(uint8_t{});
    case 2: return fill(uint16_t{});
    case 4: return fill(uint32_t{});
    default: return fill(uint64_t{});
  }
}

// A two-input element-wise op over a broadcast plan, calling
// row(a, a_vec, b, b_vec, out, n) on byte pointers. Short rows (a per-channel
// operand: NHWC's channel vector repeated per pixel, NCHW's one scalar per
// H*W row, e.g. [1, 2048, 7, 7] + [2048, 1, 1]) would mean one call per 7-64
// elements; when the other operand is full-size, the small one is expanded
// into a ~4096-element L1 tile instead (the repeated row once, or the row
// scalars per chunk), so runs are tile-long with both inputs advancing.
template <class RowFn>
void ForEachBinaryRun(core::ParallelFor& parallel, const BroadcastPlan& plan, const TensorView& a, const TensorView& b,
                      const TensorView& out, size_t grain, const RowFn& row) {
  constexpr uint64_t kTileElements = 4096;
  const size_t size = ByteLengthFor(out.type, 1);
  const uint64_t inner = plan.inner(), total = plan.elements();
  int small = -1;  // the per-channel operand
  if (plan.rows() > 1 && inner < 1024) {
    for (int i = 0; i < 2; ++i) {
      const TensorView& s = i == 0 ? a : b;
      const TensorView& other = i == 0 ? b : a;
      const bool repeated_row = plan.InnerContiguous(i) && s.elements() == inner;
      const bool row_scalars = !plan.InnerContiguous(i) && inner <= kTileElements / 8;
      if (other.elements() == total && (repeated_row || row_scalars)) small = i;
    }
  }
  if (small < 0) {
    const bool a_vec = plan.InnerContiguous(0), b_vec = plan.InnerContiguous(1);
    ForEachBroadcastRun(parallel, plan, 2, grain, [&](const uint64_t* off, uint64_t o, size_t n) {
      row(a.data + off[0] * size, a_vec, b.data + off[1] * size, b_vec, out.data + o * size, n);
    });
    return;
  }
  const TensorView& s = small == 0 ? a : b;
  const TensorView& full = small == 0 ? b : a;
  auto call = [&](const std::byte* tile, uint64_t p, size_t n) {
    const std::byte* f = full.data + p * size;
    if (small == 0) row(tile, true, f, true, out.data + p * size, n);
    else row(f, true, tile, true, out.data + p * size, n);
  };
  if (plan.InnerContiguous(small)) {
    // The same row everywhere: one shared tile of whole rows.
    const uint64_t tile_elements = std::max<uint64_t>(1, kTileElements / inner) * inner;
    std::vector<std::byte> tile(tile_elements * size);
    for (uint64_t c = 0; c < tile_elements; c += inner) std::memcpy(tile.data() + c * size, s.data, inner * size);
    parallel.Run(static_cast<size_t>(total), grain, [&](size_t begin, size_t end) {
      for (uint64_t p = begin; p < end;) {
        const uint64_t phase = p % inner;  // the tile starts on a row boundary
        const size_t n = static_cast<size_t>(std::min<uint64_t>(tile_elements - phase, end - p));
        call(tile.data() + phase * size, p, n);
        p += n;
      }
    });
    return;
  }
  // One scalar per row: each chunk expands the scalars of up to 4096
  // elements' worth of rows into its own tile.
  parallel.Run(static_cast<size_t>(total), grain, [&](size_t begin, size_t end) {
    alignas(64) std::byte tile[kTileElements * 8];
    RowWalker walker(out.shape, s.shape, inner);
    uint64_t row_offset = walker.Seek(begin / inner);
    for (uint64_t p = begin; p < end;) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kTileElements, end - p));
      for (uint64_t q = p; q < p + n;) {
        const uint64_t len = std::min<uint64_t>(inner - q % inner, p + n - q);
        FillElement(tile + (q - p) * size, s.data + row_offset * size, static_cast<size_t>(len), size);
        q += len;
        if (q % inner == 0) row_offset = walker.Next();
      }
      call(tile, p, n);
      p += n;
    }
  });
}

}  // namespace
}  // namespace webnn::ops::cpu

#endif  // WEBNN_OPS_CPU_VECTOR_MATH_ONCE_H_

#if defined(WEBNN_OPS_CPU_VECTOR_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WEBNN_OPS_CPU_VECTOR_MATH_INL_H_
#undef WEBNN_OPS_CPU_VECTOR_MATH_INL_H_
#else
#define WEBNN_OPS_CPU_VECTOR_MATH_INL_H_
#endif

#include <hwy/cache_control.h>
#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/float16.h"

#include "ops/cpu/float16-inl.h"  // F16BitsToF32, F32ToF16Bits, WEBNN_NATIVE_F16

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage (see the top of the file)

// ---------------------------------------------------------------------------
// Partial vectors. A row's last vector goes through a stack buffer, so no
// target ever reads or writes past the end of a tensor (AVX2 has no masked
// byte loads; Highway's MaskedLoad emulation reads the full vector).
// ---------------------------------------------------------------------------

// hn::TruncateTo (keep the low bits of each unsigned lane), except on AVX3_DL,
// where Highway 1.0.3 gets it wrong: x86_512-inl.h's u32->u8 permutes with
// _mm512_permutexvar_epi32 instead of _epi8, and x86_256-inl.h's
// LookupAndConcatHalves/Quarters and u64->u8 pass index and table to
// _mm256_permutexvar_epi8 swapped (wrong 512-bit u32->u8 and 256-bit u32->u8,
// u32->u16, u16->u8, u64->u8, u64->u16). There the low bits are masked and
// narrowed with DemoteTo (packs, no AVX3_DL code), whose saturation then
// changes nothing; 64-bit lanes go through u64->u32, which is correct.
template <class DN, class V>
HWY_INLINE hn::Vec<DN> Truncate(DN dn, V v) {
#if HWY_TARGET == HWY_AVX3_DL
  using TW = hn::TFromV<V>;
  using TN = hn::TFromD<DN>;
  const hn::DFromV<V> dw;
  if constexpr (sizeof(TW) == 8) {
    const auto v32 = hn::TruncateTo(hn::Rebind<uint32_t, decltype(dw)>(), v);
    if constexpr (sizeof(TN) == 4) return v32;
    else return Truncate(dn, v32);
  } else {
    const auto low = hn::And(v, hn::Set(dw, static_cast<TW>(std::numeric_limits<TN>::max())));
    return hn::DemoteTo(dn, hn::BitCast(hn::RebindToSigned<decltype(dw)>(), low));
  }
#else
  return hn::TruncateTo(dn, v);
#endif
}

template <class D>
HWY_INLINE hn::Vec<D> LoadPart(D d, const hn::TFromD<D>* HWY_RESTRICT p, size_t count) {
  using T = hn::TFromD<D>;
  if (HWY_LIKELY(count >= hn::Lanes(d))) return hn::LoadU(d, p);
  HWY_ALIGN T buf[HWY_MAX_BYTES / sizeof(T)] = {};
  std::memcpy(buf, p, count * sizeof(T));
  return hn::Load(d, buf);
}

template <class D>
HWY_INLINE void StorePart(hn::Vec<D> v, D d, hn::TFromD<D>* HWY_RESTRICT p, size_t count) {
  using T = hn::TFromD<D>;
  if (HWY_LIKELY(count >= hn::Lanes(d))) return hn::StoreU(v, d, p);
  HWY_ALIGN T buf[HWY_MAX_BYTES / sizeof(T)];
  hn::Store(v, d, buf);
  std::memcpy(p, buf, count * sizeof(T));
}

// float16 elements (bits) to float32 lanes and back, `count` < Lanes for tails.
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF16(DF df, const uint16_t* HWY_RESTRICT p, size_t count) {
  const hn::Rebind<uint16_t, DF> du16;
  return F16BitsToF32(df, LoadPart(du16, p, count));
}
template <class DF>
HWY_INLINE void StoreF16(hn::Vec<DF> v, DF df, uint16_t* HWY_RESTRICT p, size_t count) {
  const hn::Rebind<uint16_t, DF> du16;
  StorePart(F32ToF16Bits(df, v), du16, p, count);
}


// The rounding error of a * b (a * b - fl(a * b), exact): one FMA, or
// Dekker's product on targets without FMA (SSE4, scalar), where MulSub is a
// rounded multiply and subtract.
template <class D, class V>
HWY_INLINE V ProductError(D d, V a, V b, V p) {
#if HWY_NATIVE_FMA
  (void)d;
  return hn::MulSub(a, b, p);
#else
  const V split = hn::Set(d, 4097.0f);  // 2^12 + 1: halves of 12 bits
  const V ca = hn::Mul(a, split);
  const V ahi = hn::Sub(ca, hn::Sub(ca, a));
  const V alo = hn::Sub(a, ahi);
  const V cb = hn::Mul(b, split);
  const V bhi = hn::Sub(cb, hn::Sub(cb, b));
  const V blo = hn::Sub(b, bhi);
  return hn::Add(hn::Add(hn::Add(hn::Sub(hn::Mul(ahi, bhi), p), hn::Mul(ahi, blo)), hn::Mul(alo, bhi)),
                 hn::Mul(alo, blo));
#endif
}

// a * b + c with one rounding where FMA exists; elsewhere the exact product
// error is added last, which is the same except for a half-ulp double
// rounding when nothing cancels (and exact when a * b ~ -c, where a plain
// multiply-add loses everything: linear(x) = alpha * x + beta near its root).
template <class D, class V>
HWY_INLINE V MulAddAccurate(D d, V a, V b, V c) {
#if HWY_NATIVE_FMA
  (void)d;
  return hn::MulAdd(a, b, c);
#else
  const V p = hn::Mul(a, b);
  V err = ProductError(d, a, b, p);
  err = hn::IfThenZeroElse(hn::Not(hn::IsFinite(err)), err);  // the split overflows beyond ~1e34
  return hn::Add(hn::Add(p, c), err);
#endif
}

// float64 -> float32 rounded to odd: the nearest-even result, moved one ulp
// toward the exact value when it is inexact and even. A second rounding of
// such a value to float16 (11 bits << 24 - 2) equals the correct single
// rounding of the float64, which is what the reference device computes.
template <class DD>
HWY_INLINE hn::Vec<hn::Rebind<float, DD>> DemoteToF32RoundOdd(DD dd, hn::Vec<DD> v) {
  const hn::Rebind<float, DD> df;
  const hn::Rebind<int32_t, DD> di;
  const auto f = DemoteF64ToF32(dd, v);
  const auto back = hn::PromoteTo(dd, f);
  const auto inexact = hn::Not(hn::Or(hn::Eq(back, v), hn::IsNaN(v)));
  // +1 / -1 ulp in magnitude (float bits are sign-magnitude).
  const auto step_d = hn::IfThenElseZero(
      inexact, hn::IfThenElse(hn::Gt(hn::Abs(v), hn::Abs(back)), hn::Set(dd, 1.0), hn::Set(dd, -1.0)));
  const auto step = hn::DemoteTo(di, step_d);
  const auto bits = hn::BitCast(di, f);
  const auto even = hn::Eq(hn::And(bits, hn::Set(di, 1)), hn::Zero(di));
  return hn::BitCast(df, hn::Add(bits, hn::IfThenElseZero(even, step)));
}

// ---------------------------------------------------------------------------
// Highway's Exp/Expm1/Log are specified on a range; these wrap them with the
// IEEE results outside it (NaN in -> NaN out, overflow -> Inf, log of 0 / < 0).
// ---------------------------------------------------------------------------

// e^x for x in [-104, 100] (callers clamp): Highway's Cody-Waite reduction
// and polynomial (1 ULP), with q = round(x / log 2) taken by adding 1.5 * 2^23
// (the integer lands in the low mantissa bits: q as float and as int without
// conversions or Highway's overflow fix-ups, ~20% fewer instructions), and
// the two-step power-of-two scaling that rounds subnormal results once and
// overflows to Inf above 88.73.
template <class D, class V>
HWY_INLINE V ExpClamped(D d, V x) {
  hn::impl::ExpImpl<float> impl;
  const hn::Rebind<int32_t, D> di;
  const V magic = hn::Set(d, 12582912.0f);
  const V biased = hn::MulAdd(x, hn::Set(d, 1.442695040888963407359924681f), magic);
  const V qf = hn::Sub(biased, magic);
  const auto q = hn::Sub(hn::BitCast(di, biased), hn::BitCast(di, magic));
  V r = hn::MulAdd(qf, hn::Set(d, -0.693145751953125f), x);
  r = hn::MulAdd(qf, hn::Set(d, -1.428606765330187045e-6f), r);
  return impl.LoadExpShortRange(d, hn::Add(impl.ExpPoly(d, r), hn::Set(d, 1.0f)), q);
}

// exp(x) with IEEE special cases: 0 below -104 (where e^x rounds to 0), Inf
// above 88.73, NaN passed through.
template <class D, class V>
HWY_INLINE V ExpIeee(D d, V x) {
  const V y = ExpClamped(d, hn::Min(hn::Max(x, hn::Set(d, -104.0f)), hn::Set(d, 100.0f)));
  return hn::IfThenElse(hn::IsNaN(x), x, y);
}

template <class D, class V>
HWY_INLINE V Expm1Ieee(D d, V x) {
  const V y = hn::Expm1(d, hn::Min(x, hn::Set(d, 100.0f)));
  // NaN, and zeros keep their sign (expm1(-0) = -0, as the reference).
  return hn::IfThenElse(hn::Or(hn::IsNaN(x), hn::Eq(x, hn::Zero(d))), x, y);
}

template <class D, class V>
HWY_INLINE V LogIeee(D d, V x) {
  using T = hn::TFromD<D>;
  V y = hn::Log(d, x);
  y = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Set(d, -std::numeric_limits<T>::infinity()), y);
  y = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Set(d, std::numeric_limits<T>::quiet_NaN()), y);
  y = hn::IfThenElse(hn::Eq(x, hn::Set(d, std::numeric_limits<T>::infinity())), x, y);
  return hn::IfThenElse(hn::IsNaN(x), x, y);
}

// 1 / v for v in [1, 64] (no zeros, infinities or subnormals): the hardware
// estimate (14 bits on AVX-512, 12 on AVX2/SSE4/NEON) and one Newton step,
// within ~2^-23 relative; several times cheaper than a division.
template <class D, class V>
HWY_INLINE V ReciprocalNR(D d, V v) {
  const V r = hn::ApproximateReciprocal(v);
  return hn::Mul(r, hn::NegMulAdd(v, r, hn::Set(d, 2.0f)));
}

// e^x for x <= 0 (NaN in, unspecified out: callers pass NaN through
// themselves).
template <class D, class V>
HWY_INLINE V ExpNonPositive(D d, V x) {
  return ExpClamped(d, hn::Max(x, hn::Set(d, -104.0f)));
}

// ---------------------------------------------------------------------------
// erfc and friends (float32).
//
// erfc(a), a >= 0, as t * exp(-a^2 + P) with t = 1 / (1 + a/2) (Numerical
// Recipes' erfcc: relative error < 1.2e-7 for every a >= 0). Three details
// keep the float32 evaluation at that level (measured over every float32 and
// every target: gelu within 5 ULP of the float64 oracle, WPT allows 18):
//  - P is expanded in u = 1 - t = a/2 * t, so P(0) = 0 exactly and small
//    arguments do not cancel (in t, nine terms of ~1 sum to ~0);
//  - -a^2 is a float pair (exact square via FMA, or Dekker without FMA), and
//    the exponential's argument reduction subtracts q * log 2 from its high
//    part first (exact: Sterbenz), before the small terms are added: for
//    a = 9, one rounding of a^2 = 81 alone would cost 80 ULP;
//  - the result comes back unscaled (polynomial part and power of two), so
//    the caller multiplies its prefactor in before the final scaling and the
//    subnormal tail (gelu(-13.5) ~ 1e-40) is rounded once.
// ---------------------------------------------------------------------------

template <class D, class V, class VI>
HWY_INLINE V ApplyScale(D d, V x, VI k) {
  hn::impl::ExpImpl<float> impl;
  return impl.LoadExpShortRange(d, x, k);
}

// a/2 = ha >= 0 (finite, a <= 10.6); -a^2 = na2hi + na2lo exactly.
// erfc(a) = t * mantissa * 2^k: returns the mantissa (e^r, r in about
// [-log(2)/2, log(2)/2]) and sets t and k. (Out-parameters, not a struct:
// SVE vectors are sizeless and cannot be members.)
template <class D, class V>
HWY_INLINE V ErfcScaled(D d, V ha, V na2hi, V na2lo, V* t_out, hn::Vec<hn::Rebind<int32_t, D>>* k_out) {
  hn::impl::ExpImpl<float> impl;
  const V t = ReciprocalNR(d, hn::Add(ha, hn::Set(d, 1.0f)));
  const V u = hn::Mul(ha, t);
  // Numerical Recipes' coefficients re-expanded around t = 1 (u = 0).
  V p = hn::Set(d, -0.17087277f);
  p = hn::MulAdd(p, u, hn::Set(d, 0.7157027f));
  p = hn::MulAdd(p, u, hn::Set(d, -1.06271775f));
  p = hn::MulAdd(p, u, hn::Set(d, 0.61745735f));
  p = hn::MulAdd(p, u, hn::Set(d, -0.2159216f));
  p = hn::MulAdd(p, u, hn::Set(d, 0.25736096f));
  p = hn::MulAdd(p, u, hn::Set(d, 0.15292371f));
  p = hn::MulAdd(p, u, hn::Set(d, -0.30267231f));
  p = hn::MulAdd(p, u, hn::Set(d, -1.25677255f));
  p = hn::Mul(p, u);  // in [-1.27, 0]
  // e^(na2hi + p + na2lo): q = round((na2hi + p) / log 2) (the sum is <= 0),
  // then r = na2hi - q * log2_hi (exact) + p - q * log2_lo + na2lo.
  // Adding 1.5 * 2^23 rounds to an integer held in the low mantissa bits:
  // q as float and int without conversions (|q| <= 170).
  const hn::Rebind<int32_t, D> di;
  const V magic = hn::Set(d, 12582912.0f);
  const V biased = hn::MulAdd(hn::Add(na2hi, p), hn::Set(d, 1.442695040888963407359924681f), magic);
  const V qf = hn::Sub(biased, magic);
  const auto q = hn::Sub(hn::BitCast(di, biased), hn::BitCast(di, magic));
  V r = hn::MulAdd(qf, hn::Set(d, -0.693145751953125f), na2hi);
  r = hn::Add(r, p);
  r = hn::MulAdd(qf, hn::Set(d, -1.428606765330187045e-6f), r);
  r = hn::Add(r, na2lo);
  *t_out = t;
  *k_out = q;
  return hn::Add(impl.ExpPoly(d, r), hn::Set(d, 1.0f));
}

// gelu(x) = x * Phi(x) = x/2 * erfc(-x / sqrt(2)).
template <class D, class V>
HWY_INLINE V GeluF32(D d, V x) {
  // Below -14.9, gelu rounds to -0 (and -15 keeps -Inf out of the products);
  // above 15, Phi rounds to 1.
  const V xm = hn::Max(x, hn::Set(d, -15.0f));
  const V xc = hn::Min(xm, hn::Set(d, 15.0f));
  // a = |x| / sqrt(2); -a^2 = -x^2 / 2 from the exact square of x.
  const V ha = hn::Mul(hn::Abs(xc), hn::Set(d, 0.35355339059327376f));
  const V x2 = hn::Mul(xc, xc);
  const V x2lo = ProductError(d, xc, xc, x2);
  const V nhalf = hn::Set(d, -0.5f);
  V t;
  hn::Vec<hn::Rebind<int32_t, D>> k;
  const V mantissa = ErfcScaled(d, ha, hn::Mul(x2, nhalf), hn::Mul(x2lo, nhalf), &t, &k);
  // Phi(x) = erfc(a) / 2 for x < 0, 1 - erfc(a) / 2 otherwise. For x < 0 the
  // factor x goes in before the power-of-two scaling, so that a subnormal
  // result is rounded once.
  const auto neg = hn::Lt(x, hn::Zero(d));
  const V m = hn::Mul(hn::Mul(hn::Set(d, 0.5f), t), mantissa);
  const V scaled = ApplyScale(d, hn::IfThenElse(neg, hn::Mul(xm, m), m), k);
  const V r = hn::IfThenElse(neg, scaled, hn::Mul(x, hn::Sub(hn::Set(d, 1.0f), scaled)));
  return hn::IfThenElse(hn::IsNaN(x), x, r);
}

// erf(x): odd Taylor series below 0.5 (truncation < 3e-9 relative), 1 - erfc
// above.
template <class D, class V>
HWY_INLINE V ErfF32(D d, V x) {
  const V ax = hn::Min(hn::Abs(x), hn::Set(d, 10.0f));  // erf(10) rounds to 1
  const V a2 = hn::Mul(ax, ax);
  const V a2lo = ProductError(d, ax, ax, a2);
  V t;
  hn::Vec<hn::Rebind<int32_t, D>> k;
  const V mantissa = ErfcScaled(d, hn::Mul(ax, hn::Set(d, 0.5f)), hn::Neg(a2), hn::Neg(a2lo), &t, &k);
  const V big = hn::Sub(hn::Set(d, 1.0f), ApplyScale(d, hn::Mul(t, mantissa), k));
  // 2/sqrt(pi) * (x - x^3/3 + x^5/10 - x^7/42 + x^9/216 - x^11/1320)
  V p = hn::Set(d, -1.0f / 1320);
  p = hn::MulAdd(p, a2, hn::Set(d, 1.0f / 216));
  p = hn::MulAdd(p, a2, hn::Set(d, -1.0f / 42));
  p = hn::MulAdd(p, a2, hn::Set(d, 1.0f / 10));
  p = hn::MulAdd(p, a2, hn::Set(d, -1.0f / 3));
  p = hn::MulAdd(p, a2, hn::Set(d, 1.0f));
  const V small = hn::Mul(hn::Mul(p, ax), hn::Set(d, 1.1283791670955126f));
  const V r = hn::IfThenElse(hn::Lt(ax, hn::Set(d, 0.5f)), small, big);
  return hn::IfThenElse(hn::IsNaN(x), x, hn::CopySignToAbs(r, x));
}

// sigmoid(x) = 1 / (1 + e^-x), as e = e^-|x|, r = 1 / (1 + e), and e * r for
// x < 0 so that the far negative side underflows gradually (sigmoid(-95) is a
// float32 subnormal, not 0).
template <class D, class V>
HWY_INLINE V SigmoidF32(D d, V x) {
  const V nx = hn::Or(x, hn::Set(d, -0.0f));  // -|x|
  V e;
  if (HWY_LIKELY(hn::AllFalse(d, hn::Lt(nx, hn::Set(d, -87.0f))))) {
    // e^-|x| >= 2^-126 is normal: one power-of-two scaling by building the
    // exponent directly (sigmoid is compute-bound; this is ~20% of its work).
    hn::impl::ExpImpl<float> impl;
    const hn::Rebind<int32_t, D> di;
    const V magic = hn::Set(d, 12582912.0f);
    const V biased = hn::MulAdd(nx, hn::Set(d, 1.442695040888963407359924681f), magic);
    const V qf = hn::Sub(biased, magic);
    const auto q = hn::Sub(hn::BitCast(di, biased), hn::BitCast(di, magic));  // in [-126, 0]
    V r = hn::MulAdd(qf, hn::Set(d, -0.693145751953125f), nx);
    r = hn::MulAdd(qf, hn::Set(d, -1.428606765330187045e-6f), r);
    const V scale = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(q, hn::Set(di, 127))));
    e = hn::Mul(hn::Add(impl.ExpPoly(d, r), hn::Set(d, 1.0f)), scale);
  } else {
    e = ExpNonPositive(d, nx);  // subnormal results rounded once
  }
  const V r = ReciprocalNR(d, hn::Add(hn::Set(d, 1.0f), e));
  const V y = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Mul(e, r), r);
  return hn::IfThenElse(hn::IsNaN(x), x, y);
}

// softplus(x) = log(1 + e^x) = max(x, 0) + log1p(e^-|x|).
template <class D, class V>
HWY_INLINE V SoftplusF32(D d, V x) {
  const V e = ExpNonPositive(d, hn::Or(x, hn::Set(d, -0.0f)));  // e^-|x|
  const V y = hn::Add(hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x), hn::Log1p(d, e));
  return hn::IfThenElse(hn::IsNaN(x), x, y);
}

// tanh with Highway's Tanh (4 ULP) and NaN passed through.
template <class D, class V>
HWY_INLINE V TanhF32(D d, V x) {
  return hn::IfThenElse(hn::IsNaN(x), x, hn::Tanh(d, x));
}


// ---------------------------------------------------------------------------
// Integer helpers.
// ---------------------------------------------------------------------------

// Wrapping multiply for every integer lane size (Highway 1.0.3 has no 8-bit
// Mul): even bytes from the 16-bit product, odd bytes from hi(a) * (hi(b) << 8).
template <class D, class V>
HWY_INLINE V MulWrap(D d, V a, V b) {
  if constexpr (sizeof(hn::TFromD<D>) == 1) {
#if HWY_TARGET == HWY_SCALAR
    using T = hn::TFromD<D>;
    return hn::Set(d, static_cast<T>(static_cast<unsigned>(hn::GetLane(a)) * static_cast<unsigned>(hn::GetLane(b))));
#else
    const hn::RebindToUnsigned<D> du8;
    const hn::RepartitionToWide<decltype(du8)> d16;
    const auto a16 = hn::BitCast(d16, a);
    const auto b16 = hn::BitCast(d16, b);
    const auto even = hn::And(hn::Mul(a16, b16), hn::Set(d16, uint16_t{0x00FF}));
    const auto odd = hn::Mul(hn::ShiftRight<8>(a16), hn::And(b16, hn::Set(d16, uint16_t{0xFF00})));
    return hn::BitCast(d, hn::Or(even, odd));
#endif
  } else {
    return hn::Mul(a, b);
  }
}

// a >= b for any lane type (Highway 1.0.3 has >= for floats only).
template <class V>
HWY_INLINE auto GeAny(V a, V b) {
  if constexpr (hwy::IsFloat<hn::TFromV<V>>()) return hn::Ge(a, b);
  else return hn::Not(hn::Lt(a, b));
}

// A mask of D as uint8 0/1 lanes (same lane count).
template <class D, class M>
HWY_INLINE hn::Vec<hn::Rebind<uint8_t, D>> MaskToU8(D d, M m) {
  const hn::Rebind<uint8_t, D> d8;
  const hn::RebindToUnsigned<D> du;
  using TU = hn::TFromD<decltype(du)>;
  const auto ones = hn::IfThenElseZero(hn::RebindMask(du, m), hn::Set(du, TU{1}));
  if constexpr (sizeof(TU) == 1) {
    (void)d;
    return ones;
  } else {
    return Truncate(d8, ones);
  }
}

// uint8 conditions (non-zero = true) as a mask of D (same lane count).
template <class D>
HWY_INLINE hn::Mask<D> U8ToMask(D d, hn::Vec<hn::Rebind<uint8_t, D>> c) {
  const hn::RebindToUnsigned<D> du;
  using TU = hn::TFromD<decltype(du)>;
  if constexpr (sizeof(TU) == 1) {
    return hn::RebindMask(d, hn::Ne(c, hn::Zero(du)));
  } else if constexpr (sizeof(TU) == 8) {
    const hn::Rebind<uint32_t, D> d32;
    const auto w = hn::PromoteTo(du, hn::PromoteTo(d32, c));
    return hn::RebindMask(d, hn::Ne(w, hn::Zero(du)));
  } else {
    const auto w = hn::PromoteTo(du, c);
    return hn::RebindMask(d, hn::Ne(w, hn::Zero(du)));
  }
}

// ---------------------------------------------------------------------------
// Element layouts: how a tensor's elements are loaded into lanes of D, and
// stored back. Kernels are written once over these.
// ---------------------------------------------------------------------------

inline float HalfToFloat(uint16_t h) { return static_cast<float>(core::HalfBitsToDouble(h)); }

// T in memory, T lanes.
template <typename T>
struct NativeLanes {
  using M = T;
  using D = hn::ScalableTag<T>;
  static HWY_INLINE hn::Vec<D> Load(D d, const M* p, size_t count) { return LoadPart(d, p, count); }
  static HWY_INLINE hn::Vec<D> Splat(D d, const M* p) { return hn::Set(d, *p); }
  static HWY_INLINE void Store(hn::Vec<D> v, D d, M* p, size_t count) { StorePart(v, d, p, count); }
  static constexpr bool kCanStream = true;
  static HWY_INLINE void Stream(hn::Vec<D> v, D d, M* p) { hn::Stream(v, d, p); }
};

// float16 in memory, float32 lanes.
struct HalfLanes {
  using M = uint16_t;
  using D = hn::ScalableTag<float>;
  static HWY_INLINE hn::Vec<D> Load(D d, const M* p, size_t count) { return LoadF16(d, p, count); }
  static HWY_INLINE hn::Vec<D> Splat(D d, const M* p) { return hn::Set(d, HalfToFloat(*p)); }
  static HWY_INLINE void Store(hn::Vec<D> v, D d, M* p, size_t count) { StoreF16(v, d, p, count); }
  // Only where the float16 half of a float32 vector is a whole 16-byte vector
  // itself: Highway 1.0's x86 Stream of a 64-bit vector (SSE4: 4 floats as 4
  // float16) is a 16-byte movntdq, misaligned and writing 8 bytes too many.
  static constexpr bool kCanStream = HWY_MAX_BYTES / 2 >= 16;
  static HWY_INLINE void Stream(hn::Vec<D> v, D d, M* p) {
    const hn::Rebind<uint16_t, D> du16;
    hn::Stream(F32ToF16Bits(d, v), du16, p);
  }
};

// The layout of elements of type T (as VisitType gives them; float16 is
// hwy::float16_t) in lanes of their own type, float16 in float32 lanes.
template <typename T>
using LayoutOf = std::conditional_t<std::is_same_v<T, hwy::float16_t>, HalfLanes, NativeLanes<T>>;

// int8/uint8 in memory, float32 lanes (exact); stores keep the low 8 bits of
// the (integral) float values.
template <typename T>
struct ByteAsF32Lanes {
  using M = T;
  using D = hn::ScalableTag<float>;
  static constexpr bool kCanStream = false;
  static HWY_INLINE void Stream(hn::Vec<D> v, D d, M* p) { Store(v, d, p, hn::Lanes(d)); }
  static HWY_INLINE hn::Vec<D> Load(D d, const M* p, size_t count) {
    const hn::Rebind<T, D> dm;
    const hn::Rebind<int32_t, D> di;
    return hn::ConvertTo(d, hn::PromoteTo(di, LoadPart(dm, p, count)));
  }
  static HWY_INLINE hn::Vec<D> Splat(D d, const M* p) { return hn::Set(d, static_cast<float>(*p)); }
  static HWY_INLINE void Store(hn::Vec<D> v, D, M* p, size_t count) {
    const hn::Rebind<int32_t, D> di;
    const hn::Rebind<uint32_t, D> du;
    const hn::Rebind<uint8_t, D> d8;
    const hn::Rebind<T, D> dm;
    StorePart(hn::BitCast(dm, Truncate(d8, hn::BitCast(du, hn::ConvertTo(di, v)))), dm, p, count);
  }
};

// int32/uint32 in memory, float64 lanes (exact); stores keep the low 32 bits
// of the (integral) values.
template <typename T>
struct Int32AsF64Lanes {
  using M = T;
  using D = hn::ScalableTag<double>;
  static constexpr bool kCanStream = false;
  static HWY_INLINE void Stream(hn::Vec<D> v, D d, M* p) { Store(v, d, p, hn::Lanes(d)); }
  static HWY_INLINE hn::Vec<D> Load(D d, const M* p, size_t count) {
    const hn::Rebind<T, D> dm;
    if constexpr (hwy::IsSigned<T>()) {
      return hn::PromoteTo(d, LoadPart(dm, p, count));
    } else {
      const hn::Rebind<uint64_t, D> du64;
      const hn::Rebind<int64_t, D> di64;
      return hn::ConvertTo(d, hn::BitCast(di64, hn::PromoteTo(du64, LoadPart(dm, p, count))));
    }
  }
  static HWY_INLINE hn::Vec<D> Splat(D d, const M* p) { return hn::Set(d, static_cast<double>(*p)); }
  static HWY_INLINE void Store(hn::Vec<D> v, D, M* p, size_t count) {
    const hn::Rebind<int64_t, D> di64;
    const hn::Rebind<uint64_t, D> du64;
    const hn::Rebind<uint32_t, D> du32;
    const hn::Rebind<T, D> dm;
    StorePart(hn::BitCast(dm, Truncate(du32, hn::BitCast(du64, hn::ConvertTo(di64, v)))), dm, p, count);
  }
};

// float32 in memory, float64 lanes; stores round once to nearest even.
struct FloatAsF64Lanes {
  using M = float;
  using D = hn::ScalableTag<double>;
  static constexpr bool kCanStream = false;
  static HWY_INLINE void Stream(hn::Vec<D> v, D d, M* p) { Store(v, d, p, hn::Lanes(d)); }
  static HWY_INLINE hn::Vec<D> Load(D d, const M* p, size_t count) {
    const hn::Rebind<float, D> df;
    return hn::PromoteTo(d, LoadPart(df, p, count));
  }
  static HWY_INLINE hn::Vec<D> Splat(D d, const M* p) { return hn::Set(d, static_cast<double>(*p)); }
  static HWY_INLINE void Store(hn::Vec<D> v, D, M* p, size_t count) {
    const hn::Rebind<float, D> df;
    StorePart(DemoteF64ToF32(D(), v), df, p, count);
  }
};

// float16 in memory, float64 lanes; stores round once (via round-to-odd).
struct HalfAsF64Lanes {
  using M = uint16_t;
  using D = hn::ScalableTag<double>;
  static constexpr bool kCanStream = false;
  static HWY_INLINE void Stream(hn::Vec<D> v, D d, M* p) { Store(v, d, p, hn::Lanes(d)); }
  static HWY_INLINE hn::Vec<D> Load(D d, const M* p, size_t count) {
    const hn::Rebind<float, D> df;
    return hn::PromoteTo(d, LoadF16(df, p, count));
  }
  static HWY_INLINE hn::Vec<D> Splat(D d, const M* p) { return hn::Set(d, core::HalfBitsToDouble(*p)); }
  static HWY_INLINE void Store(hn::Vec<D> v, D d, M* p, size_t count) {
    const hn::Rebind<float, D> df;
    StoreF16(DemoteToF32RoundOdd(d, v), df, p, count);
  }
};


// Writes step(k, count) (a vector of D for elements [k, k + count)) over a
// row of n elements. With `stream`, the full vectors go out with streaming
// stores once `out` is vector-aligned: outputs far beyond the last-level
// cache are not read for ownership first (measured here: relu on 64 MiB
// 16-18 -> 22-34 GB/s, add 15-17 -> 19-23 GB/s on one core).
template <class Mem, class D, class Step>
HWY_INLINE void StoreRow(D d, typename Mem::M* out, size_t n, bool stream, const Step& step) {
  using M = typename Mem::M;
  const size_t N = hn::Lanes(d);
  size_t k = 0;
  const uintptr_t addr = reinterpret_cast<uintptr_t>(out);
  if (stream && Mem::kCanStream && n >= 4 * N && addr % sizeof(M) == 0) {
    const size_t vector_bytes = N * sizeof(M);
    const size_t head = (vector_bytes - addr % vector_bytes) % vector_bytes / sizeof(M);
    if (head) Mem::Store(step(0, head), d, out, head);
    for (k = head; k + N <= n; k += N) Mem::Stream(step(k, N), d, out + k);
    hwy::FlushStream();  // streaming stores are weakly ordered
  }
  for (; k + N <= n; k += N) Mem::Store(step(k, N), d, out + k, N);
  if (k < n) Mem::Store(step(k, n - k), d, out + k, n - k);
}

// out[k] = op(d, in[k]) over n elements of one layout (in and out may alias).
template <class Mem, class Op>
HWY_INLINE void UnaryLoop(const Op& op, const typename Mem::M* in, typename Mem::M* out, size_t n,
                          bool stream = false) {
  const typename Mem::D d;
  StoreRow<Mem>(d, out, n, stream, [&](size_t k, size_t c) { return op(d, Mem::Load(d, in + k, c)); });
}

// out[k] = op(d, a[k or 0], b[k or 0]) over one broadcast row (a/b advance
// along the row iff a_vec/b_vec), in one element layout.
template <class Mem, class Op>
HWY_INLINE void BinaryLoop(const Op& op, const void* a_raw, bool a_vec, const void* b_raw, bool b_vec, void* out_raw,
                           size_t n, bool stream = false) {
  using M = typename Mem::M;
  const M* a = static_cast<const M*>(a_raw);
  const M* b = static_cast<const M*>(b_raw);
  M* out = static_cast<M*>(out_raw);
  const typename Mem::D d;
  if (a_vec && b_vec) {
    StoreRow<Mem>(d, out, n, stream,
                  [&](size_t k, size_t c) { return op(d, Mem::Load(d, a + k, c), Mem::Load(d, b + k, c)); });
  } else if (a_vec) {
    const auto vb = Mem::Splat(d, b);
    StoreRow<Mem>(d, out, n, stream, [&](size_t k, size_t c) { return op(d, Mem::Load(d, a + k, c), vb); });
  } else if (b_vec) {
    const auto va = Mem::Splat(d, a);
    StoreRow<Mem>(d, out, n, stream, [&](size_t k, size_t c) { return op(d, va, Mem::Load(d, b + k, c)); });
  } else {
    const auto v = op(d, Mem::Splat(d, a), Mem::Splat(d, b));
    StoreRow<Mem>(d, out, n, stream, [&](size_t, size_t) { return v; });
  }
}

// out[k] = pred(d, a[k or 0], b[k or 0]) ? 1 : 0 as uint8 (comparisons, logical ops).
template <class Mem, class Pred>
HWY_INLINE void PredicateLoop(const Pred& pred, const void* a_raw, bool a_vec, const void* b_raw, bool b_vec,
                              void* out_raw, size_t n) {
  using M = typename Mem::M;
  const M* a = static_cast<const M*>(a_raw);
  const M* b = static_cast<const M*>(b_raw);
  uint8_t* out = static_cast<uint8_t*>(out_raw);
  const typename Mem::D d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const size_t N = hn::Lanes(d);
  auto row = [&](auto load_a, auto load_b) {
    size_t k = 0;
    for (; k + N <= n; k += N) StorePart(MaskToU8(d, pred(d, load_a(k, N), load_b(k, N))), d8, out + k, N);
    if (k < n) StorePart(MaskToU8(d, pred(d, load_a(k, n - k), load_b(k, n - k))), d8, out + k, n - k);
  };
  auto vector_of = [&](const M* p) { return [&d, p](size_t k, size_t c) { return Mem::Load(d, p + k, c); }; };
  // Re-splats per vector (the compiler hoists it): a lambda cannot capture
  // an SVE vector, which is sizeless.
  auto splat_of = [&](const M* p) { return [&d, p](size_t, size_t) { return Mem::Splat(d, p); }; };
  if (a_vec && b_vec) row(vector_of(a), vector_of(b));
  else if (a_vec) row(vector_of(a), splat_of(b));
  else if (b_vec) row(splat_of(a), vector_of(b));
  else row(splat_of(a), splat_of(b));
}

// Calls step(k, count) for each vector of N lanes over n elements.
template <class Step>
HWY_INLINE void ForEachVectorOf(size_t N, size_t n, const Step& step) {
  size_t k = 0;
  for (; k + N <= n; k += N) step(k, N);
  if (k < n) step(k, n - k);
}

// ---------------------------------------------------------------------------
// int4/uint4 <-> bytes. `in`/`out` start at an even element.
// ---------------------------------------------------------------------------

HWY_INLINE void UnpackNibbles(const uint8_t* in, uint8_t* out, size_t n, bool is_signed) {
#if HWY_TARGET == HWY_SCALAR
  // One lane: no byte repartition of a uint16 vector.
  for (size_t i = 0; i < n; ++i) {
    const uint8_t nibble = static_cast<uint8_t>((i & 1) ? (in[i / 2] >> 4) : (in[i / 2] & 0x0F));
    out[i] = is_signed ? static_cast<uint8_t>((nibble ^ 8) - 8) : nibble;
  }
#else
  const hn::ScalableTag<uint16_t> d16;
  const hn::Rebind<uint8_t, decltype(d16)> d8h;
  const hn::Repartition<uint8_t, decltype(d16)> d8;
  const size_t N = hn::Lanes(d16);
  ForEachVectorOf(N, (n + 1) / 2, [&](size_t k, size_t count) {
    auto w = hn::PromoteTo(d16, LoadPart(d8h, in + k, count));
    // Byte 2i: low nibble, byte 2i + 1: high nibble.
    w = hn::Or(hn::And(w, hn::Set(d16, uint16_t{0x0F})), hn::ShiftLeft<8>(hn::ShiftRight<4>(w)));
    auto b = hn::BitCast(d8, w);
    if (is_signed) b = hn::Sub(hn::Xor(b, hn::Set(d8, uint8_t{8})), hn::Set(d8, uint8_t{8}));  // sign-extend
    StorePart(b, d8, out + 2 * k, 2 * count);  // out has room for n rounded up to even
  });
#endif
}

HWY_INLINE void PackNibbles(const uint8_t* in, uint8_t* out, size_t n) {
  const hn::ScalableTag<uint16_t> d16;
  const hn::Rebind<uint8_t, decltype(d16)> d8h;
  const size_t pairs = n / 2;
  ForEachVectorOf(hn::Lanes(d16), pairs, [&](size_t k, size_t count) {
    HWY_ALIGN uint16_t buf[HWY_MAX_BYTES / sizeof(uint16_t)] = {};
    std::memcpy(buf, in + 2 * k, 2 * count);  // bytes as little-endian pairs
    const auto w = hn::Load(d16, buf);
    const auto packed =
        hn::Or(hn::And(w, hn::Set(d16, uint16_t{0x0F})), hn::ShiftLeft<4>(hn::And(hn::ShiftRight<8>(w), hn::Set(d16, uint16_t{0x0F}))));
    StorePart(Truncate(d8h, packed), d8h, out + k, count);
  });
  if (n & 1) out[pairs] = static_cast<uint8_t>(in[n - 1] & 0x0F);  // the other nibble is unused
}


// Applies a scalar function to the lanes of v where `mask` is set (rare
// out-of-range arguments), keeping the other lanes.
template <class D, class M, class F>
HWY_INLINE hn::Vec<D> PatchLanes(D d, hn::Vec<D> x, hn::Vec<D> y, M mask, const F& f) {
  using T = hn::TFromD<D>;
  HWY_ALIGN T vx[HWY_MAX_BYTES / sizeof(T)];
  HWY_ALIGN T vy[HWY_MAX_BYTES / sizeof(T)];
  hn::Store(x, d, vx);
  hn::Store(y, d, vy);
  const hn::RebindToSigned<D> di;
  using TI = hn::TFromD<decltype(di)>;
  HWY_ALIGN TI vm[HWY_MAX_BYTES / sizeof(T)];
  hn::Store(hn::VecFromMask(di, hn::RebindMask(di, mask)), di, vm);
  for (size_t i = 0; i < hn::Lanes(d); ++i)
    if (vm[i]) vy[i] = f(vx[i]);
  return hn::Load(d, vy);
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#endif  // WEBNN_OPS_CPU_VECTOR_MATH_INL_H_
