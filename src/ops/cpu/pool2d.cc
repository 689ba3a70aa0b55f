// cpu kernels of maxPool2d (every type), averagePool2d and l2Pool2d (float32,
// float16), nchw and nhwc, any window, stride, dilation, padding and rounding.
//
// nchw: pooling is separable. Per output row, a vertical pass reduces the
// window's input rows into a padded row buffer (contiguous vectors), then a
// horizontal pass reduces window columns of the buffer at the output stride:
// contiguous loads for stride 1, even-lane deinterleave (ConcatEven) for
// stride 2, gathers otherwise. Padding slots hold the reduction's identity, so
// the window loop has no bounds checks; average divides by the number of real
// elements (rows x columns inside the input), as the reference.
// A window covering the whole unpadded plane (global pooling) reduces the plane
// as one contiguous run. nhwc: channels are the vector lanes; each output pixel
// reduces the channel vectors of its window's taps (pointers computed once per
// pixel). Global nhwc pooling instead: sums stream the image once, each
// thread summing every channel over its blocks of pixels (partial sums added
// up at the end); max takes a block of channels per item over every pixel.
//
// Numerics: average and L2 accumulate in float64 (a float32 sum of mixed
// signs can cancel to a result far smaller than its rounding error; squares of
// large float32 values overflow float32), one rounding at the store. max is
// exact; a NaN in a window gives NaN (nchw rows with a NaN take a slower
// NaN-propagating path). Empty windows (all padding) give 0, as the reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/pool2d.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/reduce-inl.h"

#ifndef WEBNN_OPS_CPU_POOL2D_CC_ONCE_
#define WEBNN_OPS_CPU_POOL2D_CC_ONCE_
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/cpu/kernel_registry.h"
#include "ops/pool2d.h"

namespace webnn::ops::cpu {
struct PoolJob {
  OpKind op;
  DataType type;
  const std::byte* in;
  std::byte* out;
  const Pool2dGeometry* g;
  bool nhwc;
  size_t i0, i1;  // items: nchw (plane, output row); nhwc (batch, output row); global nhwc (see below)
  // Global nhwc pooling. maxPool2d: items (batch, block of channel_block
  // channels). averagePool2d, l2Pool2d: items (batch, block of pixel_block
  // pixels), each item's float64 sums of every channel at partial[item * cp],
  // added up by GlobalSumNhwcFinish.
  size_t channel_block = 0, pixel_block = 0, cp = 0;
  double* partial = nullptr;
};

// The window covers the whole unpadded input: one output pixel per image.
inline bool IsGlobalWindow(const Pool2dGeometry& g) {
  return g.out_h == 1 && g.out_w == 1 && g.window_h == g.in_h && g.window_w == g.in_w && g.pad_top == 0 &&
         g.pad_left == 0 && (g.in_h == 1 || g.dilation_h == 1) && (g.in_w == 1 || g.dilation_w == 1);
}

}  // namespace webnn::ops::cpu
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The identity of max: -inf for floats, the type's lowest value otherwise.
template <class T>
HWY_INLINE T MaxIdentity() {
  if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}

// NaN-propagating max for floats (hn::Max returns either operand for NaN on x86).
template <class D, class V>
HWY_INLINE V NanMax(D, V a, V b) {
  if constexpr (std::is_floating_point_v<hn::TFromD<D>>) {
    return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), hn::Max(a, b));
  } else {
    return hn::Max(a, b);
  }
}

// Gather offsets 0, stride, 2 stride, ... (no 64-bit vector multiply on AVX2).
template <class DI>
HWY_INLINE hn::Vec<DI> StrideIndex(DI di, size_t stride) {
  using TI = hn::TFromD<DI>;
  alignas(64) TI idx[kMaxVectorBytes / sizeof(TI)];
  for (size_t i = 0; i < hn::Lanes(di); ++i) idx[i] = static_cast<TI>(i * stride);
  return hn::LoadU(di, idx);
}

