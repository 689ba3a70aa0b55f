// cpu kernels of abs, ceil, cos, erf, exp, floor, identity, log, neg,
// reciprocal, roundEven, sin, sign, sqrt, tan.
//
// float32 lanes for float32 and float16 (one rounding to float16 at the
// store; exact for abs/neg/ceil/floor/roundEven/sign, correctly rounded for
// sqrt and reciprocal since float32 has >= 2 * 11 + 2 bits). exp and log are
// Highway's (1 and 4 ULP) with IEEE special cases; erf is ours
// (vector_math-inl.h, ~1e-7). sin and cos use Highway's float32 Sin/Cos
// (3 ULP) on |x| <= 39000, their valid range, and std::sin/std::cos on the
// (rare) lanes beyond it. tan runs in float64 lanes, sin/cos there: near its
// poles tan(x) reaches 2e7 in float32, where WPT's absolute tolerance (1e-3)
// demands the exact float, so the float32 result must come from a float64 one
// (float16: rounded once via round-to-odd). Integer abs/neg/sign (int8, int32,
// int64) wrap like the reference: abs(MIN) = neg(MIN) = MIN.
// identity copies the bytes (NaN payloads survive).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/elementwise_unary.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <cstring>

#include "ops/cpu/elementwise.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

// Highway's float32 Sin/Cos are specified on [-39000, 39000].
constexpr float kTrigRange = 39000.0f;

struct AbsOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) return hn::Abs(x);
    else return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Neg(x), x);  // wraps at MIN
  }
};
struct NegOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V x) const { return hn::Neg(x); }
};
struct SignOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    using T = hn::TFromD<D>;
    const V zero = hn::Zero(d);
    // NaN compares false both ways: 0, as the spec's emulation gives.
    return hn::IfThenElse(hn::Gt(x, zero), hn::Set(d, T(1)), hn::IfThenElseZero(hn::Lt(x, zero), hn::Set(d, T(-1))));
  }
};
// A zero result of rounding takes the sign of x (ceil(-0.5) = -0, floor(-0)
// = -0, roundEven(-0.5) = -0): Highway's emulated targets (EMU128, SCALAR)
// lose it, the hardware ones keep it; this costs one compare and blend.
template <class D, class V>
HWY_INLINE V ZeroTakesSignOf(D d, V y, V x) {
  return hn::IfThenElse(hn::Eq(y, hn::Zero(d)), hn::CopySign(y, x), y);
}
struct CeilOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return ZeroTakesSignOf(d, hn::Ceil(x), x); }
};
struct FloorOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return ZeroTakesSignOf(d, hn::Floor(x), x); }
};
struct RoundEvenOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return ZeroTakesSignOf(d, hn::Round(x), x); }  // ties to even
};
struct ReciprocalOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return hn::Div(hn::Set(d, 1.0f), x); }
};
struct SqrtOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V x) const { return hn::Sqrt(x); }
};
struct ExpOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return ExpIeee(d, x); }
};
struct LogOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return LogIeee(d, x); }
};
struct ErfOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const { return ErfF32(d, x); }
};
struct SinOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const auto outside = hn::Not(hn::Le(hn::Abs(x), hn::Set(d, kTrigRange)));  // and NaN
    // Lanes outside the range are patched below; they enter hn::Sin as 0, since
    // its range reduction converts to int, which for NaN, Inf or huge values is
    // undefined behaviour on EMU128 (a C++ cast there; UBSan reported it).
    V y = hn::Sin(d, hn::IfThenZeroElse(outside, x));
    if (HWY_UNLIKELY(!hn::AllFalse(d, outside)))
      y = PatchLanes(d, x, y, outside, [](float v) { return static_cast<float>(std::sin(static_cast<double>(v))); });
    return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, y);  // sin(-0) = -0
  }
};
struct CosOp {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const auto outside = hn::Not(hn::Le(hn::Abs(x), hn::Set(d, kTrigRange)));
    V y = hn::Cos(d, hn::IfThenZeroElse(outside, x));  // (as in SinOp)
    if (HWY_UNLIKELY(!hn::AllFalse(d, outside)))
      y = PatchLanes(d, x, y, outside, [](float v) { return static_cast<float>(std::cos(static_cast<double>(v))); });
    return y;
  }
};
// tan in float64 lanes.
struct TanF64Op {
  template <class D, class V>
  HWY_INLINE V operator()(D d, V x) const {
    const auto outside = hn::Not(hn::Le(hn::Abs(x), hn::Set(d, 39000.0)));
    const V in_range = hn::IfThenZeroElse(outside, x);  // (as in SinOp)
    V y = hn::Div(hn::Sin(d, in_range), hn::Cos(d, in_range));
    if (HWY_UNLIKELY(!hn::AllFalse(d, outside))) y = PatchLanes(d, x, y, outside, [](double v) { return std::tan(v); });
    return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, y);  // tan(-0) = -0
  }
};

