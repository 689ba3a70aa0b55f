#pragma once

#include <optional>

#include "ops/activation.h"
#include "ops/schema.h"

namespace webnn::ops {

struct GemmAttrs final : OpAttrs {
  double alpha = 1.0;
  double beta = 1.0;
  bool aTranspose = false;
  bool bTranspose = false;
  std::optional<FusedActivation> activation;  // set by the fusion pass
};

// matmul has no options; the fusion pass gives a matmul node these attributes
// when it moves an activation into it, and a third input (a bias broadcast
// along the last dimension, shape [N] or [1, ..., 1, N]) when it fuses an add.
struct MatmulAttrs final : OpAttrs {
  std::optional<FusedActivation> activation;
};

}  // namespace webnn::ops