// Lanes(d) elements at p, p + stride, p + 2 stride, ...; kStride is the
// stride when it is 1 or 2 (contiguous / even-lane deinterleave), else 0.
template <int kStride, class D, class VI>
HWY_INLINE hn::Vec<D> LoadStrided(D d, const hn::TFromD<D>* p, VI index) {
  if constexpr (kStride == 1) {
    return hn::LoadU(d, p);
#if HWY_TARGET != HWY_SCALAR
  } else if constexpr (kStride == 2) {
    return hn::ConcatEven(d, hn::LoadU(d, p + hn::Lanes(d)), hn::LoadU(d, p));
#endif
  } else {
    return hn::GatherIndex(d, p, index);
  }
}

// Valid window taps of one output coordinate: k in [k0, k1) lands inside [0, size).
struct Taps {
  uint32_t k0, k1;
};
HWY_INLINE Taps ValidTaps(uint32_t o, uint32_t stride, uint32_t dilation, uint32_t pad, uint32_t window, uint32_t size) {
  const int64_t start = int64_t{o} * stride - pad;
  // First k with start + k * dilation >= 0, last with < size.
  int64_t k0 = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
  int64_t k1 = start >= int64_t{size} ? 0 : (int64_t{size} - 1 - start) / dilation + 1;
  k0 = std::min<int64_t>(k0, window);
  k1 = std::min<int64_t>(k1, window);
  if (k1 < k0) k1 = k0;
  return {static_cast<uint32_t>(k0), static_cast<uint32_t>(k1)};
}

// Row buffer geometry (nchw): buffer index = input x + pad_left; wide enough for
// every window tap of every output column, plus a vector of slack.
HWY_INLINE size_t RowBufferSize(const Pool2dGeometry& g, size_t lanes) {
  const size_t taps_end = (size_t{g.out_w} + lanes) * g.stride_w + size_t{g.window_w - 1} * g.dilation_w + 1;
  return std::max<size_t>(g.pad_left + g.in_w, taps_end) + 2 * lanes;
}

// ------------------------------------------------------------------ max, nchw
template <class E, bool kNanSafe, int kStride>
void MaxRowNchw(const Pool2dGeometry& g, const E* plane, E* dst, uint32_t oy, WideLaneOf<E>* buf, bool* saw_nan) {
  using T = WideLaneOf<E>;
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  const Taps ty = ValidTaps(oy, g.stride_h, g.dilation_h, g.pad_top, g.window_h, g.in_h);
  const T lowest = MaxIdentity<T>();
  const auto id = hn::Set(d, lowest);
  // Vertical: buf[pad_left + x] = max over valid rows.
  T* row = buf + g.pad_left;
  auto nan = hn::FirstN(d, 0);
  for (size_t x = 0; x < g.in_w; x += N) {
    const size_t k = std::min<size_t>(N, g.in_w - x);
    auto acc = id;
    for (uint32_t ky = ty.k0; ky < ty.k1; ++ky) {
      const E* p = plane + size_t{oy * g.stride_h + ky * g.dilation_h - g.pad_top} * g.in_w + x;
      const auto v = k == N ? LoadWide(d, p) : LoadWideTail(d, p, k);
      if constexpr (std::is_floating_point_v<T>) nan = hn::Or(nan, hn::IsNaN(v));
      acc = kNanSafe ? NanMax(d, acc, v) : hn::Max(acc, v);
    }
    if (k == N) hn::StoreU(acc, d, row + x);
    else StoreTail(acc, d, row + x, k);
  }
  if constexpr (!kNanSafe && std::is_floating_point_v<T>) {
    if (!hn::AllFalse(d, nan)) {
      *saw_nan = true;
      return;
    }
  }
  // Horizontal.
  const auto index = StrideIndex(di, g.stride_w);
  for (size_t ox = 0; ox < g.out_w; ox += N) {
    const size_t k = std::min<size_t>(N, g.out_w - ox);
    auto acc = id;
    for (uint32_t kx = 0; kx < g.window_w; ++kx) {
      const auto v = LoadStrided<kStride>(d, buf + ox * g.stride_w + size_t{kx} * g.dilation_w, index);
      acc = kNanSafe ? NanMax(d, acc, v) : hn::Max(acc, v);
    }
    if (k == N) StoreWide(acc, d, dst + ox);
    else StoreWideTail(acc, d, dst + ox, k);
  }
}

