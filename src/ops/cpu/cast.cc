// cpu kernel of cast between all ten data types (int4/uint4 packed two per
// byte, low nibble first), with the reference's conversions:
//  float -> float: nearest even, overflow to +-Inf (float32 <-> float16);
//  int   -> float: nearest even, one rounding (int64/uint64 through a
//                  round-to-odd float64, so the float32 rounding is correct);
//  int   -> int:   the low bits of the sign- or zero-extended value (wrap);
//  float -> int:   truncate toward zero, saturate, NaN -> 0.
// Each source is brought to a canonical form -- float32 for float sources,
// int64 bits for integer sources (int4/uint4 first unpack to int8/uint8) --
// and encoded from there; where the source or destination already is that
// form, the step is skipped, so float32<->float16, float32<->int8/uint8/int32,
// int32<->int64 and the like are single SIMD passes. Other pairs go through a
// 1024-element block buffer that stays in L1. Same-type casts copy bytes.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/cast.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>

#include "ops/cast.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

// Calls step(k, count) for each vector of D over n elements.
template <class D, class Step>
HWY_INLINE void ForEachVector(D d, size_t n, const Step& step) {
  const size_t N = hn::Lanes(d);
  size_t k = 0;
  for (; k + N <= n; k += N) step(k, N);
  if (k < n) step(k, n - k);
}

// ---------------------------------------------------------------------------
// Float sources: float32 is canonical.
// ---------------------------------------------------------------------------

void F16ToF32(const uint16_t* in, float* out, size_t n, bool stream) {
  const hn::ScalableTag<float> d;
  StoreRow<NativeLanes<float>>(d, out, n, stream, [&](size_t k, size_t c) { return LoadF16(d, in + k, c); });
}

// float32 -> float16, float32 -> (u)int8/(u)int4 bytes, -> (u)int32, -> (u)int64.
void F32ToF16(const float* in, uint16_t* out, size_t n, bool stream) {
  const hn::ScalableTag<float> d;
  StoreRow<HalfLanes>(d, out, n, stream, [&](size_t k, size_t c) { return LoadPart(d, in + k, c); });
}

// Truncate toward zero into [lo, hi] (small ranges, exact in float32),
// NaN -> 0; bytes are the low 8 bits of the result.
void F32ToBytes(const float* in, uint8_t* out, size_t n, float lo, float hi) {
  const hn::ScalableTag<float> d;
  const hn::Rebind<int32_t, decltype(d)> di;
  const hn::Rebind<uint32_t, decltype(d)> du;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  ForEachVector(d, n, [&](size_t k, size_t c) {
    auto x = LoadPart(d, in + k, c);
    x = hn::IfThenZeroElse(hn::IsNaN(x), x);
    x = hn::Min(hn::Max(x, vlo), vhi);
    StorePart(Truncate(d8, hn::BitCast(du, hn::ConvertTo(di, x))), d8, out + k, c);
  });
}

void F32ToI32(const float* in, int32_t* out, size_t n) {
  const hn::ScalableTag<float> d;
  const hn::Rebind<int32_t, decltype(d)> di;
  ForEachVector(d, n, [&](size_t k, size_t c) {
    auto x = LoadPart(d, in + k, c);
    x = hn::IfThenZeroElse(hn::IsNaN(x), x);
    auto y = hn::ConvertTo(di, hn::Max(x, hn::Set(d, -2147483648.0f)));
    y = hn::IfThenElse(hn::RebindMask(di, hn::Ge(x, hn::Set(d, 2147483648.0f))), hn::Set(di, INT32_MAX), y);
    StorePart(y, di, out + k, c);
  });
}

void F32ToU32(const float* in, uint32_t* out, size_t n) {
  const hn::ScalableTag<float> d;
  const hn::Rebind<int32_t, decltype(d)> di;
  const hn::Rebind<uint32_t, decltype(d)> du;
  const auto two31 = hn::Set(d, 2147483648.0f);
  ForEachVector(d, n, [&](size_t k, size_t c) {
    auto x = LoadPart(d, in + k, c);
    x = hn::IfThenZeroElse(hn::Or(hn::IsNaN(x), hn::Lt(x, hn::Zero(d))), x);
    // [2^31, 2^32) converts as x - 2^31 (exact: such floats are multiples of 256).
    const auto high = hn::Ge(x, two31);
    auto y = hn::BitCast(du, hn::ConvertTo(di, hn::IfThenElse(high, hn::Sub(x, two31), x)));
    y = hn::IfThenElse(hn::RebindMask(du, high), hn::Add(y, hn::Set(du, 0x80000000u)), y);
    y = hn::IfThenElse(hn::RebindMask(du, hn::Ge(x, hn::Set(d, 4294967296.0f))), hn::Set(du, 0xFFFFFFFFu), y);
    StorePart(y, du, out + k, c);
  });
}

