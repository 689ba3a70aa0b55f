#version 450
// instanceNormalization and layerNormalization, float32/float16 (-DA_<T>)
// computed in float32. For every row (an index of the kept axes): the window's
// mean, then the mean of squared deviations (two passes, as the reference, so
// no cancellation), then (x - mean) / sqrt(variance + epsilon) * scale + bias.
//
// Precision (WPT: layerNorm 14 ULP, instanceNorm 840; inputs far from zero,
// bias cancelling the product): sums, mean, deviations, variance, the square
// root, the quotient and the affine step are float pairs (~2^-44 relative),
// rounded once at the end. The window is first scaled by a power of two that
// brings its largest magnitude near 1 (epsilon by its square), so squares
// neither overflow nor underflow; the quotient is scale-free. A window with a
// NaN or an Infinity gives NaN, as the reference's float64 arithmetic does.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 3) readonly buffer Bias { A_T bias[]; };
layout(std430, binding = 4) writeonly buffer O { A_T o[]; };

// P(0) rows, P(1) count (elements per window), P(2) 1: a workgroup per row,
// 0: a thread per row, P(3) bit 0: scale given, bit 1: bias given,
// P(4) epsilon (float bits),
// P(5) kept loops, P(6..13) sizes, P(14..21) input strides, P(22..29) scale strides,
// P(30) window loops, P(31..38) sizes, P(39..46) input strides, P(47..54) scale strides.
shared vec2 partial[256];

#include "float_float.glsl"

// (input offset, scale/bias offset) of element i of the loops at word w.
uvec2 Offsets(uint w, uint i) {
  const uint loops = P(w);
  if (loops == 1u) return uvec2(i * P(w + 9), i * P(w + 17));
  uvec2 off = uvec2(0u);
  for (int d = int(loops) - 1; d >= 0; --d) {
    const uint n = P(w + 1 + d);
    const uint c = i % n;
    off += c * uvec2(P(w + 9 + d), P(w + 17 + d));
    i /= n;
  }
  return off;
}

float Load(uint i) { return float(x[BASE(1) + i]); }

// max |v| of the window, or +Infinity when it holds a NaN or an Infinity.
float AbsMax(float m, float v) { return (isnan(v) || isinf(v)) ? uintBitsToFloat(0x7f800000u) : max(m, abs(v)); }

float WorkgroupMax(float v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = vec2(v, 0.0);
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid].x = max(partial[lid].x, partial[lid + s].x);
    barrier();
  }
  const float r = partial[0].x;
  barrier();
  return r;
}

#include "workgroup_sum.glsl"

// The scale exponent k for a window whose largest magnitude is amax (finite).
int ScaleExponent(float amax, float epsilon) {
  int k = amax > 0.0 ? -Exponent(amax) : 127;
  // epsilon * 2^(2k) must stay finite (and within Scale2's range).
  if (epsilon > 0.0) k = min(k, (100 - Exponent(epsilon)) / 2);
  return clamp(k, -126, 126);
}

void AddTo(inout vec2 s, vec2 t) {
  float h, e;
  TwoSum(s.x, t.x, h, e);
  s = vec2(h, s.y + (e + t.y));
}

// (x * 2^k - mean), a float pair.
vec2 Deviation(float v, int k, vec2 mean) {
  float h, l;
  TwoSum(Scale2(v, k), -mean.x, h, l);
  return FastTwoSum(h, l - mean.y);
}

void Normalize(uint start, uint step, uvec2 base, int k, vec2 mean, vec2 stddev, bool bad) {
  const uint count = P(1), flags = P(3);
  for (uint kk = start; kk < count; kk += step) {
    const uvec2 off = base + Offsets(30u, kk);
    float v = uintBitsToFloat(0x7fc00000u);
    if (!bad) {
      vec2 q = FFDiv(Deviation(Load(off.x), k, mean), stddev);
      if ((flags & 1u) != 0u) q = FFMulF(q, float(scale[BASE(2) + off.y]));
      if ((flags & 2u) != 0u) q = FFAdd(q, vec2(float(bias[BASE(3) + off.y]), 0.0));
      v = q.x + q.y;
    }
    o[BASE(4) + off.x] = A_T(v);
  }
}

