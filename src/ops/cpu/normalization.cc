// cpu kernels of batchNormalization, instanceNormalization (nchw, nhwc) and
// layerNormalization (any axes), float32 and float16.
//
// Mean and variance take one pass: shifted sums sum(x - k), sum((x - k)^2) in
// float64 with k the window's first element (per column in the vertical
// case), so var = s2/n - (s1/n)^2 cancels only relative to (mean - k)^2, not
// mean^2: inputs far from zero keep their precision. The normalization
//   y = ((x - mean) * invstd) * scale + bias
// runs in float64 with one rounding at the store: bias can cancel the product
// to any small value, where a float32 FMA would be off by many ULPs of the
// result (WPT's tolerance is 6 ULP for batchNormalization). The price is ~10
// float64 ops per 8 elements: layerNormalization of [512, 768] runs at ~25
// GB/s per core from cache, compute-bound, ~2x what float32 could do.
//
// Layouts (reduce_layout.h): windows whose innermost axis is normalized
// (layerNorm over trailing axes, instanceNorm nchw) are processed per window
// while it is in cache: stats, then normalize (fused). With few windows, or a
// kept innermost axis (instanceNorm nhwc, layerNorm over leading axes), the
// stats are computed first, split over slices and threads and merged, then a
// second parallel pass normalizes.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/normalization.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/reduce-inl.h"

#ifndef WEBNN_OPS_CPU_NORMALIZATION_CC_ONCE_
#define WEBNN_OPS_CPU_NORMALIZATION_CC_ONCE_
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/float16.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/reduce_layout.h"
#include "ops/normalization.h"
#include "ops/number_cast.h"

namespace webnn::ops::cpu {

// y = ((x - m) * a) * s + b over a span; each of (m, a), s, b is either one
// value or an array with one entry per span element.
struct SpanAffine {
  const double* m_p = nullptr;
  const double* a_p = nullptr;
  const double* s_p = nullptr;
  const double* b_p = nullptr;
  double m = 0, a = 1, s = 1, b = 0;
};

enum class ParamMode : uint8_t {
  kPerWindowElement,  // layerNormalization: scale/bias index = position in the window
  kPerChannel,        // instanceNormalization: scale/bias index = channel
};

// One slice of a normalization over a ReductionLayout: groups [g0, g1),
// runs/rows [r0, r1), elements/columns [l0, l1).
struct NormJob {
  DataType type;
  const std::byte* in;
  std::byte* out;
  const ReductionLayout* layout;
  uint64_t g0, g1, r0, r1, l0, l1;
  // Moments: shift k and the sums, per output index, at [o - out_base].
  const double* shift = nullptr;
  double* s1 = nullptr;
  double* s2 = nullptr;
  uint64_t out_base = 0;
  // Normalize: per output index.
  const double* mean = nullptr;
  const double* inv = nullptr;
  ParamMode mode = ParamMode::kPerWindowElement;
  const double* scale = nullptr;  // float64 copies; null when absent
  const double* bias = nullptr;
  uint64_t channels = 1;  // kPerChannel, inner reduced: channel of group g is g % channels
  double epsilon = 0;     // fused
};

// mean and 1/sqrt(var + epsilon) from sums of x - k and (x - k)^2 over n elements.
inline void StatsFromMoments(double k, double s1, double s2, double n, double epsilon, double* mean, double* inv) {
  const double d = s1 / n;
  double var = s2 / n - d * d;
  if (var < 0) var = 0;  // rounding; NaN stays NaN
  *mean = k + d;
  *inv = 1.0 / std::sqrt(var + epsilon);
}

}  // namespace webnn::ops::cpu
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <bool kVecMA, bool kVecS, bool kVecB, class E>
void AffineSpanT(const E* HWY_RESTRICT x, E* HWY_RESTRICT y, size_t n, const SpanAffine& f) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const auto m = hn::Set(d, f.m), a = hn::Set(d, f.a), s = hn::Set(d, f.s), b = hn::Set(d, f.b);
  // Locals: stores to y could otherwise alias `f` and force reloads.
  const double* HWY_RESTRICT mp = f.m_p;
  const double* HWY_RESTRICT ap = f.a_p;
  const double* HWY_RESTRICT sp = f.s_p;
  const double* HWY_RESTRICT bp = f.b_p;
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto mv = kVecMA ? hn::LoadU(d, mp + i) : m;
    const auto av = kVecMA ? hn::LoadU(d, ap + i) : a;
    const auto sv = kVecS ? hn::LoadU(d, sp + i) : s;
    const auto bv = kVecB ? hn::LoadU(d, bp + i) : b;
    StoreF64As(hn::MulAdd(hn::Mul(hn::Sub(LoadAsF64(d, x + i), mv), av), sv, bv), d, y + i);
  }
  if (i < n) {
    const size_t k = n - i;
    const auto mv = kVecMA ? LoadTail(d, mp + i, k) : m;
    const auto av = kVecMA ? LoadTail(d, ap + i, k) : a;
    const auto sv = kVecS ? LoadTail(d, sp + i, k) : s;
    const auto bv = kVecB ? LoadTail(d, bp + i, k) : b;
    StoreF64AsTail(hn::MulAdd(hn::Mul(hn::Sub(LoadAsF64Tail(d, x + i, k), mv), av), sv, bv), d, y + i, k);
  }
}

