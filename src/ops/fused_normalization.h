// fusedNormalization (internal op, src/ops/internal_op_list.inc): RMSNorm or
// layerNorm over the trailing axes, optionally of a residual sum
// (SkipLayerNorm), as one pass over each row. The FuseNormalization graph pass
// (src/graph/fuse_normalization.cc) makes it from the written-out forms and
// from a residual add feeding a builtin layerNormalization.
//
// Operands (one data type, float32 or float16):
//   input     [..., window]: the trailing `axes` axes form the window
//   residual  optional, input's shape: x = input + residual
//   scale     optional, window's element count: y *= scale (per window element)
//   bias      optional, as scale: y += bias
// Outputs: y of input's shape, and x (the sum) when `sum_output`.
//   layerNorm: y = (x - mean(x)) / sqrt(mean((x - mean(x))^2) + epsilon)
//   RMSNorm:   y = x / sqrt(mean(x^2) + epsilon)
// means over the window, then * scale + bias.
#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct FusedNormalizationAttrs final : OpAttrs {
  bool rms = false;  // RMSNorm: no mean subtracted
  uint32_t axes = 1;  // the trailing axes normalized together
  double epsilon = 0;
  bool sum_output = false;  // with a residual: the sum is a second output
  // Made from ops written out: where their squares overflow the data type
  // (the variance is Inf), the node gives what those ops give, (x - mean) /
  // Inf. A builtin layerNormalization computes its moments wider and does not
  // overflow there, nor does the node made from one.
  bool as_written = false;
};

// True when `s` (a scale or bias) has the shape of `input`'s trailing `axes`
// dimensions, after any leading 1s: one value per window element.
bool FitsNormalizedWindow(const Shape& s, const Shape& input, uint32_t axes);

// k when `axes` (any order) are the last k axes of a rank-`rank` tensor, k >= 1; else 0.
uint32_t TrailingAxesCount(std::vector<uint32_t> axes, uint32_t rank);

}  // namespace webnn::ops