template <class E, int kStride>
void MaxPoolNchw(const PoolJob& j) {
  using T = WideLaneOf<E>;
  const Pool2dGeometry& g = *j.g;
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  std::vector<T> buf(RowBufferSize(g, N));
  const T lowest = MaxIdentity<T>();
  std::fill(buf.begin(), buf.end(), lowest);
  // Output columns whose window lies entirely in the padding: 0.
  std::vector<uint32_t> empty_x;
  for (uint32_t ox = 0; ox < g.out_w; ++ox) {
    const Taps t = ValidTaps(ox, g.stride_w, g.dilation_w, g.pad_left, g.window_w, g.in_w);
    if (t.k0 == t.k1) empty_x.push_back(ox);
  }
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  for (size_t item = j.i0; item < j.i1; ++item) {
    const size_t plane = item / g.out_h;
    const uint32_t oy = static_cast<uint32_t>(item % g.out_h);
    const E* src = in + plane * g.in_h * g.in_w;
    E* dst = out + plane * g.out_h * g.out_w + size_t{oy} * g.out_w;
    const Taps ty = ValidTaps(oy, g.stride_h, g.dilation_h, g.pad_top, g.window_h, g.in_h);
    if (ty.k0 == ty.k1) {
      std::memset(dst, 0, g.out_w * sizeof(E));
      continue;
    }
    bool saw_nan = false;
    MaxRowNchw<E, false, kStride>(g, src, dst, oy, buf.data(), &saw_nan);
    if (saw_nan) MaxRowNchw<E, true, kStride>(g, src, dst, oy, buf.data(), &saw_nan);
    for (uint32_t ox : empty_x) dst[ox] = E{};
  }
}

// ------------------------------------------------------------ average/L2, nchw
template <class E, bool kL2, int kStride>
void SumPoolNchw(const PoolJob& j) {
  const Pool2dGeometry& g = *j.g;
  constexpr bool l2 = kL2;
  const hn::ScalableTag<double> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  std::vector<double> buf(RowBufferSize(g, N), 0.0);
  // Per output column: 1 / (valid columns), 0 for an empty window (0 * 0 = 0).
  std::vector<double> inv_w(g.out_w + N, 0.0);
  for (uint32_t ox = 0; ox < g.out_w; ++ox) {
    const Taps t = ValidTaps(ox, g.stride_w, g.dilation_w, g.pad_left, g.window_w, g.in_w);
    inv_w[ox] = t.k1 > t.k0 ? 1.0 / (t.k1 - t.k0) : 0.0;
  }
  const auto index = StrideIndex(di, g.stride_w);
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  double* row = buf.data() + g.pad_left;
  for (size_t item = j.i0; item < j.i1; ++item) {
    const size_t plane = item / g.out_h;
    const uint32_t oy = static_cast<uint32_t>(item % g.out_h);
    const E* src = in + plane * g.in_h * g.in_w;
    E* dst = out + plane * g.out_h * g.out_w + size_t{oy} * g.out_w;
    const Taps ty = ValidTaps(oy, g.stride_h, g.dilation_h, g.pad_top, g.window_h, g.in_h);
    if (ty.k0 == ty.k1) {
      std::memset(dst, 0, g.out_w * sizeof(E));
      continue;
    }
    for (size_t x = 0; x < g.in_w; x += N) {
      const size_t k = std::min<size_t>(N, g.in_w - x);
      auto acc = hn::Zero(d);
      for (uint32_t ky = ty.k0; ky < ty.k1; ++ky) {
        const E* p = src + size_t{oy * g.stride_h + ky * g.dilation_h - g.pad_top} * g.in_w + x;
        const auto v = k == N ? LoadAsF64(d, p) : LoadAsF64Tail(d, p, k);
        acc = l2 ? hn::MulAdd(v, v, acc) : hn::Add(acc, v);
      }
      if (k == N) hn::StoreU(acc, d, row + x);
      else StoreTail(acc, d, row + x, k);
    }
    const auto inv_h = hn::Set(d, 1.0 / (ty.k1 - ty.k0));
    for (size_t ox = 0; ox < g.out_w; ox += N) {
      const size_t k = std::min<size_t>(N, g.out_w - ox);
      auto acc = hn::Zero(d);
      for (uint32_t kx = 0; kx < g.window_w; ++kx)
        acc = hn::Add(acc, LoadStrided<kStride>(d, buf.data() + ox * g.stride_w + size_t{kx} * g.dilation_w, index));
      const auto r = l2 ? hn::Sqrt(acc) : hn::Mul(acc, hn::Mul(hn::LoadU(d, inv_w.data() + ox), inv_h));
      if (k == N) StoreF64As(r, d, dst + ox);
      else StoreF64AsTail(r, d, dst + ox, k);
    }
  }
}

