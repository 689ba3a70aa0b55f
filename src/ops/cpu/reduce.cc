// cpu kernels of reduceL1, reduceL2, reduceLogSum, reduceLogSumExp, reduceMax,
// reduceMean, reduceMin, reduceProduct, reduceSum, reduceSumSquare.
//
// The input is planned as windows (reduce_layout.h). A reduced innermost axis
// is summed along contiguous runs with vector accumulators (horizontal); a
// kept innermost axis is accumulated across rows, one lane per output
// (vertical), eight rows per sweep combined as a tree before they meet the
// accumulators. One pass over memory either way; parallel over outputs, and
// over slices of the windows when there are fewer outputs than threads
// (partial results merged after). Shapes that would leave vectors mostly
// empty are rearranged: windows shorter than 16 are reduced N at a time
// (even/odd deinterleave trees for 2, 4, 8; gathers otherwise), and vertical
// reductions narrower than 16 columns fold 16 rows into one wide row.
//
// Numerics, matching the float64 reference within WPT's ULP tolerances on any
// input: float sums, products and exp-sums accumulate in float64 (loads widen
// float32/float16 exactly; a float32 running sum would lose a result much
// smaller than the summed magnitudes to cancellation), one rounding at the
// store. max/min compare in float32, NaN wins. logSumExp is max, then the sum
// of exp(x - max) in float64. Integers wrap exactly as the reference's 64-bit
// arithmetic does after its store (modular arithmetic), so they accumulate in
// their own width. Products: the reference multiplies in window order; when
// the float64 partial products overflow or underflow, 0 * Inf (NaN) can
// depend on that order, which a vectorized product does not keep.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/reduce.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "ops/cpu/reduce-inl.h"

#ifndef WEBNN_OPS_CPU_REDUCE_CC_ONCE_
#define WEBNN_OPS_CPU_REDUCE_CC_ONCE_
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/float16.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/reduce_layout.h"
#include "ops/reduce.h"

namespace webnn::ops::cpu {
enum class AccOp : uint8_t { kSum, kAbsSum, kSquareSum, kProduct, kMax, kMin, kExpSum };
// What turns a float accumulator into the output value.
enum class FinalOp : uint8_t { kNone, kIdentity, kMean, kSqrt, kLog };

// One slice of a reduction: groups [g0, g1), runs (rows) [r0, r1) of each
// window, and elements [l0, l1) of each run (horizontal) or columns [l0, l1)
// of each row (vertical). Results go to out[output index] as double (float
// inputs) or the input's own type (integers).
struct ReduceJob {
  AccOp op;
  DataType type;
  const std::byte* in;
  const ReductionLayout* layout;
  uint64_t g0, g1, r0, r1, l0, l1;
  const double* shift;  // kExpSum: subtracted before exp, per output index
  void* out;            // result of output index o at out[o - out_base]
  uint64_t out_base = 0;
  // Float results without partial slices can be finalized and stored to the
  // output directly (final_op != kNone): out_type elements at final_out[o].
  FinalOp final_op = FinalOp::kNone;
  double count = 1;  // kMean divisor
  DataType out_type = DataType::kFloat32;
  std::byte* final_out = nullptr;
};
}  // namespace webnn::ops::cpu
#endif

HWY_BEFORE_NAMESPACE();
// GCC 12's auto-vectorizer miscompiles the scalar target's integer product
// windows (reduceProduct int32 over 36 elements: the two accumulators read 0
// and x, their product came out non-zero); this target is scalar by intent.
#if HWY_TARGET == HWY_SCALAR && HWY_COMPILER_GCC_ACTUAL
#pragma GCC push_options
#pragma GCC optimize("no-tree-vectorize")
#endif
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ------------------------------------------------------------ float64 steps
// acc = Combine(acc, Map(x)): Map turns an element into a term, Combine adds
// (or multiplies) terms, so terms of several rows can be combined as a tree
// before they meet the accumulator.
struct SumStep {
  static constexpr double kIdentity = 0.0;
  static constexpr bool kMul = false;
  template <class D, class V>
  HWY_INLINE V Map(D, V x, V) const { return x; }
};
struct AbsSumStep {
  static constexpr double kIdentity = 0.0;
  static constexpr bool kMul = false;
  template <class D, class V>
  HWY_INLINE V Map(D, V x, V) const { return hn::Abs(x); }
};
struct SquareSumStep {
  static constexpr double kIdentity = 0.0;
  static constexpr bool kMul = false;
  template <class D, class V>
  HWY_INLINE V Map(D, V x, V) const { return hn::Mul(x, x); }
};
struct ProductStep {
  static constexpr double kIdentity = 1.0;
  static constexpr bool kMul = true;
  template <class D, class V>
  HWY_INLINE V Map(D, V x, V) const { return x; }
};
struct ExpSumStep {
  static constexpr double kIdentity = 0.0;
  static constexpr bool kMul = false;
  template <class D, class V>
  HWY_INLINE V Map(D d, V x, V shift) const { return hn::Exp(d, hn::Sub(x, shift)); }
};

template <class Step, class V>
HWY_INLINE V Combine(V a, V b) {
  if constexpr (Step::kMul) return hn::Mul(a, b);
  else return hn::Add(a, b);
}

template <class Step, class D, class V>
HWY_INLINE double LanesToScalarF64(D d, V v) {
  if constexpr (Step::kMul) {
    alignas(64) double lanes[kMaxVectorBytes / sizeof(double)];
    hn::StoreU(v, d, lanes);
    double r = lanes[0];
    for (size_t i = 1; i < hn::Lanes(d); ++i) r *= lanes[i];
    return r;
  } else {
    return hn::GetLane(hn::SumOfLanes(d, v));
  }
}

