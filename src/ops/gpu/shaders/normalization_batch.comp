#version 450
// batchNormalization, float32/float16 (-DA_<T>) computed in float32:
//   (x - mean[c]) / sqrt(variance[c] + epsilon) * scale[c] + bias[c]
// with c the index along the channel axis. WPT allows 6 ULP and bias can
// cancel the product to any small value, so with finite operands the whole
// expression runs in float pairs with one rounding at the end (and x - mean
// scaled by 2^-64 when above 2^100, so no intermediate overflows); otherwise,
// or when the pair result is not finite, plain float32.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) readonly buffer Mean { A_T mean[]; };
layout(std430, binding = 3) readonly buffer Variance { A_T variance[]; };
layout(std430, binding = 4) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 5) readonly buffer Bias { A_T bias[]; };
layout(std430, binding = 6) writeonly buffer O { A_T o[]; };

// P(0) n, P(1) channels, P(2) inner (elements per channel step),
// P(3) bit 0: scale given, bit 1: bias given, P(4) epsilon (float bits).
#include "float_float.glsl"

bool Finite(float v) { return !isnan(v) && !isinf(v); }

void main() {
  const uint n = P(0), channels = P(1), inner = P(2), flags = P(3);
  const float epsilon = PF(4);
  GRID_STRIDE_LOOP(i, n) {
    const uint c = (i / inner) % channels;
    const float xv = float(x[BASE(1) + i]), mv = float(mean[BASE(2) + c]), vv = float(variance[BASE(3) + c]);
    const float sv = (flags & 1u) != 0u ? float(scale[BASE(4) + c]) : 1.0;
    const float bv = (flags & 2u) != 0u ? float(bias[BASE(5) + c]) : 0.0;
    float v = uintBitsToFloat(0x7fc00000u);
    if (Finite(xv) && Finite(mv) && Finite(vv) && Finite(sv) && Finite(bv)) {
      float dh, dl;
      TwoSum(xv, -mv, dh, dl);
      int k = 0;
      if (abs(dh) > 1.2676506e30) k = -64;
      const vec2 d = vec2(Scale2(dh, k), Scale2(dl, k));
      float vh, vl;
      TwoSum(vv, epsilon, vh, vl);
      const vec2 sd = FFSqrt(vec2(vh, vl));
      if (sd.x > 0.0 && Finite(sd.x)) {
        vec2 q = FFDiv(d, sd);
        q = FFMulF(q, sv);
        q = FFAdd(q, vec2(Scale2(bv, k), 0.0));
        v = Scale2(q.x + q.y, -k);
      }
    }
    if (isnan(v)) {
      v = (xv - mv) / sqrt(vv + epsilon);
      if ((flags & 1u) != 0u) v *= sv;
      if ((flags & 2u) != 0u) v += bv;
    }
    o[BASE(6) + i] = A_T(v);
  }
}