// ------------------------------------------------------ global pooling, nchw
// A window covering the whole unpadded plane (global average pooling of CNN
// heads): each plane is one contiguous run, reduced with vector accumulators.

template <class E>
void GlobalMaxNchw(const PoolJob& j) {
  using T = WideLaneOf<E>;
  const Pool2dGeometry& g = *j.g;
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const size_t n = size_t{g.in_h} * g.in_w;
  const T lowest = MaxIdentity<T>();
  const auto id = hn::Set(d, lowest);
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  for (size_t plane = j.i0; plane < j.i1; ++plane) {
    const E* p = in + plane * n;
    auto a0 = id, a1 = id;
    auto nan = hn::FirstN(d, 0);
    size_t i = 0;
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto x0 = LoadWide(d, p + i), x1 = LoadWide(d, p + i + N);
      if constexpr (std::is_floating_point_v<T>) nan = hn::Or(nan, hn::Or(hn::IsNaN(x0), hn::IsNaN(x1)));
      a0 = hn::Max(a0, x0);
      a1 = hn::Max(a1, x1);
    }
    for (; i < n; i += N) {
      const size_t k = std::min(N, n - i);
      const auto x = hn::IfThenElse(hn::FirstN(d, k), k == N ? LoadWide(d, p + i) : LoadWideTail(d, p + i, k), id);
      if constexpr (std::is_floating_point_v<T>) nan = hn::Or(nan, hn::IsNaN(x));
      a0 = hn::Max(a0, x);
    }
    auto m = hn::MaxOfLanes(d, hn::Max(a0, a1));
    if constexpr (std::is_floating_point_v<T>) {
      if (!hn::AllFalse(d, nan)) m = hn::Set(d, std::numeric_limits<T>::quiet_NaN());
    }
    StoreWideTail(m, d, out + plane, 1);
  }
}

template <class E, bool kL2>
void GlobalSumNchw(const PoolJob& j) {
  const Pool2dGeometry& g = *j.g;
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const size_t n = size_t{g.in_h} * g.in_w;
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  const auto inv = hn::Set(d, 1.0 / static_cast<double>(n));
  for (size_t plane = j.i0; plane < j.i1; ++plane) {
    const E* p = in + plane * n;
    auto a0 = hn::Zero(d), a1 = hn::Zero(d);
    size_t i = 0;
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto x0 = LoadAsF64(d, p + i), x1 = LoadAsF64(d, p + i + N);
      a0 = kL2 ? hn::MulAdd(x0, x0, a0) : hn::Add(a0, x0);
      a1 = kL2 ? hn::MulAdd(x1, x1, a1) : hn::Add(a1, x1);
    }
    for (; i < n; i += N) {
      const size_t k = std::min(N, n - i);
      const auto x = k == N ? LoadAsF64(d, p + i) : LoadAsF64Tail(d, p + i, k);  // zeros past the plane
      a0 = kL2 ? hn::MulAdd(x, x, a0) : hn::Add(a0, x);
    }
    const auto sum = hn::SumOfLanes(d, hn::Add(a0, a1));
    StoreF64AsTail(kL2 ? hn::Sqrt(sum) : hn::Mul(sum, inv), d, out + plane, 1);
  }
}

