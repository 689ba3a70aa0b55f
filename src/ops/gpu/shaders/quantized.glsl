// The quantized weight of quantizedMatmul (src/ops/quantized_matmul.h) as its
// shaders read it: -DQ_I8, -DQ_U8, -DQ_I4, -DQ_U4 name the code type, 4-bit
// codes packed two per byte, low nibble first (as quantize_linear.comp reads
// them); -DA_F32 / -DA_F16 the type of the scale. Shared by
// quantized_matmul.comp and quantized_matvec.comp.
#ifndef QUANTIZED_GLSL
#define QUANTIZED_GLSL

#if defined(Q_I8)
#define Q_T int8_t
#elif defined(Q_U8)
#define Q_T uint8_t
#else  // Q_I4, Q_U4
#define Q_T uint8_t
#define Q_PACKED 1
#endif

// A code from its zero-extended bits: 4 bits when packed, else 8.
int CodeFromBits(uint bits) {
#if defined(Q_I4)
  return int(bits << 28) >> 28;
#elif defined(Q_I8)
  return int(bits << 24) >> 24;
#else
  return int(bits);
#endif
}

// Code i of a quantized buffer of Q_T whose base is `base` (in bytes for 4-bit).
#if defined(Q_PACKED)
#define CODE(buf, base, i) CodeFromBits((uint(buf[(base) + ((i) >> 1)]) >> (((i) & 1u) * 4u)) & 15u)
#else
#define CODE(buf, base, i) int(buf[(base) + (i)])
#endif

// (code - zeroPoint) * scale rounded once to the scale's type. The difference
// is exact in float (|d| <= 255), so float32's product (correctly rounded in
// Vulkan) is dequantizeLinear's one rounding; with a float16 scale (11
// significant bits) the product is exact, and the conversion rounds it once
// to float16. `precise`: no compiler may drop the float16 round trip or
// regroup the product with A. (A device that flushes denormals flushes
// subnormal weights too, where quantize_linear.comp builds them from bits;
// per weight of a product that cost is not worth it.)
float Dequantize(int centered, float s) {
#if defined(A_F16)
  precise float v = float(float16_t(float(centered) * s));
#else
  precise float v = float(centered) * s;
#endif
  return v;
}
#endif  // QUANTIZED_GLSL
