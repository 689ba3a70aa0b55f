#version 450
// cumulativeSum (src/ops/reference/cumulative_sum.cc): each line along the axis
// is scanned (from its end when reversed), storing the running sum before
// (exclusive) or after (inclusive) adding the element. The reference sums
// floats in float64; a float32 sum drifts hundreds of ULPs from it over a few
// thousand elements, more than WPT's 3, so floats accumulate as float pairs
// (hi + lo, error-free additions: about 44 significant bits) and round once.
// Integers wrap (-DA_U32 serves int32 and uint32, -DA_U64 int64 and uint64:
// wrapping addition is the same bits for both signs).
// Two layouts, chosen per shape by cumulative_sum.cc:
//   P(0) == 0  one thread per line, walking it serially: neighbouring threads
//              read neighbouring elements when the axis is not the last one
//   P(0) == 1  one workgroup per line, a shared-memory scan of 256 elements at
//              a time, carrying the sum between chunks: for few long lines
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) layout, P(1) lines, P(2) axis size, P(3) inner size (the axis stride),
// P(4) exclusive, P(5) reversed.

#if defined(A_FLOAT)
#include "float_float.glsl"
#define ACC vec2
#define ACC_ZERO vec2(0.0)
#define ACC_OF(x) vec2(x, 0.0)
#define ACC_STORE(a) A_T((a).x + (a).y)
// float_float's FFAdd (Knuth's TwoSum of the high parts plus the low parts,
// renormalized) where the sum stays finite.
// An infinite hi carries lo 0 when it is an input's Infinity, lo 1 when it is
// a finite sum that overflowed float32 (the reference's float64 sum did not):
// adding an Infinity to the latter gives that Infinity, not NaN.
vec2 AccAdd(vec2 a, vec2 b) {
  precise float s = a.x + b.x;
  if (isinf(s) || isnan(s)) {
    if (isnan(a.x) || isnan(b.x)) return vec2(s, 0.0);
    const bool a_inf = isinf(a.x) && a.y == 0.0, b_inf = isinf(b.x) && b.y == 0.0;
    if (a_inf && b_inf) return vec2(s, 0.0);  // NaN for opposite signs
    if (a_inf) return a;
    if (b_inf) return b;
    return vec2(s, isnan(s) ? 0.0 : 1.0);  // overflow (of both: unknown, NaN)
  }
  const vec2 r = FFAdd(a, b);
  // A finite s may round up to an infinite hi: then lo is the opposite
  // Infinity and hi + lo NaN; the float64 sum rounds to that Infinity too.
  if (isinf(r.x)) return vec2(r.x, 1.0);
  return r;
}
#else
#define ACC A_CT
#define ACC_ZERO A_CT(0)
#define ACC_OF(x) (x)
#define ACC_STORE(a) A_T(a)
A_CT AccAdd(A_CT a, A_CT b) { return a + b; }
#endif

shared ACC partial[256];

void main() {
  const uint lines = P(1), axis = P(2), inner = P(3);
  const bool exclusive = P(4) != 0u, reversed = P(5) != 0u;
  const uint ba = BASE(1), bo = BASE(2);
  if (P(0) == 0u) {
    GRID_STRIDE_LOOP(l, lines) {
      const uint base = (l / inner) * axis * inner + l % inner;
      ACC sum = ACC_ZERO;
      for (uint step = 0u; step < axis; ++step) {
        const uint at = base + (reversed ? axis - 1u - step : step) * inner;
        const ACC x = ACC_OF(A_CT(a[ba + at]));
        if (exclusive) {
          o[bo + at] = ACC_STORE(sum);
          sum = AccAdd(sum, x);
        } else {
          sum = AccAdd(sum, x);
          o[bo + at] = ACC_STORE(sum);
        }
      }
    }
    return;
  }
  const uint t = gl_LocalInvocationID.x;
  for (uint l = gl_WorkGroupID.x; l < lines; l += gl_NumWorkGroups.x) {
    const uint base = (l / inner) * axis * inner + l % inner;
    ACC carry = ACC_ZERO;
    for (uint chunk = 0u; chunk < axis; chunk += 256u) {
      const uint step = chunk + t;
      const uint at = base + (reversed ? axis - 1u - step : step) * inner;
      partial[t] = step < axis ? ACC_OF(A_CT(a[ba + at])) : ACC_ZERO;
      barrier();
      // Hillis-Steele inclusive scan: 8 rounds for 256 elements.
      for (uint d = 1u; d < 256u; d <<= 1) {
        const ACC add = t >= d ? partial[t - d] : ACC_ZERO;
        barrier();
        partial[t] = AccAdd(partial[t], add);
        barrier();
      }
      if (step < axis) {
        const ACC before = t > 0u ? AccAdd(carry, partial[t - 1u]) : carry;
        o[bo + at] = ACC_STORE(exclusive ? before : AccAdd(carry, partial[t]));
      }
      carry = AccAdd(carry, partial[255]);
      barrier();  // partial is rewritten by the next chunk
    }
  }
}
