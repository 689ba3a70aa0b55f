#version 450
// attention's split over the keys, second pass (see attention.comp): each
// chunk c of a row left its unnormalised output o_c (weights e^(s - m_c)),
// its maximum m_c, its sum l_c and a count of NaN/+Inf scores in float32
// scratch; the row's output is
//   sum_c o_c e^(m_c - m) / sum_c l_c e^(m_c - m),  m = max_c m_c,
// rounded once to the output type at the store.
//
// The unfused graph's semantics carry over: a NaN/+Inf score in any chunk
// makes the row NaN; a chunk of only -Inf scores weighs 0 (not e^(-Inf -
// -Inf)), yet its accumulators, which hold 0 * Inf = NaN where a masked
// value was infinite, still pass their NaN on (NaN * 0); a row whose chunks
// are all -Inf sums to l = 0, NaN (0 / 0) as in the single pass.
//
// A thread per output element: every thread of a row reads the same chunk
// statistics (cached), and neighbouring threads read neighbouring
// accumulators. The chunks are few (the split aims at a few hundred
// workgroups in all), so this pass is small next to the first.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "exp_log.glsl"  // ExpF, kInf, kNaN
layout(local_size_x = 256) in;

// Scratch bound at offset 0 (BASE() of a scratch binding counts bytes).
layout(std430, binding = 1) readonly buffer PartialO { float partial_o[]; };
layout(std430, binding = 2) readonly buffer PartialStats { vec4 partial_stats[]; };  // m, l, NaN/+Inf count
layout(std430, binding = 3) writeonly buffer O { A_T o[]; };

// P(0) rows, P(1) Dv, P(2) chunks per row.
void main() {
  const uint rows = P(0), Dv = P(1), chunks = P(2);
  const float neg_inf = -kInf;
  GRID_STRIDE_LOOP(i, rows * Dv) {
    const uint row = i / Dv, e = i - row * Dv, r0 = row * chunks;
    float m = neg_inf;
    bool bad = false;
    for (uint c = 0u; c < chunks; ++c) {
      const vec4 st = partial_stats[r0 + c];
      m = st.x > m ? st.x : m;
      bad = bad || st.z != 0.0;
    }
    float l = 0.0, acc = 0.0;
    for (uint c = 0u; c < chunks; ++c) {
      const vec4 st = partial_stats[r0 + c];
      // m_c <= m; a -Inf chunk (or every chunk -Inf) weighs 0.
      const float w = st.x == neg_inf ? 0.0 : ExpF(st.x - m);
      l += st.y * w;
      acc += partial_o[(r0 + c) * Dv + e] * w;
    }
    // Division by l = 0 is left undefined by Vulkan: NaN as a number.
    o[BASE(3) + i] = A_T(bad || !(l > 0.0) ? kNaN : acc / l);
  }
}