template <class E>
void AffineSpan(const E* x, E* y, size_t n, const SpanAffine& f) {
  const bool vs = f.s_p != nullptr, vb = f.b_p != nullptr;
  if (f.m_p) {
    if (vs) return vb ? AffineSpanT<true, true, true>(x, y, n, f) : AffineSpanT<true, true, false>(x, y, n, f);
    return vb ? AffineSpanT<true, false, true>(x, y, n, f) : AffineSpanT<true, false, false>(x, y, n, f);
  }
  if (vs) return vb ? AffineSpanT<false, true, true>(x, y, n, f) : AffineSpanT<false, true, false>(x, y, n, f);
  return vb ? AffineSpanT<false, false, true>(x, y, n, f) : AffineSpanT<false, false, false>(x, y, n, f);
}

// Shifted sums over runs [r0, r1) x elements [l0, l1) of one window.
template <class E>
void WindowMoments(const E* base, const ReductionLayout& L, uint64_t r0, uint64_t r1, uint64_t l0, uint64_t l1,
                   double k, double* s1, double* s2) {
  const hn::ScalableTag<double> d;
  const auto kv = hn::Set(d, k);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), q0 = hn::Zero(d), q1 = hn::Zero(d);
  const size_t n = static_cast<size_t>(l1 - l0);
  OffsetWalker w(L.red_sizes, L.red_strides, r0);
  for (uint64_t r = r0; r < r1; ++r, w.Next()) AccumulateShiftedMoments(d, base + w.offset() + l0, n, kv, a0, a1, q0, q1);
  *s1 = hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1)));
  *s2 = hn::GetLane(hn::SumOfLanes(d, hn::Add(q0, q1)));
}

// Shifted sums of columns [0, W) over rows [r0, r1): s1[c], s2[c] (overwritten).
template <class E>
void ColumnMoments(const E* gbase, const ReductionLayout& L, uint64_t r0, uint64_t r1, size_t W, const double* k,
                   double* HWY_RESTRICT s1, double* HWY_RESTRICT s2) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  std::fill(s1, s1 + W, 0.0);
  std::fill(s2, s2 + W, 0.0);
  OffsetWalker w(L.red_sizes, L.red_strides, r0);
  const E* rows[4];
  for (uint64_t r = r0; r < r1;) {
    const size_t nr = static_cast<size_t>(std::min<uint64_t>(4, r1 - r));
    for (size_t j = 0; j < nr; ++j, w.Next()) rows[j] = gbase + w.offset();
    r += nr;
    for (size_t c = 0; c < W; c += N) {
      const size_t n = std::min(N, W - c);
      const bool full = n == N;
      const auto kv = full ? hn::LoadU(d, k + c) : LoadTail(d, k + c, n);
      auto a = full ? hn::LoadU(d, s1 + c) : LoadTail(d, s1 + c, n);
      auto q = full ? hn::LoadU(d, s2 + c) : LoadTail(d, s2 + c, n);
      for (size_t j = 0; j < nr; ++j) {
        const auto v = hn::Sub(full ? LoadAsF64(d, rows[j] + c) : LoadAsF64Tail(d, rows[j] + c, n), kv);
        a = hn::Add(a, v);
        q = hn::MulAdd(v, v, q);
      }
      if (full) {
        hn::StoreU(a, d, s1 + c);
        hn::StoreU(q, d, s2 + c);
      } else {
        StoreTail(a, d, s1 + c, n);
        StoreTail(q, d, s2 + c, n);
      }
    }
  }
}

