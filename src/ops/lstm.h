// lstm and lstmCell attributes. Gate activations are resolved to their
// defaults at build time.
#pragma once

#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct LstmAttrs final : OpAttrs {  // lstm and lstmCell
  uint32_t steps = 1;
  uint32_t hiddenSize = 1;
  bool returnSequence = false;
  MLRecurrentNetworkDirection direction = MLRecurrentNetworkDirection::kForward;
  MLLstmWeightLayout layout = MLLstmWeightLayout::kIofg;
  // Absent in the options: [sigmoid, tanh, tanh]. Infer checks a given list has 3 entries.
  std::vector<MLRecurrentNetworkActivation> activations = {MLRecurrentNetworkActivation::kSigmoid,
                                                           MLRecurrentNetworkActivation::kTanh,
                                                           MLRecurrentNetworkActivation::kTanh};
};

}  // namespace webnn::ops
