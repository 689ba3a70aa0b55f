// cpu kernel of fusedNormalization (src/ops/fused_normalization.h): RMSNorm
// or layerNorm over the trailing axes, optionally of a residual sum, float32
// and float16.
//
// One row (window) at a time while it is in cache, rows split over threads:
//   1. with a residual, x = input + residual is written once, rounded to the
//      data type as the unfused add rounds it: into the sum output when there
//      is one, else into a per-thread row;
//   2. the moments in float64, shifted by the row's first element for
//      layerNorm (sum(x - k), sum((x - k)^2): rows far from zero keep their
//      precision, as in the builtin normalization kernels,
//      cpu/normalization.cc); RMSNorm's sum(x^2) needs no shift;
//   3. y = (x - mean) * inv * scale + bias in float32, the rounding of the
//      written-out graph's float32 ops (one per op).
// The float64 moments are more precise than a written-out graph's float32
// (or float16) reduceMean of squares, but not different where those squares
// overflow: the kernel tracks each row's extremes and gives the written-out
// graph's result there, x / Inf (FusedNormalizationAttrs::as_written).
// Reads each input once and writes each output once: the written-out RMSNorm
// was 6 ops and 4 passes over memory (pow, reduceMean, the element-wise
// tail fused), plus one for the residual add.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/fused_normalization.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/reduce-inl.h"

#ifndef WEBNN_FUSED_NORMALIZATION_ONCE
#define WEBNN_FUSED_NORMALIZATION_ONCE
#include <algorithm>
#include <cmath>

#include "ops/cpu/kernel_registry.h"
#include "ops/fused_normalization.h"

namespace webnn::ops::cpu::fused_normalization_detail {

struct Problem {
  const void* input;     // [rows, n]
  const void* residual;  // [rows, n] or null
  const void* scale;     // [n] or null
  const void* bias;      // [n] or null
  void* out;             // [rows, n]
  void* sum;             // [rows, n] or null
  size_t n;
  bool rms;
  bool as_written;
  double epsilon;
};

}  // namespace webnn::ops::cpu::fused_normalization_detail
#endif  // WEBNN_FUSED_NORMALIZATION_ONCE

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

using fused_normalization_detail::Problem;

// sum = a + b, computed in float32 and stored as E.
template <class E>
void AddRow(const E* HWY_RESTRICT a, const E* HWY_RESTRICT b, E* HWY_RESTRICT sum, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) StoreLanes(hn::Add(LoadLanes(d, a + i), LoadLanes(d, b + i)), d, sum + i);
  if (i < n)
    StoreLanesTail(hn::Add(LoadLanesTail(d, a + i, n - i), LoadLanesTail(d, b + i, n - i)), d, sum + i, n - i);
}

// sum(x - k) and sum((x - k)^2) in float64.
template <class E>
void RowMoments(const E* HWY_RESTRICT x, size_t n, double k, double* s1, double* s2) {
  const hn::ScalableTag<double> d;
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), q0 = hn::Zero(d), q1 = hn::Zero(d);
  AccumulateShiftedMoments(d, x, n, hn::Set(d, k), a0, a1, q0, q1);
  *s1 = hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1)));
  *s2 = hn::GetLane(hn::SumOfLanes(d, hn::Add(q0, q1)));
}

// max |x - c| in float64 (x without NaN).
template <class E>
double MaxDistance(const E* HWY_RESTRICT x, size_t n, double c) {
  double most = 0;
  for (size_t i = 0; i < n; ++i) most = std::max(most, std::fabs(LoadScalar(x + i) - c));
  return most;
}

// y = (x - mean) * inv [* scale] [+ bias] in float32. With `overflow_at`
// finite, x - mean of at least that magnitude counts as Inf (the float16
// graph's subtraction overflows there).
template <bool kScale, bool kBias, class E>
void NormalizeRowT(const E* HWY_RESTRICT x, E* HWY_RESTRICT y, size_t n, float mean, float inv,
                   const E* HWY_RESTRICT scale, const E* HWY_RESTRICT bias, float overflow_at) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto m = hn::Set(d, mean), a = hn::Set(d, inv), limit = hn::Set(d, overflow_at);
  const bool saturate = overflow_at != HUGE_VALF;
  auto one = [&](size_t i, size_t c) {
    const bool full = c == N;
    auto centred = hn::Sub(full ? LoadLanes(d, x + i) : LoadLanesTail(d, x + i, c), m);
    if (saturate) centred = hn::IfThenElse(hn::Ge(hn::Abs(centred), limit), hn::Set(d, HUGE_VALF), centred);
    auto v = hn::Mul(centred, a);
    if constexpr (kScale) v = hn::Mul(v, full ? LoadLanes(d, scale + i) : LoadLanesTail(d, scale + i, c));
    if constexpr (kBias) v = hn::Add(v, full ? LoadLanes(d, bias + i) : LoadLanesTail(d, bias + i, c));
    if (full) StoreLanes(v, d, y + i);
    else StoreLanesTail(v, d, y + i, c);
  };
  size_t i = 0;
  for (; i + N <= n; i += N) one(i, N);
  if (i < n) one(i, n - i);
}

template <class E>
void NormalizeRow(const E* x, E* y, size_t n, float mean, float inv, const E* scale, const E* bias,
                  float overflow_at) {
  if (scale) {
    if (bias) NormalizeRowT<true, true>(x, y, n, mean, inv, scale, bias, overflow_at);
    else NormalizeRowT<true, false>(x, y, n, mean, inv, scale, bias, overflow_at);
  } else {
    if (bias) NormalizeRowT<false, true>(x, y, n, mean, inv, scale, bias, overflow_at);
    else NormalizeRowT<false, false>(x, y, n, mean, inv, scale, bias, overflow_at);
  }
}

