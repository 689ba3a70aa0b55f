// Per-target SIMD building blocks of the cpu data-movement kernels, written per
// element size: T is the unsigned lane type of that size (uint8_t, uint16_t,
// uint32_t, uint64_t), so all data types of one size share one instantiation.
// Pointers are byte pointers; elements may be unaligned. Masked loads are
// avoided: Highway 1.0.3 emulates 8/16-bit ones on AVX2/SSE4 with full loads
// that can read past a buffer; tails use overlapping vectors or scalars.
//
// Contents: short copies and fills, lane reversal, strided gathers, register-
// tile 2D transposes and (de)interleaving; gather/scatter index resolution.
//
// Include from a foreach_target translation unit, after <hwy/highway.h>.
// Every function here is a template or HWY_INLINE (several TUs include it).

// Per-target include guard (the Highway idiom).
#if defined(WEBNN_OPS_CPU_COPY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WEBNN_OPS_CPU_COPY_INL_H_
#undef WEBNN_OPS_CPU_COPY_INL_H_
#else
#define WEBNN_OPS_CPU_COPY_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <hwy/highway.h>

#include "ops/cpu/copy_util.h"

// Register-tile transposes keep arrays of vectors, which sizeless (SVE, RVV)
// and single-lane (HWY_SCALAR) targets cannot; those targets take the scalar
// paths below.
#undef WEBNN_COPY_TILES
#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
#define WEBNN_COPY_TILES 0
#else
#define WEBNN_COPY_TILES 1
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <typename T>
HWY_INLINE T LoadRaw(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
HWY_INLINE void StoreRaw(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// n bytes, dst and src disjoint. Short runs (rows of small tensors, gathered
// slices, concat blocks) with inline overlapping loads/stores instead of a
// memcpy call; long ones with memcpy, which switches to non-temporal stores
// for copies larger than the cache.
HWY_INLINE void CopyBytes(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src, size_t n) {
  if (n <= 16) {
    // Two possibly overlapping words of the largest size <= n.
    if (n >= 8) {
      const uint64_t a = LoadRaw<uint64_t>(src), b = LoadRaw<uint64_t>(src + n - 8);
      StoreRaw<uint64_t>(dst, a), StoreRaw<uint64_t>(dst + n - 8, b);
    } else if (n >= 4) {
      const uint32_t a = LoadRaw<uint32_t>(src), b = LoadRaw<uint32_t>(src + n - 4);
      StoreRaw<uint32_t>(dst, a), StoreRaw<uint32_t>(dst + n - 4, b);
    } else if (n >= 2) {
      const uint16_t a = LoadRaw<uint16_t>(src), b = LoadRaw<uint16_t>(src + n - 2);
      StoreRaw<uint16_t>(dst, a), StoreRaw<uint16_t>(dst + n - 2, b);
    } else if (n == 1) {
      dst[0] = src[0];
    }
    return;
  }
#if WEBNN_COPY_TILES
  if (n <= 64) {
    const hn::Full128<uint8_t> d16;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) hn::StoreU(hn::LoadU(d16, src + i), d16, dst + i);
    if (i < n) hn::StoreU(hn::LoadU(d16, src + n - 16), d16, dst + n - 16);
    return;
  }
#endif
  const hn::ScalableTag<uint8_t> d;
  const size_t N = hn::Lanes(d);
  if (n >= 8 * N || n < N) {
    std::memcpy(dst, src, n);
    return;
  }
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(hn::LoadU(d, src + i), d, dst + i);
  // Last vector overlaps the previous one (no masked loads).
  if (i < n) hn::StoreU(hn::LoadU(d, src + n - N), d, dst + n - N);
}

// n copies of `value`.
template <typename T>
HWY_INLINE void FillLanes(uint8_t* HWY_RESTRICT dst, T value, size_t n) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  T* out = reinterpret_cast<T*>(dst);
  if (n < N) {
    for (size_t i = 0; i < n; ++i) StoreRaw<T>(dst + i * sizeof(T), value);
    return;
  }
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(v, d, out + i);
  if (i < n) hn::StoreU(v, d, out + n - N);
}

