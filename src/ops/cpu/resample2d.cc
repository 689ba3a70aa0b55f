// cpu kernel of resample2d: nearest-neighbor and linear, float32, float16,
// int8, uint8, any two axes.
//
// The input is viewed as [A, Y, B, X, C] around the two resampled axes (Y the
// outer, X the inner one); each output row (a, oy, b) is OX x C elements.
// Source coordinates are mapped once per call with the reference's exact
// half-pixel fractions. C > 1 (channels after the inner axis): each output
// pixel copies (nearest) or blends (linear) contiguous runs of C elements.
// C == 1 (the inner resampled axis is contiguous): nearest picks along the
// row; linear interpolates each needed input row horizontally (cached for the
// next output row, which mostly shares input rows) and then blends two such
// rows. Picking is an in-register permutation of one loaded vector when
// upsampling (N outputs read fewer than N adjacent inputs), a gather when not.
//
// Numerics as the reference: floats in float64 in the reference's order
// ((v00 (1-tx) + v01 tx)(1-ty) + (v10 (1-tx) + v11 tx) ty), one rounding at
// the store; int8/uint8 linear is the exact rational result rounded to nearest,
// ties to even, computed with exact integers in float64 (checked to fit 2^53,
// else a scalar 128-bit path). Nearest copies bits.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/resample2d.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/reduce-inl.h"

#ifndef WEBNN_OPS_CPU_RESAMPLE2D_CC_ONCE_
#define WEBNN_OPS_CPU_RESAMPLE2D_CC_ONCE_
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/cpu/kernel_registry.h"
#include "ops/resample2d.h"

namespace webnn::ops::cpu {
// Where each output coordinate of one axis reads: input indices lo/hi and
// weights. Floats: w0 = 1 - t, w1 = t (t = frac / den, as the reference).
// Integers: g = den - frac, f = frac (exact).
struct ResampleAxis {
  std::vector<int64_t> lo, hi;
  std::vector<double> w0, w1, g, f;
  uint64_t den = 1;
};

struct ResampleJob {
  DataType type;
  bool nearest;
  const std::byte* in;
  std::byte* out;
  uint64_t A, Y, B, X, C, OY, OX;
  const ResampleAxis* ay;
  const ResampleAxis* ax;
  uint64_t r0, r1;  // output rows (a, oy, b)
};
}  // namespace webnn::ops::cpu
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class E>
constexpr bool kIsFloat = std::is_same_v<E, float> || std::is_same_v<E, F16>;

// Lanes(d64) values of E as float64 (integers exactly).
template <class D64, class E>
HWY_INLINE hn::Vec<D64> LoadF64(D64 d, const E* p) {
  if constexpr (kIsFloat<E>) {
    return LoadAsF64(d, p);
  } else {
    const hn::Rebind<int32_t, D64> di;
    const hn::Rebind<E, D64> de;
    return hn::PromoteTo(d, hn::PromoteTo(di, hn::LoadU(de, p)));
  }
}
template <class D64, class E>
HWY_INLINE hn::Vec<D64> LoadF64Tail(D64 d, const E* p, size_t n) {
  alignas(64) E buf[kMaxVectorBytes / sizeof(double)] = {};
  std::memcpy(buf, p, n * sizeof(E));
  return LoadF64(d, buf);
}

// Integers: round(sum / den) to nearest, ties to even; sum and den exact
// integers below 2^53, den > 0.
template <class D64, class V = hn::Vec<D64>>
HWY_INLINE V RoundDivToEven(D64 d, V sum, V den) {
  V q = hn::Floor(hn::Div(sum, den));
  V r = hn::Sub(sum, hn::Mul(q, den));  // exact
  // The quotient's rounding can be one off either way.
  const auto under = hn::Lt(r, hn::Zero(d));
  q = hn::IfThenElse(under, hn::Sub(q, hn::Set(d, 1.0)), q);
  r = hn::IfThenElse(under, hn::Add(r, den), r);
  const auto over = hn::Ge(r, den);
  q = hn::IfThenElse(over, hn::Add(q, hn::Set(d, 1.0)), q);
  r = hn::IfThenElse(over, hn::Sub(r, den), r);
  const V twice = hn::Add(r, r);
  const V half_q = hn::Mul(q, hn::Set(d, 0.5));
  const auto q_odd = hn::Ne(hn::Floor(half_q), half_q);
  const auto up = hn::Or(hn::Gt(twice, den), hn::And(hn::Eq(twice, den), q_odd));
  return hn::IfThenElse(up, hn::Add(q, hn::Set(d, 1.0)), q);
}

