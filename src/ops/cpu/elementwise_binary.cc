// cpu kernels of add, sub, mul, div, max, min, pow for every data type.
//
// Rows from BroadcastPlan are processed with full vectors plus one partial
// vector; each row has one of four shapes (vector-vector, vector-scalar,
// scalar-vector, scalar-scalar). float16 is computed in float32 lanes (exact
// for + - * / and one rounding to float16: float32 has 24 >= 2 * 11 + 2 bits,
// so the double rounding is innocuous). Integer semantics are the reference's:
//  - add/sub/mul wrap (8-bit lanes multiply through 16-bit products);
//  - div truncates, x / 0 = 0, MIN / -1 wraps; int8/uint8 divide in float32
//    lanes and int32/uint32 in float64 lanes, where the truncated quotient is
//    exact (|a|, |b| < 2^31: the quotient's rounding error is below 1 / |b|);
//    int64/uint64 have no such lanes and divide per element;
//  - pow is square-and-multiply with wrap, negative exponents give 1 / x^n
//    truncated.
// Float pow runs in float64 lanes as exp(b * log|a|) (relative error ~1e-13,
// below float32's half ulp but for near-ties) with the sign for negative
// bases and integral exponents; lanes with a zero, infinite or NaN operand
// use std::pow, as the reference does.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/elementwise_binary.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "ops/cpu/broadcast.h"
#include "ops/cpu/elementwise.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

struct AddOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::Add(a, b); }
};
struct SubOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::Sub(a, b); }
};
struct MulOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) return hn::Mul(a, b);
    else return MulWrap(d, a, b);
  }
};
struct DivOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const { return hn::Div(a, b); }
};
// Integer division computed in float lanes that hold the integers exactly.
struct DivTruncOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    return hn::IfThenZeroElse(hn::Eq(b, hn::Zero(d)), hn::Trunc(hn::Div(a, b)));
  }
};
// NaN in either operand gives NaN (IEEE maximum/minimum), as the reference does.
struct MaxOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>())
      return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), hn::IfThenElse(hn::Gt(a, b), a, b));
    else return hn::Max(a, b);
  }
};
struct MinOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V a, V b) const {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>())
      return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(b)), hn::Add(a, b), hn::IfThenElse(hn::Lt(a, b), a, b));
    else return hn::Min(a, b);
  }
};

// pow in float64 lanes.
struct PowF64Op {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    const V zero = hn::Zero(d);
    const auto ok = hn::And(hn::And(hn::IsFinite(a), hn::IsFinite(b)), hn::Ne(a, zero));
    if (HWY_UNLIKELY(!hn::AllTrue(d, ok))) {
      // Zeros, infinities and NaNs: std::pow's special cases, per lane.
      HWY_ALIGN double va[HWY_MAX_BYTES / sizeof(double)];
      HWY_ALIGN double vb[HWY_MAX_BYTES / sizeof(double)];
      hn::Store(a, d, va);
      hn::Store(b, d, vb);
      for (size_t i = 0; i < hn::Lanes(d); ++i) va[i] = std::pow(va[i], vb[i]);
      return hn::Load(d, va);
    }
    // exp(700) is finite in float64 and far beyond float32/float16.
    const V t = hn::Min(hn::Mul(b, hn::Log(d, hn::Abs(a))), hn::Set(d, 700.0));
    const V r = hn::Exp(d, t);
    // Negative base: defined for integral exponents, negative for odd ones.
    const auto integral = hn::Eq(hn::Round(b), b);
    const V half_b = hn::Mul(b, hn::Set(d, 0.5));
    const auto odd = hn::And(integral, hn::Ne(hn::Round(half_b), half_b));
    const V signed_r = hn::IfThenElse(odd, hn::Neg(r), r);
    const V neg_base = hn::IfThenElse(integral, signed_r, hn::Set(d, std::numeric_limits<double>::quiet_NaN()));
    return hn::IfThenElse(hn::Lt(a, zero), neg_base, r);
  }
};

// Integer pow: square-and-multiply over the exponent's bits (as many rounds as
// the largest exponent in the vector has bits).
struct PowIntOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V a, V b) const {
    using T = hn::TFromD<D>;
    const hn::RebindToUnsigned<D> du;
    using TU = hn::TFromD<decltype(du)>;
    auto e = hn::BitCast(du, b);
    if constexpr (hwy::IsSigned<T>()) e = hn::IfThenZeroElse(hn::RebindMask(du, hn::Lt(b, hn::Zero(d))), e);
    V result = hn::Set(d, T{1});
    V base = a;
    while (!hn::AllFalse(du, hn::Ne(e, hn::Zero(du)))) {
      const auto bit = hn::RebindMask(d, hn::Ne(hn::And(e, hn::Set(du, TU{1})), hn::Zero(du)));
      result = hn::IfThenElse(bit, MulWrap(d, result, base), result);
      base = MulWrap(d, base, base);
      e = hn::ShiftRight<1>(e);
    }
    if constexpr (hwy::IsSigned<T>()) {
      // 1 / a^|b|: 1 for a = 1, +-1 for a = -1, else 0 (truncated).
      const V one = hn::Set(d, T{1});
      const V minus_one = hn::Set(d, T(-1));
      const auto odd = hn::Ne(hn::And(b, one), hn::Zero(d));
      const V neg_exp = hn::IfThenElse(hn::Eq(a, one), one,
                                       hn::IfThenElseZero(hn::Eq(a, minus_one), hn::IfThenElse(odd, minus_one, one)));
      result = hn::IfThenElse(hn::Lt(b, hn::Zero(d)), neg_exp, result);
    }
    return result;
  }
};