// ------------------------------------------------------------------ nhwc
// Pointers to the valid window taps of output pixel (n, oy, ox); returns the count.
template <class E>
size_t WindowTaps(const Pool2dGeometry& g, const E* in, size_t n, uint32_t oy, uint32_t ox, const E** taps) {
  const Taps ty = ValidTaps(oy, g.stride_h, g.dilation_h, g.pad_top, g.window_h, g.in_h);
  const Taps tx = ValidTaps(ox, g.stride_w, g.dilation_w, g.pad_left, g.window_w, g.in_w);
  size_t count = 0;
  for (uint32_t ky = ty.k0; ky < ty.k1; ++ky) {
    const size_t y = size_t{oy} * g.stride_h + size_t{ky} * g.dilation_h - g.pad_top;
    const E* row = in + (n * g.in_h + y) * g.in_w * g.channels;
    for (uint32_t kx = tx.k0; kx < tx.k1; ++kx) {
      const size_t x = size_t{ox} * g.stride_w + size_t{kx} * g.dilation_w - g.pad_left;
      taps[count++] = row + x * g.channels;
    }
  }
  return count;
}

template <class E>
void MaxPoolNhwc(const PoolJob& j) {
  using T = LaneOf<E>;
  const Pool2dGeometry& g = *j.g;
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const size_t C = g.channels;
  const T lowest = MaxIdentity<T>();
  const auto id = hn::Set(d, lowest);
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  std::vector<const E*> taps(size_t{g.window_h} * g.window_w);
  for (size_t item = j.i0; item < j.i1; ++item) {
    const size_t n = item / g.out_h;
    const uint32_t oy = static_cast<uint32_t>(item % g.out_h);
    for (uint32_t ox = 0; ox < g.out_w; ++ox) {
      E* dst = out + ((n * g.out_h + oy) * g.out_w + ox) * C;
      const size_t count = WindowTaps(g, in, n, oy, ox, taps.data());
      if (count == 0) {  // the window lies in the padding
        std::memset(dst, 0, C * sizeof(E));
        continue;
      }
      for (size_t c = 0; c < C; c += N) {
        const size_t k = std::min(N, C - c);
        auto acc = id;
        auto nan = hn::FirstN(d, 0);
        for (size_t t = 0; t < count; ++t) {
          const auto v = k == N ? LoadLanes(d, taps[t] + c) : LoadLanesTail(d, taps[t] + c, k);
          if constexpr (std::is_floating_point_v<T>) nan = hn::Or(nan, hn::IsNaN(v));
          acc = hn::Max(acc, v);
        }
        if constexpr (std::is_floating_point_v<T>)
          acc = hn::IfThenElse(nan, hn::Set(d, std::numeric_limits<T>::quiet_NaN()), acc);
        if (k == N) StoreLanes(acc, d, dst + c);
        else StoreLanesTail(acc, d, dst + c, k);
      }
    }
  }
}

template <class E, bool kL2>
void SumPoolNhwc(const PoolJob& j) {
  const Pool2dGeometry& g = *j.g;
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const size_t C = g.channels;
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  std::vector<const E*> taps(size_t{g.window_h} * g.window_w);
  for (size_t item = j.i0; item < j.i1; ++item) {
    const size_t n = item / g.out_h;
    const uint32_t oy = static_cast<uint32_t>(item % g.out_h);
    for (uint32_t ox = 0; ox < g.out_w; ++ox) {
      E* dst = out + ((n * g.out_h + oy) * g.out_w + ox) * C;
      const size_t count = WindowTaps(g, in, n, oy, ox, taps.data());
      if (count == 0) {
        std::memset(dst, 0, C * sizeof(E));
        continue;
      }
      const auto inv = hn::Set(d, 1.0 / static_cast<double>(count));
      size_t c = 0;
      for (; c + 2 * N <= C; c += 2 * N) {
        auto a0 = hn::Zero(d), a1 = hn::Zero(d);
        for (size_t t = 0; t < count; ++t) {
          const auto v0 = LoadAsF64(d, taps[t] + c), v1 = LoadAsF64(d, taps[t] + c + N);
          a0 = kL2 ? hn::MulAdd(v0, v0, a0) : hn::Add(a0, v0);
          a1 = kL2 ? hn::MulAdd(v1, v1, a1) : hn::Add(a1, v1);
        }
        StoreF64As(kL2 ? hn::Sqrt(a0) : hn::Mul(a0, inv), d, dst + c);
        StoreF64As(kL2 ? hn::Sqrt(a1) : hn::Mul(a1, inv), d, dst + c + N);
      }
      for (; c < C; c += N) {
        const size_t k = std::min(N, C - c);
        auto acc = hn::Zero(d);
        for (size_t t = 0; t < count; ++t) {
          const auto v = k == N ? LoadAsF64(d, taps[t] + c) : LoadAsF64Tail(d, taps[t] + c, k);
          acc = kL2 ? hn::MulAdd(v, v, acc) : hn::Add(acc, v);
        }
        const auto r = kL2 ? hn::Sqrt(acc) : hn::Mul(acc, inv);
        if (k == N) StoreF64As(r, d, dst + c);
        else StoreF64AsTail(r, d, dst + c, k);
      }
    }
  }
}