// n elements of `pattern_bytes` bytes each, all equal to `pattern`.
HWY_INLINE void FillPattern(uint8_t* HWY_RESTRICT dst, const uint8_t* pattern, size_t element_bytes, size_t n) {
  switch (element_bytes) {
    case 1: FillLanes<uint8_t>(dst, pattern[0], n); return;
    case 2: FillLanes<uint16_t>(dst, LoadRaw<uint16_t>(pattern), n); return;
    case 4: FillLanes<uint32_t>(dst, LoadRaw<uint32_t>(pattern), n); return;
    case 8: FillLanes<uint64_t>(dst, LoadRaw<uint64_t>(pattern), n); return;
    default:
      for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * element_bytes, pattern, element_bytes);
  }
}

#if WEBNN_COPY_TILES
// Reverse of one vector; 8-bit lanes (no hn::Reverse in Highway 1.0.3) use a
// 128-bit byte shuffle.
template <class D>
HWY_INLINE hn::Vec<D> ReverseVector(D d, hn::Vec<D> v) {
  if constexpr (sizeof(hn::TFromD<D>) == 1) {
    alignas(16) static constexpr uint8_t kReversed[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    return hn::TableLookupBytes(v, hn::Load(d, kReversed));
  } else {
    return hn::Reverse(d, v);
  }
}
#endif

// dst[j] = src[n - 1 - j] for j < n (src is the lowest address).
template <typename T>
HWY_INLINE void ReverseLanes(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src, size_t n) {
  size_t j = 0;
#if WEBNN_COPY_TILES
  using D = std::conditional_t<sizeof(T) == 1, hn::Full128<T>, hn::ScalableTag<T>>;
  const D d;
  const size_t N = hn::Lanes(d);
  for (; j + N <= n; j += N) {
    const auto v = hn::LoadU(d, reinterpret_cast<const T*>(src + (n - j - N) * sizeof(T)));
    hn::StoreU(ReverseVector(d, v), d, reinterpret_cast<T*>(dst + j * sizeof(T)));
  }
#endif
  for (; j < n; ++j) StoreRaw<T>(dst + j * sizeof(T), LoadRaw<T>(src + (n - 1 - j) * sizeof(T)));
}

// dst[j] = element at src + j * stride (bytes) for j < n.
template <typename T>
HWY_INLINE void GatherStrided(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src, int64_t stride, size_t n) {
  size_t j = 0;
#if WEBNN_COPY_TILES
  constexpr int64_t E = sizeof(T);
  if (stride == 2 * E || stride == 3 * E || stride == 4 * E) {
    // Steps of 2-4 elements (strided slices, subsampling): contiguous loads,
    // deinterleaved, keeping the first plane. The last vector is left to the
    // scalar loop: its load would read up to stride - E bytes past the row.
    const hn::ScalableTag<T> d;
    const size_t N = hn::Lanes(d);
    hn::Vec<decltype(d)> v0, v1, v2, v3;
    for (; j + N < n; j += N) {
      const T* s = reinterpret_cast<const T*>(src + static_cast<int64_t>(j) * stride);
      if (stride == 2 * E) hn::LoadInterleaved2(d, s, v0, v1);
      else if (stride == 3 * E) hn::LoadInterleaved3(d, s, v0, v1, v2);
      else hn::LoadInterleaved4(d, s, v0, v1, v2, v3);
      hn::StoreU(v0, d, reinterpret_cast<T*>(dst + j * E));
    }
  } else if constexpr (sizeof(T) >= 4) {
    // 32/64-bit lanes: hardware gathers (AVX2/AVX-512) with byte offsets.
    const hn::ScalableTag<T> d;
    const hn::RebindToSigned<decltype(d)> di;
    using TI = hn::TFromD<decltype(di)>;
    constexpr size_t kMax = 64 / sizeof(T);
    const size_t N = hn::Lanes(d);
    const int64_t span = stride * static_cast<int64_t>(N);
    if (N <= kMax && span < (int64_t{1} << 30) && span > -(int64_t{1} << 30)) {
      alignas(64) TI offsets[kMax];
      for (size_t k = 0; k < N; ++k) offsets[k] = static_cast<TI>(static_cast<int64_t>(k) * stride);
      const auto voff = hn::Load(di, offsets);
      for (; j + N <= n; j += N) {
        const T* base = reinterpret_cast<const T*>(src + static_cast<int64_t>(j) * stride);
        hn::StoreU(hn::GatherOffset(d, base, voff), d, reinterpret_cast<T*>(dst + j * sizeof(T)));
      }
    }
  }
#endif
  for (; j < n; ++j) StoreRaw<T>(dst + j * sizeof(T), LoadRaw<T>(src + static_cast<int64_t>(j) * stride));
}

#if WEBNN_COPY_TILES
// Lanes of the square register tile per element size. More 128-bit blocks per
// vector mean fewer shuffles per byte (float32: 4x4 = 8 shuffles per 64 bytes,
// 8x8 = 24 per 256, 16x16 = 64 per 1024), up to what the register file holds:
// 32-bit and 64-bit lanes use the full vector (16 or 8 zmm of AVX-512), 8 and
// 16-bit lanes at most 256 bits (a 32x32 tile is already 32 registers).
template <typename T>
constexpr size_t TileLanes() {
  if constexpr (HWY_MAX_BYTES >= 64 && sizeof(T) >= 4) return 64 / sizeof(T);
  if constexpr (HWY_MAX_BYTES >= 32) return 32 / sizeof(T);
  return 16 / sizeof(T);
}

// Transposes a kL x kL tile: dst row r lane c = src row c lane r. Rows of src
// are src_stride bytes apart, rows of dst dst_stride.
//
// Within each 128-bit block, log2(K) rounds of the perfect shuffle
//   out[2m] = InterleaveLower(in[m], in[m + K/2]), out[2m+1] = InterleaveUpper(..)
// transpose K x K lanes (K lanes per block). With B = 2 or 4 blocks per vector,
// rounds of block moves first arrange each group of K vectors so that block b
// holds the K x K sub-tile of rows bK.. of one column block: then vector m of
// group g is column gK + m.
//   B = 2: w[r] = ConcatLowerLower(v[r + K], v[r]), w[r + K] = ConcatUpperUpper(..).
//   B = 4: the same on 256-bit halves with r + 2K, then within each half
//          OddEvenBlocks/SwapAdjacentBlocks pair r with r + K.
template <typename T, size_t kL>
HWY_INLINE void TransposeTile(const uint8_t* HWY_RESTRICT src, ptrdiff_t src_stride, uint8_t* HWY_RESTRICT dst,
                              ptrdiff_t dst_stride) {
  const hn::FixedTag<T, kL> d;
  using V = hn::Vec<decltype(d)>;
  constexpr size_t kBlock = 16 / sizeof(T);
  static_assert(kL == kBlock || kL == 2 * kBlock || kL == 4 * kBlock, "1, 2 or 4 128-bit blocks");
  V v[kL];
  for (size_t r = 0; r < kL; ++r) v[r] = hn::LoadU(d, reinterpret_cast<const T*>(src + r * src_stride));
  if constexpr (kL >= 2 * kBlock) {
    constexpr size_t kHalf = kL / 2;
    V w[kL];
    for (size_t r = 0; r < kHalf; ++r) {
      w[r] = hn::ConcatLowerLower(d, v[r + kHalf], v[r]);
      w[r + kHalf] = hn::ConcatUpperUpper(d, v[r + kHalf], v[r]);
    }
    if constexpr (kL == 4 * kBlock) {
      for (size_t g = 0; g < kL; g += 2 * kBlock) {
        for (size_t r = g; r < g + kBlock; ++r) {
          v[r] = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(w[r + kBlock]), w[r]);
          v[r + kBlock] = hn::OddEvenBlocks(w[r + kBlock], hn::SwapAdjacentBlocks(w[r]));
        }
      }
    } else {
      for (size_t r = 0; r < kL; ++r) v[r] = w[r];
    }
  }
  for (size_t g = 0; g < kL; g += kBlock) {
    for (size_t round = 1; round < kBlock; round *= 2) {
      V t[kBlock];
      for (size_t m = 0; m < kBlock / 2; ++m) {
        t[2 * m] = hn::InterleaveLower(d, v[g + m], v[g + m + kBlock / 2]);
        t[2 * m + 1] = hn::InterleaveUpper(d, v[g + m], v[g + m + kBlock / 2]);
      }
      for (size_t m = 0; m < kBlock; ++m) v[g + m] = t[m];
    }
  }
  for (size_t r = 0; r < kL; ++r) hn::StoreU(v[r], d, reinterpret_cast<T*>(dst + r * dst_stride));
}

