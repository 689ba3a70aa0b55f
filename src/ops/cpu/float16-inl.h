// float16 <-> float32 in SIMD lanes, rounding to nearest even with Inf and NaN
// kept, on every target: the one implementation the cpu kernels use (through
// these templates, or through the array converters of float16.h).
//
// Highway 1.0.3 converts float16 in software on targets without F16C or FCVT
// (SSE4, EMU128, scalar) by truncating the mantissa and maps Inf/NaN to finite
// values; there we use integer code instead. x86 with F16C and Arm64 convert
// in hardware.
//
// Include after <hwy/highway.h> from a foreach_target translation unit; the
// toggle guard compiles it once per target.
#if defined(WEBNN_OPS_CPU_FLOAT16_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WEBNN_OPS_CPU_FLOAT16_INL_H_
#undef WEBNN_OPS_CPU_FLOAT16_INL_H_
#else
#define WEBNN_OPS_CPU_FLOAT16_INL_H_
#endif

#include <hwy/highway.h>

#include "core/float16.h"

#undef WEBNN_NATIVE_F16
#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)) || \
    (HWY_ARCH_ARM_A64 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR)
#define WEBNN_NATIVE_F16 1
#else
#define WEBNN_NATIVE_F16 0
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// float16 bit patterns (uint16_t lanes) to float32 lanes; exact.
template <class DF>
HWY_INLINE hn::Vec<DF> F16BitsToF32(DF df, hn::Vec<hn::Rebind<uint16_t, DF>> bits) {
#if WEBNN_NATIVE_F16
  const hn::Rebind<hwy::float16_t, DF> dh;
  return hn::PromoteTo(df, hn::BitCast(dh, bits));
#else
  // Exponent rebias; Inf/NaN get the remaining bias, subnormals are
  // normalized by one float subtraction (exact).
  const hn::RebindToUnsigned<DF> du;
  const auto h = hn::PromoteTo(du, bits);
  const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)));
  auto o = hn::ShiftLeft<13>(hn::And(h, hn::Set(du, 0x7fffu)));
  const auto exp = hn::And(o, hn::Set(du, 0x0f800000u));
  o = hn::Add(o, hn::Set(du, (127u - 15u) << 23));
  const auto inf_nan = hn::Add(o, hn::Set(du, (128u - 16u) << 23));
  const auto sub = hn::BitCast(
      du, hn::Sub(hn::BitCast(df, hn::Add(o, hn::Set(du, 1u << 23))), hn::BitCast(df, hn::Set(du, 113u << 23))));
  o = hn::IfThenElse(hn::Eq(exp, hn::Set(du, 0x0f800000u)), inf_nan, o);
  o = hn::IfThenElse(hn::Eq(exp, hn::Zero(du)), sub, o);
  return hn::BitCast(df, hn::Or(o, sign));
#endif
}

// float32 lanes to float16 bit patterns, round to nearest even, overflow to
// Inf, NaN stays NaN.
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> F32ToF16Bits(DF df, hn::Vec<DF> v) {
  const hn::Rebind<uint16_t, DF> du16;
#if WEBNN_NATIVE_F16
  const hn::Rebind<hwy::float16_t, DF> dh;
  return hn::BitCast(du16, hn::DemoteTo(dh, v));
#else
  // Round to nearest even in integer arithmetic (the classic float_to_half
  // with an explicit tie rule); subnormals round through one float addition.
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  auto x = hn::BitCast(du, v);
  const auto sign = hn::And(x, hn::Set(du, 0x80000000u));
  x = hn::Xor(x, sign);
  const auto xi = hn::BitCast(di, x);  // < 2^31: signed compares are safe
  const auto inf_nan =
      hn::IfThenElse(hn::RebindMask(du, hn::Gt(xi, hn::Set(di, 0x7f800000))), hn::Set(du, 0x7e00u), hn::Set(du, 0x7c00u));
  const auto magic = hn::Set(du, 126u << 23);  // 0.5f: its ulp is float16's smallest subnormal
  const auto sub = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(df, x), hn::BitCast(df, magic))), magic);
  const auto odd = hn::And(hn::ShiftRight<13>(x), hn::Set(du, 1u));
  const auto normal = hn::ShiftRight<13>(hn::Add(hn::Add(x, hn::Set(du, 0xc8000fffu)), odd));  // rebias -112 << 23
  auto o = hn::IfThenElse(hn::RebindMask(du, hn::Lt(xi, hn::Set(di, 113 << 23))), sub, normal);
  o = hn::IfThenElse(hn::RebindMask(du, hn::Gt(xi, hn::Set(di, (143 << 23) - 1))), inf_nan, o);
  o = hn::Or(o, hn::ShiftRight<16>(sign));
  return hn::DemoteTo(du16, hn::BitCast(di, o));
#endif
}

// float64 -> float32 rounded to nearest even, overflow and Inf to +-Inf.
// Highway 1.0's SCALAR and EMU128 DemoteTo clamp those to the largest float:
// there the lanes go one by one through core::DoubleToFloat.
template <class D64>
HWY_INLINE hn::Vec<hn::Rebind<float, D64>> DemoteF64ToF32(D64 d64, hn::Vec<D64> v) {
  const hn::Rebind<float, D64> df;
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
  HWY_ALIGN double in[HWY_MAX_BYTES / sizeof(double)];
  HWY_ALIGN float out[HWY_MAX_BYTES / sizeof(double)];
  hn::Store(v, d64, in);
  for (size_t i = 0; i < hn::Lanes(df); ++i) out[i] = core::DoubleToFloat(in[i]);
  return hn::Load(df, out);
#else
  (void)d64;
  return hn::DemoteTo(df, v);
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#endif  // WEBNN_OPS_CPU_FLOAT16_INL_H_
