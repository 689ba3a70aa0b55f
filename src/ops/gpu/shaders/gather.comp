#version 450
// gather, gatherElements and gatherND as bit copies (src/ops/reference/gather.cc),
// one thread per output element, one variant per element size (-DBITS); the
// index type is a parameter (gather_index.glsl).
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
layout(std430, binding = 3) writeonly buffer Dst { T dst[]; };
#define INDEX_BINDING 2
#include "gather_index.glsl"

// P(0) n (output elements), P(1) op, P(2) index kind, then per op:
//   gather:         P(3) axis size, P(4) index count, P(5) inner size
//   gatherElements: P(3) rank, P(4..11) indices shape, P(12..19) input strides,
//                   P(20) axis, P(21) axis size
//   gatherND:       P(3) coordinate size, P(4) slice elements,
//                   P(5..12) input shape, P(13..20) input strides
const uint kGather = 0, kGatherElements = 1, kGatherNd = 2;

void main() {
  const uint n = P(0), op = P(1), kind = P(2);
  const uint bs = BASE(1), bd = BASE(3);
  GRID_STRIDE_LOOP(i, n) {
    uint s = 0u;
    if (op == kGather) {
      // Output [outer, indices..., inner] reads input [outer, index, inner].
      const uint inner = P(5), count = P(4);
      const uint t = i / inner;
      s = ((t / count) * P(3) + ClampedIndex(t % count, P(3), kind)) * inner + i % inner;
    } else if (op == kGatherElements) {
      const uint axis = P(20);
      uint rest = i;
      for (int d = int(P(3)) - 1; d >= 0; --d) {
        const uint dim = P(4 + d);
        const uint c = rest % dim;
        rest /= dim;
        s += (uint(d) == axis ? ClampedIndex(i, P(21), kind) : c) * P(12 + d);
      }
    } else {
      const uint k = P(3), slice = P(4);
      const uint t = i / slice;
      s = i % slice;
      for (uint j = 0u; j < k; ++j) s += ClampedIndex(t * k + j, P(5 + j), kind) * P(13 + j);
    }
    dst[bd + i] = src[bs + s];
  }
}