// dst[i * C + c] = src[c * src_stride + i] for c < C in {2, 3, 4}, i < n: the
// planar -> interleaved case of a transpose with 2-4 columns (NCHW -> NHWC of
// an RGB image).
template <typename T, size_t C>
HWY_INLINE size_t InterleavePlanes(const uint8_t* HWY_RESTRICT src, ptrdiff_t src_stride, uint8_t* HWY_RESTRICT dst,
                                   size_t n) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const uint8_t* s = src + i * sizeof(T);
    T* out = reinterpret_cast<T*>(dst + i * C * sizeof(T));
    const auto v0 = hn::LoadU(d, reinterpret_cast<const T*>(s));
    const auto v1 = hn::LoadU(d, reinterpret_cast<const T*>(s + src_stride));
    if constexpr (C == 2) {
      hn::StoreInterleaved2(v0, v1, d, out);
    } else {
      const auto v2 = hn::LoadU(d, reinterpret_cast<const T*>(s + 2 * src_stride));
      if constexpr (C == 3) {
        hn::StoreInterleaved3(v0, v1, v2, d, out);
      } else {
        const auto v3 = hn::LoadU(d, reinterpret_cast<const T*>(s + 3 * src_stride));
        hn::StoreInterleaved4(v0, v1, v2, v3, d, out);
      }
    }
  }
  return i;
}

