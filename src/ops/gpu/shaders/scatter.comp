#version 450
// scatterElements and scatterND (src/ops/reference/scatter.cc): the output is a
// copy of the input with the updates written in row-major order of the indices,
// so that where indices repeat the LAST update wins. Threads run in no order, so
// the winner is chosen explicitly, in three passes over one shader:
//   0  copy input -> output and clear the winner table (scratch, one word per
//      target: an output element, or a slice for scatterND)
//   1  each update unit u (an index element, or a tuple for scatterND)
//      atomicMax-es u + 1 into its target's word
//   2  each update element is written if its unit won its target
// One variant per element size (-DBITS); the index type is a parameter.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

#if BITS == 8
#define T uint8_t
#elif BITS == 16
#define T uint16_t
#elif BITS == 32
#define T uint
#else
#define T uvec2
#endif

layout(std430, binding = 1) readonly buffer Src { T src[]; };
layout(std430, binding = 2) readonly buffer Idx { uint idx[]; };
layout(std430, binding = 3) readonly buffer Upd { T upd[]; };
layout(std430, binding = 4) buffer Dst { T dst[]; };
layout(std430, binding = 5) buffer Win { uint win[]; };
#define INDEX_BINDING 2
#include "gather_index.glsl"

// P(0) pass, P(1) op, P(2) index kind, P(3) n (the pass's thread count),
// P(4) output elements, P(5) targets, then per op:
//   scatterElements: P(6) rank, P(7..14) indices shape, P(15..22) output strides,
//                    P(23) axis, P(24) axis size
//   scatterND:       P(6) coordinate size, P(7) slice elements,
//                    P(8..15) output shape, P(16..23) target strides
const uint kScatterElements = 0;

// Output element of index element u (scatterElements).
uint ElementTarget(uint u, uint kind) {
  const uint axis = P(23);
  uint t = 0u, rest = u;
  for (int d = int(P(6)) - 1; d >= 0; --d) {
    const uint dim = P(7 + d);
    const uint c = rest % dim;
    rest /= dim;
    t += (uint(d) == axis ? ClampedIndex(u, P(24), kind) : c) * P(15 + d);
  }
  return t;
}

// Target slice of tuple u (scatterND).
uint SliceTarget(uint u, uint kind) {
  const uint k = P(6);
  uint t = 0u;
  for (uint j = 0u; j < k; ++j) t += ClampedIndex(u * k + j, P(8 + j), kind) * P(16 + j);
  return t;
}

void main() {
  const uint pass = P(0), op = P(1), kind = P(2), n = P(3);
  const uint bs = BASE(1), bu = BASE(3), bd = BASE(4), bw = BASE(5);
  GRID_STRIDE_LOOP(i, n) {
    if (pass == 0u) {
      if (i < P(4)) dst[bd + i] = src[bs + i];
      if (i < P(5)) win[bw + i] = 0u;
    } else if (op == kScatterElements) {
      const uint t = ElementTarget(i, kind);
      if (pass == 1u) atomicMax(win[bw + t], i + 1u);
      else if (win[bw + t] == i + 1u) dst[bd + t] = upd[bu + i];
    } else {
      const uint slice = P(7);
      if (pass == 1u) {
        atomicMax(win[bw + SliceTarget(i, kind)], i + 1u);
      } else {
        const uint u = i / slice;
        const uint t = SliceTarget(u, kind);
        if (win[bw + t] == u + 1u) dst[bd + t * slice + i % slice] = upd[bu + i];
      }
    }
  }
}