// The common ops on one element layout.
template <class Mem>
HWY_INLINE bool BinaryCommon(OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n, bool st) {
  switch (op) {
    case OpKind::add: BinaryLoop<Mem>(AddOp(), a, av, b, bv, o, n, st); return true;
    case OpKind::sub: BinaryLoop<Mem>(SubOp(), a, av, b, bv, o, n, st); return true;
    case OpKind::mul: BinaryLoop<Mem>(MulOp(), a, av, b, bv, o, n, st); return true;
    case OpKind::max: BinaryLoop<Mem>(MaxOp(), a, av, b, bv, o, n, st); return true;
    case OpKind::min: BinaryLoop<Mem>(MinOp(), a, av, b, bv, o, n, st); return true;
    default: return false;
  }
}

void BinaryRowF32(OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n, bool st) {
  if (BinaryCommon<NativeLanes<float>>(op, a, av, b, bv, o, n, st)) return;
  if (op == OpKind::div) return BinaryLoop<NativeLanes<float>>(DivOp(), a, av, b, bv, o, n, st);
  BinaryLoop<FloatAsF64Lanes>(PowF64Op(), a, av, b, bv, o, n);
}

void BinaryRowF16(OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n, bool st) {
  if (BinaryCommon<HalfLanes>(op, a, av, b, bv, o, n, st)) return;
  if (op == OpKind::div) return BinaryLoop<HalfLanes>(DivOp(), a, av, b, bv, o, n, st);
  BinaryLoop<HalfAsF64Lanes>(PowF64Op(), a, av, b, bv, o, n);
}

template <typename T>
HWY_INLINE void BinaryRowInt(OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n, bool st) {
  if (BinaryCommon<NativeLanes<T>>(op, a, av, b, bv, o, n, st)) return;
  if (op == OpKind::pow) return BinaryLoop<NativeLanes<T>>(PowIntOp(), a, av, b, bv, o, n);
  // div
  if constexpr (sizeof(T) == 1) {
    BinaryLoop<ByteAsF32Lanes<T>>(DivTruncOp(), a, av, b, bv, o, n);
  } else if constexpr (sizeof(T) == 4) {
    BinaryLoop<Int32AsF64Lanes<T>>(DivTruncOp(), a, av, b, bv, o, n);
  } else {
    // No 64-bit integer division in SIMD: per element, with the reference's
    // x / 0 = 0 and MIN / -1 = MIN (wrap).
    const T* pa = static_cast<const T*>(a);
    const T* pb = static_cast<const T*>(b);
    T* po = static_cast<T*>(o);
    for (size_t k = 0; k < n; ++k) {
      const T x = pa[av ? k : 0];
      const T y = pb[bv ? k : 0];
      T q = 0;
      if (y == 0) q = 0;
      else if (hwy::IsSigned<T>() && y == T(-1)) q = static_cast<T>(T(0) - static_cast<std::make_unsigned_t<T>>(x));
      else q = x / y;
      po[k] = q;
    }
  }
}

void BinaryRow(DataType type, OpKind op, const void* a, bool av, const void* b, bool bv, void* o, size_t n,
               bool st) {
  VisitType<SpecElementTypes<hwy::float16_t>>(type, [&]<typename T>(TypeTag<T>) {
    if constexpr (std::is_integral_v<T>) BinaryRowInt<T>(op, a, av, b, bv, o, n, st);
    else if constexpr (std::is_same_v<T, float>) BinaryRowF32(op, a, av, b, bv, o, n, st);
    else BinaryRowF16(op, a, av, b, bv, o, n, st);
  });
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(BinaryRowF32);
HWY_EXPORT(BinaryRow);

namespace {

void RunBinary(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const BroadcastPlan plan(out.shape, {a.shape, b.shape});
  const bool heavy = ctx.op == OpKind::pow || (ctx.op == OpKind::div && !IsFloatingPoint(out.type));
  const bool stream = out.bytes() >= kStreamingBytes;
  ForEachBinaryRun(ctx.parallel, plan, a, b, out, heavy ? kTranscendentalGrain : kElementwiseGrain,
                   [&](const std::byte* pa, bool av, const std::byte* pb, bool bv, std::byte* po, size_t n) {
                     HWY_DYNAMIC_DISPATCH(BinaryRow)(out.type, ctx.op, pa, av, pb, bv, po, n, stream);
                   });
}

}  // namespace

void ApplyBinaryF32(OpKind op, const float* a, bool a_vec, const float* b, bool b_vec, float* out, size_t n,
                    bool stream) {
  HWY_DYNAMIC_DISPATCH(BinaryRowF32)(op, a, a_vec, b, b_vec, out, n, stream);
}

void RegisterElementwiseBinaryKernels(OpKind op, KernelRegistry& registry) {
  // Every type the schema allows: float32, float16 and the 8/32/64-bit integers.
  registry.Add(CpuKernel{op, &RunBinary, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
