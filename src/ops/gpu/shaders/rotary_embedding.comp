#version 450
// rotaryEmbedding (src/ops/rotary_embedding.h), float32 and float16 (-DA_<T>)
// computed in float32 with one rounding at the store. One invocation per
// (row, i < h) pair writes y[i] and y[i + h], so neighbouring invocations
// read neighbouring elements of x and of the tables.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) readonly buffer Cos { A_T cos_table[]; };
layout(std430, binding = 3) readonly buffer Sin { A_T sin_table[]; };
layout(std430, binding = 4) writeonly buffer O { A_T o[]; };

// P(0) pairs (rows * h), P(1) h, P(2) the tables' column of y[i + h]'s
// factors less i (0: half tables, h: full tables), P(3) the dispatch's first
// row of x (a dispatch may cover a sub-range of rows), P(4) row loops,
// P(5..11) their sizes, P(12..18) the tables' element stride per loop
// (0 where the tables broadcast).

// The tables' element offset of x's row r.
uint TableRow(uint r) {
  uint off = 0u;
  for (int d = int(P(4)) - 1; d >= 0; --d) {
    const uint n = P(5 + d);
    off += (r % n) * P(12 + d);
    r /= n;
  }
  return off;
}

void main() {
  const uint h = P(1), second = P(2);
  GRID_STRIDE_LOOP(t, P(0)) {
    const uint r = t / h, i = t - r * h;
    const uint xi = BASE(1) + 2u * h * r + i;
    const uint ti = TableRow(P(3) + r) + i;
    const float x1 = float(x[xi]), x2 = float(x[xi + h]);
    // Each product rounded, then the difference / sum, as the written-out
    // graph computes them: an FMA's single rounding would turn some of its
    // Inf - Inf (NaN) into an infinity and the reverse.
    precise float y1 = x1 * float(cos_table[BASE(2) + ti]) - x2 * float(sin_table[BASE(3) + ti]);
    precise float y2 = x2 * float(cos_table[BASE(2) + ti + second]) + x1 * float(sin_table[BASE(3) + ti + second]);
    const uint oi = BASE(4) + 2u * h * r + i;
    o[oi] = A_T(y1);
    o[oi + h] = A_T(y2);
  }
}
