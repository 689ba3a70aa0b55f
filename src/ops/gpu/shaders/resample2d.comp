#version 450
// resample2d, one output element per invocation (-DA_F32/F16/I8/U8), with the
// reference's exact half-pixel mapping (src/ops/reference/resample2d.cc): the
// input coordinate of output o is num / den with
//   num = clamp((2o + 1) * in - out, 0, (in - 1) * den),  den = 2 * out,
// in 64-bit integers, so nearest's ceil(coordinate - 1/2) is exact (ties pick
// the smaller index) and linear weights are exact fractions. Linear on floats
// interpolates in float; on int8/uint8 it is the exact rational result
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
    const float tx = float(fx) / float(dx), ty = float(fy) / float(dy);
    const float vy0 = float(v00) * (1.0 - tx) + float(v01) * tx;
    const float vy1 = float(v10) * (1.0 - tx) + float(v11) * tx;
    o[bo + i] = A_T(vy0 * (1.0 - ty) + vy1 * ty);
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