// One window (or slice of one) of float data reduced in float64.
template <class E, class Step>
double WindowF64(const E* base, const ReductionLayout& L, uint64_t r0, uint64_t r1, uint64_t l0, uint64_t l1,
                 double shift) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const Step step;
  const auto id = hn::Set(d, Step::kIdentity);
  const auto sh = hn::Set(d, shift);
  // Four accumulators: FP add latency 3-4 cycles at 1-2 adds per cycle.
  auto a0 = id, a1 = id, a2 = id, a3 = id;
  const size_t n = static_cast<size_t>(l1 - l0);
  OffsetWalker w(L.red_sizes, L.red_strides, r0);
  for (uint64_t r = r0; r < r1; ++r, w.Next()) {
    const E* HWY_RESTRICT p = base + w.offset() + l0;
    size_t i = 0;
    for (; i + 4 * N <= n; i += 4 * N) {
      a0 = Combine<Step>(a0, step.Map(d, LoadAsF64(d, p + i), sh));
      a1 = Combine<Step>(a1, step.Map(d, LoadAsF64(d, p + i + N), sh));
      a2 = Combine<Step>(a2, step.Map(d, LoadAsF64(d, p + i + 2 * N), sh));
      a3 = Combine<Step>(a3, step.Map(d, LoadAsF64(d, p + i + 3 * N), sh));
    }
    for (; i + N <= n; i += N) a0 = Combine<Step>(a0, step.Map(d, LoadAsF64(d, p + i), sh));
    if (i < n) {
      const auto t = hn::IfThenElse(hn::FirstN(d, n - i), step.Map(d, LoadAsF64Tail(d, p + i, n - i), sh), id);
      a1 = Combine<Step>(a1, t);
    }
  }
  return LanesToScalarF64<Step>(d, Combine<Step>(Combine<Step>(a0, a1), Combine<Step>(a2, a3)));
}

// Columns [0, W) of gbase accumulated over rows [r0, r1) into acc[0, W).
template <class E, class Step>
void ColumnsF64(const E* gbase, const ReductionLayout& L, uint64_t r0, uint64_t r1, size_t W, const double* shift,
                double* HWY_RESTRICT acc) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const Step step;
  const auto id = hn::Set(d, Step::kIdentity);
  std::fill(acc, acc + W, Step::kIdentity);
  OffsetWalker w(L.red_sizes, L.red_strides, r0);
  const E* rows[8];
  for (uint64_t r = r0; r < r1;) {
    // Eight rows per sweep, their terms combined as a tree: one accumulator
    // load/store per eight loads, eight streams in flight for the prefetchers.
    const size_t k = static_cast<size_t>(std::min<uint64_t>(8, r1 - r));
    for (size_t j = 0; j < k; ++j, w.Next()) rows[j] = gbase + w.offset();
    r += k;
    size_t c = 0;
    if (k == 8) {
      for (; c + N <= W; c += N) {
        const auto sh = shift ? hn::LoadU(d, shift + c) : id;
        // (Spelled out: a lambda here crashes GCC 12's SVE code generation.)
        const auto t0 = step.Map(d, LoadAsF64(d, rows[0] + c), sh), t1 = step.Map(d, LoadAsF64(d, rows[1] + c), sh);
        const auto t2 = step.Map(d, LoadAsF64(d, rows[2] + c), sh), t3 = step.Map(d, LoadAsF64(d, rows[3] + c), sh);
        const auto t4 = step.Map(d, LoadAsF64(d, rows[4] + c), sh), t5 = step.Map(d, LoadAsF64(d, rows[5] + c), sh);
        const auto t6 = step.Map(d, LoadAsF64(d, rows[6] + c), sh), t7 = step.Map(d, LoadAsF64(d, rows[7] + c), sh);
        const auto t03 = Combine<Step>(Combine<Step>(t0, t1), Combine<Step>(t2, t3));
        const auto t47 = Combine<Step>(Combine<Step>(t4, t5), Combine<Step>(t6, t7));
        hn::StoreU(Combine<Step>(hn::LoadU(d, acc + c), Combine<Step>(t03, t47)), d, acc + c);
      }
    } else {
      for (; c + N <= W; c += N) {
        const auto sh = shift ? hn::LoadU(d, shift + c) : id;
        auto a = hn::LoadU(d, acc + c);
        for (size_t j = 0; j < k; ++j) a = Combine<Step>(a, step.Map(d, LoadAsF64(d, rows[j] + c), sh));
        hn::StoreU(a, d, acc + c);
      }
    }
    if (c < W) {
      const size_t n = W - c;
      const auto m = hn::FirstN(d, n);
      const auto sh = shift ? LoadTail(d, shift + c, n) : id;
      auto a = LoadTail(d, acc + c, n);
      for (size_t j = 0; j < k; ++j)
        a = Combine<Step>(a, hn::IfThenElse(m, step.Map(d, LoadAsF64Tail(d, rows[j] + c, n), sh), id));
      StoreTail(a, d, acc + c, n);
    }
  }
}

// ------------------------------------------------------------ native-lane steps
// max/min of any type (float16 as float32) and integer sums/products (wrap).
struct MaxStep {
  template <class T>
  static T Identity() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V x) const { return hn::Max(a, x); }
};
struct MinStep {
  template <class T>
  static T Identity() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V x) const { return hn::Min(a, x); }
};
struct IntSumStep {
  template <class T>
  static T Identity() { return T{0}; }
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V x) const { return hn::Add(a, x); }
};
struct IntAbsSumStep {
  template <class T>
  static T Identity() { return T{0}; }
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V x) const { return hn::Add(a, AbsWrap(d, x)); }
};
struct IntSquareSumStep {
  template <class T>
  static T Identity() { return T{0}; }
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V x) const { return hn::Add(a, MulWrap(d, x, x)); }
};
struct IntProductStep {
  template <class T>
  static T Identity() { return T{1}; }
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V x) const { return MulWrap(d, a, x); }
};

template <class T>
HWY_INLINE T WrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
HWY_INLINE T WrapMul(T a, T b) {
  using U = std::conditional_t<sizeof(T) < sizeof(unsigned), unsigned, std::make_unsigned_t<T>>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}

// Combines two partial results of a native step (no NaN here: callers handle it).
template <class Step, class T>
HWY_INLINE T CombineScalar(T a, T b) {
  if constexpr (std::is_same_v<Step, MaxStep>) return b > a ? b : a;
  else if constexpr (std::is_same_v<Step, MinStep>) return b < a ? b : a;
  else if constexpr (std::is_same_v<Step, IntProductStep>) return WrapMul(a, b);
  else return WrapAdd(a, b);
}

