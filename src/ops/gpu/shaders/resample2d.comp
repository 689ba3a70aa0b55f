#version 450
// resample2d, one output element per invocation (-DA_F32/F16/I8/U8), with the
// reference's exact half-pixel mapping (src/ops/reference/resample2d.cc): the
// input coordinate of output o is num / den with
//   num = clamp((2o + 1) * in - out, 0, (in - 1) * den),  den = 2 * out,
// in 64-bit integers, so nearest's ceil(coordinate - 1/2) is exact (ties pick
// the smaller index) and linear weights are exact fractions. Linear on floats
// interpolates in float-float (LerpFloat); on int8/uint8 it is the exact rational result
// rounded to nearest, ties to even.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer I { A_T x[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) output elements, P(1) 1 for linear, P(2..5) output shape,
// P(6..9) input strides, P(10) axis y, P(11) axis x, P(12) input size along
// axis y, P(13) input size along axis x.

// floor(a / b) for b > 0.
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (q * b != a && a < 0l) q -= 1l;
  return q;
}

// Source of output coordinate `o` on one axis: (lo, hi, frac) with the input
// coordinate lo + frac / den (nearest: lo == hi is the chosen index).
void MapCoordinate(uint o, uint in_size, uint out_size, bool nearest, out uint lo, out uint hi, out int64_t frac) {
  const int64_t den = 2l * int64_t(out_size);
  int64_t num = (2l * int64_t(o) + 1l) * int64_t(in_size) - int64_t(out_size);
  num = clamp(num, 0l, int64_t(in_size - 1u) * den);
  if (nearest) {
    lo = uint(-FloorDiv(den - 2l * num, 2l * den));
    hi = lo;
    frac = 0l;
    return;
  }
  lo = uint(num / den);
  frac = num - int64_t(lo) * den;
  hi = frac == 0l ? lo : lo + 1u;
}

#if defined(A_FLOAT)
#include "float_float.glsl"

// n / d (0 <= n <= d < 2^24) as a float-float.
vec2 Ratio(float n, float d) {
  precise float h = n / d;
  float p, e;
  TwoProduct(h, d, p, e);
  precise float r = ((n - p) - e) / d;
  return FastTwoSum(h, r);
}

// v * w for a float v and a float-float w: float_float's FFMulF(w, v) but
// with the product split as v * w.x, as it always was (the two orders of
// Dekker's error terms may round differently where the error is subnormal).
vec2 MulF(float v, vec2 w) {
  float p, e;
  TwoProduct(v, w.x, p, e);
  precise float l = e + v * w.y;
  return FastTwoSum(p, l);
}

// The reference's v00 (1 - tx) (1 - ty) + ... blend in float-float (about 46
// bits), rounded once: a float blend loses the leading bits when the corners
// nearly cancel. Non-finite or huge corners (splitting would overflow) take
// the plain float formula, whose Infinity/NaN results match the reference's.
float LerpFloat(float v00, float v01, float v10, float v11, int64_t fx, int64_t dx, int64_t fy, int64_t dy) {
  const float m = max(max(abs(v00), abs(v01)), max(abs(v10), abs(v11)));
  if (!(m < 1e30) || dx >= 16777216l || dy >= 16777216l) {
    const float tx = float(fx) / float(dx), ty = float(fy) / float(dy);
    const float vy0 = v00 * (1.0 - tx) + v01 * tx;
    const float vy1 = v10 * (1.0 - tx) + v11 * tx;
    return vy0 * (1.0 - ty) + vy1 * ty;
  }
  const vec2 wx1 = Ratio(float(fx), float(dx)), wx0 = Ratio(float(dx - fx), float(dx));
  const vec2 wy1 = Ratio(float(fy), float(dy)), wy0 = Ratio(float(dy - fy), float(dy));
  const vec2 vy0 = FFAdd(MulF(v00, wx0), MulF(v01, wx1));
  const vec2 vy1 = FFAdd(MulF(v10, wx0), MulF(v11, wx1));
  const vec2 r = FFAdd(FFMul(vy0, wy0), FFMul(vy1, wy1));
  return r.x;
}
#endif

void main() {
  const uint total = P(0), ay = P(10), ax = P(11), in_y = P(12), in_x = P(13);
  const bool linear = P(1) != 0u;
  const uint bx = BASE(1), bo = BASE(2);
  GRID_STRIDE_LOOP(i, total) {
    uint idx[4];
    uint rest = i;
    for (int d = 3; d >= 0; --d) {
      idx[d] = rest % P(2 + d);
      rest /= P(2 + d);
    }
    uint base = bx;
    for (uint d = 0u; d < 4u; ++d)
      if (d != ay && d != ax) base += idx[d] * P(6 + d);
    const uint sy = P(6 + ay), sx = P(6 + ax);
    const uint out_y = P(2 + ay), out_x = P(2 + ax);
    uint ylo, yhi, xlo, xhi;
    int64_t fy, fx;
    MapCoordinate(idx[ay], in_y, out_y, !linear, ylo, yhi, fy);
    MapCoordinate(idx[ax], in_x, out_x, !linear, xlo, xhi, fx);
    if (!linear) {
      o[bo + i] = x[base + ylo * sy + xlo * sx];
      continue;
    }
    const A_T v00 = x[base + ylo * sy + xlo * sx], v01 = x[base + ylo * sy + xhi * sx];
    const A_T v10 = x[base + yhi * sy + xlo * sx], v11 = x[base + yhi * sy + xhi * sx];
    const int64_t dy = 2l * int64_t(out_y), dx = 2l * int64_t(out_x);
#if defined(A_FLOAT)
    o[bo + i] = A_T(LerpFloat(float(v00), float(v01), float(v10), float(v11), fx, dx, fy, dy));
#else
    const int64_t gx = dx - fx, gy = dy - fy;
    const int64_t sum = int64_t(v00) * gx * gy + int64_t(v01) * fx * gy + int64_t(v10) * gx * fy +
                        int64_t(v11) * fx * fy;
    const int64_t b = dx * dy;
    int64_t q = FloorDiv(sum, b);
    const int64_t twice_remainder = 2l * (sum - q * b);
    if (twice_remainder > b || (twice_remainder == b && (q & 1l) != 0l)) q += 1l;
    o[bo + i] = A_T(int(q));
#endif
  }
}
