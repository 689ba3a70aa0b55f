// Shared by gru.comp and lstm.comp (after common.glsl): the gate activations
// and the input projection of every step, which does not depend on the
// recurrent state and so runs once per chunk of steps, in parallel over all of
// them, instead of inside the serial step loop.
//
// Activation codes (MLRecurrentNetworkActivation order): 0 relu, 1 sigmoid, 2 tanh.
// sigmoid and tanh are the element-wise ops' (unary_math.glsl: exp by range
// reduction, not GLSL's, which has no precision guarantee and whose tanh
// built on exp(2x) overflows to NaN; tanh(-0) = -0 like the reference's
// std::tanh); relu is the reference's for recurrent networks: NaN stays NaN
// and -0 becomes +0 (x > 0 ? x : 0), unlike the relu op, which keeps -0.
#include "unary_math.glsl"
#define kNegZero uintBitsToFloat(0x80000000u)

float Activate(uint code, float x) {
  if (code == 0u) return isnan(x) || x > 0.0 ? x : 0.0;
  if (code == 1u) return SigmoidF(x);
  return TanhF(x);
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