template <class E>
constexpr double kMaxFinite = std::is_same_v<E, F16> ? 65504.0 : 3.4028234663852886e38;

template <class E>
void RowsT(const Problem& p, size_t r0, size_t r1, E* row) {
  const size_t n = p.n;
  const E* scale = static_cast<const E*>(p.scale);
  const E* bias = static_cast<const E*>(p.bias);
  for (size_t r = r0; r < r1; ++r) {
    const E* x = static_cast<const E*>(p.input) + r * n;
    if (p.residual) {
      E* sum = p.sum ? static_cast<E*>(p.sum) + r * n : row;
      AddRow(x, static_cast<const E*>(p.residual) + r * n, sum, n);
      x = sum;
    }
    const double k = p.rms ? 0.0 : LoadScalar(x);
    double s1, s2;
    RowMoments(x, n, k, &s1, &s2);
    double mean = 0, var = s2 / static_cast<double>(n);
    if (!p.rms) {
      const double dm = s1 / static_cast<double>(n);
      var = std::max(var - dm * dm, 0.0);  // rounding; NaN stays NaN
      mean = k + dm;
    }
    double inv = 1.0 / std::sqrt(var + p.epsilon);
    // Where the written-out graph's squares overflow the data type, its
    // variance is Inf and it divides by Inf: y = (x - mean) * 0, NaN where
    // x - mean itself overflowed (float16 past 65520), then * scale + bias.
    // Kept, so that the fused node gives what the graph as written gives.
    // No square exceeds their sum, n * var: the row's largest |x - mean| is
    // looked for (a scalar pass, rare) only when that sum could overflow.
    const bool overflow = p.as_written && !std::isnan(inv) && var * static_cast<double>(n) > kMaxFinite<E> &&
                          std::pow(MaxDistance(x, n, mean), 2) > kMaxFinite<E>;
    if (overflow) inv = 0;
    const float overflow_at = overflow && std::is_same_v<E, F16> ? 65520.0f : HUGE_VALF;
    NormalizeRow(x, static_cast<E*>(p.out) + r * n, n, static_cast<float>(mean), static_cast<float>(inv), scale,
                 bias, overflow_at);
  }
}

}  // namespace

// Rows [r0, r1); `row` holds n elements of the data type (the sum when no
// output keeps it).
void NormalizationRows(const Problem* p, bool f16, size_t r0, size_t r1, void* row) {
  if (f16) RowsT<F16>(*p, r0, r1, static_cast<F16*>(row));
  else RowsT<float>(*p, r0, r1, static_cast<float*>(row));
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(NormalizationRows);

namespace {

using fused_normalization_detail::Problem;

// Rows per task: about 16K elements, so that a decode step's one row is one
// task and a prefill's 128 rows of 896 split over threads.
size_t RowGrain(size_t n) { return std::max<size_t>(1, 16384 / std::max<size_t>(n, 1)); }

void RunFusedNormalization(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<FusedNormalizationAttrs>(ctx.attrs);
  const TensorView& in = ctx.inputs[0];
  const TensorView* residual = OptionalInput(ctx.inputs, 1);
  const TensorView* scale = OptionalInput(ctx.inputs, 2);
  const TensorView* bias = OptionalInput(ctx.inputs, 3);
  Problem p{};
  p.n = 1;
  for (size_t a = in.rank() - attrs.axes; a < in.rank(); ++a) p.n *= in.shape[a];
  const size_t rows = p.n == 0 ? 0 : in.elements() / p.n;
  if (rows == 0) return;
  p.input = in.data;
  p.residual = residual ? residual->data : nullptr;
  p.scale = scale ? scale->data : nullptr;
  p.bias = bias ? bias->data : nullptr;
  p.out = ctx.outputs[0].data;
  p.sum = attrs.sum_output ? ctx.outputs[1].data : nullptr;
  p.rms = attrs.rms;
  p.as_written = attrs.as_written;
  p.epsilon = attrs.epsilon;
  const bool f16 = in.type == DataType::kFloat16;
  const size_t row_bytes = residual && !p.sum ? p.n * (f16 ? 2 : 4) : 0;
  ctx.parallel.Run(rows, RowGrain(p.n), [&](size_t r0, size_t r1) {
    const memory::Scratch<float> row((row_bytes + 3) / 4, "fusedNormalization: a row's residual sum");
    HWY_DYNAMIC_DISPATCH(NormalizationRows)(&p, f16, r0, r1, row.data());
  });
}

std::shared_ptr<const void> PrepareFusedNormalization(const PrepareContext& ctx) {
  const auto& attrs = AttrsAs<FusedNormalizationAttrs>(ctx.attrs);
  const TensorView& in = ctx.inputs[0];
  // A row for the residual sum when no output keeps it (declared whether or
  // not there is a residual: non-constant inputs have no data to tell by yet).
  if (!attrs.sum_output) {
    uint64_t n = 1;
    for (size_t a = in.rank() - attrs.axes; a < in.rank(); ++a) n *= in.shape[a];
    ctx.workspace.AddPerWorker<float>(n);  // float16 rows use half of it
  }
  return nullptr;
}

}  // namespace

void RegisterFusedNormalizationKernels(OpKind op, KernelRegistry& registry) {
  for (DataType t : {DataType::kFloat32, DataType::kFloat16}) {
    const DataTypeSet s{t};
    registry.Add(CpuKernel{op, &RunFusedNormalization, &PrepareFusedNormalization, {s, s, s, s}, {s, s}});
  }
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
