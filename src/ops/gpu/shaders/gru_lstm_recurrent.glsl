// Shared by gru.comp and lstm.comp (after common.glsl): the gate activations
// and the input projection of every step, which does not depend on the
// recurrent state and so runs once per chunk of steps, in parallel over all of
// them, instead of inside the serial step loop.
//
// Activation codes (MLRecurrentNetworkActivation order): 0 relu, 1 sigmoid, 2 tanh.
// exp is the range-reduced polynomial of elementwise_unary.comp: GLSL's exp
// has no precision guarantee, and tanh built on exp(2x) overflows to NaN.

const float kLog2E = 1.442695040888963407359924681;
// log(2) = kLn2Hi + kLn2Lo; kLn2Hi has 15 significant bits, so q * kLn2Hi is
// exact for |q| < 2^9.
const float kLn2Hi = 0.693145751953125;
const float kLn2Lo = 1.428606765330187045e-6;
#define kNegZero uintBitsToFloat(0x80000000u)

// x * 2^k for k in [-252, 254] as two normal powers of two (a subnormal result
// is rounded once).
float Scale2(float x, int k) {
  const int k1 = k >> 1;
  const int k2 = k - k1;
  return x * uintBitsToFloat(uint(k1 + 127) << 23) * uintBitsToFloat(uint(k2 + 127) << 23);
}

// e^r - 1 for |r| <= log(2)/2 + a little: Taylor to r^8.
float Expm1Poly(float r) {
  float p = 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  return r + r * r * p;
}

float ExpF(float x) {
  if (isnan(x)) return x;
  // e^-104 rounds to 0 and e^100 to Inf; the clamp keeps q in [-150, 145].
  const float xc = clamp(x, -104.0, 100.0);
  const float q = roundEven(xc * kLog2E);
  precise float r = xc - q * kLn2Hi;
  r = r - q * kLn2Lo;
  return Scale2(Expm1Poly(r) + 1.0, int(q));
}

float Expm1F(float x) {
  if (isnan(x)) return x;
  if (abs(x) < 0.34657359) return Expm1Poly(x);
  return ExpF(x) - 1.0;
}

float Activate(uint code, float x) {
  if (isnan(x)) return x;
  if (code == 0u) return x > 0.0 ? x : 0.0;
  if (code == 1u) {
    // e = e^-|x|; e * r for x < 0 underflows gradually.
    const float e = ExpF(-abs(x));
    const float r = 1.0 / (1.0 + e);
    return x < 0.0 ? e * r : r;
  }
  // tanh(a) = e / (e + 2) with e = e^(2a) - 1; it rounds to 1 above 9.01.
  const float ax = min(abs(x), 9.5);
  const float e = Expm1F(2.0 * ax);
  const float y = e / (e + 2.0);
  return x < 0.0 ? -y : y;
}

#if defined(RECURRENT_PRECOMPUTE)
// xw[sl][dir][b][row] = W[dir][row] . x[t][b] for the steps s0 + sl of a chunk,
// t the input time that step s of direction dir consumes.
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) readonly buffer W { A_T w[]; };
layout(std430, binding = 3) writeonly buffer XW { float xw[]; };

// P(0) n = chunk steps * dirs * batch * gate rows, P(1) s0, P(2) steps,
// P(3) dirs, P(4) batch, P(5) input size, P(6) gate rows, P(7) 1 when the only
// direction is backward.
void main() {
  const uint n = P(0), s0 = P(1), steps = P(2), dirs = P(3), batch = P(4), input_size = P(5), rows = P(6);
  const uint bx = BASE(1), bw = BASE(2), bo = BASE(3);
  GRID_STRIDE_LOOP(i, n) {
    const uint row = i % rows;
    uint rest = i / rows;
    const uint b = rest % batch;
    rest /= batch;
    const uint dir = rest % dirs;
    const uint s = s0 + rest / dirs;
    const uint t = (dir == 1u || P(7) != 0u) ? steps - 1u - s : s;
    const uint wrow = bw + (dir * rows + row) * input_size;
    const uint xrow = bx + (t * batch + b) * input_size;
    float sum = kNegZero;  // keeps a sum of -0 terms -0, as the reference
    for (uint k = 0; k < input_size; ++k) sum = fma(float(w[wrow + k]), float(x[xrow + k]), sum);
    xw[bo + i] = sum;
  }
}
#endif
