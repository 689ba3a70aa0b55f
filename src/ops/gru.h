// gru and gruCell attributes. Gate activations are resolved to their defaults
// at build time.
#pragma once

#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct GruAttrs final : OpAttrs {  // gru and gruCell (steps/direction/returnSequence unused by gruCell)
  uint32_t steps = 1;
  uint32_t hiddenSize = 1;
  bool resetAfter = true;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::kForward;
  MLGruWeightLayout layout = MLGruWeightLayout::kZrn;
  // Absent in the options: [sigmoid, tanh]. Infer checks a given list has 2 entries.
  std::vector<MLRecurrentNetworkActivation> activations = {MLRecurrentNetworkActivation::kSigmoid,
                                                           MLRecurrentNetworkActivation::kTanh};
};

}  // namespace webnn::ops