// Normalizes runs [r0, r1) x elements [l0, l1) of group g (inner reduced).
template <class E>
void NormalizeWindow(const NormJob& j, uint64_t g, const E* in, E* out, uint64_t goff, double mean, double inv) {
  const ReductionLayout& L = *j.layout;
  SpanAffine f;
  f.m = mean;
  f.a = inv;
  if (j.mode == ParamMode::kPerChannel) {
    const uint64_t c = g % j.channels;
    if (j.scale) f.s = j.scale[c];
    if (j.bias) f.b = j.bias[c];
  }
  OffsetWalker w(L.red_sizes, L.red_strides, j.r0);
  for (uint64_t r = j.r0; r < j.r1; ++r, w.Next()) {
    if (j.mode == ParamMode::kPerWindowElement) {
      const uint64_t p = r * L.inner + j.l0;
      if (j.scale) f.s_p = j.scale + p;
      if (j.bias) f.b_p = j.bias + p;
    }
    const uint64_t off = goff + w.offset() + j.l0;
    AffineSpan(in + off, out + off, static_cast<size_t>(j.l1 - j.l0), f);
  }
}

template <class E>
void RunNormJobTyped(const NormJob& j, int phase) {
  const ReductionLayout& L = *j.layout;
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  OffsetWalker gw(L.kept_sizes, L.kept_strides, j.g0);
  if (L.inner_reduced) {
    for (uint64_t g = j.g0; g < j.g1; ++g, gw.Next()) {
      const E* base = in + gw.offset();
      if (phase == 0) {  // moments
        WindowMoments(base, L, j.r0, j.r1, j.l0, j.l1, j.shift[g], &j.s1[g - j.out_base], &j.s2[g - j.out_base]);
      } else if (phase == 1) {  // normalize
        NormalizeWindow(j, g, in, out, gw.offset(), j.mean[g], j.inv[g]);
      } else {  // fused: whole window, in cache between the two sweeps
        const double k = LoadScalar(base);
        double s1, s2, mean, inv;
        WindowMoments(base, L, 0, L.runs, 0, L.inner, k, &s1, &s2);
        StatsFromMoments(k, s1, s2, static_cast<double>(L.window()), j.epsilon, &mean, &inv);
        NormalizeWindow(j, g, in, out, gw.offset(), mean, inv);
      }
    }
    return;
  }
  // Vertical: columns [l0, l1) of each group, rows [r0, r1).
  const uint64_t C = L.inner;
  const size_t W = static_cast<size_t>(j.l1 - j.l0);
  for (uint64_t g = j.g0; g < j.g1; ++g, gw.Next()) {
    const uint64_t o = g * C + j.l0;
    if (phase == 0) {
      ColumnMoments(in + gw.offset() + j.l0, L, j.r0, j.r1, W, j.shift + o, j.s1 + (o - j.out_base),
                    j.s2 + (o - j.out_base));
      continue;
    }
    SpanAffine f;
    f.m_p = j.mean + o;
    f.a_p = j.inv + o;
    if (j.mode == ParamMode::kPerChannel) {
      // Channels are the columns (instanceNorm nhwc).
      if (j.scale) f.s_p = j.scale + j.l0;
      if (j.bias) f.b_p = j.bias + j.l0;
    }
    OffsetWalker w(L.red_sizes, L.red_strides, j.r0);
    for (uint64_t r = j.r0; r < j.r1; ++r, w.Next()) {
      if (j.mode == ParamMode::kPerWindowElement) {
        if (j.scale) f.s = j.scale[r];
        if (j.bias) f.b = j.bias[r];
      }
      const uint64_t off = gw.offset() + w.offset() + j.l0;
      AffineSpan(in + off, out + off, W, f);
    }
  }
}

void RunNormJob(const NormJob& j, int phase) {
  if (j.type == DataType::kFloat32) RunNormJobTyped<float>(j, phase);
  else RunNormJobTyped<F16>(j, phase);
}

// batchNormalization over [outer, C, inner], elements [e0, e1); per-channel
// m, a (= scale / sqrt(var + eps)), b in float64.
template <class E>
void BatchNormTyped(const E* in, E* out, uint64_t C, uint64_t inner, uint64_t e0, uint64_t e1, const double* m,
                    const double* a, const double* b) {
  if (inner == 1) {
    // Channels last: the parameters are arrays along the row.
    for (uint64_t e = e0; e < e1;) {
      const uint64_t c = e % C;
      const uint64_t n = std::min(e1 - e, C - c);
      SpanAffine f;
      f.m_p = m + c;
      f.a_p = a + c;
      f.b_p = b + c;
      AffineSpan(in + e, out + e, static_cast<size_t>(n), f);
      e += n;
    }
    return;
  }
  for (uint64_t e = e0; e < e1;) {
    const uint64_t c = (e / inner) % C;
    const uint64_t n = std::min(e1 - e, inner - e % inner);
    SpanAffine f;
    f.m = m[c];
    f.a = a[c];
    f.b = b[c];
    AffineSpan(in + e, out + e, static_cast<size_t>(n), f);
    e += n;
  }
}