template <class Step, class D, class V>
HWY_INLINE hn::TFromD<D> LanesToScalar(D d, V v) {
  using T = hn::TFromD<D>;
  alignas(64) T lanes[kMaxVectorBytes / sizeof(T)];
  hn::StoreU(v, d, lanes);
  T r = lanes[0];
  for (size_t i = 1; i < hn::Lanes(d); ++i) r = CombineScalar<Step>(r, lanes[i]);
  return r;
}

template <class E, class Step>
LaneOf<E> WindowNative(const E* base, const ReductionLayout& L, uint64_t r0, uint64_t r1, uint64_t l0, uint64_t l1) {
  using T = LaneOf<E>;
  constexpr bool kFloat = std::is_floating_point_v<T>;
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const Step step;
  const auto id = hn::Set(d, Step::template Identity<T>());
  auto a0 = id, a1 = id;
  auto nan = hn::FirstN(d, 0);
  const size_t n = static_cast<size_t>(l1 - l0);
  OffsetWalker w(L.red_sizes, L.red_strides, r0);
  for (uint64_t r = r0; r < r1; ++r, w.Next()) {
    const E* HWY_RESTRICT p = base + w.offset() + l0;
    size_t i = 0;
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto x0 = LoadLanes(d, p + i);
      const auto x1 = LoadLanes(d, p + i + N);
      if constexpr (kFloat) nan = hn::Or(nan, hn::Or(hn::IsNaN(x0), hn::IsNaN(x1)));
      a0 = step(d, a0, x0);
      a1 = step(d, a1, x1);
    }
    if (i + N <= n) {
      const auto x = LoadLanes(d, p + i);
      if constexpr (kFloat) nan = hn::Or(nan, hn::IsNaN(x));
      a0 = step(d, a0, x);
      i += N;
    }
    if (i < n) {
      const auto x = hn::IfThenElse(hn::FirstN(d, n - i), LoadLanesTail(d, p + i, n - i), id);
      if constexpr (kFloat) nan = hn::Or(nan, hn::IsNaN(x));
      a1 = step(d, a1, x);
    }
  }
  if constexpr (kFloat) {
    if (!hn::AllFalse(d, nan)) return std::numeric_limits<T>::quiet_NaN();
  }
  // Accumulators combine like partial results: add for the sums (not Step:
  // that would square or abs the partial sum).
  if constexpr (std::is_same_v<Step, MaxStep> || std::is_same_v<Step, MinStep> ||
                std::is_same_v<Step, IntProductStep>) {
    return LanesToScalar<Step>(d, step(d, a0, a1));
  } else {
    return LanesToScalar<Step>(d, hn::Add(a0, a1));
  }
}

template <class E, class Step>
void ColumnsNative(const E* gbase, const ReductionLayout& L, uint64_t r0, uint64_t r1, size_t W,
                   LaneOf<E>* HWY_RESTRICT acc) {
  using T = LaneOf<E>;
  constexpr bool kFloat = std::is_floating_point_v<T>;
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const Step step;
  std::fill(acc, acc + W, Step::template Identity<T>());
  OffsetWalker w(L.red_sizes, L.red_strides, r0);
  // Eight rows per sweep, as ColumnsF64.
  const E* rows[8];
  for (uint64_t r = r0; r < r1;) {
    const size_t k = static_cast<size_t>(std::min<uint64_t>(8, r1 - r));
    for (size_t j = 0; j < k; ++j, w.Next()) rows[j] = gbase + w.offset();
    r += k;
    for (size_t c = 0; c < W; c += N) {
      const size_t n = std::min(N, W - c);
      auto a = n == N ? hn::LoadU(d, acc + c) : LoadTail(d, acc + c, n);
      auto nan = hn::FirstN(d, 0);
      if constexpr (kFloat) nan = hn::IsNaN(a);
      for (size_t j = 0; j < k; ++j) {
        const auto x = n == N ? LoadLanes(d, rows[j] + c) : LoadLanesTail(d, rows[j] + c, n);
        if constexpr (kFloat) nan = hn::Or(nan, hn::IsNaN(x));
        a = step(d, a, x);
      }
      if constexpr (kFloat) a = hn::IfThenElse(nan, hn::Set(d, std::numeric_limits<T>::quiet_NaN()), a);
      if (n == N) hn::StoreU(a, d, acc + c);
      else StoreTail(a, d, acc + c, n);
    }
  }
}

// ------------------------------------------------------------ direct results
HWY_INLINE double FinalizeScalar(const ReduceJob& j, double v) {
  switch (j.final_op) {
    case FinalOp::kMean: return v / j.count;
    case FinalOp::kSqrt: return std::sqrt(v);
    case FinalOp::kLog: return std::log(v);
    default: return v;
  }
}
HWY_INLINE void StoreFinalScalar(const ReduceJob& j, uint64_t o, double v) {
  v = FinalizeScalar(j, v);
  if (j.out_type == DataType::kFloat32) reinterpret_cast<float*>(j.final_out)[o] = static_cast<float>(v);
  else reinterpret_cast<uint16_t*>(j.final_out)[o] = core::DoubleToHalfBits(v);
}
template <class E>
void StoreFinalSpanTyped(const ReduceJob& j, uint64_t o, const double* HWY_RESTRICT v, size_t n) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  E* out = reinterpret_cast<E*>(j.final_out) + o;
  const auto count = hn::Set(d, j.count);
  for (size_t i = 0; i < n; i += N) {
    const size_t k = std::min(N, n - i);
    auto x = k == N ? hn::LoadU(d, v + i) : LoadTail(d, v + i, k);
    switch (j.final_op) {
      case FinalOp::kMean: x = hn::Div(x, count); break;
      case FinalOp::kSqrt: x = hn::Sqrt(x); break;
      case FinalOp::kLog: {
        // hn::Log covers (0, DBL_MAX]: zeros, negatives, Inf and NaN go scalar.
        const auto ok = hn::And(hn::Gt(x, hn::Zero(d)), hn::Lt(x, hn::Set(d, HUGE_VAL)));
        if (hn::AllTrue(d, ok)) {
          x = hn::Log(d, x);
        } else {
          alignas(64) double lanes[kMaxVectorBytes / sizeof(double)];
          hn::StoreU(x, d, lanes);
          for (size_t l = 0; l < N; ++l) lanes[l] = std::log(lanes[l]);
          x = hn::LoadU(d, lanes);
        }
        break;
      }
      default: break;
    }
    if (k == N) StoreF64As(x, d, out + i);
    else StoreF64AsTail(x, d, out + i, k);
  }
}
HWY_INLINE void StoreFinalSpan(const ReduceJob& j, uint64_t o, const double* v, size_t n) {
  if (j.out_type == DataType::kFloat32) StoreFinalSpanTyped<float>(j, o, v, n);
  else StoreFinalSpanTyped<F16>(j, o, v, n);
}

