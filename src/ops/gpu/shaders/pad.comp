#version 450
// pad: each output element is a bit copy of the input element its coordinates
// map to (constant: none outside the input -> the constant; edge: clamped;
// reflection: mirrored without repeating the edge), as in
// src/ops/reference/pad.cc. One variant per element size (-DBITS).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

#if BITS == 8
#define T uint8_t
#define CONSTANT uint8_t(P(3) & 0xffu)
#elif BITS == 16
#define T uint16_t
#define CONSTANT uint16_t(P(3) & 0xffffu)
#elif BITS == 32
#define T uint
#define CONSTANT P(3)
#else
#define T uvec2
#define CONSTANT uvec2(P(3), P(4))
#endif

layout(std430, binding = 1) readonly buffer Src { T src[]; };
layout(std430, binding = 2) writeonly buffer Dst { T dst[]; };

// P(0) n, P(1) rank, P(2) mode, P(3..4) the constant's bits (low word first),
// P(5..12) output shape, P(13..20) input shape, P(21..28) input strides,
// P(29..36) beginning padding, P(37) the first output element's index (outputs
// above one binding's range run in pieces).
const uint kConstant = 0, kEdge = 1, kReflection = 2;

void main() {
  const uint n = P(0), rank = P(1), mode = P(2);
  const uint bs = BASE(1), bd = BASE(2);
  GRID_STRIDE_LOOP(i, n) {
    uint s = 0u, rest = P(37) + i;
    bool inside = true;
    for (int k = int(rank) - 1; k >= 0; --k) {
      const uint dim = P(5 + k);
      const int in_dim = int(P(13 + k));
      int c = int(rest % dim) - int(P(29 + k));
      rest /= dim;
      if (c < 0 || c >= in_dim) {
        if (mode == kConstant) {
          inside = false;
          break;
        } else if (mode == kEdge) {
          c = c < 0 ? 0 : in_dim - 1;
        } else if (in_dim == 1) {
          c = 0;
        } else {
          // The reflection is even (c and -c map alike) and periodic; GLSL's
          // % of a negative int is undefined (an NVIDIA driver took -1 % 14
          // as unsigned: 3), so fold the sign first.
          const int period = 2 * (in_dim - 1);
          c = abs(c) % period;
          if (c >= in_dim) c = period - c;
        }
      }
      s += uint(c) * P(21 + k);
    }
    dst[bd + i] = inside ? src[bs + s] : CONSTANT;
  }
}