template <class D64, class E>
HWY_INLINE void StoreResult(hn::Vec<D64> v, D64 d, E* p) {
  if constexpr (kIsFloat<E>) {
    StoreF64As(v, d, p);
  } else {
    const hn::Rebind<int32_t, D64> di;
    const hn::Rebind<E, D64> de;
    hn::StoreU(hn::DemoteTo(de, hn::DemoteTo(di, v)), de, p);
  }
}
template <class D64, class E>
HWY_INLINE void StoreResultTail(hn::Vec<D64> v, D64 d, E* p, size_t n) {
  alignas(64) E buf[kMaxVectorBytes / sizeof(double)];
  StoreResult(v, d, buf);
  std::memcpy(p, buf, n * sizeof(E));
}

// ------------------------------------------------------------ in-register gathers
// When upsampling, the sources of N adjacent outputs lie within N adjacent
// inputs: one (unaligned) vector load at base[b] and a lane permutation
// (TableLookupLanes) replace a gather, which is slow on some CPUs (Zen 4:
// ~30 cycles per 8 lanes). rel_* hold the permutation indices per output.
template <class TI>
struct PermutePlan {
  bool ok = false;
  std::vector<int64_t> base;  // per block of N outputs
  std::vector<TI> rel_lo, rel_hi;
};
template <class TI>
PermutePlan<TI> PlanPermutes(const std::vector<int64_t>& lo, const std::vector<int64_t>& hi, size_t N) {
  PermutePlan<TI> p;
  const size_t n = lo.size();
  p.rel_lo.assign(n + N, 0);
  p.rel_hi.assign(n + N, 0);
  for (size_t b = 0; b < n; b += N) {
    const int64_t base = lo[b];
    p.base.push_back(base);
    for (size_t i = b; i < std::min(n, b + N); ++i) {
      if (hi[i] - base >= static_cast<int64_t>(N) || lo[i] < base) return p;
      p.rel_lo[i] = static_cast<TI>(lo[i] - base);
      p.rel_hi[i] = static_cast<TI>(hi[i] - base);
    }
  }
  p.ok = true;
  return p;
}