// ------------------------------------------------------------ short windows
// Windows of fewer than kShortWindow contiguous elements, one per group and
// groups adjacent ([G, L] rows): a per-window horizontal reduction would cost
// more than its loads, so N windows are reduced at once, transposed: one
// gather per window position, each lane accumulating its own window.
constexpr size_t kShortWindow = 16;

// Gather offsets 0, L, 2L, ... in lanes of DI.
template <class DI>
HWY_INLINE hn::Vec<DI> WindowStarts(DI di, size_t L) {
  using TI = hn::TFromD<DI>;
  alignas(64) TI idx[kMaxVectorBytes / sizeof(TI)];
  for (size_t i = 0; i < hn::Lanes(di); ++i) idx[i] = static_cast<TI>(i * L);
  return hn::LoadU(di, idx);
}

// Float data in float64; out[0] is group g0's result. Returns the first group
// not done (the tail).
template <class E, class Step>
uint64_t ShortWindowsF64(const E* in, size_t L, uint64_t g0, uint64_t g1, const double* shift, double* out) {
  const hn::ScalableTag<double> d;
  const hn::Rebind<float, decltype(d)> df;
  const hn::Rebind<int32_t, decltype(d)> di;
  const size_t N = hn::Lanes(d);
  const Step step;
  const auto id = hn::Set(d, Step::kIdentity);
  const auto starts = WindowStarts(di, L);
  alignas(64) float stage[kMaxVectorBytes / sizeof(double) * kShortWindow];
  uint64_t g = g0;
  for (; g + N <= g1; g += N) {
    const float* src;
    if constexpr (std::is_same_v<E, F16>) {
      for (size_t k = 0; k < N * L; k += N) hn::StoreU(LoadLanes(df, in + g * L + k), df, stage + k);
      src = stage;
    } else {
      src = in + g * L;
    }
    const auto sh = shift ? hn::LoadU(d, shift + g) : id;
    auto acc = id;
    for (size_t l = 0; l < L; ++l)
      acc = Combine<Step>(acc, step.Map(d, hn::PromoteTo(d, hn::GatherIndex(df, src + l, starts)), sh));
    hn::StoreU(acc, d, out + (g - g0));
  }
  return g;
}

#if HWY_TARGET != HWY_SCALAR
// Windows of L = 2, 4 or 8 elements (power of two, L <= Lanes): L vectors hold
// N windows; log2(L) levels of even/odd deinterleave + combine leave one
// vector of N window results in order. No gathers (slow on some CPUs).
template <class E, class Step>
uint64_t PairTreeWindowsF64(const E* in, size_t L, uint64_t g0, uint64_t g1, double* out) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const Step step;
  const auto zero = hn::Zero(d);
  uint64_t g = g0;
  if (L > N || HWY_HAVE_SCALABLE) return g;  // SVE: no arrays of sizeless vectors
#if !HWY_HAVE_SCALABLE
  hn::Vec<decltype(d)> v[8];
  for (; g + N <= g1; g += N) {
    const E* p = in + g * L;
    for (size_t k = 0; k < L; ++k) v[k] = step.Map(d, LoadAsF64(d, p + k * N), zero);
    for (size_t n = L; n > 1; n /= 2)
      for (size_t k = 0; k < n / 2; ++k)
        v[k] = Combine<Step>(hn::ConcatEven(d, v[2 * k + 1], v[2 * k]), hn::ConcatOdd(d, v[2 * k + 1], v[2 * k]));
    hn::StoreU(v[0], d, out + (g - g0));
  }
#endif
  return g;
}
#endif

// max/min of any 32/64-bit lane type (float16 as float32), integer sums.
template <class E, class Step>
uint64_t ShortWindowsNative(const E* in, size_t L, uint64_t g0, uint64_t g1, LaneOf<E>* out) {
  using T = LaneOf<E>;
  constexpr bool kFloat = std::is_floating_point_v<T>;
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  const Step step;
  const auto id = hn::Set(d, Step::template Identity<T>());
  const auto starts = WindowStarts(di, L);
  alignas(64) T stage[kMaxVectorBytes / sizeof(T) * kShortWindow];
  uint64_t g = g0;
  for (; g + N <= g1; g += N) {
    const T* src;
    if constexpr (std::is_same_v<E, F16>) {
      for (size_t k = 0; k < N * L; k += N) hn::StoreU(LoadLanes(d, in + g * L + k), d, stage + k);
      src = stage;
    } else {
      src = in + g * L;
    }
    auto acc = id;
    auto nan = hn::FirstN(d, 0);
    for (size_t l = 0; l < L; ++l) {
      const auto x = hn::GatherIndex(d, src + l, starts);
      if constexpr (kFloat) nan = hn::Or(nan, hn::IsNaN(x));
      acc = step(d, acc, x);
    }
    if constexpr (kFloat) acc = hn::IfThenElse(nan, hn::Set(d, std::numeric_limits<T>::quiet_NaN()), acc);
    hn::StoreU(acc, d, out + (g - g0));
  }
  return g;
}

