#version 450
// The ten reductions, one variant per input data type (-DA_<T>). Semantics of
// the reference (src/ops/reference/reduce.cc): floats accumulate in float32
// (float16 too) and round once at the store; sums are compensated (Neumaier),
// since the reference sums in float64 and a plain float32 sum of random data
// cancelling towards 0 was seen hundreds of ulp off; NaN wins max/min;
// reduceLogSumExp subtracts the window maximum and returns it as is when it is
// NaN or infinite. Where float64 has the range float32 lacks: products keep
// (mantissa, exponent) pairs, and a sum, mean, L2 or logSum that comes out
// Infinity or NaN is summed again with its inputs scaled down (Rescue()).
// The logs take the sum's compensation as log(hi + lo) ~ log(hi) + lo / hi,
// and exp and log are accurate ones (ExpF, LogF of exp_log.glsl), not GLSL's. Integers accumulate in their own width (8-bit inputs in 32
// bits): wrapping sums and products are the same modulo 2^N as the
// reference's exact 64-bit arithmetic wrapped at the store.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) rows (output elements), P(1) count (elements per window), P(2) op,
// P(3) 1: a workgroup per row, 0: a thread per row,
// P(4) kept loops, P(5..12) their sizes, P(13..20) their input strides,
// P(21) window loops, P(22..29) sizes, P(30..37) strides.
const uint kL1 = 0, kL2 = 1, kLogSum = 2, kLogSumExp = 3, kMax = 4, kMean = 5, kMin = 6, kProduct = 7,
           kSum = 8, kSumSquare = 9;

// Partial results: floats carry (sum, compensation) pairs, the value being
// their sum; max, min and product use .x only.
#if defined(A_FLOAT)
#define ACC vec2
ACC AccOf(float v) { return vec2(v, 0.0); }
float Value(ACC a) {
  if (isinf(a.x) || isnan(a.x)) return a.x;
  precise float v = a.x + a.y;
  return v;
}
#else
#define ACC A_CT
ACC AccOf(A_CT v) { return v; }
A_CT Value(ACC a) { return a; }
#endif
shared ACC partial[256];

uint RowBase(uint r) {
  uint off = 0u;
  for (int d = int(P(4)) - 1; d >= 0; --d) {
    const uint n = P(5 + d);
    off += (r % n) * P(13 + d);
    r /= n;
  }
  return off;
}

uint WindowOffset(uint k) {
  if (P(21) == 1u) return k * P(30);
  uint off = 0u;
  for (int d = int(P(21)) - 1; d >= 0; --d) {
    const uint n = P(22 + d);
    off += (k % n) * P(30 + d);
    k /= n;
  }
  return off;
}

A_CT Lowest() {
#if defined(A_FLOAT)
  return uintBitsToFloat(0xff800000u);
#elif defined(A_UINT)
  return A_CT(0);
#elif defined(A_64BIT)
  return A_CT(0x8000000000000000ul);
#elif defined(A_I8)
  return A_CT(-128);
#else
  return A_CT(0x80000000u);
#endif
}

A_CT Highest() {
#if defined(A_FLOAT)
  return uintBitsToFloat(0x7f800000u);
#elif defined(A_64BIT) && defined(A_SINT)
  return A_CT(0x7ffffffffffffffful);
#elif defined(A_64BIT)
  return A_CT(0xfffffffffffffffful);
#elif defined(A_U8)
  return A_CT(255);
#elif defined(A_I8)
  return A_CT(127);
#elif defined(A_SINT)
  return A_CT(0x7fffffff);
#else
  return A_CT(0xffffffffu);
#endif
}

ACC Identity(uint op) {
  if (op == kMax) return AccOf(Lowest());
  if (op == kMin) return AccOf(Highest());
  if (op == kProduct) return AccOf(A_CT(1));
  return AccOf(A_CT(0));
}