// Variance + epsilon (scaled by 2^(2k)) -> standard deviation; bad when not
// positive finite. A row of equal values has deviations of exactly 0 and only
// epsilon, unscaled: scaled, it may underflow to 0 where the row's magnitude
// is large (0 / 0), while any positive standard deviation gives the 0 the
// reference gives.
vec2 StdDev(vec2 squares, float count, float epsilon, int k, out bool bad) {
  bad = false;
  if (squares.x == 0.0 && epsilon > 0.0) return vec2(1.0, 0.0);
  vec2 var = FFDivF(FastTwoSum(squares.x, squares.y), count);
  var = FFAdd(var, vec2(Scale2(epsilon, 2 * k), 0.0));
  bad = !(var.x > 0.0) || isinf(var.x) || isnan(var.x);
  return bad ? vec2(1.0, 0.0) : FFSqrt(var);
}

void main() {
  const uint rows = P(0), count = P(1);
  const float epsilon = PF(4);
  const float fcount = float(count);
  if (P(2) == 0u) {
    GRID_STRIDE_LOOP(r, rows) {
      const uvec2 base = Offsets(5u, r);
      float amax = 0.0;
      for (uint kk = 0u; kk < count; ++kk) amax = AbsMax(amax, Load(base.x + Offsets(30u, kk).x));
      bool bad = isinf(amax);
      const int k = bad ? 0 : ScaleExponent(amax, epsilon);
      vec2 sum = vec2(0.0);
      for (uint kk = 0u; kk < count; ++kk) AddTo(sum, vec2(Scale2(Load(base.x + Offsets(30u, kk).x), k), 0.0));
      const vec2 mean = FFDivF(FastTwoSum(sum.x, sum.y), fcount);
      vec2 squares = vec2(0.0);
      for (uint kk = 0u; kk < count; ++kk) {
        const vec2 d = Deviation(Load(base.x + Offsets(30u, kk).x), k, mean);
        AddTo(squares, FFMul(d, d));
      }
      bool zero;
      const vec2 sd = StdDev(squares, fcount, epsilon, k, zero);
      // A zero variance and epsilon: 0 / 0 (NaN), as the reference.
      Normalize(0u, 1u, base, k, mean, zero ? vec2(0.0) : sd, bad);
    }
    return;
  }
  const uint lid = gl_LocalInvocationID.x;
  for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
    const uvec2 base = Offsets(5u, r);
    float amax = 0.0;
    for (uint kk = lid; kk < count; kk += 256u) amax = AbsMax(amax, Load(base.x + Offsets(30u, kk).x));
    amax = WorkgroupMax(amax);
    bool bad = isinf(amax);
    const int k = bad ? 0 : ScaleExponent(amax, epsilon);
    vec2 sum = vec2(0.0);
    for (uint kk = lid; kk < count; kk += 256u) AddTo(sum, vec2(Scale2(Load(base.x + Offsets(30u, kk).x), k), 0.0));
    sum = WorkgroupSum(FastTwoSum(sum.x, sum.y));
    const vec2 mean = FFDivF(sum, fcount);
    vec2 squares = vec2(0.0);
    for (uint kk = lid; kk < count; kk += 256u) {
      const vec2 d = Deviation(Load(base.x + Offsets(30u, kk).x), k, mean);
      AddTo(squares, FFMul(d, d));
    }
    squares = WorkgroupSum(FastTwoSum(squares.x, squares.y));
    bool zero;
    const vec2 sd = StdDev(squares, fcount, epsilon, k, zero);
    Normalize(lid, 256u, base, k, mean, zero ? vec2(0.0) : sd, bad);
  }
}