// ------------------------------------------------------------ nearest
// Bits copied as unsigned integers of the element's size; narrow rows widen to
// 32-bit lanes (exact) so that 32-bit gathers can pick from them.
template <class U>
void NearestRows(const ResampleJob& j) {
  const U* in = reinterpret_cast<const U*>(j.in);
  U* out = reinterpret_cast<U*>(j.out);
  const ResampleAxis& ay = *j.ay;
  const ResampleAxis& ax = *j.ax;
  const hn::ScalableTag<int32_t> di;
  const size_t N = hn::Lanes(di);
  std::vector<int32_t> wide;
  std::vector<int32_t> idx;
  PermutePlan<int32_t> plan;
  if (j.C == 1) {
    plan = PlanPermutes<int32_t>(ax.lo, ax.lo, N);
    idx.resize(j.OX + N);
    for (uint64_t ox = 0; ox < j.OX; ++ox) idx[ox] = static_cast<int32_t>(ax.lo[ox]);
    if constexpr (sizeof(U) < 4) wide.resize(j.X + N);
  }
  for (uint64_t r = j.r0; r < j.r1; ++r) {
    const uint64_t b = r % j.B, oy = (r / j.B) % j.OY, a = r / (j.B * j.OY);
    const U* src = in + ((a * j.Y + static_cast<uint64_t>(ay.lo[oy])) * j.B + b) * j.X * j.C;
    U* dst = out + r * j.OX * j.C;
    if (j.C > 1) {
      for (uint64_t ox = 0; ox < j.OX; ++ox)
        std::memcpy(dst + ox * j.C, src + static_cast<uint64_t>(ax.lo[ox]) * j.C, j.C * sizeof(U));
      continue;
    }
    // Narrow rows widen to 32-bit lanes (exact), with a vector of slack.
    const int32_t* row;
    size_t row_len = j.X;
    if constexpr (sizeof(U) < 4) {
      const hn::Rebind<U, decltype(di)> du;
      size_t x = 0;
      for (; x + N <= j.X; x += N) hn::StoreU(hn::PromoteTo(di, hn::LoadU(du, src + x)), di, wide.data() + x);
      for (; x < j.X; ++x) wide[x] = src[x];
      row = wide.data();
      row_len = j.X + N;
    } else {
      row = reinterpret_cast<const int32_t*>(src);
    }
    for (uint64_t ox = 0; ox < j.OX; ox += N) {
      const size_t k = static_cast<size_t>(std::min<uint64_t>(N, j.OX - ox));
      hn::Vec<decltype(di)> v;
      if (plan.ok) {
        const size_t base = static_cast<size_t>(plan.base[ox / N]);
        const auto src_vec = base + N <= row_len ? hn::LoadU(di, row + base) : LoadTail(di, row + base, row_len - base);
        v = hn::TableLookupLanes(src_vec, hn::SetTableIndices(di, plan.rel_lo.data() + ox));
      } else {
        v = hn::GatherIndex(di, row, hn::IfThenElseZero(hn::FirstN(di, k), hn::LoadU(di, idx.data() + ox)));
      }
      if constexpr (sizeof(U) < 4) {
        const hn::Rebind<U, decltype(di)> du;
        if (k == N) hn::StoreU(hn::DemoteTo(du, v), du, dst + ox);
        else StoreTail(hn::DemoteTo(du, v), du, dst + ox, k);
      } else {
        int32_t* d32 = reinterpret_cast<int32_t*>(dst);
        if (k == N) hn::StoreU(v, di, d32 + ox);
        else StoreTail(v, di, d32 + ox, k);
      }
    }
  }
}

// ------------------------------------------------------------ linear, C > 1
template <class E>
void LinearPixels(const ResampleJob& j) {
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  const ResampleAxis& ay = *j.ay;
  const ResampleAxis& ax = *j.ax;
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const auto den = hn::Set(d, static_cast<double>(ax.den) * static_cast<double>(ay.den));
  for (uint64_t r = j.r0; r < j.r1; ++r) {
    const uint64_t b = r % j.B, oy = (r / j.B) % j.OY, a = r / (j.B * j.OY);
    const E* row0 = in + ((a * j.Y + static_cast<uint64_t>(ay.lo[oy])) * j.B + b) * j.X * j.C;
    const E* row1 = in + ((a * j.Y + static_cast<uint64_t>(ay.hi[oy])) * j.B + b) * j.X * j.C;
    E* dst = out + r * j.OX * j.C;
    const auto wy0 = hn::Set(d, kIsFloat<E> ? ay.w0[oy] : ay.g[oy]);
    const auto wy1 = hn::Set(d, kIsFloat<E> ? ay.w1[oy] : ay.f[oy]);
    for (uint64_t ox = 0; ox < j.OX; ++ox) {
      const uint64_t x0 = static_cast<uint64_t>(ax.lo[ox]) * j.C, x1 = static_cast<uint64_t>(ax.hi[ox]) * j.C;
      const auto wx0 = hn::Set(d, kIsFloat<E> ? ax.w0[ox] : ax.g[ox]);
      const auto wx1 = hn::Set(d, kIsFloat<E> ? ax.w1[ox] : ax.f[ox]);
      E* o = dst + ox * j.C;
      for (uint64_t c = 0; c < j.C; c += N) {
        const size_t k = static_cast<size_t>(std::min<uint64_t>(N, j.C - c));
        auto ld = [&](const E* p) { return k == N ? LoadF64(d, p) : LoadF64Tail(d, p, k); };
        const auto vy0 = hn::MulAdd(ld(row0 + x1 + c), wx1, hn::Mul(ld(row0 + x0 + c), wx0));
        const auto vy1 = hn::MulAdd(ld(row1 + x1 + c), wx1, hn::Mul(ld(row1 + x0 + c), wx0));
        auto v = hn::MulAdd(vy1, wy1, hn::Mul(vy0, wy0));
        if constexpr (!kIsFloat<E>) v = RoundDivToEven(d, v, den);
        if (k == N) StoreResult(v, d, o + c);
        else StoreResultTail(v, d, o + c, k);
      }
    }
  }
}

