#version 450
// lstm and lstmCell (src/ops/reference/lstm.cc), one variant per float type
// and part of the plan (src/ops/gpu/lstm.cc):
//   LSTM_INIT       scratch state half 0 = initial hidden and cell states (or 0)
//   RECURRENT_PRECOMPUTE  W x of a chunk of steps (gru_lstm_recurrent.glsl)
//   LSTM_STEP       one time step of every direction
//   LSTM_FINAL      the output hidden and cell states from the last half
// States are carried in float32 in the scratch buffer `state`:
//   h[2][dirs][batch][hidden], then c[2][dirs][batch][hidden]: ping-pong
//   halves, step s reads half s & 1 and writes the other.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "gru_lstm_recurrent.glsl"

#if defined(LSTM_INIT)
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer H0 { A_T h0[]; };
layout(std430, binding = 2) readonly buffer C0 { A_T c0[]; };
layout(std430, binding = 3) writeonly buffer State { float state[]; };

// P(0) n = dirs * batch * hidden, P(1) flags (1 h0 given, 2 c0 given).
void main() {
  const uint n = P(0);
  GRID_STRIDE_LOOP(i, n) {
    state[BASE(3) + i] = (P(1) & 1u) != 0u ? float(h0[BASE(1) + i]) : 0.0;
    state[BASE(3) + 2u * n + i] = (P(1) & 2u) != 0u ? float(c0[BASE(2) + i]) : 0.0;
  }
}

#elif defined(LSTM_STEP)
layout(local_size_x = 256) in;
layout(std430, binding = 1) buffer State { float state[]; };
layout(std430, binding = 2) readonly buffer XW { float xw[]; };
layout(std430, binding = 3) readonly buffer R { A_T rw[]; };
layout(std430, binding = 4) readonly buffer Bias { A_T bias[]; };
layout(std430, binding = 5) readonly buffer RBias { A_T rbias[]; };
layout(std430, binding = 6) readonly buffer Peephole { A_T peep[]; };
layout(std430, binding = 7) writeonly buffer Seq { A_T seq[]; };

// P(0) n = dirs * batch * hidden, P(1) step s, P(2) steps, P(3) dirs,
// P(4) batch, P(5) hidden, P(6) flags (1 bias, 2 recurrentBias, 4 peephole,
// 8 sequence, 16 the only direction is backward), P(7..9) activations f, g, h,
// P(10) step index within the xw chunk, P(11..14) row offsets of the i, o, f,
// g gates (the layout's order; peephole weights are always i, o, f).
const uint kFlagBias = 1u, kFlagRBias = 2u, kFlagPeephole = 4u, kFlagSequence = 8u, kFlagBackward = 16u;

void main() {
  const uint n = P(0), s = P(1), steps = P(2), dirs = P(3), batch = P(4), hidden = P(5), flags = P(6);
  const uint act_f = P(7), act_g = P(8), act_h = P(9), sl = P(10);
  const uint i_row = P(11), o_row = P(12), f_row = P(13), g_row = P(14);
  const uint rows = 4u * hidden;
  const uint bs = BASE(1), bxw = BASE(2), br = BASE(3), bb = BASE(4), brb = BASE(5), bp = BASE(6), bq = BASE(7);
  const uint read_half = (s & 1u) * n, write_half = ((s & 1u) ^ 1u) * n;
  const uint c_base = 2u * n;
  GRID_STRIDE_LOOP(i, n) {
    const uint j = i % hidden;
    const uint b = (i / hidden) % batch;
    const uint dir = i / (hidden * batch);
    const uint h_row = bs + read_half + (dir * batch + b) * hidden;  // h[b][:] of the previous step
    const uint xw_row = bxw + ((sl * dirs + dir) * batch + b) * rows;
    const uint r_base = br + dir * rows * hidden;
    const uint bias_base = dir * rows;
    // (bias + recurrentBias) + (W x + R h) of gate row `row`, grouped as the reference.
    float gate[4];
    const uint gate_rows[4] = uint[4](i_row, o_row, f_row, g_row);
    for (uint g = 0; g < 4u; ++g) {
      const uint row = gate_rows[g] + j;
      float dot = kNegZero;
      const uint rr = r_base + row * hidden;
      for (uint k = 0; k < hidden; ++k) dot = fma(float(rw[rr + k]), state[h_row + k], dot);
      const float bsum = ((flags & kFlagBias) != 0u ? float(bias[bb + bias_base + row]) : 0.0) +
                         ((flags & kFlagRBias) != 0u ? float(rbias[brb + bias_base + row]) : 0.0);
      gate[g] = bsum + (xw[xw_row + row] + dot);
    }
    const float c = state[bs + c_base + read_half + i];
    const uint pb = bp + dir * 3u * hidden + j;
    const bool has_p = (flags & kFlagPeephole) != 0u;
    const float pi = has_p ? float(peep[pb]) : 0.0;
    const float po = has_p ? float(peep[pb + hidden]) : 0.0;
    const float pf = has_p ? float(peep[pb + 2u * hidden]) : 0.0;
    const float gi = Activate(act_f, c * pi + gate[0]);
    const float go = Activate(act_f, c * po + gate[1]);
    const float gf = Activate(act_f, c * pf + gate[2]);
    const float gg = Activate(act_g, gate[3]);
    const float c_next = gf * c + gi * gg;
    const float h_next = go * Activate(act_h, c_next);
    state[bs + write_half + i] = h_next;
    state[bs + c_base + write_half + i] = c_next;
    if ((flags & kFlagSequence) != 0u) {
      // The sequence is indexed by input time t.
      const uint t = (dir == 1u || (flags & kFlagBackward) != 0u) ? steps - 1u - s : s;
      seq[bq + ((t * dirs + dir) * batch + b) * hidden + j] = A_T(h_next);
    }
  }
}

#elif defined(LSTM_FINAL)
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer State { float state[]; };
layout(std430, binding = 2) writeonly buffer OH { A_T oh[]; };
layout(std430, binding = 3) writeonly buffer OC { A_T oc[]; };

// P(0) n = dirs * batch * hidden, P(1) first element of the last state half.
void main() {
  const uint n = P(0);
  GRID_STRIDE_LOOP(i, n) {
    oh[BASE(2) + i] = A_T(state[BASE(1) + P(1) + i]);
    oc[BASE(3) + i] = A_T(state[BASE(1) + 2u * n + P(1) + i]);
  }
}
#endif
