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

}  // namespace webnn::ops
