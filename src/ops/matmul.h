#pragma once

#include <optional>

#include "ops/activation.h"
#include "ops/schema.h"

namespace webnn::ops {

// matmul has no options: every matmul node carries these attributes (the
// builder gives it empty ones) so that its kernels read them as every family
// does. The fusion pass sets `activation` when it moves an activation into the
// node, and adds a third input (a bias broadcast along the last dimension,
// shape [N] or [1, ..., 1, N]) when it fuses an add.
struct MatmulAttrs final : OpAttrs {
  std::optional<FusedActivation> activation;
};

}  // namespace webnn::ops
