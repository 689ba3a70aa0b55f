// cpu kernel of softmax (float32, float16) along any axis.
//
// The input is [outer, L, inner] around the axis. inner == 1: each row of L
// contiguous values takes three sweeps, the first from memory and the other
// two from cache: max, e = exp(x - max) stored (to the output row, or a
// float32 scratch row for float16) with its sum, then e * (1 / sum). Memory
// traffic is one read and one write; one exp per element. inner > 1: the same
// three sweeps run row by row over column blocks of the [L, inner] slice, one
// lane per column.
//
// exp: hn::Exp's range reduction and polynomial (1 ULP); the 2^q scaling is
// one AVX-512 scalef (subnormal results included) instead of Highway's
// two-step integer scaling, ~12 instead of ~24 ops per vector: softmax is
// compute-bound on one core otherwise (13 -> 22 GB/s on [4096, 1000]).
//
// Numerics (WPT tolerance 3L + 3 ULP; float32 arithmetic stays within it on
// any input): x - max is rounded, and exp turns that rounding into a relative
// error of up to |x - max| / 2 ulps (~64 ulps before exp underflows); below
// L = 32 (tolerance < 99 ulps) the rounding error is recovered with TwoSum and
// applied as exp(hi) * (1 + lo). The sum of L positive terms in float32 is off
// by at most L ulps. A row with a NaN, a +Inf, or only -Inf is all NaN, as in
// the reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/softmax.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "ops/cpu/reduce-inl.h"

#ifndef WEBNN_OPS_CPU_SOFTMAX_CC_ONCE_
#define WEBNN_OPS_CPU_SOFTMAX_CC_ONCE_
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/cpu/kernel_registry.h"
#include "ops/softmax.h"
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef WEBNN_SOFTMAX_SCALEF
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define WEBNN_SOFTMAX_SCALEF 1
#else
#define WEBNN_SOFTMAX_SCALEF 0
#endif

// exp(x) for x <= 0 (or -Inf), with hn::Exp's range reduction and polynomial
// (1 ULP). hn::Exp scales by 2^q with integer exponent arithmetic in two steps
// (for subnormal results), ~24 ops per vector; AVX-512's scalef does the
// scaling, subnormals included, in one instruction (~12 ops in all). Other
// targets take one integer step when every lane's result is normal.
template <class D, class V>
HWY_INLINE V ExpNonPositive(D d, V x) {
  hn::impl::ExpImpl<float> impl;
  const V kLn2Hi = hn::Set(d, -0.693145751953125f);
  const V kLn2Lo = hn::Set(d, -1.428606765330187045e-6f);
#if WEBNN_SOFTMAX_SCALEF
  // Below -150 every result is 0; clamping keeps -Inf out of the reduction.
  // vmaxps returns its second operand if either is NaN: NaN x stays NaN, so
  // a row's NaN reaches its sum and every output (RowMax skips the check).
  x = V{_mm512_max_ps(hn::Set(d, -150.0f).raw, x.raw)};
  const V qf = hn::Round(hn::Mul(x, hn::Set(d, 1.442695040888963407359924681f)));
  V r = hn::MulAdd(qf, kLn2Hi, x);
  r = hn::MulAdd(qf, kLn2Lo, r);
  const V p = hn::Add(impl.ExpPoly(d, r), hn::Set(d, 1.0f));
  return V{_mm512_scalef_ps(p.raw, qf.raw)};
#else
  const hn::Rebind<int32_t, D> di;
  // Round to nearest (x <= 0: truncating x / ln2 - 0.5 rounds half away from zero).
  const auto q = hn::ConvertTo(di, hn::MulAdd(x, hn::Set(d, 1.442695040888963407359924681f), hn::Set(d, -0.5f)));
  if (HWY_UNLIKELY(!hn::AllFalse(di, hn::Lt(q, hn::Set(di, -125))))) return hn::Exp(d, x);
  const auto qf = hn::ConvertTo(d, q);
  V r = hn::MulAdd(qf, kLn2Hi, x);
  r = hn::MulAdd(qf, kLn2Lo, r);
  return hn::Mul(hn::Add(impl.ExpPoly(d, r), hn::Set(d, 1.0f)), impl.Pow2I(d, q));
#endif
}

