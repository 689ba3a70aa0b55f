// quantizedMatmul (internal op, src/ops/internal_op_list.inc): matmul(a, W)
// or gemm(a, W) where W = dequantizeLinear(weight, scale, zeroPoint) with all
// three constant, so that a device can keep the weights quantized and
// dequantize them in registers. The FuseQuantizedMatmul graph pass
// (src/graph/fuse_quantized_matmul.cc) makes it; it computes exactly what the
// two ops compute: every weight is (weight - zeroPoint) * scale rounded to the
// scale's type, and the product follows matmul's rules.
//
// Operands:
//   a          float32 or float16, [..., M, K] (rank >= 2)
//   weight     int4, uint4, int8 or uint8, [K, N] ([N, K] when
//              `weight_transposed`, as gemm's bTranspose)
//   scale      a's type, rank 2, blockwise broadcast to weight's shape
//   zeroPoint  weight's type, scale's shape
//   bias       optional, a's type: added along N ([N], [1, ..., N] or one value)
//   upWeight, upScale, upZeroPoint
//              with `gated` (SwiGLU): a second weight of the first's shape and
//              type, and its parameters; the output is then
//              silu(a W) * (a W_up) = (g * sigmoid(g)) * u, the gate and up
//              projections of a transformer's feed-forward block computed
//              together (no bias, no activation)
// Output: a's type, [..., M, N].
#pragma once

#include <optional>

#include "ops/activation.h"
#include "ops/schema.h"

namespace webnn::ops {

struct QuantizedMatmulAttrs final : OpAttrs {
  bool weight_transposed = false;
  std::optional<FusedActivation> activation;  // carried over from the matmul / gemm
  bool gated = false;                         // SwiGLU of two weights (inputs 5-7)
  // MLContextOptions::int8MatmulActivations (opt-in, inexact): the cpu
  // device's GEMV quantizes A to int8 per row and weight block; other
  // devices compute as without it.
  bool int8_activations = false;
};

}  // namespace webnn::ops