// ------------------------------------------------------------ job entry points
template <class E>
uint64_t ShortWindows(const ReduceJob& j) {
  const ReductionLayout& L = *j.layout;
  const E* in = reinterpret_cast<const E*>(j.in);
  const size_t n = static_cast<size_t>(L.inner);
  if constexpr (std::is_same_v<E, float> || std::is_same_v<E, F16>) {
    // Chunks of results in float64, then to `out` or finalized to the output.
    alignas(64) double res[256];
    alignas(64) float buf[256];
    uint64_t g = j.g0;
    [[maybe_unused]] const bool pair_tree = HWY_TARGET != HWY_SCALAR && (n == 2 || n == 4 || n == 8) && j.op != AccOp::kExpSum &&
                           j.op != AccOp::kMax && j.op != AccOp::kMin;
    while (g < j.g1) {
      const uint64_t e = std::min<uint64_t>(j.g1, g + 256);
      uint64_t done = g;
#if HWY_TARGET != HWY_SCALAR
      if (pair_tree) {
        switch (j.op) {
          case AccOp::kSum: done = PairTreeWindowsF64<E, SumStep>(in, n, g, e, res); break;
          case AccOp::kAbsSum: done = PairTreeWindowsF64<E, AbsSumStep>(in, n, g, e, res); break;
          case AccOp::kSquareSum: done = PairTreeWindowsF64<E, SquareSumStep>(in, n, g, e, res); break;
          case AccOp::kProduct: done = PairTreeWindowsF64<E, ProductStep>(in, n, g, e, res); break;
          default: break;
        }
      } else
#endif
      switch (j.op) {
        case AccOp::kSum: done = ShortWindowsF64<E, SumStep>(in, n, g, e, j.shift, res); break;
        case AccOp::kAbsSum: done = ShortWindowsF64<E, AbsSumStep>(in, n, g, e, j.shift, res); break;
        case AccOp::kSquareSum: done = ShortWindowsF64<E, SquareSumStep>(in, n, g, e, j.shift, res); break;
        case AccOp::kProduct: done = ShortWindowsF64<E, ProductStep>(in, n, g, e, j.shift, res); break;
        case AccOp::kExpSum: done = ShortWindowsF64<E, ExpSumStep>(in, n, g, e, j.shift, res); break;
        case AccOp::kMax:
        case AccOp::kMin:
          // max/min in float32 lanes, widened to the double results.
          done = j.op == AccOp::kMax ? ShortWindowsNative<E, MaxStep>(in, n, g, e, buf)
                                     : ShortWindowsNative<E, MinStep>(in, n, g, e, buf);
          for (uint64_t k = g; k < done; ++k) res[k - g] = buf[k - g];
          break;
      }
      if (j.final_op != FinalOp::kNone) StoreFinalSpan(j, g, res, static_cast<size_t>(done - g));
      else std::copy(res, res + (done - g), static_cast<double*>(j.out) + (g - j.out_base));
      if (done < e) return done;
      g = e;
    }
    return g;
  } else if constexpr (sizeof(E) >= 4) {
    E* out = static_cast<E*>(j.out) + j.g0;
    switch (j.op) {
      case AccOp::kMax: return ShortWindowsNative<E, MaxStep>(in, n, j.g0, j.g1, out);
      case AccOp::kMin: return ShortWindowsNative<E, MinStep>(in, n, j.g0, j.g1, out);
      case AccOp::kSum: return ShortWindowsNative<E, IntSumStep>(in, n, j.g0, j.g1, out);
      case AccOp::kAbsSum: return ShortWindowsNative<E, IntAbsSumStep>(in, n, j.g0, j.g1, out);
      case AccOp::kSquareSum: return ShortWindowsNative<E, IntSquareSumStep>(in, n, j.g0, j.g1, out);
      case AccOp::kProduct: return ShortWindowsNative<E, IntProductStep>(in, n, j.g0, j.g1, out);
      default: return j.g0;
    }
  }
  return j.g0;
}

template <class E>
void HorizontalTyped(const ReduceJob& j) {
  const ReductionLayout& L = *j.layout;
  const E* in = reinterpret_cast<const E*>(j.in);
  uint64_t g0 = j.g0;
  // [G, L] rows of short windows (whole windows, results indexed by group).
  if (L.runs == 1 && L.inner < kShortWindow && j.l0 == 0 && j.l1 == L.inner && j.out_base == 0 &&
      (L.kept_sizes.empty() || L.kept_strides[0] == L.inner))
    g0 = ShortWindows<E>(j);
  OffsetWalker gw(L.kept_sizes, L.kept_strides, g0);
  for (uint64_t g = g0; g < j.g1; ++g, gw.Next()) {
    const E* base = in + gw.offset();
    if constexpr (std::is_same_v<E, float> || std::is_same_v<E, F16>) {
      double* out = static_cast<double*>(j.out);
      const double shift = j.shift ? j.shift[g] : 0.0;
      double r = 0;
      switch (j.op) {
        case AccOp::kSum: r = WindowF64<E, SumStep>(base, L, j.r0, j.r1, j.l0, j.l1, shift); break;
        case AccOp::kAbsSum: r = WindowF64<E, AbsSumStep>(base, L, j.r0, j.r1, j.l0, j.l1, shift); break;
        case AccOp::kSquareSum: r = WindowF64<E, SquareSumStep>(base, L, j.r0, j.r1, j.l0, j.l1, shift); break;
        case AccOp::kProduct: r = WindowF64<E, ProductStep>(base, L, j.r0, j.r1, j.l0, j.l1, shift); break;
        case AccOp::kExpSum: r = WindowF64<E, ExpSumStep>(base, L, j.r0, j.r1, j.l0, j.l1, shift); break;
        case AccOp::kMax: r = WindowNative<E, MaxStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
        case AccOp::kMin: r = WindowNative<E, MinStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
      }
      if (j.final_op != FinalOp::kNone) StoreFinalScalar(j, g, r);
      else out[g - j.out_base] = r;
    } else {
      E* out = static_cast<E*>(j.out);
      E r = 0;
      switch (j.op) {
        case AccOp::kMax: r = WindowNative<E, MaxStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
        case AccOp::kMin: r = WindowNative<E, MinStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
        default:
          if constexpr (sizeof(E) >= 4) {
            switch (j.op) {
              case AccOp::kSum: r = WindowNative<E, IntSumStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
              case AccOp::kAbsSum: r = WindowNative<E, IntAbsSumStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
              case AccOp::kSquareSum: r = WindowNative<E, IntSquareSumStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
              case AccOp::kProduct: r = WindowNative<E, IntProductStep>(base, L, j.r0, j.r1, j.l0, j.l1); break;
              default: break;
            }
          }
      }
      out[g - j.out_base] = r;
    }
  }
}