// exp(x + neg_max), x <= max. kExact recovers the rounding error of x - max
// (TwoSum) and applies it as exp(hi) * (1 + lo): exp turns an error of half an
// ulp of x - max into |x - max| / 2 ulps of the result (up to ~64 ulps), which
// WPT's 3 L + 3 ulps absorbs only for axes of 21 or more elements.
template <bool kExact, class D, class V>
HWY_INLINE V ExpShifted(D d, V x, V neg_max) {
  const V s = hn::Add(x, neg_max);
  if constexpr (!kExact) {
    return ExpNonPositive(d, s);
  } else {
    const V bp = hn::Sub(s, x);
    V lo = hn::Add(hn::Sub(x, hn::Sub(s, bp)), hn::Sub(neg_max, bp));
    // Where exp underflows anyway lo does not matter; x = -Inf makes it NaN.
    lo = hn::IfThenElseZero(hn::Gt(s, hn::Set(d, -110.0f)), lo);
    const V e = ExpNonPositive(d, s);
    return hn::MulAdd(e, lo, e);
  }
}

// Axes shorter than this take the exact x - max (see ExpShifted).
constexpr size_t kExactShiftBelow = 32;

// Row max; NaN if the row has a NaN (with scalef, NaN may also come out of
// the exp sweep instead).
template <class E>
float RowMax(const E* HWY_RESTRICT x, size_t n) {
  constexpr bool kCheckNaN = !WEBNN_SOFTMAX_SCALEF;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto lowest = hn::Set(d, -std::numeric_limits<float>::infinity());
  auto m0 = lowest, m1 = lowest;
  auto nan = hn::FirstN(d, 0);
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto x0 = LoadLanes(d, x + i), x1 = LoadLanes(d, x + i + N);
    if constexpr (kCheckNaN) nan = hn::Or(nan, hn::Or(hn::IsNaN(x0), hn::IsNaN(x1)));
    m0 = hn::Max(m0, x0);
    m1 = hn::Max(m1, x1);
  }
  for (; i < n; i += N) {
    const auto x0 = i + N <= n ? LoadLanes(d, x + i) : hn::IfThenElse(hn::FirstN(d, n - i), LoadLanesTail(d, x + i, n - i), lowest);
    if constexpr (kCheckNaN) nan = hn::Or(nan, hn::IsNaN(x0));
    m0 = hn::Max(m0, x0);
  }
  if (!hn::AllFalse(d, nan)) return std::numeric_limits<float>::quiet_NaN();
  return hn::GetLane(hn::MaxOfLanes(d, hn::Max(m0, m1)));
}

template <class E>
void FillNaN(E* y, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto nan = hn::Set(d, std::numeric_limits<float>::quiet_NaN());
  size_t i = 0;
  for (; i + N <= n; i += N) StoreLanes(nan, d, y + i);
  if (i < n) StoreLanesTail(nan, d, y + i, n - i);
}

// Softmax of one row: e = exp(x - max) to `e` (the output row for float32, a
// float32 scratch row for float16) with its sum, then y = e * (1 / sum).
template <bool kExact, class E>
void SoftmaxRow(const E* HWY_RESTRICT x, E* HWY_RESTRICT y, size_t n, float* HWY_RESTRICT e) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const float max = RowMax(x, n);
  if (!std::isfinite(max)) return FillNaN(y, n);
  const auto neg_max = hn::Set(d, -max);
  auto s0 = hn::Zero(d), s1 = hn::Zero(d);
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto e0 = ExpShifted<kExact>(d, LoadLanes(d, x + i), neg_max);
    const auto e1 = ExpShifted<kExact>(d, LoadLanes(d, x + i + N), neg_max);
    s0 = hn::Add(s0, e0);
    s1 = hn::Add(s1, e1);
    hn::StoreU(e0, d, e + i);
    hn::StoreU(e1, d, e + i + N);
  }
  for (; i < n; i += N) {
    const size_t k = std::min(N, n - i);
    const auto xv = k == N ? LoadLanes(d, x + i) : LoadLanesTail(d, x + i, k);
    // Lanes past the row would be 0 - max, possibly > 0: make them max.
    const auto mask = hn::FirstN(d, k);
    const auto ev = hn::IfThenElseZero(mask, ExpShifted<kExact>(d, hn::IfThenElse(mask, xv, hn::Set(d, max)), neg_max));
    s0 = hn::Add(s0, ev);
    if (k == N) hn::StoreU(ev, d, e + i);
    else StoreTail(ev, d, e + i, k);
  }
  const auto inv = hn::Set(d, 1.0f / hn::GetLane(hn::SumOfLanes(d, hn::Add(s0, s1))));
  for (i = 0; i + N <= n; i += N) StoreLanes(hn::Mul(hn::LoadU(d, e + i), inv), d, y + i);
  if (i < n) StoreLanesTail(hn::Mul(LoadTail(d, e + i, n - i), inv), d, y + i, n - i);
}