// Global pooling on nhwc (IsGlobalWindow). The window's tap pointers
// (SumPoolNhwc), one item per image on one thread, took 1.37 ms for PP-OCR
// det's squeeze-and-excitation pools on 96 x 160 x 160 (0.70 ms nchw). Sums
// of a block of channels over every pixel, item by item, ran at 10 GB/s (in
// a row buffer) or 5 GB/s (a vector's pass over the pixels at a time: strided
// reads of one cache line in six); every channel over blocks of pixels, at
// 22-24 GB/s (1 thread, Xeon; nchw 26-31). maxPool2d keeps the block of
// channels (float64 partials would not hold int64 exactly): item = (n, block
// of GlobalNhwcChannels channels), even and odd pixels in two accumulators.
size_t GlobalNhwcChannels() { return 2 * hn::Lanes(hn::ScalableTag<double>()); }

template <class E>
void GlobalMaxNhwc(const PoolJob& j) {
  using T = LaneOf<E>;
  const Pool2dGeometry& g = *j.g;
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const size_t C = g.channels, pixels = size_t{g.in_h} * g.in_w;
  const size_t blocks = (C + j.channel_block - 1) / j.channel_block;
  const T lowest = MaxIdentity<T>();
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  for (size_t item = j.i0; item < j.i1; ++item) {
    const size_t n = item / blocks, c0 = item % blocks * j.channel_block;
    const size_t c1 = std::min(C, c0 + j.channel_block);
    const E* img = in + n * pixels * C;
    // Lanes of T may hold the whole block (int8: 64 lanes): a vector at a time.
    for (size_t c = c0; c < c1; c += N) {
      const size_t k = std::min(N, c1 - c);
      const auto load = [&](size_t p) {
        return k == N ? LoadLanes(d, img + p * C + c) : LoadLanesTail(d, img + p * C + c, k);
      };
      auto a0 = hn::Set(d, lowest), a1 = a0;
      size_t p = 0;
      for (; p + 2 <= pixels; p += 2) a0 = NanMax(d, a0, load(p)), a1 = NanMax(d, a1, load(p + 1));
      if (p < pixels) a0 = NanMax(d, a0, load(p));
      const auto r = NanMax(d, a0, a1);
      if (k == N) StoreLanes(r, d, out + n * C + c);
      else StoreLanesTail(r, d, out + n * C + c, k);
    }
  }
}

// The items of global nhwc sums (see PoolJob): channels, pixels per image,
// blocks of pixels per image.
struct GlobalSumItems {
  size_t C, pixels, blocks;
  explicit GlobalSumItems(const PoolJob& j)
      : C(j.g->channels), pixels(size_t{j.g->in_h} * j.g->in_w), blocks((pixels + j.pixel_block - 1) / j.pixel_block) {}
};

// Sums (kL2: of squares) of every channel over each item's pixels: the
// image streams once, and the threads share its pixels.
template <class E, bool kL2>
void GlobalSumNhwc(const PoolJob& j) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const auto [C, pixels, blocks] = GlobalSumItems(j);
  const E* in = reinterpret_cast<const E*>(j.in);
  for (size_t item = j.i0; item < j.i1; ++item) {
    const size_t n = item / blocks, p0 = item % blocks * j.pixel_block;
    const size_t p1 = std::min(pixels, p0 + j.pixel_block);
    double* acc = j.partial + item * j.cp;
    std::fill(acc, acc + j.cp, 0.0);
    for (size_t p = p0; p < p1; ++p) {
      const E* px = in + (n * pixels + p) * C;
      for (size_t c = 0; c < C; c += N) {
        const size_t k = std::min(N, C - c);
        const auto x = k == N ? LoadAsF64(d, px + c) : LoadAsF64Tail(d, px + c, k);
        const auto a = hn::LoadU(d, acc + c);
        hn::StoreU(kL2 ? hn::MulAdd(x, x, a) : hn::Add(a, x), d, acc + c);
      }
    }
  }
}

