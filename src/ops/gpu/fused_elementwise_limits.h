// The longest fusedElementwise chain shaders/fused_elementwise.comp runs: its
// input bindings (8 less the output) and step constants. The gpu device tells
// the FuseElementwise pass these limits (ops::DeviceFusions).
#pragma once

#include <cstdint>

namespace webnn::ops::gpu {

inline constexpr uint32_t kFusedElementwiseMaxInputs = 7;
inline constexpr uint32_t kFusedElementwiseMaxSteps = 16;

}  // namespace webnn::ops::gpu