// ------------------------------------------------------------ linear, C == 1
// h[ox] = v[lo] w0 + v[hi] w1 of input row `src` (widened to float64 in `wide`).
template <class E>
void HorizontalLerp(const ResampleJob& j, const PermutePlan<int64_t>& plan, const E* src, double* HWY_RESTRICT wide,
                    double* HWY_RESTRICT h) {
  const ResampleAxis& ax = *j.ax;
  const hn::ScalableTag<double> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  size_t x = 0;
  for (; x + N <= j.X; x += N) hn::StoreU(LoadF64(d, src + x), d, wide + x);
  if (x < j.X) StoreTail(LoadF64Tail(d, src + x, j.X - x), d, wide + x, j.X - x);
  const double* w0 = kIsFloat<E> ? ax.w0.data() : ax.g.data();
  const double* w1 = kIsFloat<E> ? ax.w1.data() : ax.f.data();
  for (uint64_t ox = 0; ox < j.OX; ox += N) {
    const size_t k = static_cast<size_t>(std::min<uint64_t>(N, j.OX - ox));
    hn::Vec<decltype(d)> v0, v1;
    if (plan.ok) {
      // `wide` has a vector of slack past X.
      const auto v = hn::LoadU(d, wide + plan.base[ox / N]);
      v0 = hn::TableLookupLanes(v, hn::SetTableIndices(d, plan.rel_lo.data() + ox));
      v1 = hn::TableLookupLanes(v, hn::SetTableIndices(d, plan.rel_hi.data() + ox));
    } else {
      const auto m = hn::FirstN(di, k);
      v0 = hn::GatherIndex(d, wide, hn::IfThenElseZero(m, k == N ? hn::LoadU(di, ax.lo.data() + ox) : LoadTail(di, ax.lo.data() + ox, k)));
      v1 = hn::GatherIndex(d, wide, hn::IfThenElseZero(m, k == N ? hn::LoadU(di, ax.hi.data() + ox) : LoadTail(di, ax.hi.data() + ox, k)));
    }
    const auto a0 = k == N ? hn::LoadU(d, w0 + ox) : LoadTail(d, w0 + ox, k);
    const auto a1 = k == N ? hn::LoadU(d, w1 + ox) : LoadTail(d, w1 + ox, k);
    hn::StoreU(hn::MulAdd(v1, a1, hn::Mul(v0, a0)), d, h + ox);  // h has a vector of slack
  }
}