// out[n][c] from the items' partial sums, added in item order.
template <class E, bool kL2>
void GlobalSumNhwcFinishTyped(const PoolJob& j) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const auto [C, pixels, blocks] = GlobalSumItems(j);
  const auto inv = hn::Set(d, 1.0 / static_cast<double>(pixels));
  E* out = reinterpret_cast<E*>(j.out);
  for (size_t n = 0; n < j.g->batch; ++n)
    for (size_t c = 0; c < C; c += N) {
      auto sum = hn::Zero(d);
      for (size_t b = 0; b < blocks; ++b) sum = hn::Add(sum, hn::LoadU(d, j.partial + (n * blocks + b) * j.cp + c));
      const auto r = kL2 ? hn::Sqrt(sum) : hn::Mul(sum, inv);
      const size_t k = std::min(N, C - c);
      if (k == N) StoreF64As(r, d, out + n * C + c);
      else StoreF64AsTail(r, d, out + n * C + c, k);
    }
}

void GlobalSumNhwcFinish(const PoolJob& j) {
  const bool l2 = j.op == OpKind::l2Pool2d;
  if (j.type == DataType::kFloat16) l2 ? GlobalSumNhwcFinishTyped<F16, true>(j) : GlobalSumNhwcFinishTyped<F16, false>(j);
  else l2 ? GlobalSumNhwcFinishTyped<float, true>(j) : GlobalSumNhwcFinishTyped<float, false>(j);
}

// The horizontal stride class of nchw rows: 1, 2 (not on the scalar target,
// which has no deinterleave) or 0 (gathers).
HWY_INLINE int StrideClass(uint32_t stride) {
  if (stride == 1) return 1;
  if (stride == 2 && HWY_TARGET != HWY_SCALAR) return 2;
  return 0;
}

template <class E>
void PoolTyped(const PoolJob& j) {
  const int stride = StrideClass(j.g->stride_w);
  const bool global = IsGlobalWindow(*j.g);
  if (j.op == OpKind::maxPool2d) {
    if (j.nhwc && global) GlobalMaxNhwc<E>(j);
    else if (j.nhwc) MaxPoolNhwc<E>(j);
    else if (global) GlobalMaxNchw<E>(j);
    else if (stride == 1) MaxPoolNchw<E, 1>(j);
    else if (stride == 2) MaxPoolNchw<E, 2>(j);
    else MaxPoolNchw<E, 0>(j);
    return;
  }
  if constexpr (std::is_same_v<E, float> || std::is_same_v<E, F16>) {
    const bool l2 = j.op == OpKind::l2Pool2d;
    if (j.nhwc && global) {
      if (l2) GlobalSumNhwc<E, true>(j);
      else GlobalSumNhwc<E, false>(j);
    } else if (j.nhwc) {
      if (l2) SumPoolNhwc<E, true>(j);
      else SumPoolNhwc<E, false>(j);
    } else if (global) {
      if (l2) GlobalSumNchw<E, true>(j);
      else GlobalSumNchw<E, false>(j);
    } else if (stride == 1) {
      if (l2) SumPoolNchw<E, true, 1>(j);
      else SumPoolNchw<E, false, 1>(j);
    } else if (stride == 2) {
      if (l2) SumPoolNchw<E, true, 2>(j);
      else SumPoolNchw<E, false, 2>(j);
    } else {
      if (l2) SumPoolNchw<E, true, 0>(j);
      else SumPoolNchw<E, false, 0>(j);
    }
  }
}

