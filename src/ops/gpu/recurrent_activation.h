// The activation codes of shaders/gru_lstm_recurrent.glsl, shared by the gru
// and lstm gpu kernels.
#pragma once

#include <cstdint>

#include "webnn/types.h"

namespace webnn::ops::gpu {

inline uint32_t RecurrentActivationCode(MLRecurrentNetworkActivation a) {
  switch (a) {
    case MLRecurrentNetworkActivation::kRelu: return 0;
    case MLRecurrentNetworkActivation::kSigmoid: return 1;
    case MLRecurrentNetworkActivation::kTanh: return 2;
  }
  return 1;
}

}  // namespace webnn::ops::gpu