// float32 -> int64/uint64 bits, in float64 lanes.
void F32ToI64(const float* in, uint64_t* out, size_t n, bool to_unsigned) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<int64_t, decltype(dd)> di;
  const hn::Rebind<uint64_t, decltype(dd)> du;
  const auto two63 = hn::Set(dd, 9223372036854775808.0);
  ForEachVector(dd, n, [&](size_t k, size_t c) {
    auto x = hn::PromoteTo(dd, LoadPart(df, in + k, c));
    x = hn::IfThenZeroElse(hn::IsNaN(x), x);
    hn::Vec<decltype(du)> y;
    if (to_unsigned) {
      x = hn::IfThenZeroElse(hn::Lt(x, hn::Zero(dd)), x);
      const auto high = hn::Ge(x, two63);
      y = hn::BitCast(du, hn::ConvertTo(di, hn::IfThenElse(high, hn::Sub(x, two63), x)));
      y = hn::IfThenElse(hn::RebindMask(du, high), hn::Xor(y, hn::Set(du, uint64_t{1} << 63)), y);
      y = hn::IfThenElse(hn::RebindMask(du, hn::Ge(x, hn::Set(dd, 18446744073709551616.0))), hn::Set(du, ~uint64_t{0}),
                         y);
    } else {
      y = hn::BitCast(du, hn::ConvertTo(di, hn::Max(x, hn::Neg(two63))));
      y = hn::IfThenElse(hn::RebindMask(du, hn::Ge(x, two63)), hn::Set(du, uint64_t{INT64_MAX}), y);
    }
    StorePart(y, du, out + k, c);
  });
}

// ---------------------------------------------------------------------------
// Integer sources: int64 bits are canonical.
// ---------------------------------------------------------------------------

// (u)int8 / (u)int32 -> float32, exact for 8 bits, nearest even for 32.
template <typename T>
void IntToF32(const T* in, float* out, size_t n) {
  const hn::ScalableTag<float> d;
  const hn::Rebind<T, decltype(d)> dt;
  const hn::Rebind<int32_t, decltype(d)> di;
  const hn::Rebind<uint32_t, decltype(d)> du;
  ForEachVector(d, n, [&](size_t k, size_t c) {
    const auto v = LoadPart(dt, in + k, c);
    hn::Vec<decltype(d)> f;
    if constexpr (sizeof(T) == 1) {
      f = hn::ConvertTo(d, hn::PromoteTo(di, v));
    } else if constexpr (hwy::IsSigned<T>()) {
      f = hn::ConvertTo(d, v);
    } else {
      // hi * 2^16 is exact; the one addition rounds.
      const auto hi = hn::ConvertTo(d, hn::BitCast(di, hn::ShiftRight<16>(v)));
      const auto lo = hn::ConvertTo(d, hn::BitCast(di, hn::And(v, hn::Set(du, 0xFFFFu))));
      f = hn::MulAdd(hi, hn::Set(d, 65536.0f), lo);
    }
    StorePart(f, d, out + k, c);
  });
}

// int64/uint64 -> float32. |v| >= 2^53 is first rounded to odd at 53 bits
// (shift out 11 bits, OR in a sticky bit), which float64 holds exactly; its
// nearest-even float32 is then the correctly rounded value.
void I64ToF32(const uint64_t* in, float* out, size_t n, bool from_unsigned) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<int64_t, decltype(dd)> di;
  const hn::Rebind<uint64_t, decltype(dd)> du;
  ForEachVector(dd, n, [&](size_t k, size_t c) {
    const auto bits = LoadPart(du, in + k, c);
    const auto neg = from_unsigned ? hn::FirstN(du, 0) : hn::RebindMask(du, hn::Lt(hn::BitCast(di, bits), hn::Zero(di)));
    const auto mag = hn::IfThenElse(neg, hn::Sub(hn::Zero(du), bits), bits);  // |MIN| = 2^63 as uint64
    const auto big = hn::Gt(mag, hn::Set(du, (uint64_t{1} << 53) - 1));
    const auto sticky = hn::IfThenElseZero(hn::Ne(hn::And(mag, hn::Set(du, 0x7FF)), hn::Zero(du)), hn::Set(du, 1));
    const auto odd = hn::Or(hn::ShiftRight<11>(mag), sticky);
    auto v = hn::ConvertTo(dd, hn::BitCast(di, hn::IfThenElse(big, odd, mag)));
    v = hn::IfThenElse(hn::RebindMask(dd, big), hn::Mul(v, hn::Set(dd, 2048.0)), v);
    v = hn::IfThenElse(hn::RebindMask(dd, neg), hn::Neg(v), v);
    StorePart(DemoteF64ToF32(dd, v), df, out + k, c);
  });
}