// dst[c * dst_stride + j] = src[j * C + c]: interleaved -> planar.
template <typename T, size_t C>
HWY_INLINE size_t DeinterleavePlanes(const uint8_t* HWY_RESTRICT src, uint8_t* HWY_RESTRICT dst, ptrdiff_t dst_stride,
                                     size_t n) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  size_t j = 0;
  for (; j + N <= n; j += N) {
    const T* s = reinterpret_cast<const T*>(src + j * C * sizeof(T));
    uint8_t* o = dst + j * sizeof(T);
    hn::Vec<decltype(d)> v0, v1, v2, v3;
    if constexpr (C == 2) hn::LoadInterleaved2(d, s, v0, v1);
    if constexpr (C == 3) hn::LoadInterleaved3(d, s, v0, v1, v2);
    if constexpr (C == 4) hn::LoadInterleaved4(d, s, v0, v1, v2, v3);
    hn::StoreU(v0, d, reinterpret_cast<T*>(o));
    hn::StoreU(v1, d, reinterpret_cast<T*>(o + dst_stride));
    if constexpr (C >= 3) hn::StoreU(v2, d, reinterpret_cast<T*>(o + 2 * dst_stride));
    if constexpr (C == 4) hn::StoreU(v3, d, reinterpret_cast<T*>(o + 3 * dst_stride));
  }
  return j;
}
#endif  // WEBNN_COPY_TILES

// One cache block of a 2D transpose: dst[i * dst_stride + j * E] =
// src[i * E + j * src_stride] for i < ni, j < nj (E = sizeof(T)); the input is
// contiguous along i, the output along j. Callers size blocks to fit L1.
template <typename T>
HWY_INLINE void TransposeBlock(const uint8_t* HWY_RESTRICT src, ptrdiff_t src_stride, uint8_t* HWY_RESTRICT dst,
                               ptrdiff_t dst_stride, size_t ni, size_t nj) {
  constexpr size_t E = sizeof(T);
  size_t i = 0;
#if WEBNN_COPY_TILES
  // 2-4 columns (or rows) that are adjacent in memory: (de)interleave.
  if (nj >= 2 && nj <= 4 && dst_stride == static_cast<ptrdiff_t>(nj * E)) {
    size_t done = 0;
    if (nj == 2) done = InterleavePlanes<T, 2>(src, src_stride, dst, ni);
    if (nj == 3) done = InterleavePlanes<T, 3>(src, src_stride, dst, ni);
    if (nj == 4) done = InterleavePlanes<T, 4>(src, src_stride, dst, ni);
    for (i = done; i < ni; ++i)
      for (size_t j = 0; j < nj; ++j) StoreRaw<T>(dst + i * dst_stride + j * E, LoadRaw<T>(src + i * E + j * src_stride));
    return;
  }
  if (ni >= 2 && ni <= 4 && src_stride == static_cast<ptrdiff_t>(ni * E)) {
    size_t done = 0;
    if (ni == 2) done = DeinterleavePlanes<T, 2>(src, dst, dst_stride, nj);
    if (ni == 3) done = DeinterleavePlanes<T, 3>(src, dst, dst_stride, nj);
    if (ni == 4) done = DeinterleavePlanes<T, 4>(src, dst, dst_stride, nj);
    for (size_t r = 0; r < ni; ++r)
      for (size_t j = done; j < nj; ++j) StoreRaw<T>(dst + r * dst_stride + j * E, LoadRaw<T>(src + r * E + j * src_stride));
    return;
  }
  constexpr size_t kL = TileLanes<T>();
  for (; i + kL <= ni; i += kL) {
    size_t j = 0;
    for (; j + kL <= nj; j += kL)
      TransposeTile<T, kL>(src + i * E + j * src_stride, src_stride, dst + i * dst_stride + j * E, dst_stride);
    for (; j < nj; ++j)
      for (size_t r = i; r < i + kL; ++r) StoreRaw<T>(dst + r * dst_stride + j * E, LoadRaw<T>(src + r * E + j * src_stride));
  }
#endif
  for (; i < ni; ++i) GatherStrided<T>(dst + i * dst_stride, src + i * E, src_stride, nj);
}

