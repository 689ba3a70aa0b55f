#version 450
// The strided box copy shared by transpose, reshape, expand, concat, slice,
// split, tile and reverse (src/ops/gpu/transpose.cc, StridedCopy): element c of
// an N-d box (rank <= 8) is written at dst_offset + sum(c[d] * dst_stride[d])
// from src_offset + sum((c[d] mod wrap[d]) * src_stride[d]). Strides are
// two's-complement words (reverse walks backwards); wrap is used by tile only.
// Values are moved as raw bits, one variant per element size (-DBITS=8/16/32/64),
// so NaN payloads and float16 subnormals survive, as in the reference device.
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
#define T uvec2  // 64-bit elements need no shaderInt64 to be moved
#endif

layout(std430, binding = 1) readonly buffer Src { T src[]; };
layout(std430, binding = 2) writeonly buffer Dst { T dst[]; };

// P(0) n, P(1) rank, P(2) flags (bit 0: wrap, bit 1: dst is contiguous),
// P(3) src offset, P(4) dst offset, P(5..12) box shape, P(13..20) src strides,
// P(21..28) dst strides, P(29..36) wrap sizes.
void main() {
  const uint n = P(0), rank = P(1), flags = P(2);
  const bool wrap = (flags & 1u) != 0u, dst_contiguous = (flags & 2u) != 0u;
  const uint bs = BASE(1) + P(3), bd = BASE(2) + P(4);
  GRID_STRIDE_LOOP(i, n) {
    uint s = 0u, d = 0u, rest = i;
    for (int k = int(rank) - 1; k >= 0; --k) {
      const uint dim = P(5 + k);
      uint c = rest % dim;
      rest /= dim;
      if (!dst_contiguous) d += c * P(21 + k);
      if (wrap) c %= P(29 + k);
      s += c * P(13 + k);
    }
    dst[bd + (dst_contiguous ? i : d)] = src[bs + s];
  }
}