template <class Mem>
HWY_INLINE void UnaryFloat(OpKind op, const void* in_raw, void* out_raw, size_t n, bool st) {
  using M = typename Mem::M;
  const M* in = static_cast<const M*>(in_raw);
  M* out = static_cast<M*>(out_raw);
  switch (op) {
    case OpKind::abs: return UnaryLoop<Mem>(AbsOp(), in, out, n, st);
    case OpKind::ceil: return UnaryLoop<Mem>(CeilOp(), in, out, n, st);
    case OpKind::cos: return UnaryLoop<Mem>(CosOp(), in, out, n, st);
    case OpKind::erf: return UnaryLoop<Mem>(ErfOp(), in, out, n, st);
    case OpKind::exp: return UnaryLoop<Mem>(ExpOp(), in, out, n, st);
    case OpKind::floor: return UnaryLoop<Mem>(FloorOp(), in, out, n, st);
    case OpKind::log: return UnaryLoop<Mem>(LogOp(), in, out, n, st);
    case OpKind::neg: return UnaryLoop<Mem>(NegOp(), in, out, n, st);
    case OpKind::reciprocal: return UnaryLoop<Mem>(ReciprocalOp(), in, out, n, st);
    case OpKind::roundEven: return UnaryLoop<Mem>(RoundEvenOp(), in, out, n, st);
    case OpKind::sin: return UnaryLoop<Mem>(SinOp(), in, out, n, st);
    case OpKind::sign: return UnaryLoop<Mem>(SignOp(), in, out, n, st);
    case OpKind::sqrt: return UnaryLoop<Mem>(SqrtOp(), in, out, n, st);
    default: break;
  }
}

void UnaryRowF32(OpKind op, const void* in, void* out, size_t n, bool st) {
  if (op == OpKind::tan)
    return UnaryLoop<FloatAsF64Lanes>(TanF64Op(), static_cast<const float*>(in), static_cast<float*>(out), n);
  UnaryFloat<NativeLanes<float>>(op, in, out, n, st);
}

void UnaryRowF16(OpKind op, const void* in, void* out, size_t n, bool st) {
  if (op == OpKind::tan)
    return UnaryLoop<HalfAsF64Lanes>(TanF64Op(), static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out), n);
  UnaryFloat<HalfLanes>(op, in, out, n, st);
}

template <typename T>
HWY_INLINE void UnarySigned(OpKind op, const void* in_raw, void* out_raw, size_t n, bool st) {
  const T* in = static_cast<const T*>(in_raw);
  T* out = static_cast<T*>(out_raw);
  switch (op) {
    case OpKind::abs: return UnaryLoop<NativeLanes<T>>(AbsOp(), in, out, n, st);
    case OpKind::neg: return UnaryLoop<NativeLanes<T>>(NegOp(), in, out, n, st);
    case OpKind::sign: return UnaryLoop<NativeLanes<T>>(SignOp(), in, out, n, st);
    default: break;
  }
}

void UnaryRow(DataType type, OpKind op, const void* in, void* out, size_t n, bool st) {
  VisitType<TypeList<float, hwy::float16_t, int8_t, int32_t, int64_t>>(type, [&]<typename T>(TypeTag<T>) {
    if constexpr (std::is_integral_v<T>) UnarySigned<T>(op, in, out, n, st);
    else if constexpr (std::is_same_v<T, float>) UnaryRowF32(op, in, out, n, st);
    else UnaryRowF16(op, in, out, n, st);
  });
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(UnaryRowF32);
HWY_EXPORT(UnaryRow);

namespace {

bool IsTranscendental(OpKind op) {
  switch (op) {
    case OpKind::cos:
    case OpKind::erf:
    case OpKind::exp:
    case OpKind::log:
    case OpKind::sin:
    case OpKind::tan: return true;
    default: return false;
  }
}

void RunUnary(const KernelContext& ctx) {
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t n = static_cast<size_t>(out.elements());
  const size_t size = ByteLengthFor(out.type, 1);
  const size_t grain = IsTranscendental(ctx.op) ? kTranscendentalGrain : kElementwiseGrain;
  const bool stream = out.bytes() >= kStreamingBytes;
  ctx.parallel.Run(n, grain, [&](size_t begin, size_t end) {
    HWY_DYNAMIC_DISPATCH(UnaryRow)(out.type, ctx.op, in.data + begin * size, out.data + begin * size, end - begin,
                                   stream);
  });
}

// identity: a parallel byte copy (whole-byte types only, per the schema).
void RunIdentity(const KernelContext& ctx) {
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t bytes = static_cast<size_t>(in.bytes());
  if (in.data == out.data || bytes == 0) return;
  ctx.parallel.Run(bytes, kElementwiseGrain * 4, [&](size_t begin, size_t end) {
    std::memcpy(out.data + begin, in.data + begin, end - begin);
  });
}

}  // namespace

void ApplyUnaryF32(OpKind op, const float* in, float* out, size_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(UnaryRowF32)(op, in, out, n, stream);
}

void RegisterElementwiseUnaryKernels(OpKind op, KernelRegistry& registry) {
  // Every type each op's schema allows (float types; abs/neg/sign also
  // int8/int32/int64; identity every whole-byte type).
  registry.Add(CpuKernel{op, op == OpKind::identity ? &RunIdentity : &RunUnary, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