// ---------------------------------------------------------------------------
// Indices of gather and scatter: int32, uint32 or int64, resolved with the
// reference's rule (ClampIndex: negative counts from the end once, then clamp
// to [0, dim - 1]).

// out[k] = clamped position of indices element `start + k` in a dim of size `dim`.
HWY_INLINE void ResolveIndexRun(const TensorView& indices, uint64_t start, size_t n, uint32_t dim,
                                uint32_t* HWY_RESTRICT out) {
  size_t k = 0;
  if (indices.type == DataType::kInt32 && dim <= static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
    const int32_t* in = reinterpret_cast<const int32_t*>(indices.data) + start;
    const hn::ScalableTag<int32_t> d;
    const size_t N = hn::Lanes(d);
    const auto zero = hn::Zero(d), vdim = hn::Set(d, static_cast<int32_t>(dim));
    const auto vmax = hn::Set(d, static_cast<int32_t>(dim - 1));
    for (; k + N <= n; k += N) {
      auto v = hn::LoadU(d, in + k);
      v = hn::IfThenElse(hn::Lt(v, zero), hn::Add(v, vdim), v);  // no overflow: dim <= INT32_MAX
      v = hn::Min(hn::Max(v, zero), vmax);
      hn::StoreU(hn::BitCast(hn::RebindToUnsigned<decltype(d)>(), v), hn::RebindToUnsigned<decltype(d)>(),
                 out + k);
    }
  } else if (indices.type == DataType::kUint32) {
    const uint32_t* in = reinterpret_cast<const uint32_t*>(indices.data) + start;
    const hn::ScalableTag<uint32_t> d;
    const size_t N = hn::Lanes(d);
    const auto vmax = hn::Set(d, dim - 1);
    for (; k + N <= n; k += N) hn::StoreU(hn::Min(hn::LoadU(d, in + k), vmax), d, out + k);
  }
  // int64 (and tails): the scalar rule.
  for (; k < n; ++k) out[k] = ClampIndex(LoadIndex(indices, start + k), dim);
}

// dst[k] = base[pos[k] * scale + k * step] for k < n, elements of sizeof(T)
// bytes (step 0: gather's rows of one element; step 1: gatherElements along a
// row). Hardware gathers for 32/64-bit lanes when positions fit int32.
template <typename T>
HWY_INLINE void GatherByPositions(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT base,
                                  const uint32_t* HWY_RESTRICT pos, uint64_t scale, uint64_t step, size_t n,
                                  bool fits_int32) {
  constexpr size_t E = sizeof(T);
  size_t k = 0;
  (void)fits_int32;  // unused on targets without gathers
#if WEBNN_COPY_TILES
  if constexpr (E >= 4) {
    if (fits_int32) {
      const hn::ScalableTag<T> d;
      const hn::RebindToSigned<decltype(d)> di;
      const size_t N = hn::Lanes(d);
      const hn::Rebind<int32_t, decltype(d)> d32;  // N int32 lanes
      const auto vstep = hn::Mul(hn::Iota(d32, 0), hn::Set(d32, static_cast<int32_t>(step)));
      for (; k + N <= n; k += N) {
        auto p32 = hn::Add(hn::Mul(hn::LoadU(d32, reinterpret_cast<const int32_t*>(pos + k)),
                                   hn::Set(d32, static_cast<int32_t>(scale))),
                           vstep);
        hn::Vec<decltype(di)> vi;
        if constexpr (E == 4) vi = p32;
        else vi = hn::PromoteTo(di, p32);
        const T* b = reinterpret_cast<const T*>(base + k * step * E);
        hn::StoreU(hn::GatherIndex(d, b, vi), d, reinterpret_cast<T*>(dst + k * E));
      }
    }
  }
#endif
  for (; k < n; ++k) StoreRaw<T>(dst + k * E, LoadRaw<T>(base + (pos[k] * scale + k * step) * E));
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#endif  // WEBNN_OPS_CPU_COPY_INL_H_