template <class E>
void VerticalTyped(const ReduceJob& j) {
  const ReductionLayout& L = *j.layout;
  const E* in = reinterpret_cast<const E*>(j.in);
  const uint64_t C = L.inner;
  const size_t W = static_cast<size_t>(j.l1 - j.l0);
  // Direct results accumulate in a scratch block, then finalize to the output.
  std::vector<double> scratch;
  if constexpr (std::is_same_v<E, float> || std::is_same_v<E, F16>) {
    if (j.final_op != FinalOp::kNone) scratch.resize(W);
  }
  OffsetWalker gw(L.kept_sizes, L.kept_strides, j.g0);
  for (uint64_t g = j.g0; g < j.g1; ++g, gw.Next()) {
    const E* gbase = in + gw.offset() + j.l0;
    const uint64_t o = g * C + j.l0;
    if constexpr (std::is_same_v<E, float> || std::is_same_v<E, F16>) {
      double* acc = scratch.empty() ? static_cast<double*>(j.out) + (o - j.out_base) : scratch.data();
      const double* shift = j.shift ? j.shift + o : nullptr;
      switch (j.op) {
        case AccOp::kSum: ColumnsF64<E, SumStep>(gbase, L, j.r0, j.r1, W, shift, acc); break;
        case AccOp::kAbsSum: ColumnsF64<E, AbsSumStep>(gbase, L, j.r0, j.r1, W, shift, acc); break;
        case AccOp::kSquareSum: ColumnsF64<E, SquareSumStep>(gbase, L, j.r0, j.r1, W, shift, acc); break;
        case AccOp::kProduct: ColumnsF64<E, ProductStep>(gbase, L, j.r0, j.r1, W, shift, acc); break;
        case AccOp::kExpSum: ColumnsF64<E, ExpSumStep>(gbase, L, j.r0, j.r1, W, shift, acc); break;
        case AccOp::kMax:
        case AccOp::kMin: {
          // float32 accumulators, widened to the double results after.
          alignas(64) float buf[1024];
          for (size_t c0 = 0; c0 < W; c0 += 1024) {
            const size_t w = std::min<size_t>(1024, W - c0);
            if (j.op == AccOp::kMax) ColumnsNative<E, MaxStep>(gbase + c0, L, j.r0, j.r1, w, buf);
            else ColumnsNative<E, MinStep>(gbase + c0, L, j.r0, j.r1, w, buf);
            for (size_t c = 0; c < w; ++c) acc[c0 + c] = buf[c];
          }
          break;
        }
      }
      if (!scratch.empty()) StoreFinalSpan(j, o, acc, W);
    } else {
      E* acc = static_cast<E*>(j.out) + (o - j.out_base);
      switch (j.op) {
        case AccOp::kMax: ColumnsNative<E, MaxStep>(gbase, L, j.r0, j.r1, W, acc); break;
        case AccOp::kMin: ColumnsNative<E, MinStep>(gbase, L, j.r0, j.r1, W, acc); break;
        default:
          if constexpr (sizeof(E) >= 4) {
            switch (j.op) {
              case AccOp::kSum: ColumnsNative<E, IntSumStep>(gbase, L, j.r0, j.r1, W, acc); break;
              case AccOp::kAbsSum: ColumnsNative<E, IntAbsSumStep>(gbase, L, j.r0, j.r1, W, acc); break;
              case AccOp::kSquareSum: ColumnsNative<E, IntSquareSumStep>(gbase, L, j.r0, j.r1, W, acc); break;
              case AccOp::kProduct: ColumnsNative<E, IntProductStep>(gbase, L, j.r0, j.r1, W, acc); break;
              default: break;
            }
          }
      }
    }
  }
}

void ReduceHorizontal(const ReduceJob& j) {
  VisitType<SpecElementTypes<F16>>(j.type, [&]<class E>(TypeTag<E>) { HorizontalTyped<E>(j); });
}
void ReduceVertical(const ReduceJob& j) {
  VisitType<SpecElementTypes<F16>>(j.type, [&]<class E>(TypeTag<E>) { VerticalTyped<E>(j); });
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
#if HWY_TARGET == HWY_SCALAR && HWY_COMPILER_GCC_ACTUAL
#pragma GCC pop_options
#endif
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(ReduceHorizontal);
HWY_EXPORT(ReduceVertical);

namespace {

// Below ~32K elements a chunk is not worth waking another thread for.
constexpr uint64_t kGrain = 32768;
// Vertical reductions narrower than this fold kFoldRows rows into one.
constexpr uint64_t kNarrowColumns = 16;
constexpr uint64_t kFoldRows = 16;
// Vertical column blocks: up to 16384 float64 accumulators (128 KiB, in L2),
// so rows are read in long contiguous runs that the prefetchers follow; 1024
// (4 KiB runs of float32) was ~20% slower on [4096, 4096].
constexpr uint64_t kColumnBlock = 16384;

template <class A>
A MergeScalar(AccOp op, A a, A b) {
  if constexpr (std::is_floating_point_v<A>) {
    switch (op) {
      case AccOp::kProduct: return a * b;
      case AccOp::kMax: return std::isnan(a) || std::isnan(b) ? a + b : std::max(a, b);
      case AccOp::kMin: return std::isnan(a) || std::isnan(b) ? a + b : std::min(a, b);
      default: return a + b;
    }
  } else {
    using U = std::conditional_t<sizeof(A) < sizeof(unsigned), unsigned, std::make_unsigned_t<A>>;
    switch (op) {
      case AccOp::kProduct: return static_cast<A>(static_cast<U>(a) * static_cast<U>(b));
      case AccOp::kMax: return std::max(a, b);
      case AccOp::kMin: return std::min(a, b);
      default: return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));
    }
  }
}