// NaN-propagating max (hn::Max may return either operand for NaN).
template <class D, class V>
HWY_INLINE V NanMax(D, V a, V b) {
  return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), hn::Max(a, b));
}

// Columns [0, W) of an [L, stride] slice: softmax down each column. The three
// sweeps run row by row (contiguous runs of W elements; walking a column at
// a time would touch one cache line per row) with per-column state in `buf`
// (2 * W floats: max, then sum and 1 / sum).
template <bool kExact, class E>
void SoftmaxColumns(const E* HWY_RESTRICT x, E* HWY_RESTRICT y, size_t L, size_t stride, size_t W,
                    float* HWY_RESTRICT buf) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto nanv = hn::Set(d, std::numeric_limits<float>::quiet_NaN());
  float* HWY_RESTRICT mx = buf;
  float* HWY_RESTRICT sum = buf + W;
  std::fill(mx, mx + W, -std::numeric_limits<float>::infinity());
  std::fill(sum, sum + W, 0.0f);
  for (size_t r = 0; r < L; ++r) {
    const E* p = x + r * stride;
    for (size_t c = 0; c < W; c += N) {
      const size_t k = std::min(N, W - c);
      const auto v = k == N ? LoadLanes(d, p + c) : LoadLanesTail(d, p + c, k);
      const auto m = NanMax(d, k == N ? hn::LoadU(d, mx + c) : LoadTail(d, mx + c, k), v);
      if (k == N) hn::StoreU(m, d, mx + c);
      else StoreTail(m, d, mx + c, k);
    }
  }
  // e = exp(x - max) to y (float32) or recomputed in the last sweep (float16).
  // A NaN or infinite max makes e garbage; the column's 1 / sum is NaN then.
  for (size_t r = 0; r < L; ++r) {
    const E* p = x + r * stride;
    for (size_t c = 0; c < W; c += N) {
      const size_t k = std::min(N, W - c);
      const auto m = k == N ? hn::LoadU(d, mx + c) : LoadTail(d, mx + c, k);
      // Lanes past W take max itself (their results are never stored).
      const auto v = hn::IfThenElse(hn::FirstN(d, k), k == N ? LoadLanes(d, p + c) : LoadLanesTail(d, p + c, k), m);
      const auto e = ExpShifted<kExact>(d, v, hn::Neg(m));
      const auto s = hn::Add(k == N ? hn::LoadU(d, sum + c) : LoadTail(d, sum + c, k), e);
      if (k == N) hn::StoreU(s, d, sum + c);
      else StoreTail(s, d, sum + c, k);
      if constexpr (std::is_same_v<E, float>) {
        if (k == N) hn::StoreU(e, d, y + r * stride + c);
        else StoreTail(e, d, y + r * stride + c, k);
      }
    }
  }
  for (size_t c = 0; c < W; c += N) {
    const size_t k = std::min(N, W - c);
    const auto m = LoadTail(d, mx + c, k);
    StoreTail(hn::IfThenElse(hn::Not(hn::IsFinite(m)), nanv, hn::Div(hn::Set(d, 1.0f), LoadTail(d, sum + c, k))), d,
              sum + c, k);
  }
  const float* HWY_RESTRICT inv = sum;
  for (size_t r = 0; r < L; ++r) {
    for (size_t c = 0; c < W; c += N) {
      const size_t k = std::min(N, W - c);
      const auto iv = k == N ? hn::LoadU(d, inv + c) : LoadTail(d, inv + c, k);
      hn::Vec<decltype(d)> e;
      if constexpr (std::is_same_v<E, float>) {
        e = k == N ? hn::LoadU(d, y + r * stride + c) : LoadTail(d, y + r * stride + c, k);
      } else {
        const E* p = x + r * stride + c;
        const auto m = k == N ? hn::LoadU(d, mx + c) : LoadTail(d, mx + c, k);
        e = ExpShifted<kExact>(d, hn::IfThenElse(hn::FirstN(d, k), k == N ? LoadLanes(d, p) : LoadLanesTail(d, p, k), m),
                               hn::Neg(m));
      }
      const auto v = hn::Mul(e, iv);  // NaN columns: NaN * anything = NaN
      if (k == N) StoreLanes(v, d, y + r * stride + c);
      else StoreLanesTail(v, d, y + r * stride + c, k);
    }
  }
}

