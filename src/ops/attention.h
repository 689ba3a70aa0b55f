// attention (internal op, src/ops/internal_op_list.inc): scaled dot-product
// attention as WebNN graphs write it out,
//   matmul(softmax(add(mul(matmul(q, transpose(k)), scale), mask)), v),
// with the key/value heads repeated for grouped-query attention (GQA) by
// reshape + expand + reshape. The FuseAttention graph pass
// (src/graph/fuse_attention.cc) makes it, so a device can run it tiled
// without materializing the [S, T] scores (flash attention).
//
// Operands (all float32, or all float16):
//   query  [B, Hq, S, D]
//   key    [B, Hkv, T, D] ([B, Hkv, D, T] when `key_transposed`); Hq is a
//          multiple of Hkv and query head h reads key head h / (Hq / Hkv)
//   value  [B, Hkv, T, Dv]
//   mask   optional, added to the scaled scores; broadcast to [B, Hq, S, T]
// Output [B, Hq, S, Dv].
#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct AttentionAttrs final : OpAttrs {
  // scores = (q . k) * scale, or (q . k) / scale with `divide` (the graph's
  // mul or div, kept as written so the scores round as they did).
  float scale = 1.0f;
  bool divide = false;
  bool key_transposed = false;
};

}  // namespace webnn::ops
