#version 450
// fusedNormalization (src/ops/fused_normalization.h), float32 and float16
// (-DA_<T>): RMSNorm or layerNorm of each row (the trailing window), of
// x = input + residual where there is a residual, as the cpu kernel
// (src/ops/cpu/fused_normalization.cc) computes it:
//   1. x rounded to the data type, as the unfused add stores it (and written
//      to the sum output when there is one; later passes add again rather
//      than read it back);
//   2. the moments without float64 (shaderFloat64 is optional), as
//      normalization.comp computes them: the row scaled by a power of two
//      that brings its largest magnitude near 1 (epsilon by its square), so
//      squares neither overflow nor underflow, then the mean and the mean of
//      squared deviations (two passes, no cancellation) as float pairs
//      (~2^-44 relative);
//   3. y = (x - mean) * inv * scale + bias in float32, one rounding per op as
//      the written-out graph's float32 ops, with mean and
//      inv = 1 / sqrt(variance + epsilon) rounded to float32.
// A NaN gives a row of NaN, as does an infinity in layerNorm's mean; an
// infinity in RMSNorm's squares gives inv = 0, x * 0. With `as_written`,
// where the written-out graph's squares overflow the data type, its variance
// is Inf and it divides by Inf: y = (x - mean) * 0, NaN where x - mean itself
// overflowed (float16 past 65520), then * scale + bias.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) readonly buffer Residual { A_T residual[]; };
layout(std430, binding = 3) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 4) readonly buffer Bias { A_T bias[]; };
layout(std430, binding = 5) writeonly buffer O { A_T o[]; };
layout(std430, binding = 6) writeonly buffer Sum { A_T sum_out[]; };

// The node's form, fixed per pipeline: bit 0 residual, 1 sum output, 2 scale,
// 3 bias, 4 RMSNorm, 5 as_written.
layout(constant_id = 0) const uint kForm = 0u;
const bool kResidual = (kForm & 1u) != 0u;
const bool kSumOutput = (kForm & 2u) != 0u;
const bool kScale = (kForm & 4u) != 0u;
const bool kBias = (kForm & 8u) != 0u;
const bool kRms = (kForm & 16u) != 0u;
const bool kAsWritten = (kForm & 32u) != 0u;

// P(0) rows, P(1) count (elements per row), P(2) 1: a workgroup per row,
// 0: a thread per row, P(3), P(4) epsilon as a float pair (float bits).
shared vec4 partial[256];

#include "float_float.glsl"

#if defined(A_F16)
const float kMaxFinite = 65504.0;
#else
const float kMaxFinite = 3.40282347e38;
#endif

float Load(uint i) {
  const float v = float(x[BASE(1) + i]);
  if (!kResidual) return v;
  precise float s = v + float(residual[BASE(2) + i]);
  return float(A_T(s));
}

// fmax: a NaN operand loses.
float FMax(float a, float b) { return b > a ? b : a; }

// (max x, max -x, 1 if any NaN) of the workgroup's partial results.
vec3 WorkgroupExtremes(vec3 v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid].xyz = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) {
      const vec3 a = partial[lid].xyz, b = partial[lid + s].xyz;
      partial[lid].xyz = vec3(FMax(a.x, b.x), FMax(a.y, b.y), max(a.z, b.z));
    }
    barrier();
  }
  const vec3 r = partial[0].xyz;
  barrier();
  return r;
}

#include "workgroup_sum.glsl"

// a > b for a float pair a.
bool Exceeds(vec2 a, float b) { return a.x > b || (a.x == b && a.y > 0.0); }