// (u)int8 / (u)int32 -> int64 bits: sign- or zero-extended.
template <typename T>
void IntToI64(const T* in, uint64_t* out, size_t n) {
  const hn::ScalableTag<uint64_t> du;
  using Wide = std::conditional_t<hwy::IsSigned<T>(), int64_t, uint64_t>;
  using Mid = std::conditional_t<hwy::IsSigned<T>(), int32_t, uint32_t>;
  const hn::Rebind<Wide, decltype(du)> dw;
  const hn::Rebind<Mid, decltype(du)> dm;
  const hn::Rebind<T, decltype(du)> dt;
  ForEachVector(du, n, [&](size_t k, size_t c) {
    const auto v = LoadPart(dt, in + k, c);
    hn::Vec<decltype(dw)> w;
    if constexpr (sizeof(T) == 1) w = hn::PromoteTo(dw, hn::PromoteTo(dm, v));
    else w = hn::PromoteTo(dw, v);
    StorePart(hn::BitCast(du, w), du, out + k, c);
  });
}

// int64 bits -> their low 32 or 8 bits.
template <typename T>
void I64ToNarrow(const uint64_t* in, T* out, size_t n) {
  const hn::ScalableTag<uint64_t> du;
  const hn::Rebind<T, decltype(du)> dt;
  ForEachVector(du, n, [&](size_t k, size_t c) { StorePart(Truncate(dt, LoadPart(du, in + k, c)), dt, out + k, c); });
}

// ---------------------------------------------------------------------------
// The pipeline over one range of elements (begin even when a side is 4-bit).
// ---------------------------------------------------------------------------

constexpr size_t kBlock = 1024;

bool Is4Bit(DataType t) { return t == DataType::kInt4 || t == DataType::kUint4; }
bool Is64Bit(DataType t) { return t == DataType::kInt64 || t == DataType::kUint64; }

// float32 block -> destination (not float32).
void EncodeF32(const float* f, DataType dst, std::byte* out, size_t n, uint8_t* bytes, bool stream) {
  switch (dst) {
    case DataType::kFloat16: return F32ToF16(f, reinterpret_cast<uint16_t*>(out), n, stream);
    case DataType::kInt32: return F32ToI32(f, reinterpret_cast<int32_t*>(out), n);
    case DataType::kUint32: return F32ToU32(f, reinterpret_cast<uint32_t*>(out), n);
    case DataType::kInt64: return F32ToI64(f, reinterpret_cast<uint64_t*>(out), n, false);
    case DataType::kUint64: return F32ToI64(f, reinterpret_cast<uint64_t*>(out), n, true);
    case DataType::kInt8: return F32ToBytes(f, reinterpret_cast<uint8_t*>(out), n, -128, 127);
    case DataType::kUint8: return F32ToBytes(f, reinterpret_cast<uint8_t*>(out), n, 0, 255);
    case DataType::kInt4: F32ToBytes(f, bytes, n, -8, 7); return PackNibbles(bytes, reinterpret_cast<uint8_t*>(out), n);
    case DataType::kUint4: F32ToBytes(f, bytes, n, 0, 15); return PackNibbles(bytes, reinterpret_cast<uint8_t*>(out), n);
    default: return;
  }
}

// int64-bits block -> integer destination (not 64-bit).
void EncodeI64(const uint64_t* v, DataType dst, std::byte* out, size_t n, uint8_t* bytes) {
  switch (dst) {
    case DataType::kInt32:
    case DataType::kUint32: return I64ToNarrow<uint32_t>(v, reinterpret_cast<uint32_t*>(out), n);
    case DataType::kInt8:
    case DataType::kUint8: return I64ToNarrow<uint8_t>(v, reinterpret_cast<uint8_t*>(out), n);
    case DataType::kInt4:
    case DataType::kUint4: I64ToNarrow<uint8_t>(v, bytes, n); return PackNibbles(bytes, reinterpret_cast<uint8_t*>(out), n);
    default: return;
  }
}

// The integer sources the decoders take: 8 and 32 bits (4-bit sources are
// unpacked to 8 bits first, 64-bit ones have their own paths).
using NarrowIntegers = TypeList<int8_t, uint8_t, int32_t, uint32_t>;

// Integer source block (8/32-bit, not 64) -> float32.
void DecodeIntToF32(DataType src, const std::byte* in, float* f, size_t n) {
  VisitType<NarrowIntegers>(src, [&]<typename T>(TypeTag<T>) { IntToF32(reinterpret_cast<const T*>(in), f, n); });
}

