#version 450
// gru and gruCell (src/ops/reference/gru.cc), one variant per float type and
// part of the plan (src/ops/gpu/gru.cc):
//   GRU_INIT        scratch state half 0 = initial hidden state (or 0)
//   RECURRENT_PRECOMPUTE  W x of a chunk of steps (gru_lstm_recurrent.glsl)
//   GRU_STEP        one time step of every direction
//   GRU_FINAL       the output hidden state from the last state half
// States are carried in float32 in the scratch buffer `state`:
//   h[2][dirs][batch][hidden]  ping-pong halves: step s reads half s & 1 and
//                              writes the other, so no invocation reads what
//                              another one of the same dispatch writes
//   rh[dirs][batch][hidden]    r * h of the step (resetAfter false)
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "gru_lstm_recurrent.glsl"

#if defined(GRU_INIT)
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer H0 { A_T h0[]; };
layout(std430, binding = 2) writeonly buffer State { float state[]; };

// P(0) n = dirs * batch * hidden, P(1) 1 when h0 is given.
void main() {
  const uint n = P(0);
  GRID_STRIDE_LOOP(i, n) state[BASE(2) + i] = P(1) != 0u ? float(h0[BASE(1) + i]) : 0.0;
}

#elif defined(GRU_STEP)
layout(local_size_x = 256) in;
layout(std430, binding = 1) buffer State { float state[]; };
layout(std430, binding = 2) readonly buffer XW { float xw[]; };
layout(std430, binding = 3) readonly buffer R { A_T rw[]; };
layout(std430, binding = 4) readonly buffer Bias { A_T bias[]; };
layout(std430, binding = 5) readonly buffer RBias { A_T rbias[]; };
layout(std430, binding = 6) writeonly buffer Seq { A_T seq[]; };

// P(0) n = dirs * batch * hidden, P(1) step s, P(2) steps, P(3) dirs,
// P(4) batch, P(5) hidden, P(6) flags (1 bias, 2 recurrentBias, 4 sequence,
// 8 the only direction is backward), P(7) mode (0: resetAfter, all gates;
// 1: resetAfter false, r * h into rh; 2: resetAfter false, z, n and h'),
// P(8) activation f, P(9) activation g, P(10) step index within the xw chunk,
// P(11) z row offset, P(12) r row offset (the layout's gate order; n is at 2H).
const uint kFlagBias = 1u, kFlagRBias = 2u, kFlagSequence = 4u, kFlagBackward = 8u;

void main() {
  const uint n = P(0), s = P(1), steps = P(2), dirs = P(3), batch = P(4), hidden = P(5), flags = P(6);
  const uint mode = P(7), act_f = P(8), act_g = P(9), sl = P(10), z_row = P(11), r_row = P(12);
  const uint n_row = 2u * hidden, rows = 3u * hidden;
  const uint bs = BASE(1), bxw = BASE(2), br = BASE(3), bb = BASE(4), brb = BASE(5), bq = BASE(6);
  const uint dstate = dirs * batch * hidden;
  const uint read_half = (s & 1u) * dstate, write_half = ((s & 1u) ^ 1u) * dstate;
  const uint rh_base = 2u * dstate;
  GRID_STRIDE_LOOP(i, n) {
    const uint j = i % hidden;
    const uint b = (i / hidden) % batch;
    const uint dir = i / (hidden * batch);
    const uint h_row = bs + read_half + (dir * batch + b) * hidden;  // h[b][:] of the previous step
    const uint xw_row = bxw + ((sl * dirs + dir) * batch + b) * rows;
    const uint r_base = br + dir * rows * hidden;
    const uint bias_base = dir * rows;
    // (bias + recurrentBias) + (W x + R h) of gate row `row`, grouped as the reference.
#define BIAS(row) (((flags & kFlagBias) != 0u ? float(bias[bb + bias_base + (row)]) : 0.0) + \
                   ((flags & kFlagRBias) != 0u ? float(rbias[brb + bias_base + (row)]) : 0.0))
#define RDOT(out, row, src)                                                   \
    {                                                                         \
      out = kNegZero;                                                         \
      const uint rr = r_base + (row) * hidden;                                \
      for (uint k = 0; k < hidden; ++k) out = fma(float(rw[rr + k]), state[(src) + k], out); \
    }
    if (mode == 1u) {
      float rdot;
      RDOT(rdot, r_row + j, h_row);
      const float r = Activate(act_f, BIAS(r_row + j) + (xw[xw_row + r_row + j] + rdot));
      state[bs + rh_base + i] = r * state[h_row + j];
      continue;
    }
    float zdot;
    RDOT(zdot, z_row + j, h_row);
    const float z = Activate(act_f, BIAS(z_row + j) + (xw[xw_row + z_row + j] + zdot));
    float nv;
    if (mode == 0u) {
      float rdot, ndot;
      RDOT(rdot, r_row + j, h_row);
      RDOT(ndot, n_row + j, h_row);
      const float r = Activate(act_f, BIAS(r_row + j) + (xw[xw_row + r_row + j] + rdot));
      const float bn = (flags & kFlagBias) != 0u ? float(bias[bb + bias_base + n_row + j]) : 0.0;
      const float rbn = (flags & kFlagRBias) != 0u ? float(rbias[brb + bias_base + n_row + j]) : 0.0;
      nv = bn + (xw[xw_row + n_row + j] + r * (rbn + ndot));
    } else {
      float ndot;
      RDOT(ndot, n_row + j, bs + rh_base + (dir * batch + b) * hidden);
      nv = BIAS(n_row + j) + (xw[xw_row + n_row + j] + ndot);
    }
    nv = Activate(act_g, nv);
    const float h = state[h_row + j];
    const float h_next = z * h + nv * (1.0 - z);
    state[bs + write_half + i] = h_next;
    if ((flags & kFlagSequence) != 0u) {
      // The sequence is indexed by input time t.
      const uint t = (dir == 1u || (flags & kFlagBackward) != 0u) ? steps - 1u - s : s;
      seq[bq + ((t * dirs + dir) * batch + b) * hidden + j] = A_T(h_next);
    }
  }
}

#elif defined(GRU_FINAL)
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer State { float state[]; };
layout(std430, binding = 2) writeonly buffer O { A_T o[]; };

// P(0) n = dirs * batch * hidden, P(1) first element of the last state half.
void main() {
  const uint n = P(0);
  GRID_STRIDE_LOOP(i, n) o[BASE(2) + i] = A_T(state[BASE(1) + P(1) + i]);
}
#endif