void RunPool(const PoolJob& j) {
  VisitType<SpecElementTypes<F16>>(j.type, [&]<class E>(TypeTag<E>) { PoolTyped<E>(j); });
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(RunPool);
HWY_EXPORT(GlobalNhwcChannels);
HWY_EXPORT(GlobalSumNhwcFinish);

namespace {

// Global average and L2 pooling on nhwc: pixels per item (at least 2048,
// at most 64 items per image), and floats64 per item's partial sums (a
// multiple of any target's float64 lanes).
size_t GlobalPixelBlock(size_t pixels) { return std::max<size_t>(2048, (pixels + 63) / 64); }
size_t GlobalPixelBlocks(size_t pixels) { return (pixels + GlobalPixelBlock(pixels) - 1) / GlobalPixelBlock(pixels); }
size_t GlobalPartialStride(size_t channels) { return (channels + 63) / 64 * 64; }

std::shared_ptr<const void> PreparePool2d(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<Pool2dAttrs>(ctx.attrs);
  if (ctx.op == OpKind::maxPool2d || attrs.layout != MLInputOperandLayout::kNhwc) return nullptr;
  // Static shapes: only a global window takes the partial sums (RunPool2d).
  if (ctx.static_shapes &&
      !IsGlobalWindow(ComputePool2dGeometry(attrs, ctx.inputs[0].shape, ctx.outputs[0].shape)))
    return nullptr;
  // For these shapes, or any smaller (the count grows with batch, pixels and
  // channels).
  const std::vector<uint32_t>& s = ctx.inputs[0].shape;  // n h w c
  ctx.workspace.AddShared<double>(size_t{s[0]} * GlobalPixelBlocks(size_t{s[1]} * s[2]) * GlobalPartialStride(s[3]));
  return nullptr;
}

void RunPool2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<Pool2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const Pool2dGeometry g = ComputePool2dGeometry(attrs, input.shape, out.shape);
  const bool nhwc = attrs.layout == MLInputOperandLayout::kNhwc;
  const bool global_nhwc = nhwc && IsGlobalWindow(g);
  const bool global_max = global_nhwc && ctx.op == OpKind::maxPool2d, global_sum = global_nhwc && !global_max;
  const size_t pixels = size_t{g.in_h} * g.in_w;
  PoolJob base{ctx.op, input.type, input.data, out.data, &g, nhwc, 0, 0};
  if (global_max) base.channel_block = HWY_DYNAMIC_DISPATCH(GlobalNhwcChannels)();
  if (global_sum) base.pixel_block = GlobalPixelBlock(pixels);
  const size_t pixel_blocks = global_sum ? GlobalPixelBlocks(pixels) : 0;
  // Items are output rows: (plane, oy) for nchw, (batch, oy) for nhwc; global
  // nhwc: see PoolJob.
  const size_t items = global_max ? size_t{g.batch} * ((g.channels + base.channel_block - 1) / base.channel_block)
                       : global_sum ? size_t{g.batch} * pixel_blocks
                       : nhwc       ? size_t{g.batch} * g.out_h
                                    : size_t{g.batch} * g.channels * g.out_h;
  const size_t row_work = global_max   ? pixels * base.channel_block
                          : global_sum ? base.pixel_block * g.channels
                                       : size_t{g.out_w} * g.window_h * g.window_w * (nhwc ? g.channels : 1) + g.in_w;
  if (global_sum) base.cp = GlobalPartialStride(g.channels);
  const memory::Scratch<double> partial(global_sum ? items * base.cp : 0, "pool2d: partial sums of a global pool");
  base.partial = partial.data();
  ctx.parallel.Run(items, std::max<size_t>(1, 32768 / std::max<size_t>(row_work, 1)), [&](size_t b, size_t e) {
    PoolJob j = base;
    j.i0 = b;
    j.i1 = e;
    HWY_DYNAMIC_DISPATCH(RunPool)(j);
  });
  if (global_sum) HWY_DYNAMIC_DISPATCH(GlobalSumNhwcFinish)(base);
}

}  // namespace

void RegisterPool2dKernels(OpKind op, KernelRegistry& registry) {
  const DataTypeSet floats{DataType::kFloat32, DataType::kFloat16};
  const DataTypeSet all{DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kUint32,
                        DataType::kInt64,   DataType::kUint64,  DataType::kInt8,  DataType::kUint8};
  const DataTypeSet& types = op == OpKind::maxPool2d ? all : floats;
  registry.Add(CpuKernel{op, &RunPool2d, &PreparePool2d, {types}, {types}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
