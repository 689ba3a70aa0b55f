// Float-float ("double-float") arithmetic shared by softmax, pool2d, the
// normalizations and the element-wise math (unary_math.glsl, binary_math.glsl):
// the float64 reference's rounding without shaderFloat64 (a value is a vec2
// (hi, lo), ~2^-44 relative).
#ifndef FLOAT_FLOAT_GLSL
#define FLOAT_FLOAT_GLSL

// x / y rounded to nearest, as the reference's division. Vulkan bounds float
// division only to 2.5 ULP, for |y| in [2^-126, 2^126], and lets a compiler
// treat it as x * (1 / y): on an H100 a quotient of 3.0e-38 came out 0, 1 / 2.9e-39
// came out infinite, and chains such as e / (1 / y) rounded differently fused and unfused.
// So: scale y into range by a power of two (exact; a quotient the scaling
// moves out of range, x * 2^24 infinite or x / 4 denormal, is out of range
// unscaled too), take the device's quotient q, and correct it once with the
// exact residual x - q * y (TwoProduct, below): q + residual / y is the
// rounded quotient but in rare near-halfway cases, whatever q's first
// rounding was. Past 2^100 the split in TwoProduct could overflow: there the
// device's quotient stands.
void TwoProduct(float a, float b, out float hi, out float lo);
float DivIeee(float x, float y) {
  const float ay = abs(y);
  if (ay > 8.50705917e37) {  // 2^126
    x *= 0.25;
    y *= 0.25;
  } else if (ay < 1.17549435e-38 && ay != 0.0) {  // denormal y
    x *= 16777216.0;  // 2^24
    y *= 16777216.0;
  }
  precise float q = x / y;
  if (!(abs(q) < 1.26765060e30 && abs(y) < 1.26765060e30 && abs(q) > 1.0e-30 && abs(y) > 1.0e-30)) return q;
  float p, e;
  TwoProduct(q, y, p, e);
  precise float r = (x - p) - e;
  precise float corrected = q + r / y;
  return corrected;
}

// ---- float-float arithmetic (value = x + y): lavapipe's fma() is not fused
// and it reassociates unless told, so products split (Dekker, 4097) and every
// rounding-sensitive step is `precise`.
void TwoSum(float a, float b, out float s, out float e) {
  precise float ss = a + b;
  precise float bb = ss - a;
  precise float ee = (a - (ss - bb)) + (b - bb);
  s = ss;
  e = ee;
}
vec2 FastTwoSum(float a, float b) {
  precise float s = a + b;
  precise float e = b - (s - a);
  return vec2(s, e);
}
void TwoProduct(float a, float b, out float hi, out float lo) {
  precise float p = a * b;
  precise float ca = 4097.0 * a;
  precise float ah = ca - (ca - a);
  precise float al = a - ah;
  precise float cb = 4097.0 * b;
  precise float bh = cb - (cb - b);
  precise float bl = b - bh;
  precise float e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  hi = p;
  lo = e;
}
// The same as vec2 (hi, lo).
vec2 TwoSum(float a, float b) {
  float s, e;
  TwoSum(a, b, s, e);
  return vec2(s, e);
}
vec2 TwoProduct(float a, float b) {
  float p, e;
  TwoProduct(a, b, p, e);
  return vec2(p, e);
}
vec2 FFAdd(vec2 a, vec2 b) {
  float s, e;
  TwoSum(a.x, b.x, s, e);
  precise float t = e + (a.y + b.y);
  return FastTwoSum(s, t);
}
vec2 FFMulF(vec2 a, float b) {
  float p, e;
  TwoProduct(a.x, b, p, e);
  precise float t = e + a.y * b;
  return FastTwoSum(p, t);
}
vec2 FFMul(vec2 a, vec2 b) {
  float p, e;
  TwoProduct(a.x, b.x, p, e);
  precise float t = e + (a.x * b.y + a.y * b.x);
  return FastTwoSum(p, t);
}
// a / b, b a float pair with b.x != 0.
vec2 FFDiv(vec2 a, vec2 b) {
  const float q1 = a.x / b.x;
  const vec2 r = FFAdd(a, -FFMulF(b, q1));
  const float q2 = r.x / b.x;
  const vec2 r2 = FFAdd(r, -FFMulF(b, q2));
  const float q3 = r2.x / b.x;
  return FFAdd(FastTwoSum(q1, q2), vec2(q3, 0.0));
}
vec2 FFDivF(vec2 a, float b) { return FFDiv(a, vec2(b, 0.0)); }
// sqrt(a), a.x >= 0 finite.
vec2 FFSqrt(vec2 a) {
  if (a.x <= 0.0) return vec2(sqrt(a.x), 0.0);
  const float s = sqrt(a.x);
  float p, e;
  TwoProduct(s, s, p, e);
  const vec2 r = FFAdd(a, -vec2(p, e));
  precise float c = r.x / (2.0 * s);
  return FastTwoSum(s, c);
}
// x * 2^k for k in [-252, 254]: two normal powers of two, so a subnormal
// result rounds once.
float Scale2(float x, int k) {
  const int k1 = k >> 1;
  const int k2 = k - k1;
  return x * uintBitsToFloat(uint(k1 + 127) << 23) * uintBitsToFloat(uint(k2 + 127) << 23);
}
// The unbiased exponent of |x| (finite, nonzero; subnormals give -127).
int Exponent(float x) { return int((floatBitsToUint(x) >> 23) & 0xffu) - 127; }
// ---- end float-float
#endif  // FLOAT_FLOAT_GLSL