// Reduces every window with `proto.op`: one result per output (A = double for
// float inputs, the input type for integers). Without partial slices the jobs
// store final results themselves when `proto` says so (final_op for floats, an
// integer output as `out`); the returned vector is then empty.
template <class A>
std::vector<A> Accumulate(const KernelContext& ctx, const ReductionLayout& L, ReduceJob base) {
  const AccOp op = base.op;
  const uint64_t outputs = L.outputs();
  const uint64_t window = L.window();
  const uint64_t threads = ctx.parallel.NumThreads();
  const bool direct = base.final_op != FinalOp::kNone || base.out != nullptr;
  std::vector<A> result;
  auto direct_or_result = [&] {
    if (!direct) {
      result.resize(outputs);
      base.out = result.data();
    }
  };
  base.layout = &L;
  base.r0 = 0;
  base.r1 = L.runs;

  if (L.inner_reduced) {
    base.l1 = L.inner;
    // Enough groups to share out: one window per item.
    if (L.groups >= 2 * threads || window < 2 * kGrain) {
      direct_or_result();
      ctx.parallel.Run(L.groups, std::max<uint64_t>(1, kGrain / window), [&](size_t b, size_t e) {
        ReduceJob j = base;
        j.g0 = b;
        j.g1 = e;
        HWY_DYNAMIC_DISPATCH(ReduceHorizontal)(j);
      });
      return result;
    }
    // Few large windows: slice each across runs (or within its run) and merge.
    base.final_op = FinalOp::kNone;
    const uint64_t splits = std::min<uint64_t>(4 * threads, window / kGrain);
    const bool split_runs = L.runs >= splits;
    std::vector<A> partial(L.groups * splits);
    ctx.parallel.Run(L.groups * splits, 1, [&](size_t b, size_t e) {
      for (size_t t = b; t < e; ++t) {
        ReduceJob j = base;
        j.g0 = t / splits;
        j.g1 = j.g0 + 1;
        const uint64_t s = t % splits;
        if (split_runs) {
          j.r0 = L.runs * s / splits;
          j.r1 = L.runs * (s + 1) / splits;
        } else {
          // Slice boundaries on 64-element multiples keep loads aligned alike.
          j.l0 = std::min(L.inner, (L.inner * s / splits) & ~uint64_t{63});
          j.l1 = s + 1 == splits ? L.inner : std::min(L.inner, (L.inner * (s + 1) / splits) & ~uint64_t{63});
        }
        // Slices are never empty: runs < splits means inner > window / splits >= kGrain.
        j.out = &partial[t];
        j.out_base = j.g0;
        HWY_DYNAMIC_DISPATCH(ReduceHorizontal)(j);
      }
    });
    result.resize(outputs);
    for (uint64_t g = 0; g < L.groups; ++g) {
      A r = partial[g * splits];
      for (uint64_t s = 1; s < splits; ++s) r = MergeScalar(op, r, partial[g * splits + s]);
      result[g] = r;
    }
    return result;
  }

  // Vertical: items are (group, column block).
  const uint64_t C = L.inner;
  if (C < kNarrowColumns && L.red_sizes.size() == 1 && L.red_strides[0] == C && L.runs >= 4 * kFoldRows) {
    // Narrow contiguous rows: kFoldRows rows are one row of C * kFoldRows
    // columns (full vectors); accumulate those, then fold lanes q * C + c into
    // column c. The last runs % kFoldRows rows are reduced as they are.
    const uint64_t wide = C * kFoldRows;
    const uint64_t folded_rows = L.runs / kFoldRows;
    ReductionLayout L2 = L;
    L2.inner = wide;
    L2.red_sizes = {folded_rows};
    L2.red_strides = {wide};
    L2.runs = folded_rows;
    ReduceJob b2 = base;
    b2.final_op = FinalOp::kNone;
    b2.out = nullptr;
    std::vector<double> shift2;
    if (base.shift) {
      shift2.resize(L.groups * wide);
      for (uint64_t g = 0; g < L.groups; ++g)
        for (uint64_t q = 0; q < wide; ++q) shift2[g * wide + q] = base.shift[g * C + q % C];
      b2.shift = shift2.data();
    }
    const std::vector<A> acc2 = Accumulate<A>(ctx, L2, b2);
    result.assign(outputs, A{});
    for (uint64_t g = 0; g < L.groups; ++g) {
      for (uint64_t c = 0; c < C; ++c) {
        A r = acc2[g * wide + c];
        for (uint64_t q = 1; q < kFoldRows; ++q) r = MergeScalar(op, r, acc2[g * wide + q * C + c]);
        result[g * C + c] = r;
      }
    }
    if (const uint64_t rest = L.runs % kFoldRows) {
      ReductionLayout L3 = L;
      L3.red_sizes = {rest};
      L3.runs = rest;
      ReduceJob b3 = b2;
      b3.shift = base.shift;
      b3.in = base.in + folded_rows * wide * ByteLengthFor(base.type, 1);
      const std::vector<A> acc3 = Accumulate<A>(ctx, L3, b3);
      for (uint64_t o = 0; o < outputs; ++o) result[o] = MergeScalar(op, result[o], acc3[o]);
    }
    return result;
  }
  const uint64_t blocks = (C + kColumnBlock - 1) / kColumnBlock;
  const uint64_t items = L.groups * blocks;
  const uint64_t item_elements = L.runs * std::min(C, kColumnBlock);
  auto run_items = [&](ReduceJob proto, size_t b, size_t e) {
    for (size_t t = b; t < e; ++t) {
      ReduceJob j = proto;
      j.g0 = t / blocks;
      j.g1 = j.g0 + 1;
      j.l0 = (t % blocks) * kColumnBlock;
      j.l1 = std::min(C, j.l0 + kColumnBlock);
      HWY_DYNAMIC_DISPATCH(ReduceVertical)(j);
    }
  };
  if (items >= 2 * threads || items * item_elements < 2 * kGrain || L.runs < 2 * threads) {
    direct_or_result();
    ctx.parallel.Run(items, std::max<uint64_t>(1, kGrain / item_elements),
                     [&](size_t b, size_t e) { run_items(base, b, e); });
    return result;
  }
  // Few column blocks over many rows: slice the rows, one partial result set per slice.
  base.final_op = FinalOp::kNone;
  const uint64_t splits = std::min<uint64_t>({4 * threads, L.runs, items * item_elements / kGrain});
  std::vector<A> partial(outputs * splits);
  ctx.parallel.Run(items * splits, 1, [&](size_t b, size_t e) {
    for (size_t t = b; t < e; ++t) {
      const uint64_t s = t / items;
      ReduceJob j = base;
      j.r0 = L.runs * s / splits;
      j.r1 = L.runs * (s + 1) / splits;
      j.out = partial.data() + s * outputs;
      j.out_base = 0;
      run_items(j, t % items, t % items + 1);
    }
  });
  result.resize(outputs);
  for (uint64_t o = 0; o < outputs; ++o) {
    A r = partial[o];
    for (uint64_t s = 1; s < splits; ++s) r = MergeScalar(op, r, partial[s * outputs + o]);
    result[o] = r;
  }
  return result;
}