void BatchNorm(DataType type, const std::byte* in, std::byte* out, uint64_t C, uint64_t inner, uint64_t e0,
               uint64_t e1, const double* m, const double* a, const double* b) {
  if (type == DataType::kFloat32)
    BatchNormTyped(reinterpret_cast<const float*>(in), reinterpret_cast<float*>(out), C, inner, e0, e1, m, a, b);
  else
    BatchNormTyped(reinterpret_cast<const F16*>(in), reinterpret_cast<F16*>(out), C, inner, e0, e1, m, a, b);
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(RunNormJob);
HWY_EXPORT(BatchNorm);

namespace {

constexpr uint64_t kGrain = 32768;
// Vertical column blocks: rows are read in runs of up to 4096 elements (long
// contiguous runs keep the prefetchers streaming; threads split rows instead).
constexpr uint64_t kColumnBlock = 4096;

double ElementAsDouble(const TensorView& t, uint64_t i) {
  if (t.type == DataType::kFloat32) return t.as<float>()[i];
  return core::HalfBitsToDouble(t.as<uint16_t>()[i]);
}

std::vector<double> ToDoubles(const TensorView& t) {
  std::vector<double> v(t.elements());
  for (uint64_t i = 0; i < v.size(); ++i) v[i] = ElementAsDouble(t, i);
  return v;
}

double CastEpsilon(double epsilon, DataType type) { return CastMLNumber(MLNumber(epsilon), type).f; }

void RunBatchNormalization(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<BatchNormalizationAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const std::vector<uint32_t>& shape = input.shape;
  uint64_t C = shape[attrs.axis], inner = 1;
  for (size_t d = attrs.axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const double epsilon = CastEpsilon(attrs.epsilon, input.type);
  std::vector<double> m(C), a(C), b(C, 0.0);
  const TensorView* scale = OptionalInput(ctx.inputs, 3);
  const TensorView* bias = OptionalInput(ctx.inputs, 4);
  for (uint64_t c = 0; c < C; ++c) {
    m[c] = ElementAsDouble(ctx.inputs[1], c);
    a[c] = 1.0 / std::sqrt(ElementAsDouble(ctx.inputs[2], c) + epsilon);
    if (scale) a[c] *= ElementAsDouble(*scale, c);
    if (bias) b[c] = ElementAsDouble(*bias, c);
  }
  const uint64_t n = input.elements();
  ctx.parallel.Run(n, kGrain, [&](size_t e0, size_t e1) {
    HWY_DYNAMIC_DISPATCH(BatchNorm)(input.type, input.data, ctx.outputs[0].data, C, inner, e0, e1, m.data(),
                                    a.data(), b.data());
  });
}

// Shift k per output: the window's first element (per column when vertical).
std::vector<double> Shifts(const TensorView& input, const ReductionLayout& L) {
  std::vector<double> k(L.outputs());
  OffsetWalker gw(L.kept_sizes, L.kept_strides, 0);
  for (uint64_t g = 0; g < L.groups; ++g, gw.Next()) {
    if (L.inner_reduced) k[g] = ElementAsDouble(input, gw.offset());
    else
      for (uint64_t c = 0; c < L.inner; ++c) k[g * L.inner + c] = ElementAsDouble(input, gw.offset() + c);
  }
  return k;
}

// Normalizes every window of `L` (see NormJob for the parameter modes).
void Normalize(const KernelContext& ctx, const ReductionLayout& L, double epsilon, NormJob base) {
  const uint64_t threads = ctx.parallel.NumThreads();
  const uint64_t window = L.window();
  const uint64_t outputs = L.outputs();
  base.type = ctx.inputs[0].type;
  base.in = ctx.inputs[0].data;
  base.out = ctx.outputs[0].data;
  base.layout = &L;
  base.epsilon = epsilon;
  base.r0 = 0;
  base.r1 = L.runs;
  base.l0 = 0;
  base.l1 = L.inner;

  if (L.inner_reduced && (L.groups >= 2 * threads || window < 2 * kGrain)) {
    ctx.parallel.Run(L.groups, std::max<uint64_t>(1, kGrain / window), [&](size_t b, size_t e) {
      NormJob j = base;
      j.g0 = b;
      j.g1 = e;
      HWY_DYNAMIC_DISPATCH(RunNormJob)(j, 2);
    });
    return;
  }

  // Two phases: moments per slice (merged), then normalization per slice.
  const std::vector<double> shift = Shifts(ctx.inputs[0], L);
  base.shift = shift.data();
  std::vector<NormJob> slices;
  if (L.inner_reduced) {
    // Few large windows: slice each across runs or within its run.
    const uint64_t splits = std::max<uint64_t>(1, std::min<uint64_t>(4 * threads, window / kGrain));
    const bool split_runs = L.runs >= splits;
    for (uint64_t g = 0; g < L.groups; ++g) {
      for (uint64_t s = 0; s < splits; ++s) {
        NormJob j = base;
        j.g0 = g;
        j.g1 = g + 1;
        if (split_runs) {
          j.r0 = L.runs * s / splits;
          j.r1 = L.runs * (s + 1) / splits;
        } else {
          j.l0 = L.inner * s / splits;
          j.l1 = L.inner * (s + 1) / splits;
        }
        if (j.r0 < j.r1 && j.l0 < j.l1) slices.push_back(j);
      }
    }
  } else {
    // Vertical: (group, column block, row slice).
    const uint64_t C = L.inner;
    const uint64_t blocks = (C + kColumnBlock - 1) / kColumnBlock;
    const uint64_t items = L.groups * blocks;
    const uint64_t total = outputs * L.runs;
    uint64_t splits = 1;
    if (items < 4 * threads) splits = std::max<uint64_t>(1, std::min({4 * threads / items + 1, L.runs, total / kGrain}));
    for (uint64_t t = 0; t < items; ++t) {
      for (uint64_t s = 0; s < splits; ++s) {
        NormJob j = base;
        j.g0 = t / blocks;
        j.g1 = j.g0 + 1;
        j.l0 = (t % blocks) * kColumnBlock;
        j.l1 = std::min(C, j.l0 + kColumnBlock);
        j.r0 = L.runs * s / splits;
        j.r1 = L.runs * (s + 1) / splits;
        if (j.r0 < j.r1) slices.push_back(j);
      }
    }
  }
  // Moments: each slice writes its own partial sums, packed one slice after
  // another (a slice covers one output, or the columns [l0, l1) of one group).
  std::vector<uint64_t> slice_base(slices.size() + 1, 0);
  for (size_t i = 0; i < slices.size(); ++i)
    slice_base[i + 1] = slice_base[i] + (L.inner_reduced ? 1 : slices[i].l1 - slices[i].l0);
  std::vector<double> s1(slice_base.back()), s2(slice_base.back());
  std::vector<double> sum1(outputs, 0.0), sum2(outputs, 0.0);
  const uint64_t slice_grain = std::max<uint64_t>(1, slices.empty() ? 1 : kGrain * slices.size() / (outputs * window));
  ctx.parallel.Run(slices.size(), slice_grain, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      NormJob j = slices[i];
      j.s1 = s1.data() + slice_base[i];
      j.s2 = s2.data() + slice_base[i];
      j.out_base = L.inner_reduced ? j.g0 : j.g0 * L.inner + j.l0;
      HWY_DYNAMIC_DISPATCH(RunNormJob)(j, 0);
    }
  });
  for (size_t i = 0; i < slices.size(); ++i) {
    const NormJob& j = slices[i];
    const uint64_t o0 = L.inner_reduced ? j.g0 : j.g0 * L.inner + j.l0;
    for (uint64_t c = 0; c < slice_base[i + 1] - slice_base[i]; ++c) {
      sum1[o0 + c] += s1[slice_base[i] + c];
      sum2[o0 + c] += s2[slice_base[i] + c];
    }
  }
  std::vector<double> mean(outputs), inv(outputs);
  for (uint64_t o = 0; o < outputs; ++o)
    StatsFromMoments(shift[o], sum1[o], sum2[o], static_cast<double>(window), epsilon, &mean[o], &inv[o]);
  ctx.parallel.Run(slices.size(), slice_grain, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      NormJob j = slices[i];
      j.mean = mean.data();
      j.inv = inv.data();
      HWY_DYNAMIC_DISPATCH(RunNormJob)(j, 1);
    }
  });
}

