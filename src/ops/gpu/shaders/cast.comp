#version 450
// cast from -DA_<T> to -DO_<T> (T also I4 / U4: packed two to a byte, low
// nibble first), the conversions of src/ops/reference/ref_util.h (Store):
//   float -> float  round to nearest even (float16 -> float32 is exact);
//   int   -> float  round to nearest (to float16 through float32: exact below
//                   65520, and from there both roundings give Inf);
//   int   -> int    the low bits, two's complement (int8 -1 -> uint8 255);
//   float -> int    truncate toward zero, saturate to the target's range,
//                   NaN -> 0 (all bounds are exact float32 values).
// Integers convert through 64 bits only where a side is 64-bit, so the other
// variants need no shaderInt64. Casting to the same type is a copy
// (elementwise_unary_copy.comp).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

#if defined(A_I4) || defined(A_U4)
#define A_PACKED 1
#define A_T uint8_t
#if defined(A_I4)
#define A_SINT 1
#else
#define A_UINT 1
#endif
#endif
#if defined(O_I4) || defined(O_U4)
#define O_PACKED 1
#undef O_T
#undef O_CT
#undef O_FLOAT
#undef O_SINT
#undef O_UINT
#undef O_64BIT
#define O_T uint8_t
#if defined(O_I4)
#define O_SINT 1
#else
#define O_UINT 1
#endif
#endif

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) writeonly buffer O { O_T o[]; };

#if defined(A_64BIT) || defined(O_64BIT)
#define SI int64_t
#define UI uint64_t
#else
#define SI int
#define UI uint
#endif

// Float inputs as float; integer inputs as their two's-complement bits in SI
// (sign- or zero-extended).
#if defined(A_FLOAT)
float Load(uint i) { return float(a[BASE(1) + i]); }
#elif defined(A_PACKED)
SI Load(uint i) {
  const uint byte = uint(a[BASE(1) + i / 2u]);
  const uint nibble = (i & 1u) != 0u ? byte >> 4 : byte & 0xfu;
#if defined(A_SINT)
  return SI(int(nibble ^ 8u) - 8);
#else
  return SI(nibble);
#endif
}
#elif defined(A_SINT)
SI Load(uint i) { return SI(a[BASE(1) + i]); }
#else
SI Load(uint i) { return SI(UI(a[BASE(1) + i])); }
#endif

// The target's range: [kLo, kHiExclusive) as floats (exact), kHi as bits.
#if defined(O_PACKED)
#if defined(O_SINT)
const float kLo = -8.0, kHiExclusive = 8.0;
#define kHi SI(7)
#else
const float kLo = 0.0, kHiExclusive = 16.0;
#define kHi SI(15)
#endif
#elif defined(O_I8)
const float kLo = -128.0, kHiExclusive = 128.0;
#define kHi SI(127)
#elif defined(O_U8)
const float kLo = 0.0, kHiExclusive = 256.0;
#define kHi SI(255)
#elif defined(O_I32)
const float kLo = -2147483648.0, kHiExclusive = 2147483648.0;
#define kHi SI(2147483647)
#elif defined(O_U32)
const float kLo = 0.0, kHiExclusive = 4294967296.0;
#define kHi SI(0xffffffffu)
#elif defined(O_I64)
const float kLo = -9223372036854775808.0, kHiExclusive = 9223372036854775808.0;
#define kHi SI(0x7fffffffffffffffl)
#elif defined(O_U64)
const float kLo = 0.0, kHiExclusive = 18446744073709551616.0;
#define kHi SI(0xfffffffffffffffful)
#endif

// Element i converted: a float for float outputs, otherwise the integer bits
// (for packed outputs, only the low 4 matter).
#if defined(O_FLOAT)
float Convert(uint i) {
#if defined(A_FLOAT)
  return Load(i);
#elif defined(A_SINT)
  return float(Load(i));
#else
  return float(UI(Load(i)));
#endif
}
#else
SI Convert(uint i) {
#if defined(A_FLOAT)
  const float x = trunc(Load(i));
  if (isnan(x)) return SI(0);
  if (x <= kLo) return SI(kLo);
  if (x >= kHiExclusive) return kHi;
#if defined(O_SINT)
  return SI(x);
#else
  return SI(UI(x));
#endif
#else
  return Load(i);
#endif
}
#endif

// P(0) n (elements).
void main() {
  const uint n = P(0);
  const uint bo = BASE(2);
#if defined(O_PACKED)
  // One invocation a byte: two elements, so no two invocations share a byte.
  GRID_STRIDE_LOOP(j, (n + 1u) / 2u) {
    const uint lo = uint(Convert(2u * j)) & 0xfu;
    const uint hi = 2u * j + 1u < n ? uint(Convert(2u * j + 1u)) & 0xfu : 0u;
    o[bo + j] = uint8_t(lo | (hi << 4));
  }
#else
  GRID_STRIDE_LOOP(i, n) {
#if defined(O_FLOAT) || defined(O_SINT)
    o[bo + i] = O_T(Convert(i));
#else
    o[bo + i] = O_T(UI(Convert(i)));
#endif
  }
#endif
}
