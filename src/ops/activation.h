// Activation family: elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, relu,
// sigmoid, softplus, softsign, tanh, clamp. One attribute struct for all of them
// so a fused epilogue (conv2d + activation) can carry any of them.
#pragma once

#include <optional>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct ActivationAttrs final : OpAttrs {
  double alpha = 0;  // elu alpha (1), hardSigmoid alpha (0.2), leakyRelu alpha (0.01), linear alpha (1)
  double beta = 0;   // hardSigmoid beta (0.5), linear beta (0)
  std::optional<MLNumber> minValue;  // clamp
  std::optional<MLNumber> maxValue;  // clamp
};

// True for the ops of the Activation family (elu ... clamp).
bool IsActivation(OpKind op);

// An activation applied by another op's kernel to its output, set by the
// graph pass that fuses conv2d/convTranspose2d/gemm/matmul with a following
// activation (src/graph/passes.cc). Only devices that run passes see it.
struct FusedActivation {
  OpKind op = OpKind::relu;
  ActivationAttrs attrs;
  // Then y * post_scale + post_shift: scalar mul / add after the activation,
  // folded by the pass too (converters write "learnable affine" blocks so).
  double post_scale = 1.0;
  double post_shift = 0.0;
  bool HasPostAffine() const { return post_scale != 1.0 || post_shift != 0.0; }
};

}  // namespace webnn::ops