void RunInstanceNormalization(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<InstanceNormalizationAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const bool nchw = attrs.layout == MLInputOperandLayout::kNchw;
  const uint64_t N = input.shape[0];
  const uint64_t C = input.shape[nchw ? 1 : 3];
  const uint64_t HW = uint64_t{input.shape[nchw ? 2 : 1]} * input.shape[nchw ? 3 : 2];
  ReductionLayout L;
  if (nchw) {
    // Windows: the H*W plane of each (n, c).
    L.inner_reduced = true;
    L.inner = HW;
    L.kept_sizes = {N * C};
    L.kept_strides = {HW};
    L.groups = N * C;
  } else {
    // Per n: H*W rows of C channels, one column per window.
    L.inner_reduced = false;
    L.inner = C;
    L.kept_sizes = {N};
    L.kept_strides = {HW * C};
    L.red_sizes = {HW};
    L.red_strides = {C};
    L.groups = N;
    L.runs = HW;
  }
  std::vector<double> scale, bias;
  if (const TensorView* s = OptionalInput(ctx.inputs, 1)) scale = ToDoubles(*s);
  if (const TensorView* b = OptionalInput(ctx.inputs, 2)) bias = ToDoubles(*b);
  NormJob base{};
  base.mode = ParamMode::kPerChannel;
  base.channels = C;
  base.scale = scale.empty() ? nullptr : scale.data();
  base.bias = bias.empty() ? nullptr : bias.data();
  Normalize(ctx, L, CastEpsilon(attrs.epsilon, input.type), base);
}

