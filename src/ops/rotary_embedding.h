// rotaryEmbedding (internal op, src/ops/internal_op_list.inc): rotary
// position embedding (RoPE) of the last axis, "rotate half" layout, as
// WebNN graphs write it out. The FuseRotaryEmbedding graph pass
// (src/graph/fuse_rotary_embedding.cc) makes it, so a device reads x and the
// tables once and writes the output once instead of running 6 to 9 ops.
//
// Operands (one data type, float32 or float16):
//   input  x [..., D], rank >= 1, D even; h = D / 2
//   cos    [..., W], W = h (half tables) or D (`full_tables`); broadcasts
//          (right-aligned, numpy rules) to x's shape with its last dimension
//          W, without making it bigger (rank <= x's, each leading dimension
//          1 or x's)
//   sin    cos's shape
// Output: x's shape and type. Per row of the last axis, with c, s the
// tables' row broadcast to it and i < h:
//   y[i]     = x[i] * c[i] - x[i + h] * s[i]
//   y[i + h] = x[i + h] * c[j] + x[i] * s[j]
// where j = i with half tables and j = i + h with full tables. Each output
// is rounded as the written-out float32 graph rounds it: the two products,
// then the difference or sum (so NaN and Inf come out as they did there).
// float16 runs in float32 with one rounding at the end.
#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct RotaryEmbeddingAttrs final : OpAttrs {
  // The tables are as wide as x (HuggingFace's cat(freqs, freqs), which may
  // differ between the halves), else half as wide.
  bool full_tables = false;
};

}  // namespace webnn::ops