// Row r's mean and inv (float32) for a row of finite values whose extremes
// are e = (max x, max -x); `saturate` when the written-out graph's squares
// overflow there.
void Moments(uint r, uint lane, uint lanes, vec2 e, out float mean, out float inv, out bool saturate) {
  const uint n = P(1), row = r * n;
  const vec2 epsilon = vec2(PF(3), PF(4));
  // The scale exponent k: the largest magnitude near 1, epsilon * 2^(2k)
  // finite (and within Scale2's range).
  const float amax = max(e.x, e.y);
  int k = amax > 0.0 ? -Exponent(amax) : 127;
  if (epsilon.x > 0.0) k = min(k, (100 - Exponent(epsilon.x)) / 2);
  k = clamp(k, -126, 126);
  // The count as a float pair: exact past 2^24.
  const float fn = float(n);
  const vec2 count = vec2(fn, float(int(n - uint(fn))));
  vec2 m = vec2(0.0);  // the scaled mean; 0 for RMSNorm
  if (!kRms) {
    vec2 s = vec2(0.0);
    for (uint i = lane; i < n; i += lanes) s = FFAdd(s, vec2(Scale2(Load(row + i), k), 0.0));
    if (lanes > 1u) s = WorkgroupSum(s);
    m = FFDiv(s, count);
  }
  vec2 q = vec2(0.0);
  for (uint i = lane; i < n; i += lanes) {
    const vec2 d = FFAdd(vec2(Scale2(Load(row + i), k), 0.0), -m);
    q = FFAdd(q, FFMul(d, d));
  }
  if (lanes > 1u) q = WorkgroupSum(q);
  mean = Scale2(m.x + m.y, -k);
  // variance + epsilon, scaled by 2^(2k). A row of equal values (of zeros
  // for RMSNorm) has only epsilon, unscaled: epsilon * 2^(2k) may underflow
  // where the row's magnitude is large (a nonzero variance there dwarfs it).
  const bool no_spread = q.x == 0.0;
  const int kv = no_spread ? 0 : k;
  const vec2 v =
      no_spread ? epsilon : FFAdd(FFDiv(q, count), vec2(Scale2(epsilon.x, 2 * k), Scale2(epsilon.y, 2 * k)));
  if (v.x == 0.0) {
    inv = uintBitsToFloat(0x7f800000u);  // 1 / sqrt(0)
  } else {
    const vec2 t = FFDiv(vec2(1.0, 0.0), FFSqrt(v));  // NaN for a negative epsilon's negative v
    inv = Scale2(t.x + t.y, kv);
  }
  // The written-out graph's squares overflow where their sum and the
  // largest, max |x - mean|^2, exceed the type's largest finite value.
  const float limit = Scale2(kMaxFinite, 2 * k);
  const vec2 above = FFAdd(vec2(Scale2(e.x, k), 0.0), -m), below = FFAdd(m, vec2(Scale2(e.y, k), 0.0));
  const vec2 far = Exceeds(above, below.x) ? above : below;
  saturate = kAsWritten && !isnan(inv) && Exceeds(q, limit) && Exceeds(FFMul(far, far), limit);
  if (saturate) inv = 0.0;
}

// Row r, its elements i = lane, lane + lanes, ...: a workgroup's (lanes 256)
// or one invocation's (lanes 1).
void Row(uint r, uint lane, uint lanes) {
  const uint n = P(1), row = r * n;
  const float inf = uintBitsToFloat(0x7f800000u), nan = uintBitsToFloat(0x7fc00000u);
  vec3 e = vec3(-inf, -inf, 0.0);
  for (uint i = lane; i < n; i += lanes) {
    const float v = Load(row + i);
    if (kSumOutput) sum_out[BASE(6) + row + i] = A_T(v);
    e = vec3(FMax(e.x, v), FMax(e.y, -v), isnan(v) ? 1.0 : e.z);
  }
  if (lanes > 1u) e = WorkgroupExtremes(e);
  const bool infinite = isinf(e.x) || isinf(e.y);
  float mean = 0.0, inv = 0.0;  // RMSNorm of an infinity: mean(x^2) = Inf, inv = 0
  bool saturate = false;
  if (e.z != 0.0 || (infinite && !kRms)) {
    mean = nan;
    inv = nan;
  } else if (!infinite) {
    Moments(r, lane, lanes, e.xy, mean, inv, saturate);
  }
  for (uint i = lane; i < n; i += lanes) {
    precise float c = Load(row + i) - mean;
#if defined(A_F16)
    // The written-out graph's float16 difference rounds to Inf from 65520
    // (a float32 one is Inf here already).
    if (saturate && abs(c) >= 65520.0) c = inf;
#endif
    precise float y = c * inv;
    if (kScale) y = y * float(scale[BASE(3) + i]);
    if (kBias) y = y + float(bias[BASE(4) + i]);
    o[BASE(5) + row + i] = A_T(y);
  }
}

void main() {
  const uint rows = P(0);
  if (P(2) == 0u) {
    GRID_STRIDE_LOOP(r, rows) Row(r, 0u, 1u);
    return;
  }
  for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) Row(r, gl_LocalInvocationID.x, 256u);
}