// Combines two partial results; `a` covers earlier elements than `b` only in
// the thread-per-row loop, which is why ties keep `a` (first wins there).
ACC Combine(uint op, ACC a, ACC b) {
#if defined(A_FLOAT)
  if (op == kMax || op == kMin) {
    if (isnan(a.x)) return a;
    if (isnan(b.x)) return b;
    return (op == kMax ? b.x > a.x : b.x < a.x) ? b : a;
  }
  if (op == kProduct) {
    // (mantissa, exponent): a float32 running product overflows where the
    // reference's float64 one comes back into range (-2.7e38 was -Inf).
    precise float m = a.x * b.x;
    precise float e = a.y + b.y;
    if (m != 0.0 && !isinf(m) && !isnan(m)) {
      int k;
      m = frexp(m, k);
      e += float(k);
    }
    return vec2(m, e);
  }
  // Neumaier: the rounding error of a.x + b.x, exact unless the sum is not
  // finite (then the error terms would turn an Infinity into NaN). `precise`:
  // lavapipe otherwise folds the error terms and the isinf test away.
  precise float sum = a.x + b.x;
  if (isinf(sum) || isnan(sum)) return vec2(sum, 0.0);
  precise float err = abs(a.x) >= abs(b.x) ? (a.x - sum) + b.x : (b.x - sum) + a.x;
  precise float comp = a.y + b.y + err;
  return vec2(sum, comp);
#else
  if (op == kMax) return b > a ? b : a;
  if (op == kMin) return b < a ? b : a;
  if (op == kProduct) return a * b;
  return a + b;
#endif
}

#if defined(A_FLOAT)
#include "exp_log.glsl"  // ExpF, LogF (within about 1 ulp), Scale2, kInf

// Inputs are multiplied by g_scale before they are summed (squared): 1, or a
// power of two when the plain float32 sum overflowed where the reference's
// float64 one need not (reduceL2 of values near 1e38: 3e38, not Infinity).
float g_scale = 1.0;

// log(hi + lo) of a compensated sum: the rounding of hi + lo costs hundreds of
// ulp where the result is near 0 (sums near 1), so its remainder is added as
// its first-order term.
float PairLog(ACC a) {
  if (isinf(a.x) || isnan(a.x) || a.x <= 0.0) return LogF(Value(a));
  precise float hi = a.x + a.y;
  precise float lo = a.y - (hi - a.x);
  if (hi <= 0.0) return LogF(hi);
  precise float r = LogF(hi) + lo / hi;
  return r;
}

#endif

// The per-element term; `shift` is the window maximum for reduceLogSumExp.
ACC Map(uint op, A_CT v, A_CT shift) {
  if (op == kL1) {
#if defined(A_SINT)
    return v < A_CT(0) ? -v : v;
#elif defined(A_FLOAT)
    return AccOf(abs(v));
#else
    return v;
#endif
  }
#if defined(A_FLOAT)
  if (op == kL2) {
    const float w = v * g_scale;
    return AccOf(w * w);
  }
  if (op == kMean || op == kLogSum || op == kSum) return AccOf(v * g_scale);
#endif
  if (op == kL2 || op == kSumSquare) return AccOf(v * v);
#if defined(A_FLOAT)
  if (op == kLogSumExp) return AccOf(ExpF(v - shift));
#endif
  return AccOf(v);
}

A_CT Load(uint i) { return A_CT(x[BASE(1) + i]); }

// The window of `base` folded with `op`, elements start, start + step, ...
ACC Accumulate(uint op, uint base, uint start, uint step, A_CT shift) {
  const uint count = P(1);
  ACC acc = Identity(op);
  for (uint k = start; k < count; k += step) acc = Combine(op, acc, Map(op, Load(base + WindowOffset(k)), shift));
  return acc;
}

ACC WorkgroupCombine(uint op, ACC v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid] = Combine(op, partial[lid], partial[lid + s]);
    barrier();
  }
  const ACC r = partial[0];
  barrier();
  return r;
}