void RunLayerNormalization(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<LayerNormalizationAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const std::vector<uint32_t> axes = LayerNormalizationAxes(attrs, input.rank());
  std::vector<bool> reduced(input.rank(), false);
  for (uint32_t a : axes) reduced[a] = true;
  const ReductionLayout L = PlanReduction(input.shape, reduced);
  // scale/bias dimension i is input axis axes[i]; the kernels index them in
  // ascending axis order, so permute them when the axes are not sorted.
  std::vector<uint32_t> order(axes.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return axes[a] < axes[b]; });
  auto sorted_params = [&](const TensorView& t) {
    std::vector<double> src = ToDoubles(t);
    if (std::is_sorted(axes.begin(), axes.end())) return src;
    std::vector<uint32_t> shape(axes.size());
    for (size_t i = 0; i < axes.size(); ++i) shape[i] = input.shape[axes[i]];
    std::vector<uint64_t> strides(axes.size());
    uint64_t acc = 1;
    for (size_t i = axes.size(); i-- > 0;) strides[i] = acc, acc *= shape[i];
    // Walk the sorted-order index space; read the source at the permuted position.
    std::vector<uint64_t> sizes(axes.size()), src_strides(axes.size());
    for (size_t i = 0; i < axes.size(); ++i) sizes[i] = shape[order[i]], src_strides[i] = strides[order[i]];
    std::vector<double> dst(src.size());
    OffsetWalker w(sizes, src_strides, 0);
    for (uint64_t i = 0; i < dst.size(); ++i, w.Next()) dst[i] = src[w.offset()];
    return dst;
  };
  std::vector<double> scale, bias;
  if (const TensorView* s = OptionalInput(ctx.inputs, 1)) scale = sorted_params(*s);
  if (const TensorView* b = OptionalInput(ctx.inputs, 2)) bias = sorted_params(*b);
  NormJob base{};
  base.mode = ParamMode::kPerWindowElement;
  base.scale = scale.empty() ? nullptr : scale.data();
  base.bias = bias.empty() ? nullptr : bias.data();
  Normalize(ctx, L, CastEpsilon(attrs.epsilon, input.type), base);
}

}  // namespace

void RegisterNormalizationKernels(OpKind op, KernelRegistry& registry) {
  const DataTypeSet types{DataType::kFloat32, DataType::kFloat16};
  switch (op) {
    case OpKind::batchNormalization:
      registry.Add(CpuKernel{op, &RunBatchNormalization, nullptr, {types}, {types}});
      break;
    case OpKind::instanceNormalization:
      registry.Add(CpuKernel{op, &RunInstanceNormalization, nullptr, {types}, {types}});
      break;
    case OpKind::layerNormalization:
      registry.Add(CpuKernel{op, &RunLayerNormalization, nullptr, {types}, {types}});
      break;
    default: break;
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