template <class E>
void SoftmaxRowsTyped(const E* x, E* y, size_t rows, size_t L) {
  std::vector<float> scratch;
  float* e = nullptr;
  if constexpr (std::is_same_v<E, float>) {
    (void)scratch;
  } else {
    scratch.resize(L);
    e = scratch.data();
  }
  for (size_t r = 0; r < rows; ++r) {
    if constexpr (std::is_same_v<E, float>) e = y + r * L;
    if (L < kExactShiftBelow) SoftmaxRow<true>(x + r * L, y + r * L, L, e);
    else SoftmaxRow<false>(x + r * L, y + r * L, L, e);
  }
}
void SoftmaxRowsF32(const float* x, float* y, size_t rows, size_t L) { SoftmaxRowsTyped(x, y, rows, L); }
void SoftmaxRowsF16(const F16* x, F16* y, size_t rows, size_t L) { SoftmaxRowsTyped(x, y, rows, L); }
void SoftmaxColumnsF32(const float* x, float* y, size_t L, size_t stride, size_t W, float* buf) {
  if (L < kExactShiftBelow) SoftmaxColumns<true>(x, y, L, stride, W, buf);
  else SoftmaxColumns<false>(x, y, L, stride, W, buf);
}
void SoftmaxColumnsF16(const F16* x, F16* y, size_t L, size_t stride, size_t W, float* buf) {
  if (L < kExactShiftBelow) SoftmaxColumns<true>(x, y, L, stride, W, buf);
  else SoftmaxColumns<false>(x, y, L, stride, W, buf);
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(SoftmaxRowsF32);
HWY_EXPORT(SoftmaxRowsF16);
HWY_EXPORT(SoftmaxColumnsF32);
HWY_EXPORT(SoftmaxColumnsF16);

namespace {

constexpr size_t kGrain = 32768;
// Column blocks of the vertical case: up to 4096 columns x L rows per item.
// Long contiguous runs per row beat cache residency of the block: on
// [1000, 4096] along axis 0, 4096 columns ran 2.5x faster than 256.
constexpr size_t kColumnBlock = 4096;
constexpr size_t kMinColumnBlock = 256;

template <class E>
void RunSoftmaxTyped(const KernelContext& ctx, size_t outer, size_t L, size_t inner) {
  const E* x = ctx.inputs[0].as<E>();
  E* y = ctx.outputs[0].as<E>();
  if (inner == 1) {
    ctx.parallel.Run(outer, std::max<size_t>(1, kGrain / L), [&](size_t b, size_t e) {
      if constexpr (std::is_same_v<E, float>) HWY_DYNAMIC_DISPATCH(SoftmaxRowsF32)(x + b * L, y + b * L, e - b, L);
      else HWY_DYNAMIC_DISPATCH(SoftmaxRowsF16)(x + b * L, y + b * L, e - b, L);
    });
    return;
  }
  // Column blocks: as wide as possible (long contiguous runs per row), but at
  // least two items per thread when the slices are few.
  size_t blocks = (inner + kColumnBlock - 1) / kColumnBlock;
  const size_t threads = ctx.parallel.NumThreads();
  if (outer * blocks < 2 * threads && L * inner >= 2 * kGrain)
    blocks = std::min((inner + kMinColumnBlock - 1) / kMinColumnBlock, (2 * threads + outer - 1) / outer);
  const size_t width = ((inner + blocks - 1) / blocks + 15) & ~size_t{15};
  blocks = (inner + width - 1) / width;
  ctx.parallel.Run(outer * blocks, std::max<size_t>(1, kGrain / (L * width)), [&](size_t b, size_t e) {
    std::vector<float> buf(2 * width);
    for (size_t t = b; t < e; ++t) {
      const size_t o = t / blocks;
      const size_t c0 = (t % blocks) * width;
      const size_t W = std::min(width, inner - c0);
      const size_t off = o * L * inner + c0;
      if constexpr (std::is_same_v<E, float>)
        HWY_DYNAMIC_DISPATCH(SoftmaxColumnsF32)(x + off, y + off, L, inner, W, buf.data());
      else
        HWY_DYNAMIC_DISPATCH(SoftmaxColumnsF16)(x + off, y + off, L, inner, W, buf.data());
    }
  });
}

void RunSoftmax(const KernelContext& ctx) {
  const uint32_t axis = AttrsAs<SoftmaxAttrs>(ctx.attrs).axis;
  const std::vector<uint32_t>& shape = ctx.inputs[0].shape;
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const size_t L = shape[axis];
  if (ctx.inputs[0].type == DataType::kFloat32) RunSoftmaxTyped<float>(ctx, outer, L, inner);
  else RunSoftmaxTyped<hwy::float16_t>(ctx, outer, L, inner);
}

}  // namespace

void RegisterSoftmaxKernels(OpKind op, KernelRegistry& registry) {
  const DataTypeSet types{DataType::kFloat32, DataType::kFloat16};
  registry.Add(CpuKernel{op, &RunSoftmax, nullptr, {types}, {types}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