template <class E>
void LinearRows(const ResampleJob& j) {
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  const ResampleAxis& ay = *j.ay;
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  const auto den = hn::Set(d, static_cast<double>(j.ax->den) * static_cast<double>(ay.den));
  std::vector<double> wide(j.X + N, 0.0), h0(j.OX + N), h1(j.OX + N);
  const PermutePlan<int64_t> plan = PlanPermutes<int64_t>(j.ax->lo, j.ax->hi, N);
  // Cached horizontal results: which input row (a, y, b) h0 and h1 hold.
  uint64_t key0 = ~uint64_t{0}, key1 = ~uint64_t{0};
  for (uint64_t r = j.r0; r < j.r1; ++r) {
    const uint64_t b = r % j.B, oy = (r / j.B) % j.OY, a = r / (j.B * j.OY);
    const uint64_t k0 = (a * j.Y + static_cast<uint64_t>(ay.lo[oy])) * j.B + b;
    const uint64_t k1 = (a * j.Y + static_cast<uint64_t>(ay.hi[oy])) * j.B + b;
    if (k0 == key1 || k1 == key0) {
      std::swap(h0, h1);
      std::swap(key0, key1);
    }
    if (key0 != k0) {
      HorizontalLerp(j, plan, in + k0 * j.X, wide.data(), h0.data());
      key0 = k0;
    }
    if (key1 != k1) {
      HorizontalLerp(j, plan, in + k1 * j.X, wide.data(), h1.data());
      key1 = k1;
    }
    const auto wy0 = hn::Set(d, kIsFloat<E> ? ay.w0[oy] : ay.g[oy]);
    const auto wy1 = hn::Set(d, kIsFloat<E> ? ay.w1[oy] : ay.f[oy]);
    E* dst = out + r * j.OX;
    for (uint64_t ox = 0; ox < j.OX; ox += N) {
      const size_t k = static_cast<size_t>(std::min<uint64_t>(N, j.OX - ox));
      auto v = hn::MulAdd(hn::LoadU(d, h1.data() + ox), wy1, hn::Mul(hn::LoadU(d, h0.data() + ox), wy0));
      if constexpr (!kIsFloat<E>) v = RoundDivToEven(d, v, den);
      if (k == N) StoreResult(v, d, dst + ox);
      else StoreResultTail(v, d, dst + ox, k);
    }
  }
}

template <class E>
void LinearTyped(const ResampleJob& j) {
  if (j.C > 1) LinearPixels<E>(j);
  else LinearRows<E>(j);
}