ReduceJob ProtoJob(const KernelContext& ctx, AccOp op) {
  ReduceJob j{op, ctx.inputs[0].type, ctx.inputs[0].data, nullptr, 0, 0, 0, 0, 0, 0, nullptr, nullptr, 0};
  j.out_type = ctx.outputs[0].type;
  j.final_out = ctx.outputs[0].data;
  return j;
}

void StoreFloat(const TensorView& out, uint64_t o, double v) {
  if (out.type == DataType::kFloat32) out.as<float>()[o] = static_cast<float>(v);
  else out.as<uint16_t>()[o] = core::DoubleToHalfBits(v);
}

void ReduceFloat(const KernelContext& ctx, const ReductionLayout& L) {
  const TensorView& out = ctx.outputs[0];
  const uint64_t outputs = L.outputs();
  if (ctx.op == OpKind::reduceLogSumExp) {
    // max, then sum(exp(x - max)); a NaN or infinite max is the result itself.
    const std::vector<double> max = Accumulate<double>(ctx, L, ProtoJob(ctx, AccOp::kMax));
    std::vector<double> shift(outputs);
    for (uint64_t o = 0; o < outputs; ++o) shift[o] = std::isfinite(max[o]) ? max[o] : 0.0;
    ReduceJob proto = ProtoJob(ctx, AccOp::kExpSum);
    proto.shift = shift.data();
    const std::vector<double> sum = Accumulate<double>(ctx, L, proto);
    for (uint64_t o = 0; o < outputs; ++o)
      StoreFloat(out, o, std::isfinite(max[o]) ? max[o] + std::log(sum[o]) : max[o]);
    return;
  }
  AccOp op = AccOp::kSum;
  FinalOp fin = FinalOp::kIdentity;
  switch (ctx.op) {
    case OpKind::reduceL1: op = AccOp::kAbsSum; break;
    case OpKind::reduceL2: op = AccOp::kSquareSum, fin = FinalOp::kSqrt; break;
    case OpKind::reduceSumSquare: op = AccOp::kSquareSum; break;
    case OpKind::reduceMax: op = AccOp::kMax; break;
    case OpKind::reduceMin: op = AccOp::kMin; break;
    case OpKind::reduceProduct: op = AccOp::kProduct; break;
    case OpKind::reduceLogSum: fin = FinalOp::kLog; break;
    case OpKind::reduceMean: fin = FinalOp::kMean; break;
    default: break;
  }
  ReduceJob proto = ProtoJob(ctx, op);
  proto.final_op = fin;
  proto.count = static_cast<double>(L.window());
  const std::vector<double> acc = Accumulate<double>(ctx, L, proto);
  if (acc.empty()) return;  // stored by the jobs
  for (uint64_t o = 0; o < outputs; ++o) {
    double v = acc[o];
    switch (fin) {
      case FinalOp::kSqrt: v = std::sqrt(v); break;
      case FinalOp::kLog: v = std::log(v); break;
      case FinalOp::kMean: v = v / proto.count; break;
      default: break;
    }
    StoreFloat(out, o, v);
  }
}

template <class T>
void ReduceInt(const KernelContext& ctx, const ReductionLayout& L) {
  AccOp op = AccOp::kSum;
  switch (ctx.op) {
    case OpKind::reduceL1: op = AccOp::kAbsSum; break;
    case OpKind::reduceSumSquare: op = AccOp::kSquareSum; break;
    case OpKind::reduceMax: op = AccOp::kMax; break;
    case OpKind::reduceMin: op = AccOp::kMin; break;
    case OpKind::reduceProduct: op = AccOp::kProduct; break;
    default: break;
  }
  ReduceJob proto = ProtoJob(ctx, op);
  proto.out = ctx.outputs[0].data;  // results are output elements
  const std::vector<T> acc = Accumulate<T>(ctx, L, proto);
  if (!acc.empty()) std::copy(acc.begin(), acc.end(), ctx.outputs[0].as<T>());
}

void RunReduce(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ReduceAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  std::vector<bool> reduced(input.rank(), false);
  for (uint32_t axis : ResolveReduceAxes(attrs, input.rank())) reduced[axis] = true;
  const ReductionLayout L = PlanReduction(input.shape, reduced);
  VisitType<SpecElementTypes<hwy::float16_t>>(input.type, [&]<typename T>(TypeTag<T>) {
    if constexpr (std::is_integral_v<T>) ReduceInt<T>(ctx, L);
    else ReduceFloat(ctx, L);
  });
}

}  // namespace

void RegisterReduceKernels(OpKind op, KernelRegistry& registry) {
  // Every type each reduction's schema allows (float-only ones are limited by the schema).
  const DataTypeSet all{DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kUint32,
                        DataType::kInt64,   DataType::kUint64,  DataType::kInt8,  DataType::kUint8};
  registry.Add(CpuKernel{op, &RunReduce, nullptr, {all}, {all}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
