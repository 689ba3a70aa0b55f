#version 450
// triangular (src/ops/reference/triangular.cc): in each matrix of the last two
// axes, element (row, column) is copied where column - row >= diagonal (upper)
// or <= diagonal (lower), else it is all-zero bits. One variant per element size.
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
layout(std430, binding = 2) writeonly buffer Dst { T dst[]; };

// P(0) n, P(1) rows, P(2) columns, P(3) upper, P(4) diagonal (int32 bits),
// P(5) the first element's index (tensors above one binding's range run in pieces).
void main() {
  const uint n = P(0), rows = P(1), columns = P(2);
  const bool upper = P(3) != 0u;
  const int diagonal = int(P(4));
  const uint bs = BASE(1), bd = BASE(2);
  GRID_STRIDE_LOOP(i, n) {
    const uint e = P(5) + i;
    const int offset = int(e % columns) - int((e / columns) % rows);
    const bool keep = upper ? offset >= diagonal : offset <= diagonal;
    dst[bd + i] = keep ? src[bs + i] : T(0);
  }
}
