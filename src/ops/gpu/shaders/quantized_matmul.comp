#version 450
// quantizedMatmul (src/ops/quantized_matmul.h): out = a x W (+ bias, then the
// fused epilogue), or with -DGATED the SwiGLU (g * sigmoid(g)) * u of
// g = a x W and u = a x W_up. -DA_F32 / -DA_F16: a, scale, bias and output;
// -DQ_I8, -DQ_U8, -DQ_I4, -DQ_U4: weight and zero point, 4-bit packed two per
// byte, low nibble first (as quantize_linear.comp reads them). The constant
// weight, scale and zero point are read as they are, each weight dequantized
// in registers as dequantizeLinear computes it: (code - zeroPoint) * scale
// rounded to the scale's type. The dot product starts at -0.0 and adds in
// float32 (matmul.comp's semantics); float16 rounds once at the store.
//
// Layout: one invocation per output column n and group of up to kRows rows
// of A (a's leading dimensions flattened: the weight is one matrix), with
// neighbouring invocations on neighbouring columns, so that a [K, N] weight
// is read coalesced and a row of A is one broadcast read. Each weight is
// dequantized once per kRows rows.
//
// A fast version would, for few rows (decode, bound by reading the weight),
// have a workgroup split K over its threads, load 32-bit words of codes (8
// nibbles), factor the zero point and scale out of each block's sum as the
// cpu kernel's GEMV does (where that changes no NaN, Inf or overflow), and
// reduce across the workgroup; for many rows, stage dequantized 16 x 64
// tiles of W in shared memory and run matmul.comp's 64 x 64 register tiling
// (or cooperative matrices) on them.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#define EPILOGUE_PARAMS 11
#include "epilogue.glsl"  // also unary_math.glsl's SigmoidF
layout(local_size_x = 256) in;

#if defined(Q_I8)
#define Q_T int8_t
#elif defined(Q_U8)
#define Q_T uint8_t
#else  // Q_I4, Q_U4
#define Q_T uint8_t
#define Q_PACKED 1
#endif

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer W { Q_T w[]; };
layout(std430, binding = 3) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 4) readonly buffer ZeroPoint { Q_T zero_point[]; };
layout(std430, binding = 5) writeonly buffer O { A_T o[]; };
#if defined(GATED)
layout(std430, binding = 6) readonly buffer UpW { Q_T up_w[]; };
layout(std430, binding = 7) readonly buffer UpScale { A_T up_scale[]; };
layout(std430, binding = 8) readonly buffer UpZeroPoint { Q_T up_zero_point[]; };
#else
layout(std430, binding = 6) readonly buffer Bias { A_T bias[]; };  // bound to A when absent
#endif

// P(0) rows of A, P(1) N, P(2) K, P(3) weight stride along K, P(4) along N,
// P(5) blocks along K (the scale's extent), P(6) block along K, P(7) along
// N, P(8) scale (and zero point) stride per block along K, P(9) along N,
// P(10) bias: 0 none, 1 one value, 2 one per column; P(11..17) the epilogue
// (epilogue.glsl; none when gated). The gated up projection's operands have
// the gate's shapes, so the same strides.
const uint kRows = 4;

// Code i of a quantized buffer whose base is `base` (in bytes for 4-bit).
#if defined(Q_PACKED)
int Nibble(uint byte_value, uint i) {
  const uint nibble = (byte_value >> ((i & 1u) * 4u)) & 15u;
#if defined(Q_I4)
  return int(nibble << 28) >> 28;
#else
  return int(nibble);
#endif
}
#define CODE(buf, base, i) Nibble(uint(buf[(base) + ((i) >> 1)]), (i))
#else
#define CODE(buf, base, i) int(buf[(base) + (i)])
#endif

// (code - zeroPoint) * scale rounded once to the scale's type. The difference
// is exact in float (|d| <= 255), so float32's product (correctly rounded in
// Vulkan) is dequantizeLinear's one rounding; with a float16 scale (11
// significant bits) the product is exact, and the conversion rounds it once
// to float16. `precise`: no
// compiler may drop the float16 round trip or regroup the product with A.
// (A device that flushes denormals flushes subnormal weights too, where
// quantize_linear.comp builds them from bits; per weight of a product that
// cost is not worth it.)
float Dequantize(int centered, float s) {
#if defined(A_F16)
  precise float v = float(float16_t(float(centered) * s));
#else
  precise float v = float(centered) * s;
#endif
  return v;
}

void main() {
  const uint rows = P(0), N = P(1), K = P(2);
  const uint w_ks = P(3), w_ns = P(4), blocks = P(5), block_k = P(6), block_n = P(7), s_ks = P(8), s_ns = P(9);
  const uint ba = BASE(1), bw = BASE(2), bs = BASE(3), bz = BASE(4), bo = BASE(5);
  const uint groups = (rows + kRows - 1u) / kRows;
  GRID_STRIDE_LOOP(item, groups * N) {
    const uint n = item % N, r0 = (item / N) * kRows;
    const uint count = min(kRows, rows - r0);
    float acc[kRows];
    for (uint r = 0u; r < kRows; ++r) acc[r] = -0.0;
#if defined(GATED)
    const uint bu = BASE(6), bus = BASE(7), buz = BASE(8);
    float up[kRows];
    for (uint r = 0u; r < kRows; ++r) up[r] = -0.0;
#endif
    for (uint kb = 0u; kb < blocks; ++kb) {
      const uint p = kb * s_ks + (n / block_n) * s_ns;
      const float s = float(scale[bs + p]);
      const int zp = CODE(zero_point, bz, p);
#if defined(GATED)
      const float us = float(up_scale[bus + p]);
      const int uzp = CODE(up_zero_point, buz, p);
#endif
      for (uint k = kb * block_k; k < (kb + 1u) * block_k; ++k) {
        const uint wi = k * w_ks + n * w_ns;
        const float wv = Dequantize(CODE(w, bw, wi) - zp, s);
#if defined(GATED)
        const float uv = Dequantize(CODE(up_w, bu, wi) - uzp, us);
#endif
        for (uint r = 0u; r < count; ++r) {
          const float av = float(a[ba + (r0 + r) * K + k]);
          acc[r] += av * wv;
#if defined(GATED)
          up[r] += av * uv;
#endif
        }
      }
    }
    for (uint r = 0u; r < count; ++r) {
#if defined(GATED)
      // As the unfused mul(mul(g, sigmoid(g)), u), in float32.
      const float g = acc[r];
      const float v = (g * SigmoidF(g)) * up[r];
#else
      float v = acc[r];
      if (P(10) != 0u) v += float(bias[BASE(6) + (P(10) == 2u ? n : 0u)]);
      v = Epilogue(v);
#endif
      o[bo + (r0 + r) * N + n] = A_T(v);
    }
  }
}