void RunResample(const ResampleJob& j) {
  VisitType<TypeList<float, F16, int8_t, uint8_t>>(j.type, [&]<class E>(TypeTag<E>) {
    if (j.nearest) NearestRows<hwy::MakeUnsigned<E>>(j);
    else LinearTyped<E>(j);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(RunResample);

namespace {

__extension__ typedef __int128 Int128;

Int128 FloorDiv(Int128 a, Int128 b) {
  Int128 q = a / b;
  if (a % b != 0 && a < 0) --q;
  return q;
}

// The reference's exact half-pixel mapping (see reference/resample2d.cc).
ResampleAxis MapAxis(uint32_t in_size, uint32_t out_size, bool nearest) {
  ResampleAxis m;
  const Int128 den = Int128(2) * out_size;
  m.den = static_cast<uint64_t>(den);
  for (uint32_t o = 0; o < out_size; ++o) {
    Int128 num = (Int128(2) * o + 1) * in_size - out_size;
    if (num < 0) num = 0;
    if (num > Int128(in_size - 1) * den) num = Int128(in_size - 1) * den;
    if (nearest) {
      const auto index = static_cast<int64_t>(-FloorDiv(den - 2 * num, 2 * den));
      m.lo.push_back(index);
      m.hi.push_back(index);
      continue;
    }
    const auto lo = static_cast<int64_t>(num / den);
    const auto frac = static_cast<uint64_t>(num - Int128(lo) * den);
    m.lo.push_back(lo);
    m.hi.push_back(frac == 0 ? lo : lo + 1);
    const double t = static_cast<double>(frac) / static_cast<double>(m.den);
    m.w0.push_back(1 - t);
    m.w1.push_back(t);
    m.g.push_back(static_cast<double>(m.den - frac));
    m.f.push_back(static_cast<double>(frac));
  }
  return m;
}

Int128 RoundDivToEvenScalar(Int128 a, Int128 b) {
  Int128 q = FloorDiv(a, b);
  const Int128 twice_remainder = 2 * (a - q * b);
  if (twice_remainder > b || (twice_remainder == b && (q & 1) != 0)) ++q;
  return q;
}

// int8/uint8 linear when den_x * den_y * 4 * 255 does not fit float64's 2^53.
template <class E>
void LinearIntExact(const ResampleJob& j, uint64_t r0, uint64_t r1) {
  const E* in = reinterpret_cast<const E*>(j.in);
  E* out = reinterpret_cast<E*>(j.out);
  const ResampleAxis& ay = *j.ay;
  const ResampleAxis& ax = *j.ax;
  for (uint64_t r = r0; r < r1; ++r) {
    const uint64_t b = r % j.B, oy = (r / j.B) % j.OY, a = r / (j.B * j.OY);
    const E* row0 = in + ((a * j.Y + static_cast<uint64_t>(ay.lo[oy])) * j.B + b) * j.X * j.C;
    const E* row1 = in + ((a * j.Y + static_cast<uint64_t>(ay.hi[oy])) * j.B + b) * j.X * j.C;
    const Int128 fy = static_cast<Int128>(ay.f[oy]), gy = Int128(ay.den) - fy;
    for (uint64_t ox = 0; ox < j.OX; ++ox) {
      const Int128 fx = static_cast<Int128>(ax.f[ox]), gx = Int128(ax.den) - fx;
      for (uint64_t c = 0; c < j.C; ++c) {
        const uint64_t x0 = static_cast<uint64_t>(ax.lo[ox]) * j.C + c, x1 = static_cast<uint64_t>(ax.hi[ox]) * j.C + c;
        const Int128 sum = Int128(row0[x0]) * gx * gy + Int128(row0[x1]) * fx * gy + Int128(row1[x0]) * gx * fy +
                           Int128(row1[x1]) * fx * fy;
        out[(r * j.OX + ox) * j.C + c] = static_cast<E>(RoundDivToEvenScalar(sum, Int128(ax.den) * ay.den));
      }
    }
  }
}

void RunResample2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<Resample2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const bool nearest = attrs.mode == MLInterpolationMode::kNearestNeighbor;
  const uint32_t y_axis = std::min(attrs.axes[0], attrs.axes[1]);
  const uint32_t x_axis = std::max(attrs.axes[0], attrs.axes[1]);
  ResampleJob j{input.type, nearest, input.data, out.data, 1, input.shape[y_axis], 1, input.shape[x_axis], 1,
                out.shape[y_axis], out.shape[x_axis], nullptr, nullptr, 0, 0};
  for (uint32_t d = 0; d < y_axis; ++d) j.A *= input.shape[d];
  for (uint32_t d = y_axis + 1; d < x_axis; ++d) j.B *= input.shape[d];
  for (uint32_t d = x_axis + 1; d < input.rank(); ++d) j.C *= input.shape[d];
  const ResampleAxis ay = MapAxis(static_cast<uint32_t>(j.Y), static_cast<uint32_t>(j.OY), nearest);
  const ResampleAxis ax = MapAxis(static_cast<uint32_t>(j.X), static_cast<uint32_t>(j.OX), nearest);
  j.ay = &ay;
  j.ax = &ax;
  const uint64_t rows = j.A * j.OY * j.B;
  const uint64_t row_elements = j.OX * j.C;
  const bool is_int = input.type == DataType::kInt8 || input.type == DataType::kUint8;
  // Exact float64 integer arithmetic needs 4 * 255 * den_x * den_y < 2^53.
  const bool exact_in_f64 = static_cast<long double>(ax.den) * ay.den * 1024.0L < 9007199254740992.0L;
  ctx.parallel.Run(rows, std::max<uint64_t>(1, 32768 / std::max<uint64_t>(row_elements, 1)), [&](size_t b, size_t e) {
    if (!nearest && is_int && !exact_in_f64) {
      if (input.type == DataType::kInt8) LinearIntExact<int8_t>(j, b, e);
      else LinearIntExact<uint8_t>(j, b, e);
      return;
    }
    ResampleJob job = j;
    job.r0 = b;
    job.r1 = e;
    HWY_DYNAMIC_DISPATCH(RunResample)(job);
  });
}

}  // namespace

void RegisterResample2dKernels(OpKind op, KernelRegistry& registry) {
  const DataTypeSet types{DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8};
  registry.Add(CpuKernel{op, &RunResample2d, nullptr, {types}, {types}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