void DecodeIntToI64(DataType src, const std::byte* in, uint64_t* v, size_t n) {
  VisitType<NarrowIntegers>(src, [&]<typename T>(TypeTag<T>) { IntToI64(reinterpret_cast<const T*>(in), v, n); });
}

// One block: at most kBlock elements, `in`/`out` at its first element.
void CastBlock(DataType src, DataType dst, const std::byte* in, std::byte* out, size_t n, bool stream) {
  HWY_ALIGN float fbuf[kBlock];
  HWY_ALIGN uint64_t ibuf[kBlock];
  HWY_ALIGN uint8_t src_bytes[kBlock + 2];
  HWY_ALIGN uint8_t dst_bytes[kBlock + 2];
  // 4-bit sources continue as the (u)int8 they unpack to.
  if (Is4Bit(src)) {
    const bool is_signed = src == DataType::kInt4;
    UnpackNibbles(reinterpret_cast<const uint8_t*>(in), src_bytes, n, is_signed);
    src = is_signed ? DataType::kInt8 : DataType::kUint8;
    in = reinterpret_cast<const std::byte*>(src_bytes);
  }
  if (IsFloatingPoint(src)) {
    const float* f = reinterpret_cast<const float*>(in);
    if (src == DataType::kFloat16) {
      float* target = dst == DataType::kFloat32 ? reinterpret_cast<float*>(out) : fbuf;
      F16ToF32(reinterpret_cast<const uint16_t*>(in), target, n, stream && target != fbuf);
      if (dst == DataType::kFloat32) return;
      f = fbuf;
    }
    return EncodeF32(f, dst, out, n, dst_bytes, stream);
  }
  if (IsFloatingPoint(dst)) {
    float* target = dst == DataType::kFloat32 ? reinterpret_cast<float*>(out) : fbuf;
    if (Is64Bit(src)) I64ToF32(reinterpret_cast<const uint64_t*>(in), target, n, src == DataType::kUint64);
    else DecodeIntToF32(src, in, target, n);
    if (dst == DataType::kFloat16) F32ToF16(fbuf, reinterpret_cast<uint16_t*>(out), n, stream);
    return;
  }
  // Integer to integer: equal widths keep the bits.
  const int src_bits = BitsPerElement(src);
  const int dst_bits = Is4Bit(dst) ? 4 : BitsPerElement(dst);
  if (src_bits == dst_bits) return std::memcpy(out, in, n * (src_bits / 8)), void();
  if (src_bits == 8 && dst_bits == 4) return PackNibbles(reinterpret_cast<const uint8_t*>(in), reinterpret_cast<uint8_t*>(out), n);
  const uint64_t* v = reinterpret_cast<const uint64_t*>(in);
  if (!Is64Bit(src)) {
    uint64_t* target = Is64Bit(dst) ? reinterpret_cast<uint64_t*>(out) : ibuf;
    DecodeIntToI64(src, in, target, n);
    if (Is64Bit(dst)) return;
    v = ibuf;
  }
  EncodeI64(v, dst, out, n, dst_bytes);
}

void CastRange(DataType src, DataType dst, const std::byte* in, std::byte* out, size_t begin, size_t count,
               bool stream) {
  auto at = [](DataType t, const std::byte* base, size_t i) {
    return base + (Is4Bit(t) ? i / 2 : i * (BitsPerElement(t) / 8));
  };
  for (size_t k = 0; k < count; k += kBlock) {
    const size_t i = begin + k;
    CastBlock(src, dst, at(src, in, i), const_cast<std::byte*>(at(dst, out, i)), std::min(kBlock, count - k), stream);
  }
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(CastRange);

namespace {

void RunCast(const KernelContext& ctx) {
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const size_t n = static_cast<size_t>(out.elements());
  if (in.type == out.type) {
    const size_t bytes = static_cast<size_t>(in.bytes());
    if (in.data != out.data && bytes)
      ctx.parallel.Run(bytes, kElementwiseGrain * 4,
                       [&](size_t b, size_t e) { std::memcpy(out.data + b, in.data + b, e - b); });
    return;
  }
  const bool stream = out.bytes() >= kStreamingBytes;
  // Chunks in pairs of elements, so packed 4-bit chunks start on a byte.
  ctx.parallel.Run((n + 1) / 2, kElementwiseGrain / 2, [&](size_t begin, size_t end) {
    const size_t first = 2 * begin;
    const size_t last = std::min(n, 2 * end);
    HWY_DYNAMIC_DISPATCH(CastRange)(in.type, out.type, in.data, out.data, first, last - first, stream);
  });
}

}  // namespace

void RegisterCastKernels(OpKind op, KernelRegistry& registry) {
  // Every pair of the ten types, 4-bit included, both ways.
  registry.Add(CpuKernel{op, &RunCast, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