A_CT Finish(uint op, ACC acc, A_CT shift) {
#if defined(A_FLOAT)
  // .x alone where no compensation was kept: adding 0 would turn -0 into +0.
  if (op == kMax || op == kMin) return acc.x;
  if (op == kProduct) {
    if (acc.x == 0.0 || isinf(acc.x) || isnan(acc.x)) return acc.x;
    // m * 2^e, m in [0.5, 1): Infinity above 2^128, a rounded subnormal or 0
    // far below.
    const float e = clamp(acc.y, -300.0, 300.0);
    if (e > 128.0) return acc.x * kInf;
    if (e < -160.0) return acc.x * 0.0;
    return Scale2(acc.x, int(e));
  }
  if (op == kLogSumExp) {
    precise float r = shift + PairLog(acc);
    return r;
  }
  if (op == kLogSum) {
    // g_scale 2^-64: log(sum) = log(scaled sum) + 64 log(2).
    if (g_scale != 1.0) return PairLog(acc) + 44.361419555836499802702855773;
    return PairLog(acc);
  }
  const float v = Value(acc);
  if (op == kL2) return sqrt(v) / g_scale;
  if (op == kMean) return (v / float(P(1))) / g_scale;
  return v / g_scale;
#else
  return acc;
#endif
}

// Whether `r` may have overflowed in float32 where the reference's float64
// sum did not: then the window is summed again scaled down, which no window
// of float32 values overflows (an Infinity or NaN of the inputs stays; an
// overflow followed by an opposite Infinity was NaN, not that Infinity).
bool Rescue(uint op, A_CT r) {
#if defined(A_FLOAT)
  if (!isinf(r) && !isnan(r)) return false;
  if (op == kL2) g_scale = 1.0 / 1208925819614629174706176.0;  // 2^-80
  else if (op == kMean) g_scale = 1.0 / 4294967296.0;  // 2^-32
  else if (op == kSum) g_scale = 1.0 / 18446744073709551616.0;  // 2^-64
  else if (op == kLogSum) g_scale = 1.0 / 18446744073709551616.0;  // 2^-64
  else return false;
  return true;
#else
  return false;
#endif
}

bool ShiftIsResult(A_CT m) {
#if defined(A_FLOAT)
  return isnan(m) || isinf(m);
#else
  return false;
#endif
}

// The op code as a specialization constant (P(2) carries it too): the
// pipeline compiler keeps the one case of each switch it selects.
layout(constant_id = 0) const uint kOpCode = 0;

void main() {
  const uint rows = P(0), op = kOpCode;
  const uint bo = BASE(2);
  const uint reduce_op = op == kLogSumExp ? kSum : op;
  if (P(3) == 0u) {
    GRID_STRIDE_LOOP(r, rows) {
      const uint base = RowBase(r);
      A_CT shift = A_CT(0);
      if (op == kLogSumExp) {
        shift = Finish(kMax, Accumulate(kMax, base, 0u, 1u, A_CT(0)), A_CT(0));
        if (ShiftIsResult(shift)) {
          o[bo + r] = A_T(shift);
          continue;
        }
      }
      // reduceLogSumExp sums its terms: Combine() knows it as a sum.
      const uint count = P(1);
      A_CT result;
      for (int pass = 0; pass < 2; ++pass) {
        ACC acc = Identity(reduce_op);
        for (uint k = 0u; k < count; ++k)
          acc = Combine(reduce_op, acc, Map(op, Load(base + WindowOffset(k)), shift));
        result = Finish(op, acc, shift);
        if (pass == 1 || !Rescue(op, result)) break;
      }
#if defined(A_FLOAT)
      g_scale = 1.0;
#endif
      o[bo + r] = A_T(result);
    }
    return;
  }
  const uint lid = gl_LocalInvocationID.x;
  for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
    const uint base = RowBase(r);
    A_CT shift = A_CT(0);
    if (op == kLogSumExp) {
      shift = Finish(kMax, WorkgroupCombine(kMax, Accumulate(kMax, base, lid, 256u, A_CT(0))), A_CT(0));
      if (ShiftIsResult(shift)) {
        if (lid == 0u) o[bo + r] = A_T(shift);
        continue;
      }
    }
    // Every thread finishes the broadcast total: the rescue pass is uniform.
    A_CT result;
    for (int pass = 0; pass < 2; ++pass) {
      ACC acc = Identity(reduce_op);
      for (uint k = lid; k < P(1); k += 256u)
        acc = Combine(reduce_op, acc, Map(op, Load(base + WindowOffset(k)), shift));
      acc = WorkgroupCombine(reduce_op, acc);
      result = Finish(op, acc, shift);
      if (pass == 1 || !Rescue(op, result)) break;
    }
#if defined(A_FLOAT)
    g_scale = 1.0;
#endif
    if (lid == 0u) o[bo + r] = A_T(result);
  }
}
